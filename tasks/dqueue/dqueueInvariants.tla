---------------------------- MODULE dqueueInvariants ----------------------------
(***************************************************************************)
(* The dqueue task's properties, over the pinned names of module `dqueue`: *)
(* variables pc, network, processor, stream, requester; constants          *)
(* BUFFER_SIZE, NUM_CONSUMERS, PRODUCER; consumers are 1..NUM_CONSUMERS.   *)
(*                                                                         *)
(* This module EXTENDS `dqueue`, so it is checked against whichever module *)
(* of that name sits beside it (the reference model or a user's model with *)
(* the same pinned names).  Add the lines of invariants.cfg to the model's *)
(* .cfg: state predicates as INVARIANT, action properties and liveness as  *)
(* PROPERTY (liveness under the model's own fairness).  Each name is       *)
(* checked on its own.                                                     *)
(*                                                                         *)
(* The task's one template is the liveness property ConsumerAlwaysConsumes.*)
(* As its formula is written it is weaker than its sentence (see below),   *)
(* so the sentence has a property of its own, RequestEventuallyAnswered.  *)
(* The safety properties state what the system's description promises.     *)
(***************************************************************************)
EXTENDS dqueue

\* The consumers' ids (named apart from the model's own definitions).
DQConsumers == 1..NUM_CONSUMERS
\* Every node: the producer and the consumers.
DQNodes == {PRODUCER} \cup DQConsumers
\* The pinned variables, for the action properties' subscripts.
DQVars == <<pc, network, processor, stream, requester>>

\* How many times v occurs in the sequence s.
Occurrences(v, s) == Len(SelectSeq(s, LAMBDA x : x = v))

\* What is on its way for consumer n: its request in the producer's mailbox,
\* its request held by the producer between p1 and p2, its item in its own
\* mailbox.
OnItsWay(n) ==
    Occurrences(n, network[PRODUCER])
        + (IF pc[PRODUCER] = "p2" /\ requester = n THEN 1 ELSE 0)
        + Len(network[n])

\* [liveness] The template, as its formula is written: "Once a consumer has
\* made a request, it will receive a response from the producer no matter
\* what" -- stated as pc[self] = "c1" ~> pc[self] = "c2".  At c1 the
\* consumer has not sent anything yet, and reaching c2 only means that its
\* request was sent (c2 is where it waits for the answer): this holds as
\* soon as the producer's mailbox has room, answered or not.  Kept as the
\* template writes it; the sentence is RequestEventuallyAnswered.
ConsumerAlwaysConsumes ==
    \A self \in DQConsumers : pc[self] = "c1" ~> pc[self] = "c2"

\* [liveness] The template's sentence: once a consumer has made a request
\* (it waits at c2), it eventually receives the producer's answer and
\* consumes it (it is back at c).
RequestEventuallyAnswered ==
    \A self \in DQConsumers : pc[self] = "c2" ~> pc[self] = "c"

\* [safety] Every request is answered exactly once: a consumer waiting at c2
\* has exactly one request or answer on its way, any other consumer none.
OneRequestPerWaitingConsumer ==
    \A n \in DQConsumers : OnItsWay(n) = IF pc[n] = "c2" THEN 1 ELSE 0

\* [safety] No mailbox ever holds more than BUFFER_SIZE values.
MailboxesBounded == \A n \in DQNodes : Len(network[n]) <= BUFFER_SIZE

\* [safety] The producer's mailbox holds requests (consumer ids) and the
\* consumers' mailboxes hold items of the stream (0..BUFFER_SIZE-1).
MailboxContents ==
    /\ \A k \in 1..Len(network[PRODUCER]) : network[PRODUCER][k] \in DQConsumers
    /\ \A n \in DQConsumers : \A k \in 1..Len(network[n]) : network[n][k] \in 0..(BUFFER_SIZE - 1)

\* [safety] Each process stands at one of its own labels: the producer at
\* p, p1 or p2, each consumer at c, c1 or c2.
LabelsOfTheirArchetype ==
    /\ pc[PRODUCER] \in {"p", "p1", "p2"}
    /\ \A n \in DQConsumers : pc[n] \in {"c", "c1", "c2"}

\* [safety] The stream only moves by one step of its cycle: whenever it
\* changes, it becomes (stream + 1) % BUFFER_SIZE, and the value sent is
\* that new value (it is appended to the requester's mailbox in the same
\* step).
StreamCycles ==
    [][stream' # stream =>
          /\ stream' = (stream + 1) % BUFFER_SIZE
          /\ requester \in DQConsumers
          /\ network'[requester] = Append(network[requester], stream')]_DQVars

\* [safety] Requests are served in the order they arrived: when the producer
\* takes a requester, it is the head of its mailbox.
ServedInArrivalOrder ==
    [][pc[PRODUCER] = "p1" /\ pc'[PRODUCER] = "p2" =>
          /\ network[PRODUCER] # <<>>
          /\ requester' = Head(network[PRODUCER])
          /\ network'[PRODUCER] = Tail(network[PRODUCER])]_DQVars

\* [safety] A consumer processes only what it was sent: when processor
\* changes, some consumer took the head of its own mailbox.
ProcessorGetsWhatWasSent ==
    [][processor' # processor =>
          \E n \in DQConsumers : network[n] # <<>> /\ processor' = Head(network[n])]_DQVars

================================================================================
