---- MODULE 006_redefine_cardinality ----
\* mistake: redefines Cardinality, already defined by FiniteSets; error at line 6
EXTENDS Naturals, FiniteSets
CONSTANT Nodes
VARIABLE up
Cardinality(S) == 0
Init == up = Nodes
Crash(n) == /\ Cardinality(up) > 1
            /\ up' = up \ {n}
Next == \E n \in up : Crash(n)
====
