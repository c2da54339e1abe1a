---- MODULE PairedCounter ----
\* Two flags and a counter. Both sets the flags to different values in one step; Bump counts to 3.
EXTENDS Naturals
VARIABLES p, q, r
vars == <<p, q, r>>
Both == p' = 1 /\ q' = 2 /\ UNCHANGED r
Bump == r < 3 /\ r' = r + 1 /\ UNCHANGED <<p, q>>
Next == Both \/ Bump
Spec == p = 0 /\ q = 0 /\ r = 0 /\ [][Next]_vars /\ WF_vars(Both) /\ WF_r(Bump)
BumpFair == WF_r(Bump)
====
