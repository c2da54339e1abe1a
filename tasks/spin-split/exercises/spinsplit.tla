------------------------------ MODULE spinsplit ------------------------------
(***************************************************************************)
(* A model of the split spin lock (tasks/spin/src/lib.rs,                  *)
(* SpinLock::new_split) with one mistake: it keeps mutual exclusion, which *)
(* the code does not. Find the step that is safer than the code and fix it.*)
(*   pc[t] is "idle", "spin" (the last load saw the lock taken), "set" (it *)
(*   saw it free; the store is next) or "cs".                              *)
(***************************************************************************)
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

\* The store.
LockSet(t) ==
    /\ pc[t] = "set"
    /\ ~locked
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
