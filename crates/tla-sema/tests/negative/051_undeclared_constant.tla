---- MODULE 051_undeclared_constant ----
\* mistake: constant N used but not declared; error at line 6
EXTENDS Naturals
VARIABLE i
Init == i = 0
Step == /\ i < N
        /\ i' = i + 1
Next == Step
====
