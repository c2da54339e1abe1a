------------------------------- MODULE locksvc -------------------------------
\* WRONG MODEL (teaching example) of PGo's lock service.  Mistake: for a lock
\* request on an empty queue, serverRespond leaves the network free between
\* two values, the grant sent or nothing sent, where the code always sends
\* the grant.  The requester is queued either way, so it may wait for ever.
\* Everything else is the reference model.
EXTENDS Naturals, Sequences, FiniteSets, Bags, TLC

CONSTANT NumClients

ASSUME NumClients \in Nat \ {0}

ServerID == 0
ServerSet == {ServerID}
ClientSet == 1..NumClients
NodeSet == ServerSet \cup ClientSet

LockMsg == 1
UnlockMsg == 2
GrantMsg == 3

VARIABLES pc, network, hasLock, q, msg

vars == <<pc, network, hasLock, q, msg>>

\* The server is sent requests (records with the sender), a client grants.
Requests == [from : ClientSet, type : {LockMsg, UnlockMsg}]

TypeOK ==
    /\ pc \in [NodeSet -> {"serverLoop", "serverReceive", "serverRespond",
                           "acquireLock", "criticalSection", "unlock", "Done"}]
    /\ IsABag(network[ServerID]) /\ BagToSet(network[ServerID]) \subseteq Requests
    /\ \A c \in ClientSet : IsABag(network[c]) /\ BagToSet(network[c]) \subseteq {GrantMsg}
    /\ hasLock \in [NodeSet -> BOOLEAN]
    /\ q \in Seq(ClientSet)
    /\ msg \in Requests \cup {[from |-> 0, type |-> 0]}

Init ==
    /\ pc = [n \in NodeSet |-> IF n = ServerID THEN "serverLoop" ELSE "acquireLock"]
    /\ network = [n \in NodeSet |-> EmptyBag]
    /\ hasLock = [n \in NodeSet |-> FALSE]
    /\ q = <<>>
    /\ msg = [from |-> 0, type |-> 0]

\* The ReliableLink mapping: a write adds one copy of the value to the bag.
Send(n, v) == network' = [network EXCEPT ![n] = @ (+) SetToBag({v})]

serverLoop(self) ==
    /\ pc[self] = "serverLoop"
    /\ pc' = [pc EXCEPT ![self] = "serverReceive"]
    /\ UNCHANGED <<network, hasLock, q, msg>>

\* A read waits for a non-empty bag and takes any one of its messages.
serverReceive(self) ==
    /\ pc[self] = "serverReceive"
    /\ BagCardinality(network[self]) > 0
    /\ \E m \in BagToSet(network[self]) :
          /\ network' = [network EXCEPT ![self] = @ (-) SetToBag({m})]
          /\ msg' = m
    /\ pc' = [pc EXCEPT ![self] = "serverRespond"]
    /\ UNCHANGED <<hasLock, q>>

serverRespond(self) ==
    /\ pc[self] = "serverRespond"
    /\ IF msg.type = LockMsg
          \* MISTAKE: on an empty queue the code always sends the grant.
          THEN /\ IF q = <<>>
                    THEN network' \in {[network EXCEPT ![msg.from] = @ (+) SetToBag({GrantMsg})],
                                       network}
                    ELSE UNCHANGED network
               /\ q' = Append(q, msg.from)
          ELSE IF msg.type = UnlockMsg
               THEN /\ q' = Tail(q)
                    /\ IF q' # <<>> THEN Send(Head(q'), GrantMsg) ELSE UNCHANGED network
               ELSE UNCHANGED <<network, q>>
    /\ pc' = [pc EXCEPT ![self] = "serverLoop"]
    /\ UNCHANGED <<hasLock, msg>>

acquireLock(self) ==
    /\ pc[self] = "acquireLock"
    /\ Send(ServerID, [from |-> self, type |-> LockMsg])
    /\ pc' = [pc EXCEPT ![self] = "criticalSection"]
    /\ UNCHANGED <<hasLock, q, msg>>

criticalSection(self) ==
    /\ pc[self] = "criticalSection"
    /\ BagCardinality(network[self]) > 0
    /\ \E m \in BagToSet(network[self]) :
          network' = [network EXCEPT ![self] = @ (-) SetToBag({m})]
    /\ hasLock' = [hasLock EXCEPT ![self] = TRUE]
    /\ pc' = [pc EXCEPT ![self] = "unlock"]
    /\ UNCHANGED <<q, msg>>

unlock(self) ==
    /\ pc[self] = "unlock"
    /\ hasLock' = [hasLock EXCEPT ![self] = FALSE]
    /\ Send(ServerID, [from |-> self, type |-> UnlockMsg])
    /\ pc' = [pc EXCEPT ![self] = "Done"]
    /\ UNCHANGED <<q, msg>>

Server(self) == serverLoop(self) \/ serverReceive(self) \/ serverRespond(self)
client(self) == acquireLock(self) \/ criticalSection(self) \/ unlock(self)

Next ==
    \/ \E self \in ServerSet : Server(self)
    \/ \E self \in ClientSet : client(self)

Spec ==
    /\ Init
    /\ [][Next]_vars
    /\ \A self \in ServerSet : WF_vars(Server(self))
    /\ \A self \in ClientSet : WF_vars(client(self))

================================================================================
