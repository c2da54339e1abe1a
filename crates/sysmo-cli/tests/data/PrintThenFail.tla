---- MODULE PrintThenFail ----
\* An ASSUME that prints, then one that fails: the printed line comes before the error.
EXTENDS Naturals, TLC
ASSUME PrintT("before the failure")
ASSUME 1 + 1 = 3
VARIABLE x
Init == x = 0
Next == UNCHANGED x
====
