------------------------------ MODULE ringbuffer ------------------------------
(***************************************************************************)
(* Reference model of the single-producer single-consumer ring buffer      *)
(* (tasks/ringbuffer/src/lib.rs).  Two counters that only grow: tail, the  *)
(* items ever written (advanced by the producer only), and head, the items *)
(* ever read (advanced by the consumer only); tail - head is the fill      *)
(* level.  Each operation is one step, decided by its load of the other    *)
(* side's counter: it moves its own counter by all of its items or, when   *)
(* they do not fit (or are not there), changes nothing.  Item values and   *)
(* slot indices (counter modulo Capacity) are not observed and not         *)
(* modelled.                                                               *)
(***************************************************************************)
EXTENDS Naturals

CONSTANT Capacity

ASSUME Capacity \in Nat \ {0}

VARIABLES head, tail

vars == <<head, tail>>

TypeOK ==
    /\ head \in Nat
    /\ tail \in Nat
    /\ head <= tail

\* Slice lengths the model tries: every length from 1 to Capacity + 1 (any
\* longer slice behaves like Capacity + 1: it never fits).
SliceLengths == 1..(Capacity + 1)

Init ==
    /\ head = 0
    /\ tail = 0

\* push(): one item, or nothing on a full buffer.
Push ==
    /\ tail' = IF tail - head < Capacity THEN tail + 1 ELSE tail
    /\ UNCHANGED head

\* push_slice() of n items: all of them, or nothing when fewer than n slots
\* are free.
PushSlice(n) ==
    /\ tail' = IF tail - head + n <= Capacity THEN tail + n ELSE tail
    /\ UNCHANGED head

\* pop(): one item, or nothing on an empty buffer.
Pop ==
    /\ head' = IF head < tail THEN head + 1 ELSE head
    /\ UNCHANGED tail

\* pop_slice() of n items: all of them, or nothing when fewer than n items
\* are there.
PopSlice(n) ==
    /\ head' = IF tail - head >= n THEN head + n ELSE head
    /\ UNCHANGED tail

Next ==
    \/ Push
    \/ Pop
    \/ \E n \in SliceLengths : PushSlice(n) \/ PopSlice(n)

\* Both sides keep calling the single-item operations: a push into room
\* and a pop of an item are not postponed for ever.
Fairness == WF_vars(Push) /\ WF_vars(Pop)

Spec == Init /\ [][Next]_vars /\ Fairness

\* For exhaustive checking only.  The counters grow without bound, but
\* every action depends on tail - head alone; used as TLC's VIEW, this
\* identifies the states with the same fill level, which makes the state
\* graph finite (Capacity + 1 fill levels) without cutting any behaviour.
FillLevel == tail - head
=============================================================================
