---- MODULE 062_chained_comparison ----
\* mistake: chained comparison 0 <= x <= N; error at line 7
EXTENDS Naturals
CONSTANT N
VARIABLE x
Init == x = 0
TypeOK == 0 <= x <= N
Next == x < N /\ x' = x + 1
====
