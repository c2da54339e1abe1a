------------------------------ MODULE hourclock ------------------------------
\* Wrong type: hours 0..11 (a 0-based clock), Tick adds one modulo 12.
EXTENDS Naturals

VARIABLE hr

vars == <<hr>>

TypeOK == hr \in 0..11

Init == hr \in 0..11

Tick == hr' = (hr + 1) % 12

Next == Tick

\* The clock keeps ticking.
Fairness == WF_vars(Tick)

Spec == Init /\ [][Next]_vars /\ Fairness
=============================================================================
