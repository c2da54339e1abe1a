------------------------------ MODULE spinsplit ------------------------------
\* WRONG MODEL (teaching example) of the spin lock whose test-and-set is
\* split into a load and a separate store.  Mistake: Unlock leaves `locked`
\* free (locked' \in BOOLEAN), where the code always stores FALSE, so a
\* holder may leave the lock set behind it.  Everything else is the
\* reference model.
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
    \* MISTAKE: the code stores FALSE; here the flag may also stay TRUE.
    /\ locked' \in BOOLEAN
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
