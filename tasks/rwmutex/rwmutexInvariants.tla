---------------------------- MODULE rwmutexInvariants ----------------------------
(***************************************************************************)
(* The reader-writer mutex task's invariants, over the pinned names of     *)
(* module `rwmutex` (variables writer, upreader, being_upgraded, readers,  *)
(* waiters, pc; the pinned actions; constant Threads).                     *)
(*                                                                         *)
(* How a grader uses it: this module EXTENDS `rwmutex`, so it is checked   *)
(* against whichever module named `rwmutex` sits beside it -- the          *)
(* reference model or a user's model with the same pinned names.  Save it  *)
(* as rwmutexInvariants.tla next to that rwmutex.tla and add the lines of  *)
(* invariants.cfg to the model's .cfg: state predicates as INVARIANT,      *)
(* action properties ([][A]_vars) and liveness as PROPERTY (liveness under *)
(* the model's own fairness).  Each name is checked on its own.            *)
(*                                                                         *)
(* The template's pc labels map to ours: "reading" is "read", "writing"    *)
(* is "write"; its `lock_state & BIT != 0` (not TLA+) is our boolean field *)
(* of that bit.  Who holds what, from the pc labels:                       *)
(***************************************************************************)
EXTENDS rwmutex, FiniteSets

\* Threads holding a read guard that their pc shows.
ReadHolders == {t \in Threads : pc[t] = "read"}
\* Threads with write access: the write guard, the moment between a
\* successful upgrade and clearing the upgradeable bit, and a downgrade
\* still retrying (the writer bit is still theirs).
WriteHolders == {t \in Threads : pc[t] \in {"write", "upgraded", "downgrading"}}
\* Threads owning the upgradeable bit as a guard (not the transient bit of
\* an upgradeable attempt backing out).
UpHolders == {t \in Threads : pc[t] \in {"upread", "upgrading", "upgraded",
                                          "downgraded", "downgrade_wake"}}

\* [safety] Readers and writers never hold the lock together: while a
\* thread has write access nobody holds a read guard (shown by a pc or not:
\* the reader count is zero apart from readers about to back out).
ReaderWriterExclusion ==
    WriteHolders # {} =>
        /\ ReadHolders = {}
        /\ readers = Cardinality({t \in Threads : pc[t] = "read_undo"})

\* [safety] Several readers may hold the lock at once.  The template's
\* formula (a cardinality >= 0) is vacuous, and "may" is a possibility,
\* which no invariant can state.  What can be checked as safety: the reader
\* count accounts for every reader the pcs show, so the count, not a single
\* owner, is what admits readers.  (That two readers are reachable is
\* checked separately: TwoReadersUnreachable below must be VIOLATED.)
MultipleReadersAllowed ==
    readers >= Cardinality({t \in Threads : pc[t] \in {"read", "read_undo"}})

\* [reachability witness, EXPECTED TO FAIL] "never two readers at once": a
\* model that lets several threads read together violates it.
TwoReadersUnreachable == Cardinality(ReadHolders) <= 1

\* [safety] At most one thread has write access.
WriterExclusivity == Cardinality(WriteHolders) <= 1

\* [safety] The writer bit is set exactly when some thread has write access.
LockStateConsistency == writer <=> WriteHolders # {}

\* [safety] At most one upgradeable reader, and its bit is set while it
\* holds it.
UpgradeableReaderUniqueness ==
    /\ Cardinality(UpHolders) <= 1
    /\ UpHolders # {} => upreader

\* [safety] While a thread upgrades, the being-upgraded bit is set (so new
\* readers back out).
UpgradeAtomicity == \A t \in Threads : pc[t] = "upgrading" => being_upgraded

\* [safety] A writer can always downgrade.  The template's CanDowngrade
\* does not exist, and the code's downgrade is not one step (it retries
\* while a reader backs out); what holds: a thread holding the write guard
\* can always start a downgrade attempt.
DowngradeAtomicity == \A t \in Threads : pc[t] = "write" => ENABLED Downgrade(t)

\* [safety] While the being-upgraded bit is set no new reader gets in: a
\* read attempt in that state backs out.  The template's CanStartRead does
\* not exist; attempts do happen (and are undone), so the property is about
\* their outcome.
BeingUpgradedBlocksReaders ==
    [][being_upgraded => \A t \in Threads : (pc[t] # "read" /\ pc'[t] = "read") => FALSE]_vars

\* [safety] Wake strategy: the last reader's release goes on to wake one
\* waiter, a writer's release to wake all; a wake-one takes at most the
\* front waiter, a wake-all empties the queue.  (The template's
\* ReaderRelease, FIFOWakeOne, WriterRelease, UpreadRelease, WakeAll are
\* not defined; this is their meaning over the pinned names.)
MixedWakeStrategy ==
    [][\A t \in Threads :
         /\ (ReadUnlock(t) /\ readers' = 0 /\ ~writer /\ ~upreader /\ ~being_upgraded)
                => pc'[t] = "wake_one"
         /\ WriteUnlock(t) => pc'[t] = "wake_all"
         /\ WakeOne(t) => (waiters' = waiters \/ (waiters # <<>> /\ waiters' = Tail(waiters)))
         /\ WakeAll(t) => waiters' = <<>>]_vars

\* The lock word shows only what the pcs show: no reader or upgradeable
\* reader is backing out, and no read guard is held by a thread whose pc
\* moved on (a reader whose try_write failed is back at "idle" with its
\* guard; so is a reader that dropped the inner of two nested read guards).
WordSettled ==
    /\ readers = Cardinality(ReadHolders)
    /\ \A t \in Threads : pc[t] # "upread_undo"

\* [liveness] A thread holding a read, write or upgradeable guard
\* eventually lets go and returns to idle, under the model's fairness, in
\* every behaviour in which the lock word settles again and again.  The
\* condition is needed, and is not a fairness of the scheduler: an upgrade
\* or a downgrade waits for a moment with no reader (and, for a downgrade,
\* no upgradeable bit) at all, and
\* (1) threads that keep calling try_read can keep the count above zero
\*     (or try_upread under a writer) can keep the word busy with
\*     overlapping attempts and back-outs for ever (TLC shows the lassos:
\*     an upgrade or a downgrade retrying while two threads alternately
\*     add themselves and back out);
\* (2) the pinned state cannot say which idle thread still holds a read
\*     guard, so in the model that thread may call write() and sleep for
\*     ever, holding the count up (TLC shows this lasso too).
\* In a model without nesting and without try_ loops the condition holds
\* and the property is the template's.
EventualRelease ==
    []<>WordSettled =>
        \A t \in Threads : (pc[t] \in {"read", "write", "upread"}) ~> (pc[t] = "idle")
=============================================================================
