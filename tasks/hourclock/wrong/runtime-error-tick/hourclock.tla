------------------------------ MODULE hourclock ------------------------------
\* Tick looks the next hour up in a table that stops at 11.
EXTENDS Naturals

VARIABLE hr

vars == <<hr>>

TypeOK == hr \in 1..12

Init == hr \in 1..12

NextHour == [h \in 1..11 |-> h + 1]

Tick == hr' = NextHour[hr]

Next == Tick

\* The clock keeps ticking.
Fairness == WF_vars(Tick)

Spec == Init /\ [][Next]_vars /\ Fairness
=============================================================================
