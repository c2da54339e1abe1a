--------------------------- MODULE spinsplitInvariants ---------------------------
(***************************************************************************)
(* Invariants of the split spin lock tutorial, over the pinned names of    *)
(* module `spinsplit` (variables locked, pc; actions LockTest, LockSet,    *)
(* Unlock; constant Threads).                                              *)
(*                                                                         *)
(* How a grader uses it: this module EXTENDS `spinsplit`, so it is checked *)
(* against whichever module named `spinsplit` sits beside it (the          *)
(* reference model or a user's model with the pinned names).  Copy it as   *)
(* spinsplitInvariants.tla next to that spinsplit.tla and add to the       *)
(* model's .cfg the lines of invariants.cfg (properties a faithful model   *)
(* satisfies) or of violations.cfg (the property a faithful model must     *)
(* VIOLATE: that is the lesson of this task), one property per run.        *)
(***************************************************************************)
EXTENDS spinsplit, FiniteSets

Holders == {t \in Threads : pc[t] = "cs"}

\* [safety, EXPECTED TO FAIL] At most one thread in the critical section.
\* With the load and the store split, two threads can both load FALSE and
\* then both store TRUE and enter: a faithful model violates this (TLC
\* finds a 4-step counterexample).  A model that satisfies it has merged
\* the load and the store back into one step.
MutualExclusion == Cardinality(Holders) <= 1

\* [safety] The lock word is only set while somebody is in the critical
\* section (the converse fails along with mutual exclusion: the first of
\* two holders to leave clears the word under the other's feet).
LockedHasHolder == locked => Holders # {}

\* [safety] The threads are never all spinning together.
NoDeadlock == ~(\A t \in Threads : pc[t] = "spin")

\* [safety] A thread reaches the critical section only through its own
\* store: every step that enters "cs" is a LockSet that leaves the lock set.
EnterBySet ==
    [][\A t \in Threads : (pc[t] # "cs" /\ pc'[t] = "cs") => (LockSet(t) /\ locked')]_vars

\* [liveness] Whenever the lock word is set it is cleared later.
EventualRelease == [](locked => <>~locked)
=============================================================================
