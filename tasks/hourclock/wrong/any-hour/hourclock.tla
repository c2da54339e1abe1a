------------------------------ MODULE hourclock ------------------------------
\* Over-permissive: a tick may show any hour.
EXTENDS Naturals

VARIABLE hr

vars == <<hr>>

TypeOK == hr \in 1..12

Init == hr \in 1..12

Tick == hr' \in 1..12

Next == Tick

\* The clock keeps ticking.
Fairness == WF_vars(Tick)

Spec == Init /\ [][Next]_vars /\ Fairness
=============================================================================
