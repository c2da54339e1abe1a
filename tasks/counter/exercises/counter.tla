------------------------------- MODULE counter -------------------------------
(***************************************************************************)
(* A model of the lost-update tutorial (tasks/counter/src/lib.rs) with one *)
(* mistake: it replays some of the traces but not all of them. Find the    *)
(* step that differs from the code and fix it.                             *)
(***************************************************************************)
EXTENDS Naturals

CONSTANT Threads

VARIABLES counter, tmp, pc

vars == <<counter, tmp, pc>>

TypeOK ==
    /\ counter \in Nat
    /\ tmp \in [Threads -> Nat]
    /\ pc \in [Threads -> {"read", "add", "write", "done"}]

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
    /\ counter' = counter + 1
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
