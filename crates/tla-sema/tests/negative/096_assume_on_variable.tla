---- MODULE 096_assume_on_variable ----
\* mistake: ASSUME stated about a state variable; error at line 6
EXTENDS Naturals
CONSTANT Cap
VARIABLE used
ASSUME used <= Cap
Init == used = 0
Alloc == used < Cap /\ used' = used + 1
Next == Alloc
====
