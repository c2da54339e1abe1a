-------------------------------- MODULE spin --------------------------------
(***************************************************************************)
(* Reference model of the spin lock (tasks/spin/src/lib.rs).               *)
(*                                                                         *)
(* One atomic boolean `locked`, taken by a compare-exchange of FALSE for   *)
(* TRUE.  Each action is one compare-exchange or the releasing store, at   *)
(* the granularity of the traces: a trace step is one step of the action   *)
(* of the same name.                                                       *)
(*   pc[t] = "idle"  no lock operation in progress                         *)
(*   pc[t] = "spin"  inside lock(), the last attempt failed                *)
(*   pc[t] = "cs"    holds the lock                                        *)
(***************************************************************************)
EXTENDS Naturals

CONSTANT Threads

VARIABLES locked, pc

vars == <<locked, pc>>

TypeOK ==
    /\ locked \in BOOLEAN
    /\ pc \in [Threads -> {"idle", "spin", "cs"}]

Init ==
    /\ locked = FALSE
    /\ pc = [t \in Threads |-> "idle"]

\* try_lock(): one compare-exchange.  Success takes the lock; failure
\* changes nothing (the thread stays idle).
TryLock(t) ==
    /\ pc[t] = "idle"
    /\ IF locked
         THEN UNCHANGED vars
         ELSE /\ locked' = TRUE
              /\ pc' = [pc EXCEPT ![t] = "cs"]

\* A failed compare-exchange inside lock(): the thread keeps spinning.
LockSpin(t) ==
    /\ pc[t] \in {"idle", "spin"}
    /\ locked
    /\ pc' = [pc EXCEPT ![t] = "spin"]
    /\ UNCHANGED locked

\* A successful compare-exchange inside lock().
LockAcquired(t) ==
    /\ pc[t] \in {"idle", "spin"}
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
        \/ TryLock(t)
        \/ LockSpin(t)
        \/ LockAcquired(t)
        \/ Unlock(t)

\* A holder eventually drops its guard.  A spinning thread is not promised
\* the lock (a spin lock is not starvation-free), but when the lock stays
\* free a spinning thread eventually retries and takes it.
Fairness ==
    \A t \in Threads :
        /\ WF_vars(Unlock(t))
        /\ WF_vars(pc[t] = "spin" /\ LockAcquired(t))

Spec == Init /\ [][Next]_vars /\ Fairness
=============================================================================
