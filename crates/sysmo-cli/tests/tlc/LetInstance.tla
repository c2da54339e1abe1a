---- MODULE LetInstance ----
\* An instance defined inside LET (`LET I == INSTANCE LetInstInner IN I!Room`), its constant and
\* variable substituted by the names of this module.
EXTENDS Naturals
CONSTANT Cap
VARIABLE x
Step(d) == LET I == INSTANCE LetInstInner IN I!Room /\ x' = I!NextVal(d)
Init == x = 0
Next == \E d \in {1, 2} : Step(d)
====
