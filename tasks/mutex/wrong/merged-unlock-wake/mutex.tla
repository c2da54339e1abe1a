-------------------------------- MODULE mutex --------------------------------
(* Sleeping mutex: a lock flag plus a FIFO queue of sleeping threads. *)
EXTENDS Naturals, Sequences

CONSTANT Threads

VARIABLES locked, waiters, pc

vars == <<locked, waiters, pc>>

Init ==
    /\ locked = FALSE
    /\ waiters = <<>>
    /\ pc = [t \in Threads |-> "idle"]

Lock(t) ==
    /\ pc[t] \in {"idle", "woken"}
    /\ IF locked
         THEN /\ waiters' = Append(waiters, t)
              /\ pc' = [pc EXCEPT ![t] = "waiting"]
              /\ UNCHANGED locked
         ELSE /\ locked' = TRUE
              /\ pc' = [pc EXCEPT ![t] = "cs"]
              /\ UNCHANGED waiters

TryLock(t) ==
    /\ pc[t] = "idle"
    /\ IF locked
         THEN UNCHANGED <<locked, waiters, pc>>
         ELSE /\ locked' = TRUE
              /\ pc' = [pc EXCEPT ![t] = "cs"]
              /\ UNCHANGED waiters

Unlock(t) ==
    /\ pc[t] = "cs"
    /\ locked' = FALSE
    /\ IF waiters = <<>>
         THEN /\ pc' = [pc EXCEPT ![t] = "idle"]
              /\ UNCHANGED waiters
         ELSE /\ pc' = [pc EXCEPT ![t] = "idle", ![Head(waiters)] = "woken"]
              /\ waiters' = Tail(waiters)

WakeOne(t) ==
    /\ pc[t] = "waking"
    /\ pc' = [pc EXCEPT ![t] = "idle"]
    /\ UNCHANGED <<locked, waiters>>

Next ==
    \/ \E t \in Threads : Lock(t)
    \/ \E t \in Threads : TryLock(t)
    \/ \E t \in Threads : Unlock(t)
    \/ \E t \in Threads : WakeOne(t)

Spec ==
    /\ Init
    /\ [][Next]_vars
    /\ \A t \in Threads : WF_vars(Unlock(t))
    /\ \A t \in Threads : WF_vars(WakeOne(t))
    /\ \A t \in Threads : WF_vars(pc[t] = "woken" /\ Lock(t))
=============================================================================
