------------------------------ MODULE hourclock ------------------------------
\* The wrap is missing: Tick only counts up to 12 and the clock stops there.
EXTENDS Naturals

VARIABLE hr

vars == <<hr>>

TypeOK == hr \in 1..12

Init == hr \in 1..12

Tick == hr < 12 /\ hr' = hr + 1

Next == Tick

\* The clock keeps ticking.
Fairness == WF_vars(Tick)

Spec == Init /\ [][Next]_vars /\ Fairness
=============================================================================
