------------------------------ MODULE spinsplit ------------------------------
\* WRONG MODEL (teaching example) of the spin lock whose test-and-set is
\* split into a load and a separate store.  Mistake: LockSet's guard has lost
\* the requirement that the last load saw the lock free: it accepts a thread
\* at "spin" as well as at "set", so a thread whose load saw the lock taken
\* may store TRUE and enter the critical section, which the code never does.
\* Everything else is the reference model.
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
\* MISTAKE: the guard should be pc[t] = "set" only.
LockSet(t) ==
    /\ pc[t] \in {"set", "spin"}
    /\ locked' = TRUE
    /\ pc' = [pc EXCEPT ![t] = "cs"]

\* The guard is dropped: store FALSE.
Unlock(t) ==
    /\ pc[t] = "cs"
    /\ locked' = FALSE
    /\ pc' = [pc EXCEPT ![t] = "idle"]

Next ==
    \E t \in Threads :
        \/ LockTest(t)
        \/ LockSet(t)
        \/ Unlock(t)

\* A thread that has loaded FALSE performs its store; a holder releases.
Fairness ==
    \A t \in Threads :
        /\ WF_vars(LockSet(t))
        /\ WF_vars(Unlock(t))

Spec == Init /\ [][Next]_vars /\ Fairness
=============================================================================
