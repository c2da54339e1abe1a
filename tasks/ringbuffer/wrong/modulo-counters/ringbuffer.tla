------------------------------ MODULE ringbuffer ------------------------------
(* Ring buffer with head and tail as slot indices; one slot stays empty so   *)
(* that a full buffer can be told from an empty one.                         *)
EXTENDS Naturals

CONSTANT Capacity

VARIABLES head, tail

vars == <<head, tail>>

SliceLengths == 1..(Capacity + 1)

Used == (tail + Capacity - head) % Capacity

Init ==
    /\ head = 0
    /\ tail = 0

Push ==
    /\ tail' = IF (tail + 1) % Capacity # head THEN (tail + 1) % Capacity ELSE tail
    /\ UNCHANGED head

PushSlice(n) ==
    /\ tail' = IF Used + n <= Capacity - 1 THEN (tail + n) % Capacity ELSE tail
    /\ UNCHANGED head

Pop ==
    /\ head' = IF head # tail THEN (head + 1) % Capacity ELSE head
    /\ UNCHANGED tail

PopSlice(n) ==
    /\ head' = IF Used >= n THEN (head + n) % Capacity ELSE head
    /\ UNCHANGED tail

Next ==
    \/ Push
    \/ \E n \in SliceLengths : PushSlice(n)
    \/ Pop
    \/ \E n \in SliceLengths : PopSlice(n)

Spec == Init /\ [][Next]_vars /\ WF_vars(Push) /\ WF_vars(Pop)
=============================================================================
