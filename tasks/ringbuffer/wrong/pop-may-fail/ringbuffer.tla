------------------------------ MODULE ringbuffer ------------------------------
\* WRONG MODEL (teaching example) of the SPSC ring buffer.  Mistake: Pop leaves
\* head free between two values, the code's result or no change, so a pop may
\* fail although an item is there, which the code never does.  Everything
\* else is the reference model.
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
    \* MISTAKE: the code's pop of a non-empty buffer always takes an item.
    /\ head' \in {head, IF head < tail THEN head + 1 ELSE head}
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
