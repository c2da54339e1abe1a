------------------------------ MODULE spinsplit ------------------------------
(***************************************************************************)
(* The historical bug in full: the spin lock whose test-and-set is a load  *)
(* followed by a separate store, for both lock() and try_lock() (the       *)
(* reference model in ../reference covers lock() only, as the traces do).  *)
(* Checked against mutual exclusion, TLC finds the violation.              *)
(*   pc[t] = "idle"    no lock operation in progress                       *)
(*   pc[t] = "spin"    inside lock(), the last load saw the lock taken     *)
(*   pc[t] = "set"     inside lock(), the load saw FALSE, store next       *)
(*   pc[t] = "tryset"  inside try_lock(), the load saw FALSE, store next   *)
(*   pc[t] = "cs"      in the critical section                             *)
(***************************************************************************)
EXTENDS Naturals, FiniteSets

CONSTANT Threads

VARIABLES locked, pc

vars == <<locked, pc>>

TypeOK ==
    /\ locked \in BOOLEAN
    /\ pc \in [Threads -> {"idle", "spin", "set", "tryset", "cs"}]

Init ==
    /\ locked = FALSE
    /\ pc = [t \in Threads |-> "idle"]

\* lock(): the load.
LockTest(t) ==
    /\ pc[t] \in {"idle", "spin"}
    /\ pc' = [pc EXCEPT ![t] = IF locked THEN "spin" ELSE "set"]
    /\ UNCHANGED locked

\* lock(): the store, without looking again.
LockSet(t) ==
    /\ pc[t] = "set"
    /\ locked' = TRUE
    /\ pc' = [pc EXCEPT ![t] = "cs"]

\* try_lock(): the load; seeing TRUE gives up at once.
TryLockTest(t) ==
    /\ pc[t] = "idle"
    /\ pc' = [pc EXCEPT ![t] = IF locked THEN "idle" ELSE "tryset"]
    /\ UNCHANGED locked

\* try_lock(): the store.
TryLockSet(t) ==
    /\ pc[t] = "tryset"
    /\ locked' = TRUE
    /\ pc' = [pc EXCEPT ![t] = "cs"]

Unlock(t) ==
    /\ pc[t] = "cs"
    /\ locked' = FALSE
    /\ pc' = [pc EXCEPT ![t] = "idle"]

Next ==
    \E t \in Threads :
        \/ LockTest(t)
        \/ LockSet(t)
        \/ TryLockTest(t)
        \/ TryLockSet(t)
        \/ Unlock(t)

Fairness ==
    \A t \in Threads :
        /\ WF_vars(LockSet(t))
        /\ WF_vars(TryLockSet(t))
        /\ WF_vars(Unlock(t))

Spec == Init /\ [][Next]_vars /\ Fairness

\* Mutual exclusion (at most one thread in the critical section): violated.
AtMostOneHolder == Cardinality({t \in Threads : pc[t] = "cs"}) <= 1
=============================================================================
