------------------------------ MODULE hourclock ------------------------------
\* WRONG MODEL (teaching example) of the hour clock.  Tick is written as two
\* cases, advance below 12 and wrap to 1.  Mistake: the wrap case has lost
\* its guard hr = 12, so a tick may jump back to 1 from any hour, which the
\* code never does.  Everything else is the reference model.
EXTENDS Naturals

VARIABLE hr

vars == <<hr>>

TypeOK == hr \in 1..12

Init == hr \in 1..12

\* MISTAKE: the second case should be guarded by hr = 12.
Tick ==
    \/ /\ hr < 12
       /\ hr' = hr + 1
    \/ hr' = 1

Next == Tick

\* The clock keeps ticking.
Fairness == WF_vars(Tick)

Spec == Init /\ [][Next]_vars /\ Fairness
=============================================================================
