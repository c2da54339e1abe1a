-------------------------------- MODULE dqueue --------------------------------
\* WRONG MODEL (teaching example) of PGo's distributed queue.  Mistake: at c2
\* the consumer takes the head of its mailbox but leaves processor free: it
\* may be set to any stream value (0..BUFFER_SIZE-1), where the code writes
\* exactly the item it took.  Everything else is the reference model.
EXTENDS Naturals, Sequences

CONSTANTS BUFFER_SIZE, NUM_CONSUMERS, PRODUCER

ASSUME BUFFER_SIZE \in Nat \ {0} /\ NUM_CONSUMERS \in Nat \ {0} /\ PRODUCER = 0

Consumers == 1..NUM_CONSUMERS
Nodes == {PRODUCER} \cup Consumers

VARIABLES pc, network, processor, stream, requester

vars == <<pc, network, processor, stream, requester>>

TypeOK ==
    /\ pc \in [Nodes -> {"c", "c1", "c2", "p", "p1", "p2"}]
    /\ network \in [Nodes -> Seq(Nat)]
    /\ processor \in Nat
    /\ stream \in 0..(BUFFER_SIZE - 1)
    /\ requester \in {0} \cup Consumers

Init ==
    /\ pc = [n \in Nodes |-> IF n = PRODUCER THEN "p" ELSE "c"]
    /\ network = [n \in Nodes |-> <<>>]
    /\ processor = 0
    /\ stream = 0
    /\ requester = 0

\* The TCPChannel mapping: a mailbox can be read when it holds a value and
\* written when it holds fewer than BUFFER_SIZE.
CanRead(n) == Len(network[n]) > 0
CanWrite(n) == Len(network[n]) < BUFFER_SIZE
Send(n, v) == network' = [network EXCEPT ![n] = Append(@, v)]

c(self) ==
    /\ pc[self] = "c"
    /\ pc' = [pc EXCEPT ![self] = "c1"]
    /\ UNCHANGED <<network, processor, stream, requester>>

c1(self) ==
    /\ pc[self] = "c1"
    /\ CanWrite(PRODUCER)
    /\ Send(PRODUCER, self)
    /\ pc' = [pc EXCEPT ![self] = "c2"]
    /\ UNCHANGED <<processor, stream, requester>>

c2(self) ==
    /\ pc[self] = "c2"
    /\ CanRead(self)
    \* MISTAKE: the code writes Head(network[self]), not any stream value.
    /\ processor' \in 0..(BUFFER_SIZE - 1)
    /\ network' = [network EXCEPT ![self] = Tail(@)]
    /\ pc' = [pc EXCEPT ![self] = "c"]
    /\ UNCHANGED <<stream, requester>>

p(self) ==
    /\ pc[self] = "p"
    /\ pc' = [pc EXCEPT ![self] = "p1"]
    /\ UNCHANGED <<network, processor, stream, requester>>

p1(self) ==
    /\ pc[self] = "p1"
    /\ CanRead(self)
    /\ requester' = Head(network[self])
    /\ network' = [network EXCEPT ![self] = Tail(@)]
    /\ pc' = [pc EXCEPT ![self] = "p2"]
    /\ UNCHANGED <<processor, stream>>

\* The CyclicReads mapping: reading the stream advances it and yields the
\* new value, which is what the requester is sent.
p2(self) ==
    /\ pc[self] = "p2"
    /\ CanWrite(requester)
    /\ stream' = (stream + 1) % BUFFER_SIZE
    /\ Send(requester, stream')
    /\ pc' = [pc EXCEPT ![self] = "p"]
    /\ UNCHANGED <<processor, requester>>

Consumer(self) == c(self) \/ c1(self) \/ c2(self)
Producer(self) == p(self) \/ p1(self) \/ p2(self)

Next ==
    \/ \E self \in Consumers : Consumer(self)
    \/ \E self \in {PRODUCER} : Producer(self)

Spec ==
    /\ Init
    /\ [][Next]_vars
    /\ \A self \in Consumers : WF_vars(Consumer(self))
    /\ WF_vars(Producer(PRODUCER))

================================================================================
