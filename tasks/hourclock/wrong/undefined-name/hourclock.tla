------------------------------ MODULE hourclock ------------------------------
\* TypeOK uses a set name that is never defined (Hours).
EXTENDS Naturals

VARIABLE hr

vars == <<hr>>

TypeOK == hr \in Hours

Init == hr \in 1..12

Tick == hr' = (hr % 12) + 1

Next == Tick

\* The clock keeps ticking.
Fairness == WF_vars(Tick)

Spec == Init /\ [][Next]_vars /\ Fairness
=============================================================================
