------------------------------- MODULE counter -------------------------------
\* WRONG MODEL (teaching example) of the lost-update tutorial.  Mistake: the
\* guard of Write is written as an implication, pc[t] = "write" => tmp[t] >= 1.
\* It is always true (a thread at "write" has added one to its local, and at
\* any other label the implication holds vacuously), so a thread may write
\* from "read", "add" or "done" as well, which the code never does.
\* Everything else is the reference model.
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

\* MISTAKE: meant as the guard pc[t] = "write", but the implication is
\* true for every thread that is not at "write".
Write(t) ==
    /\ pc[t] = "write" => tmp[t] >= 1
    /\ counter' = tmp[t]
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
