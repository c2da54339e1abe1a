------------------------------ MODULE hourclock ------------------------------
(***************************************************************************)
(* Reference model of the hour clock tutorial (tasks/hourclock/src/lib.rs):*)
(* it shows an hour from 1 to 12, may start at any of them, and each tick  *)
(* advances it by one, from 12 back to 1.                                  *)
(***************************************************************************)
EXTENDS Naturals

VARIABLE hr

vars == <<hr>>

TypeOK == hr \in 1..12

Init == hr \in 1..12

Tick == hr' = (hr % 12) + 1

Next == Tick

\* The clock keeps ticking.
Fairness == WF_vars(Tick)

Spec == Init /\ [][Next]_vars /\ Fairness
=============================================================================
