-------------------------- MODULE ringbufferInvariants --------------------------
(***************************************************************************)
(* The ring buffer task's invariants, over the pinned names of module      *)
(* `ringbuffer` (variables head, tail; actions Push, PushSlice(n), Pop,    *)
(* PopSlice(n); constant Capacity).                                        *)
(*                                                                         *)
(* How a grader uses it: this module EXTENDS `ringbuffer`, so it is        *)
(* checked against whichever module named `ringbuffer` sits beside it --   *)
(* the reference model or a user's model with the same pinned names.  Save *)
(* it as ringbufferInvariants.tla next to that ringbuffer.tla and add the  *)
(* lines of invariants.cfg to the model's .cfg: state predicates as        *)
(* INVARIANT, action properties and liveness as PROPERTY (liveness under   *)
(* the model's own fairness).  Each name is checked on its own.  Only      *)
(* pinned names are used; slice lengths are quantified over                *)
(* 1..(2 * Capacity), which covers the ones that fit and some that never   *)
(* do.                                                                     *)
(***************************************************************************)
EXTENDS ringbuffer

Fill == tail - head
Lengths == 1..(2 * Capacity)

\* [safety] The buffer never holds more items than it has slots, and never
\* fewer than none (the consumer never overtakes the producer).
BufferBoundsInvariant == head <= tail /\ tail - head <= Capacity

\* [safety] The buffer is never both empty and full.  As the template states
\* it, this cannot fail for a positive capacity (fill = 0 and fill =
\* Capacity contradict each other): it is vacuous, kept for completeness.
\* The property with content is BufferBoundsInvariant.
EmptyFullConsistency == ~(Fill = 0 /\ Fill = Capacity)

\* [safety] The producer checks for room: a push that moves tail found a
\* free slot.  (The template's Producers and Pushing(p) do not exist; there
\* is one producer and its pushes are Push steps.)
ProducerSafety == [][Push /\ tail' # tail => Fill < Capacity]_vars

\* [safety] The consumer checks for items: a pop that moves head found one.
ConsumerSafety == [][Pop /\ head' # head => Fill > 0]_vars

\* [safety] Slice operations are all or nothing: a push_slice or pop_slice
\* of n items moves its counter by exactly n -- only when all n fit (free
\* slots, or items present) -- or not at all.
BatchOperationAtomicity ==
    [][\A n \in Lengths :
         /\ PushSlice(n) =>
              \/ tail' = tail
              \/ tail' = tail + n /\ Fill + n <= Capacity
         /\ PopSlice(n) =>
              \/ head' = head
              \/ head' = head + n /\ Fill >= n]_vars

\* [safety] Each side owns its counter: counters only grow, and no step
\* moves both (from the task's description; not a template).
CountersOwned == [][head' >= head /\ tail' >= tail /\ (head' = head \/ tail' = tail)]_vars

\* [liveness] Producer progress.  As written, the template asks that Push
\* be ENABLED when the buffer is not full; a push is a step even on a full
\* buffer (it fails), so that is always true -- vacuous.  What it means: the
\* buffer does not stay full, so the producer gets room again (needs a fair
\* consumer).
EventualProducerProgress == (Fill = Capacity) ~> (Fill < Capacity)

\* [liveness] Consumer progress: likewise, the buffer does not stay empty
\* (needs a fair producer).
EventualConsumerProgress == (Fill = 0) ~> (Fill > 0)
=============================================================================
