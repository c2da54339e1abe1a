-------------------------------- MODULE mutex --------------------------------
(***************************************************************************)
(* BUG MODEL: the sleeping mutex of tasks/mutex/src/lib.rs built with      *)
(* Mutex::new_with_try_lock_bug (the historical try_lock that made a guard *)
(* before knowing the outcome and dropped it on failure, so a failed       *)
(* try_lock unlocks a mutex it never held).  Otherwise as the reference    *)
(* model (../reference/mutex.tla, from tasks/mutex/src/lib.rs and         *)
(* wait.rs): an atomic boolean taken by compare-exchange, plus a FIFO wait *)
(* queue.  lock() tests the boolean with the queue locked and, on failure, *)
(* enqueues itself in the same step, so no wake-up is lost.  Unlocking is  *)
(* two steps: the store of FALSE, then waking the first waiter.            *)
(*   pc[t] = "idle"     no operation in progress                           *)
(*   pc[t] = "cs"       holds the mutex                                    *)
(*   pc[t] = "waiting"  asleep in the wait queue                           *)
(*   pc[t] = "woken"    taken out of the queue, about to test again        *)
(*   pc[t] = "waking"   released the lock, about to wake the first waiter  *)
(***************************************************************************)
EXTENDS Naturals, Sequences

CONSTANT Threads

VARIABLES locked, waiters, pc

vars == <<locked, waiters, pc>>

TypeOK ==
    /\ locked \in BOOLEAN
    /\ waiters \in Seq(Threads)
    /\ pc \in [Threads -> {"idle", "cs", "waiting", "woken", "waking"}]

Init ==
    /\ locked = FALSE
    /\ waiters = <<>>
    /\ pc = [t \in Threads |-> "idle"]

\* A test by lock(), first or after a wake-up: take the free lock, or join
\* the back of the queue and sleep.
Lock(t) ==
    /\ pc[t] \in {"idle", "woken"}
    /\ IF locked
         THEN /\ waiters' = Append(waiters, t)
              /\ pc' = [pc EXCEPT ![t] = "waiting"]
              /\ UNCHANGED locked
         ELSE /\ locked' = TRUE
              /\ pc' = [pc EXCEPT ![t] = "cs"]
              /\ UNCHANGED waiters

\* try_lock(): one test; a failure changes nothing.
TryLock(t) ==
    /\ pc[t] = "idle"
    /\ IF locked
         THEN UNCHANGED vars
         ELSE /\ locked' = TRUE
              /\ pc' = [pc EXCEPT ![t] = "cs"]
              /\ UNCHANGED waiters

\* The guard is dropped: the lock word is cleared first.  THE BUG: the guard
\* of a failed try_lock is dropped too, by a thread that is back at "idle"
\* (the trace shows the failed TryLock leaving pc at "idle", then Unlock and
\* WakeOne by the same thread).  Over the pinned variables an idle thread
\* that has just failed a try_lock looks like any idle thread, so this model
\* lets any idle thread release; that is the bug's observable effect.
Unlock(t) ==
    /\ pc[t] \in {"cs", "idle"}
    /\ locked' = FALSE
    /\ pc' = [pc EXCEPT ![t] = "waking"]
    /\ UNCHANGED waiters

\* Then the first waiter, if any, leaves the queue and is woken; it is not
\* the owner and must test again.
WakeOne(t) ==
    /\ pc[t] = "waking"
    /\ IF waiters = <<>>
         THEN /\ pc' = [pc EXCEPT ![t] = "idle"]
              /\ UNCHANGED waiters
         ELSE /\ waiters' = Tail(waiters)
              /\ pc' = [pc EXCEPT ![t] = "idle", ![Head(waiters)] = "woken"]
    /\ UNCHANGED locked

Next ==
    \E t \in Threads :
        \/ Lock(t)
        \/ TryLock(t)
        \/ Unlock(t)
        \/ WakeOne(t)

\* A holder releases, a releaser wakes, a woken thread tests again.  Idle
\* threads owe nothing: they may never call lock().
Fairness ==
    \A t \in Threads :
        /\ WF_vars(Unlock(t))
        /\ WF_vars(WakeOne(t))
        /\ WF_vars(pc[t] = "woken" /\ Lock(t))

Spec == Init /\ [][Next]_vars /\ Fairness

\* Mutual exclusion (at most one thread holds the mutex): violated.
AtMostOneHolder == \A t, u \in Threads : (pc[t] = "cs" /\ pc[u] = "cs") => t = u
=============================================================================
