-------------------------------- MODULE spin --------------------------------
\* WRONG MODEL (teaching example) of the spin lock.  Mistake: TryLock's
\* failing branch has lost its guard.  A try_lock fails only when the lock
\* is taken, but here the "change nothing" branch is allowed whether or not
\* `locked` is set, so a try_lock may fail on a free lock, which the code
\* never does.  Everything else is the reference model.
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
\* changes nothing (the thread stays idle).  MISTAKE: the failure branch
\* is not guarded by `locked`, so it is also allowed on a free lock.
TryLock(t) ==
    /\ pc[t] = "idle"
    /\ \/ UNCHANGED vars
       \/ /\ ~locked
          /\ locked' = TRUE
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
