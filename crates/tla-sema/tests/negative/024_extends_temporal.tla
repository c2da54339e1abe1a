---- MODULE 024_extends_temporal ----
\* mistake: EXTENDS a module Temporal that does not exist; error at line 3
EXTENDS Naturals, Temporal
VARIABLE phase
Init == phase = 0
Next == phase' = 1 - phase
Spec == Init /\ [][Next]_phase /\ WF_phase(Next)
====
