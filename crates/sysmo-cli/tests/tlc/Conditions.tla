---- MODULE Conditions ----
\* Once every variable has its next value, the conjuncts still to come are conditions: the
\* disjunction after x' = x + 1 is evaluated, not enumerated, so each successor counts once.
EXTENDS Naturals
VARIABLES x
Init == x = 0
Next == /\ x < 2
        /\ x' = x + 1
        /\ (x > 5 \/ x >= 0 \/ TRUE)
====
