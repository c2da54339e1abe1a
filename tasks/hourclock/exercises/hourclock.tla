------------------------------ MODULE hourclock ------------------------------
(***************************************************************************)
(* A model of the hour clock tutorial (tasks/hourclock/src/lib.rs) with    *)
(* one mistake. Find where it parts from the code and fix it.              *)
(***************************************************************************)
EXTENDS Naturals

VARIABLE hr

vars == <<hr>>

TypeOK == hr \in 1..12

Init == hr \in 1..12

Tick == hr' = (hr + 1) % 12

Next == Tick

\* The clock keeps ticking.
Fairness == WF_vars(Tick)

Spec == Init /\ [][Next]_vars /\ Fairness
=============================================================================
