---- MODULE PrimedParamStep ----
\* Operators whose parameter is primed or left UNCHANGED, evaluated on a step rather than
\* enumerated: in an action property and in the fairness of an action that is not Next itself.
EXTENDS Naturals
VARIABLES z, y
vars == <<z, y>>
SetTo(v, e) == v' = e
Prime(v) == v'
Keep(v) == UNCHANGED v
Init == z = 0 /\ y = TRUE
Flip == SetTo(z, 1 - z) /\ Keep(y)
Next == FALSE \/ Flip
Spec == Init /\ [][Next]_vars /\ WF_vars(Flip)
Steps == [][Prime(z) = 1 - z /\ ~Keep(z) /\ Keep(y)]_vars
Never == <>(z = 2)
====
