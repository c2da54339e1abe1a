---- MODULE counter ----
(* The lost-update counter with its actions in a nested module, reached through an *)
(* instance: the root's pinned actions call the instance's, and Next is the        *)
(* instance's Next, which names no action (TLC too counts it as one, I!Next).      *)
EXTENDS Naturals

---- MODULE Threaded ----
EXTENDS Naturals
CONSTANT Threads
VARIABLES counter, tmp, pc

Init ==
    /\ counter = 0
    /\ tmp = [t \in Threads |-> 0]
    /\ pc = [t \in Threads |-> "read"]

Read(t) ==
    /\ pc[t] = "read"
    /\ tmp' = [tmp EXCEPT ![t] = counter]
    /\ pc' = [pc EXCEPT ![t] = "add"]
    /\ UNCHANGED counter

Add(t) ==
    /\ pc[t] = "add"
    /\ tmp' = [tmp EXCEPT ![t] = tmp[t] + 1]
    /\ pc' = [pc EXCEPT ![t] = "write"]
    /\ UNCHANGED counter

Write(t) ==
    /\ pc[t] = "write"
    /\ counter' = tmp[t]
    /\ pc' = [pc EXCEPT ![t] = "done"]
    /\ UNCHANGED tmp

Next == \E t \in Threads : Read(t) \/ Add(t) \/ Write(t)

Fairness == \A t \in Threads : WF_<<counter, tmp, pc>>(Read(t) \/ Add(t) \/ Write(t))
====

CONSTANT Threads
VARIABLES counter, tmp, pc
vars == <<counter, tmp, pc>>
I == INSTANCE Threaded

TypeOK ==
    /\ counter \in Nat
    /\ tmp \in [Threads -> Nat]
    /\ pc \in [Threads -> {"read", "add", "write", "done"}]

Init == I!Init
Read(t) == I!Read(t)
Add(t) == I!Add(t)
Write(t) == I!Write(t)
Next == I!Next
Spec == Init /\ [][Next]_vars /\ I!Fairness
====
