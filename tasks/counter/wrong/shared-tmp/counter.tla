------------------------------- MODULE counter -------------------------------
\* The local is one shared variable (tmp \in Nat), not one per thread.
EXTENDS Naturals

CONSTANT Threads

VARIABLES counter, tmp, pc

vars == <<counter, tmp, pc>>

TypeOK ==
    /\ counter \in Nat
    /\ tmp \in Nat
    /\ pc \in [Threads -> {"read", "add", "write", "done"}]

Init ==
    /\ counter = 0
    /\ tmp = 0
    /\ pc = [t \in Threads |-> "read"]

Read(t) ==
    /\ pc[t] = "read"
    /\ tmp' = counter
    /\ pc' = [pc EXCEPT ![t] = "add"]
    /\ UNCHANGED counter

Add(t) ==
    /\ pc[t] = "add"
    /\ tmp' = tmp + 1
    /\ pc' = [pc EXCEPT ![t] = "write"]
    /\ UNCHANGED counter

Write(t) ==
    /\ pc[t] = "write"
    /\ counter' = tmp
    /\ pc' = [pc EXCEPT ![t] = "done"]
    /\ UNCHANGED tmp

Next ==
    \E t \in Threads :
        \/ Read(t)
        \/ Add(t)
        \/ Write(t)

\* Every thread runs to completion.
Fairness == \A t \in Threads : WF_vars(Read(t) \/ Add(t) \/ Write(t))

Spec == Init /\ [][Next]_vars /\ Fairness
=============================================================================
