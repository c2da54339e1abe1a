------------------------------ MODULE spinsplit ------------------------------
\* Unlock hands the lock on to a spinning thread chosen with CHOOSE, which
\* has no value when nobody spins.
EXTENDS Naturals

CONSTANT Threads

VARIABLES locked, pc

vars == <<locked, pc>>

TypeOK ==
    /\ locked \in BOOLEAN
    /\ pc \in [Threads -> {"idle", "spin", "set", "cs"}]

Init ==
    /\ locked = FALSE
    /\ pc = [t \in Threads |-> "idle"]

\* The load: seeing FALSE moves on to the store, seeing TRUE keeps spinning.
LockTest(t) ==
    /\ pc[t] \in {"idle", "spin"}
    /\ pc' = [pc EXCEPT ![t] = IF locked THEN "spin" ELSE "set"]
    /\ UNCHANGED locked

\* The store: TRUE is written without looking at the lock again.
LockSet(t) ==
    /\ pc[t] = "set"
    /\ locked' = TRUE
    /\ pc' = [pc EXCEPT ![t] = "cs"]

\* The guard is dropped: store FALSE.
Unlock(t) ==
    /\ pc[t] = "cs"
    /\ locked' = FALSE
    /\ LET next == CHOOSE u \in Threads : pc[u] = "spin"
       IN pc' = [pc EXCEPT ![t] = "idle", ![next] = "idle"]

Next ==
    \/ \E t \in Threads : LockTest(t)
    \/ \E t \in Threads : LockSet(t)
    \/ \E t \in Threads : Unlock(t)

\* A thread that has loaded FALSE performs its store; a holder releases.
Fairness ==
    \A t \in Threads :
        /\ WF_vars(LockSet(t))
        /\ WF_vars(Unlock(t))

Spec == Init /\ [][Next]_vars /\ Fairness
=============================================================================
