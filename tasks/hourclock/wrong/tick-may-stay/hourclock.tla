------------------------------ MODULE hourclock ------------------------------
\* WRONG MODEL (teaching example) of the hour clock.  Mistake: Tick leaves hr
\* free between two values, the next hour or the same one, where the code
\* always advances by one hour.  Everything else is the reference model.
EXTENDS Naturals

VARIABLE hr

vars == <<hr>>

TypeOK == hr \in 1..12

Init == hr \in 1..12

\* MISTAKE: the code assigns exactly hr % 12 + 1; a tick may not keep the hour.
Tick == hr' \in {hr, (hr % 12) + 1}

Next == Tick

\* The clock keeps ticking.
Fairness == WF_vars(Tick)

Spec == Init /\ [][Next]_vars /\ Fairness
=============================================================================
