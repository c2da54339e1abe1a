-------------------------------- MODULE spin --------------------------------
(* Spin lock: one boolean taken by compare-and-swap. *)
EXTENDS Naturals

CONSTANT Threads

VARIABLES locked, pc

vars == <<locked, pc>>

Init ==
    /\ locked = FALSE
    /\ pc = [t \in Threads |-> "idle"]

TryLock(t) ==
    /\ pc[t] = "idle"
    /\ IF ~locked
         THEN /\ locked' = TRUE
              /\ pc' = [pc EXCEPT ![t] = "cs"]
         ELSE UNCHANGED <<locked, pc>>

LockSpin(t) ==
    /\ pc[t] \in {"idle", "spin"}
    /\ locked
    /\ pc' = [pc EXCEPT ![t] = "spin"]
    /\ UNCHANGED locked

LockTest(t) ==
    /\ pc[t] \in {"idle", "spin"}
    /\ ~locked
    /\ pc' = [pc EXCEPT ![t] = "acquire"]
    /\ UNCHANGED locked

LockAcquired(t) ==
    /\ pc[t] = "acquire"
    /\ locked' = TRUE
    /\ pc' = [pc EXCEPT ![t] = "cs"]

Unlock(t) ==
    /\ pc[t] = "cs"
    /\ locked' = FALSE
    /\ pc' = [pc EXCEPT ![t] = "idle"]

Next ==
    \/ \E t \in Threads : TryLock(t)
    \/ \E t \in Threads : LockSpin(t)
    \/ \E t \in Threads : LockTest(t)
    \/ \E t \in Threads : LockAcquired(t)
    \/ \E t \in Threads : Unlock(t)

Spec ==
    /\ Init
    /\ [][Next]_vars
    /\ \A t \in Threads : WF_vars(Unlock(t))
    /\ \A t \in Threads : WF_vars(LockAcquired(t))
=============================================================================
