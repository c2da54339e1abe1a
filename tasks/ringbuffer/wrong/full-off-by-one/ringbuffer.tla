------------------------------ MODULE ringbuffer ------------------------------
(* SPSC ring buffer: tail counts items written, head items read. *)
EXTENDS Naturals

CONSTANT Capacity

VARIABLES head, tail

vars == <<head, tail>>

SliceLengths == 1..(Capacity + 1)

Init ==
    /\ head = 0
    /\ tail = 0

Push ==
    /\ tail' = IF tail - head <= Capacity THEN tail + 1 ELSE tail
    /\ UNCHANGED head

PushSlice(n) ==
    /\ tail' = IF tail - head + n <= Capacity THEN tail + n ELSE tail
    /\ UNCHANGED head

Pop ==
    /\ head' = IF head < tail THEN head + 1 ELSE head
    /\ UNCHANGED tail

PopSlice(n) ==
    /\ head' = IF tail - head >= n THEN head + n ELSE head
    /\ UNCHANGED tail

Next ==
    \/ Push
    \/ \E n \in SliceLengths : PushSlice(n)
    \/ Pop
    \/ \E n \in SliceLengths : PopSlice(n)

Spec == Init /\ [][Next]_vars /\ WF_vars(Push) /\ WF_vars(Pop)

FillLevel == tail - head
=============================================================================
