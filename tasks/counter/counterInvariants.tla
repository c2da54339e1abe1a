--------------------------- MODULE counterInvariants ---------------------------
(***************************************************************************)
(* Invariants of the lost-update tutorial, over the pinned names of module *)
(* `counter` (variables counter, tmp, pc; actions Read, Add, Write;        *)
(* constant Threads).                                                      *)
(*                                                                         *)
(* How a grader uses it: this module EXTENDS `counter`, so it is checked   *)
(* against whichever module named `counter` sits beside it (the reference  *)
(* model or a user's model with the pinned names).  Copy it as             *)
(* counterInvariants.tla next to that counter.tla and add to the model's   *)
(* .cfg the lines of invariants.cfg (properties that hold) or of           *)
(* violations.cfg (the property a faithful model must VIOLATE -- the       *)
(* lesson of this tutorial), one property per run.                         *)
(***************************************************************************)
EXTENDS counter, FiniteSets

Done == {t \in Threads : pc[t] = "done"}

\* [safety, EXPECTED TO FAIL -- the lesson] When every thread is done, the
\* counter equals the number of threads (2 with two threads).  It does not:
\* if both threads read 0 before either writes, both write 1 and one
\* increment is lost.  TLC shows that interleaving; a model that satisfies
\* this invariant has made the read-add-write atomic.
FinalValueIsTwo == Done = Threads => counter = Cardinality(Threads)

\* [safety] The counter never runs ahead of the work done: it is at most the
\* number of threads that have written.
CounterAtMostWrites == counter <= Cardinality(Done)

\* [safety] An update is lost, never all of them: once everybody is done the
\* counter is at least 1 (every write stores a value read plus one).
SomeIncrementSurvives == Done = Threads => counter >= 1

\* [liveness] Under the model's fairness every thread finishes.
AllFinish == <>(Done = Threads)
=============================================================================
