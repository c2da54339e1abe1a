---- MODULE Split ----
\* TLC splits Next into one action per value of a quantifier over a constant set, and per
\* disjunct, through calls with arguments that read no state; a run stops at Jump(1)'s only
\* successor from x = 3.
EXTENDS Naturals
VARIABLES x, y
Init == x = 0 /\ y = 0
Jump(p) == x' = x + 4 - p /\ UNCHANGED y
Tick == y < 2 /\ y' = y + 1 /\ UNCHANGED x
Back(d) == \E e \in {d, d + 1} : x > e /\ x' = x - e /\ UNCHANGED y
Next == (\E p \in 1..3 : Jump(p) \/ Back(p)) \/ Tick
Small == x < 5
====
