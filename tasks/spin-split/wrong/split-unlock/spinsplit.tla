------------------------------ MODULE spinsplit ------------------------------
\* Split step: Unlock leaves the critical section first (cs -> release) and a
\* second action Release stores FALSE; the code stores FALSE as it leaves.
EXTENDS Naturals

CONSTANT Threads

VARIABLES locked, pc

vars == <<locked, pc>>

TypeOK ==
    /\ locked \in BOOLEAN
    /\ pc \in [Threads -> {"idle", "spin", "set", "cs", "release"}]

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
    /\ pc' = [pc EXCEPT ![t] = "release"]
    /\ UNCHANGED locked

Release(t) ==
    /\ pc[t] = "release"
    /\ locked' = FALSE
    /\ pc' = [pc EXCEPT ![t] = "idle"]

Next ==
    \E t \in Threads :
        \/ LockTest(t)
        \/ LockSet(t)
        \/ Unlock(t)
        \/ Release(t)

\* A thread that has loaded FALSE performs its store; a holder releases.
Fairness ==
    \A t \in Threads :
        /\ WF_vars(LockSet(t))
        /\ WF_vars(Unlock(t))
        /\ WF_vars(Release(t))

Spec == Init /\ [][Next]_vars /\ Fairness
=============================================================================
