---------------------------- MODULE spinInvariants ----------------------------
(***************************************************************************)
(* The spin lock task's invariants, over the pinned names of module `spin` *)
(* (variables locked, pc; actions TryLock, LockSpin, LockAcquired, Unlock; *)
(* constant Threads).                                                      *)
(*                                                                         *)
(* How a grader uses it: this module EXTENDS `spin`, so it is checked      *)
(* against whichever module named `spin` sits beside it -- the reference   *)
(* model (reference/spin.tla) or a user's model with the same pinned       *)
(* names.  Copy this file as spinInvariants.tla next to that spin.tla,     *)
(* take the model's .cfg (SPECIFICATION Spec, the constants) and add the   *)
(* lines of invariants.cfg: each safety property as an INVARIANT (state    *)
(* predicates) or a PROPERTY (action properties, written [][A]_vars), each *)
(* liveness property as a PROPERTY, checked under the model's fairness.    *)
(* Every name below is checked on its own.                                 *)
(***************************************************************************)
EXTENDS spin, FiniteSets

Holders == {t \in Threads : pc[t] = "cs"}

\* [safety] Never two threads in the critical section at once.
MutualExclusion == Cardinality(Holders) <= 1

\* [safety] The lock word is set exactly when some thread is in the
\* critical section.
LockConsistency == locked <=> Holders # {}

\* [safety] The threads are never all spinning together: somebody holds the
\* lock or is not trying to get it.  (The template's "spinning" is our
\* "spin".)
NoDeadlock == ~(\A t \in Threads : pc[t] = "spin")

\* [safety] A try_lock attempt never leaves its thread spinning: it ends in
\* the critical section or back at idle.  The template tests a `call_type`
\* variable that the pinned names do not have, and as written its
\* implication is vacuous (pc[t] = "trying" and pc[t] # "spinning" cannot
\* conflict); what it means is this property of every TryLock step.
TryLockNoSpinning ==
    [][\A t \in Threads : TryLock(t) => pc'[t] \in {"idle", "cs"}]_vars

\* [safety] Only lock() spins: a thread starts spinning only by a failed
\* attempt inside lock() (a LockSpin step), and that step is not also a
\* TryLock step.  The template's `call_type` does not exist; this is its
\* meaning over the pinned actions.
BlockingVsNonBlockingSemantics ==
    [][\A t \in Threads :
         (pc[t] # "spin" /\ pc'[t] = "spin") => (LockSpin(t) /\ ~TryLock(t))]_vars

\* [liveness] No thread holds the lock for ever: each thread is outside the
\* critical section infinitely often.  (The template's "locked" pc is our
\* "cs".)
GuardLifecycle == \A t \in Threads : []<>(pc[t] # "cs")

\* [liveness] Whenever the lock is taken it is released later.
EventualRelease == [](locked => <>~locked)
=============================================================================
