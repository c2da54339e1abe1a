---- MODULE ComposeExplicit ----
EXTENDS Naturals
VARIABLES x, y
vars == <<x, y>>
Init == x = 0 /\ y = 0
Inc == x < 4 /\ x' = x + 1 /\ y' = y
Bump == \E d \in {1, 2} : y' = (y + d) % 3 /\ x' = x
IncBump == x < 4 /\ x' = x + 1 /\ \E d \in {1, 2} : y' = (y + d) % 3
BumpHalf == \E d \in {1, 2} : y' = (y + d) % 3 /\ x' = x \div 2
Next == Inc \/ Bump \/ IncBump \/ BumpHalf
Spec == Init /\ [][Next]_vars
Bounded == x + y < 6
====
