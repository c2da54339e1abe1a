---------------------------- MODULE mutexInvariants ----------------------------
(***************************************************************************)
(* The mutex task's invariants, over the pinned names of module `mutex`    *)
(* (variables locked, waiters, pc; actions Lock, TryLock, Unlock, WakeOne; *)
(* constant Threads).                                                      *)
(*                                                                         *)
(* How a grader uses it: this module EXTENDS `mutex`, so it is checked     *)
(* against whichever module named `mutex` sits beside it -- the reference  *)
(* model (reference/mutex.tla) or a user's model with the same pinned      *)
(* names.  Copy this file as mutexInvariants.tla next to that mutex.tla,   *)
(* take the model's .cfg (SPECIFICATION Spec, the constants) and add the   *)
(* lines of invariants.cfg: state predicates as INVARIANT, action          *)
(* properties ([][A]_vars) and liveness as PROPERTY (liveness under the    *)
(* model's own fairness).  Each name is checked on its own.                *)
(***************************************************************************)
EXTENDS mutex, FiniteSets

Holders == {t \in Threads : pc[t] = "cs"}
Queued == {waiters[i] : i \in DOMAIN waiters}

\* [safety] At most one thread holds the mutex.  (The template's "in_cs" is
\* our "cs".)
MutualExclusion == Cardinality(Holders) <= 1

\* [safety] The lock word is set exactly when some thread holds the mutex.
LockConsistency == locked <=> Holders # {}

\* [safety] No lost wake-up.  The template says a waiting thread implies a
\* set lock word; that is false for this mutex, because unlock clears the
\* word one step before it wakes a waiter (TLC: violated after Lock, Lock,
\* Unlock).  What it means: a thread never sleeps on a free lock unless a
\* wake-up is under way -- some thread is about to wake a waiter, or has
\* woken one that will test again.
DeadlockFreedom ==
    \A t \in Threads :
        pc[t] = "waiting" =>
            \/ locked
            \/ \E u \in Threads : pc[u] \in {"waking", "woken"}

\* [safety] try_lock never blocks: a TryLock step ends in the critical
\* section or back at idle, and never enters the wait queue.  (The template
\* compares pc with two different labels at once, which is vacuous; this is
\* its meaning.)
TryLockNoBlocking ==
    [][\A t \in Threads : TryLock(t) => (pc'[t] \in {"idle", "cs"} /\ waiters' = waiters)]_vars

\* [safety] The wait queue is FIFO.  The template's WaitingBefore and
\* WakeupBefore do not exist; over the pinned names it means: a thread that
\* goes to sleep joins the back of the queue, and a wake-up takes the front.
\* Together with the queue holding exactly the sleeping threads, once each,
\* threads are woken in the order they fell asleep.
FIFOWakeupOrder ==
    [][\A t \in Threads :
         /\ (pc[t] # "waiting" /\ pc'[t] = "waiting") => waiters' = Append(waiters, t)
         /\ (pc[t] = "waiting" /\ pc'[t] # "waiting") =>
                (waiters # <<>> /\ t = Head(waiters) /\ waiters' = Tail(waiters))]_vars

\* [safety] The queue holds exactly the sleeping threads, each once (the
\* state half of FIFOWakeupOrder).
WaitQueueConsistency ==
    /\ \A t \in Threads : pc[t] = "waiting" <=> t \in Queued
    /\ Len(waiters) = Cardinality(Queued)

\* [safety] Every release is by the holder: the mutex is released only by
\* the thread whose successful acquisition it undoes, once.  The template's
\* `guard_held` does not exist; over the pinned names: a step that clears
\* the lock word is an Unlock by a thread in the critical section.  (This is
\* what the historical try_lock bug breaks.)
GuardLifecycle ==
    [][\A t \in Threads : Unlock(t) => pc[t] = "cs"]_vars
    /\ [][locked /\ ~locked' => \E t \in Threads : pc[t] = "cs" /\ Unlock(t)]_vars

\* [liveness] A waiting thread is eventually woken (no thread sleeps for
\* ever).  The template asks that every waiting thread eventually holds the
\* mutex; this mutex does not promise that: a woken thread tests again and
\* may lose, again and again, to threads that call lock() or try_lock() at
\* the right moment (see StarvationFreedom below).  What holds, under the
\* fairness of the model: each waiter is woken, and the mutex keeps being
\* handed out while anybody waits.
EventualAccess ==
    /\ \A t \in Threads : (pc[t] = "waiting") ~> (pc[t] = "woken")
    /\ (\E t \in Threads : pc[t] = "waiting") ~> (\E t \in Threads : pc[t] = "cs")

\* [liveness, NOT a property of this mutex] The template's literal meaning:
\* every waiting thread eventually holds the mutex.  TLC finds a lasso in
\* the reference model (a woken thread keeps losing to a newcomer), so it is
\* not in invariants.cfg.
StarvationFreedom == \A t \in Threads : (pc[t] = "waiting") ~> (pc[t] = "cs")
=============================================================================
