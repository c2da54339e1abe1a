---- MODULE SpecAssumption ----
\* A SPECIFICATION with a temporal conjunct that is not fairness: from some point on, only
\* Sync steps (or stuttering) happen. Under it, the replicas always end up equal.
EXTENDS Naturals
VARIABLES a, b
vars == <<a, b>>
Init == a = 0 /\ b = 0
Write == a' = (a + 1) % 3 /\ b' = b
Sync == b # a /\ b' = a /\ a' = a
Next == Write \/ Sync
Spec == Init /\ [][Next]_vars /\ WF_vars(Sync) /\ <>[][Sync]_vars
Converge == <>[](a = b)
NoWrites == <>[](a = 3)
====
