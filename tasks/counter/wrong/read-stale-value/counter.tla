------------------------------- MODULE counter -------------------------------
\* WRONG MODEL (teaching example) of the lost-update tutorial.  Mistake: Read
\* leaves the local free, tmp[t]' may be any value from 0 to the counter,
\* where the code copies exactly the counter's current value.  Everything
\* else is the reference model.
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
    \* MISTAKE: the code copies counter; here any value up to it may be read.
    /\ tmp' \in {[tmp EXCEPT ![t] = v] : v \in 0..counter}
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

Next ==
    \E t \in Threads :
        \/ Read(t)
        \/ Add(t)
        \/ Write(t)

\* Every thread runs to completion.
Fairness == \A t \in Threads : WF_vars(Read(t) \/ Add(t) \/ Write(t))

Spec == Init /\ [][Next]_vars /\ Fairness
=============================================================================
