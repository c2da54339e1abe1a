------------------------------ MODULE hourclock ------------------------------
\* Init lets the clock start at 0 (hr \in 0..12); Tick is right.
EXTENDS Naturals

VARIABLE hr

vars == <<hr>>

TypeOK == hr \in 1..12

Init == hr \in 0..12

Tick == hr' = (hr % 12) + 1

Next == Tick

\* The clock keeps ticking.
Fairness == WF_vars(Tick)

Spec == Init /\ [][Next]_vars /\ Fairness
=============================================================================
