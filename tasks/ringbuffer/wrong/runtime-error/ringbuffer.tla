------------------------------ MODULE ringbuffer ------------------------------
(* SPSC ring buffer: tail counts items written, head items read; item i    *)
(* is stored in slot i % Capacity, and pop() returns the item it takes.    *)
EXTENDS Naturals

CONSTANT Capacity

VARIABLES head, tail, slots, popped

vars == <<head, tail, slots, popped>>

SliceLengths == 1..(Capacity + 1)

Init ==
    /\ head = 0
    /\ tail = 0
    /\ slots = [i \in 0..(Capacity - 1) |-> 0]
    /\ popped = 0

Push ==
    /\ IF tail - head < Capacity
         THEN /\ tail' = tail + 1
              /\ slots' = [slots EXCEPT ![tail % Capacity] = tail + 1]
         ELSE UNCHANGED <<tail, slots>>
    /\ UNCHANGED <<head, popped>>

PushSlice(n) ==
    /\ tail' = IF tail - head + n <= Capacity THEN tail + n ELSE tail
    /\ UNCHANGED <<head, slots, popped>>

Pop ==
    /\ IF head < tail
         THEN /\ head' = head + 1
              /\ popped' = slots[head]
         ELSE UNCHANGED <<head, popped>>
    /\ UNCHANGED <<tail, slots>>

PopSlice(n) ==
    /\ head' = IF tail - head >= n THEN head + n ELSE head
    /\ UNCHANGED <<tail, slots, popped>>

Next ==
    \/ Push
    \/ \E n \in SliceLengths : PushSlice(n)
    \/ Pop
    \/ \E n \in SliceLengths : PopSlice(n)

Spec == Init /\ [][Next]_vars /\ WF_vars(Push) /\ WF_vars(Pop)
=============================================================================
