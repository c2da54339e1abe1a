------------------------------ MODULE hourclock ------------------------------
\* Split: Tick always adds one and a separate step Wrap turns 13 into 1, so the
\* clock shows 13 between the two.
EXTENDS Naturals

VARIABLE hr

vars == <<hr>>

TypeOK == hr \in 1..12

Init == hr \in 1..12

Tick == hr <= 12 /\ hr' = hr + 1

Wrap == hr = 13 /\ hr' = 1

Next == Tick \/ Wrap

\* The clock keeps ticking.
Fairness == WF_vars(Next)

Spec == Init /\ [][Next]_vars /\ Fairness
=============================================================================
