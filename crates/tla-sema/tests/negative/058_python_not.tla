---- MODULE 058_python_not ----
\* mistake: negation written with not; error at line 6
EXTENDS Naturals
VARIABLE locked
Init == locked = FALSE
Lock == /\ not locked
        /\ locked' = TRUE
Unlock == locked /\ locked' = FALSE
Next == Lock \/ Unlock
====
