---- MODULE Compose ----
\* Action composition (A \cdot B: an A step, then a B step from the state it reached, as one
\* step). ComposeExplicit writes the same steps out by hand.
EXTENDS Naturals, TLC
VARIABLES x, y
vars == <<x, y>>
ASSUME TLCGet("-Dtlc2.tool.impl.Tool.cdot") = "true"
ASSUME TLCGet("-Dsome.other.property") = "-Dsome.other.property"
Init == x = 0 /\ y = 0
Inc == x < 4 /\ x' = x + 1 /\ y' = y
Bump == \E d \in {1, 2} : y' = (y + d) % 3 /\ x' = x
Half == x' = x \div 2 /\ y' = y
Next == Inc \/ Bump \/ (Inc \cdot Bump) \/ (Bump \cdot Half)
Spec == Init /\ [][Next]_vars
\* On a step (both states known), as a property: every step is one of Next's.
Steps == [][Inc \/ Bump \/ (Inc \cdot Bump) \/ (Bump \cdot Half)]_vars
\* Not every step is a composed one.
OnlyComposed == [][(Inc \cdot Bump) \/ (Bump \cdot Half)]_vars
Bounded == x + y < 6
====
