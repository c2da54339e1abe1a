------------------------------ MODULE ringbuffer ------------------------------
(* SPSC ring buffer: tail counts items written, head items read.  A side   *)
(* that cannot go on waits until the other side's operation wakes it.      *)
EXTENDS Naturals

CONSTANT Capacity

VARIABLES head, tail

vars == <<head, tail>>

SliceLengths == 1..(Capacity + 1)

Init ==
    /\ head = 0
    /\ tail = 0

Push ==
    /\ tail - head < Capacity
    /\ tail' = tail + 1
    /\ UNCHANGED head

PushSlice(n) ==
    /\ tail - head + n <= Capacity
    /\ tail' = tail + n
    /\ UNCHANGED head

Pop ==
    /\ head < tail
    /\ head' = head + 1
    /\ UNCHANGED tail

PopSlice(n) ==
    /\ tail - head >= n
    /\ head' = head + n
    /\ UNCHANGED tail

Next ==
    \/ Push
    \/ \E n \in SliceLengths : PushSlice(n)
    \/ Pop
    \/ \E n \in SliceLengths : PopSlice(n)

Spec == Init /\ [][Next]_vars /\ WF_vars(Push) /\ WF_vars(Pop)

FillLevel == tail - head
=============================================================================
