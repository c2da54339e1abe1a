--------------------------- MODULE bufferInvariants ---------------------------
(***************************************************************************)
(* Properties of the course's bounded buffer, over the pinned names of     *)
(* module `buffer` (variables buf, next, got, pc; actions Put, WaitFull,   *)
(* Get, WaitEmpty; constants Consumers, Items, Cap).  This module EXTENDS  *)
(* `buffer`, so it is checked against whichever module named `buffer`     *)
(* sits beside it.                                                         *)
(***************************************************************************)
EXTENDS buffer, FiniteSets, Integers

Taken == {t \in Consumers : got[t] # 0}

\* [safety] The buffer never holds more than Cap items.
WithinCapacity == Len(buf) <= Cap

\* [safety] A consumer that is done got a real item: it never takes from an empty buffer.
EveryGetTakesAnItem == \A t \in Consumers : pc[t] = "done" => got[t] \in 1..Items

\* [safety] No item is lost or taken twice: every item put is in the buffer or got by exactly
\* one consumer.
ItemsConserved ==
    /\ next - 1 = Len(buf) + Cardinality(Taken)
    /\ \A a, b \in Taken : a # b => got[a] # got[b]

\* [safety] Items come out in the order they went in.
InOrder == \A i \in 1..Len(buf) : buf[i] = next - Len(buf) + i - 1

\* [liveness] Every thread finishes.
AllFinish == <>(\A t \in Threads : pc[t] = "done")
=============================================================================
