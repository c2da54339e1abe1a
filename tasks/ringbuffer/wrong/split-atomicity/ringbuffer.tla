------------------------------ MODULE ringbuffer ------------------------------
(* SPSC ring buffer: tail counts items written, head items read.  A slice  *)
(* push reserves its length, then the items go in one at a time.           *)
EXTENDS Naturals

CONSTANT Capacity

VARIABLES head, tail, pending

vars == <<head, tail, pending>>

SliceLengths == 1..(Capacity + 1)

Init ==
    /\ head = 0
    /\ tail = 0
    /\ pending = 0

Push ==
    /\ pending = 0
    /\ tail' = IF tail - head < Capacity THEN tail + 1 ELSE tail
    /\ UNCHANGED <<head, pending>>

PushSlice(n) ==
    /\ pending = 0
    /\ pending' = IF tail - head + n <= Capacity THEN n ELSE 0
    /\ UNCHANGED <<head, tail>>

PushSliceItem ==
    /\ pending > 0
    /\ tail' = tail + 1
    /\ pending' = pending - 1
    /\ UNCHANGED head

Pop ==
    /\ head' = IF head < tail THEN head + 1 ELSE head
    /\ UNCHANGED <<tail, pending>>

PopSlice(n) ==
    /\ head' = IF tail - head >= n THEN head + n ELSE head
    /\ UNCHANGED <<tail, pending>>

Next ==
    \/ Push
    \/ \E n \in SliceLengths : PushSlice(n)
    \/ PushSliceItem
    \/ Pop
    \/ \E n \in SliceLengths : PopSlice(n)

Spec == Init /\ [][Next]_vars /\ WF_vars(Push) /\ WF_vars(PushSliceItem) /\ WF_vars(Pop)

FillLevel == <<tail - head, pending>>
=============================================================================
