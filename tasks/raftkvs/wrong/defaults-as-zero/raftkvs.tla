------------------------------- MODULE raftkvs -------------------------------
(***************************************************************************)
(* Reference model of PGo's Raft key-value store                           *)
(* (tasks/raftkvs/src/raftkvs.rs).  Each Raft server i runs as five        *)
(* processes sharing its variables, each a sequence of labelled atomic     *)
(* steps:                                                                  *)
(*                                                                         *)
(*   i               serverLoop (take any message into m) -> handleMsg     *)
(*   NumServers+i    serverRequestVoteLoop (election timeout) ->           *)
(*                   requestVoteLoop (one RequestVote per step)            *)
(*   2*NumServers+i  serverAppendEntriesLoop -> appendEntriesLoop          *)
(*   3*NumServers+i  serverAdvanceCommitIndexLoop -> applyLoop             *)
(*   4*NumServers+i  serverBecomeLeaderLoop                                *)
(*   5*NumServers+k  serverCrash -> fdUpdate -> Done  (crashes server k)   *)
(*   6*NumServers+c  clientLoop -> sndReq -> rcvResp                       *)
(*                                                                         *)
(* network[n] is node n's mailbox, a bag: a read takes any one message of  *)
(* a non-empty bag; a message sent to a crashed server is lost.  A crashed *)
(* server's processes take no more steps.                                  *)
(***************************************************************************)
EXTENDS Naturals, Sequences, FiniteSets, Bags, TLC

CONSTANTS NumServers, NumClients, MaxNodeFail, MaxTerm, MaxCommitIndex, Keys, Values

Nil == 0

ServerSet == 1..NumServers
ServerRequestVoteSet == (NumServers + 1)..(2 * NumServers)
ServerAppendEntriesSet == (2 * NumServers + 1)..(3 * NumServers)
ServerAdvanceCommitIndexSet == (3 * NumServers + 1)..(4 * NumServers)
ServerBecomeLeaderSet == (4 * NumServers + 1)..(5 * NumServers)
ServerCrasherSet == (5 * NumServers + 1)..(5 * NumServers + MaxNodeFail)
ClientSet == (6 * NumServers + 1)..(6 * NumServers + NumClients)
NodeSet == ServerSet \cup ClientSet
ProcSet == ServerSet \cup ServerRequestVoteSet \cup ServerAppendEntriesSet
           \cup ServerAdvanceCommitIndexSet \cup ServerBecomeLeaderSet
           \cup ServerCrasherSet \cup ClientSet

\* The server a process of a server archetype (or a crasher) belongs to.
Srv(p) == ((p - 1) % NumServers) + 1

Follower == "follower"
Candidate == "candidate"
Leader == "leader"

AllReqs == [type : {"put"}, key : Keys, value : Values] \cup [type : {"get"}, key : Keys]

isQuorum(s) == Cardinality(s) * 2 > NumServers
Max(a, b) == IF a > b THEN a ELSE b
LastTerm(xlog) == IF Len(xlog) = 0 THEN 0 ELSE xlog[Len(xlog)].term

\* Applies entries start..end of xlog to the state machine <<sm, domain>>.
RECURSIVE ApplyLog(_, _, _, _, _)
ApplyLog(xlog, start, end, xsm, xdom) ==
    IF start > end THEN <<xsm, xdom>>
    ELSE LET cmd == xlog[start].cmd
         IN IF cmd.type = "put"
            THEN ApplyLog(xlog, start + 1, end, (cmd.key :> cmd.value) @@ xsm, xdom \cup {cmd.key})
            ELSE ApplyLog(xlog, start + 1, end, xsm, xdom)

\* The follower's log after accepting entries es after index p: the log is
\* cut at p and es appended when an entry conflicts (same index, another
\* term) or es reaches past its end; otherwise it already holds them.
MergeLog(xlog, p, es) ==
    IF \/ \E k \in 1..Len(es) : p + k <= Len(xlog) /\ xlog[p + k].term # es[k].term
       \/ p + Len(es) > Len(xlog)
    THEN SubSeq(xlog, 1, p) \o es
    ELSE xlog

VARIABLES
    pc, network,
    state, currentTerm, log, commitIndex, nextIndex, matchIndex,
    votedFor, votesResponded, votesGranted, leader, sm, smDomain,
    netEnabled, fd,
    m, idx, newCommitIndex,
    clientLeader, req, reqIdx

vars == <<pc, network, state, currentTerm, log, commitIndex, nextIndex, matchIndex,
          votedFor, votesResponded, votesGranted, leader, sm, smDomain,
          netEnabled, fd, m, idx, newCommitIndex, clientLeader, req, reqIdx>>

serverVars == <<state, currentTerm, log, commitIndex, nextIndex, matchIndex,
                votedFor, votesResponded, votesGranted, leader, sm, smDomain>>

\* network after sending msg to node j (lost when j is a crashed server).
Send(net, j, msg) ==
    IF j \in ServerSet /\ ~netEnabled[j] THEN net
    ELSE [net EXCEPT ![j] = @ (+) SetToBag({msg})]

Init ==
    /\ pc = [p \in ProcSet |->
               CASE p \in ServerSet -> "serverLoop"
                 [] p \in ServerRequestVoteSet -> "serverRequestVoteLoop"
                 [] p \in ServerAppendEntriesSet -> "serverAppendEntriesLoop"
                 [] p \in ServerAdvanceCommitIndexSet -> "serverAdvanceCommitIndexLoop"
                 [] p \in ServerBecomeLeaderSet -> "serverBecomeLeaderLoop"
                 [] p \in ServerCrasherSet -> "serverCrash"
                 [] OTHER -> "clientLoop"]
    /\ network = [n \in NodeSet |-> EmptyBag]
    /\ state = [i \in ServerSet |-> Follower]
    /\ currentTerm = [i \in ServerSet |-> 1]
    /\ log = [i \in ServerSet |-> <<>>]
    /\ commitIndex = [i \in ServerSet |-> 0]
    /\ nextIndex = [i \in ServerSet |-> [j \in ServerSet |-> 1]]
    /\ matchIndex = [i \in ServerSet |-> [j \in ServerSet |-> 0]]
    /\ votedFor = [i \in ServerSet |-> Nil]
    /\ votesResponded = [i \in ServerSet |-> {}]
    /\ votesGranted = [i \in ServerSet |-> {}]
    /\ leader = [i \in ServerSet |-> Nil]
    /\ sm = [i \in ServerSet |-> [k \in {} |-> Nil]]
    /\ smDomain = [i \in ServerSet |-> {}]
    /\ netEnabled = [i \in ServerSet |-> TRUE]
    /\ fd = [i \in ServerSet |-> FALSE]
    \* m and req start as records of no message and no request (PGo's
    \* defaultInitValue): a value of another type (0) could not be compared with
    \* the records they hold later, which fairness conditions do on every step.
    /\ m = [i \in ServerSet |-> Nil]
    /\ idx = [p \in ServerRequestVoteSet \cup ServerAppendEntriesSet |-> 1]
    /\ newCommitIndex = [p \in ServerAdvanceCommitIndexSet |-> 0]
    /\ clientLeader = [c \in ClientSet |-> Nil]
    /\ req = [c \in ClientSet |-> Nil]
    /\ reqIdx = [c \in ClientSet |-> 0]

Goto(self, l) == pc' = [pc EXCEPT ![self] = l]

(***************************************************************************)
(* AServer                                                                 *)
(***************************************************************************)
serverLoop(self) ==
    /\ pc[self] = "serverLoop"
    /\ netEnabled[self]
    /\ \E msg \in BagToSet(network[self]) :
          /\ network' = [network EXCEPT ![self] = @ (-) SetToBag({msg})]
          /\ m' = [m EXCEPT ![self] = msg]
    /\ Goto(self, "handleMsg")
    /\ UNCHANGED <<serverVars, netEnabled, fd, idx, newCommitIndex, clientLeader, req, reqIdx>>

\* The message's term after UpdateTerm: a newer term makes i its follower.
HandleRequestVoteRequest(i, msg) ==
    LET j == msg.msource
        newer == msg.mterm > currentTerm[i]
        term == IF newer THEN msg.mterm ELSE currentTerm[i]
        voted == IF newer THEN Nil ELSE votedFor[i]
        logOK == \/ msg.mlastLogTerm > LastTerm(log[i])
                 \/ /\ msg.mlastLogTerm = LastTerm(log[i])
                    /\ msg.mlastLogIndex >= Len(log[i])
        grant == msg.mterm = term /\ logOK /\ voted \in {Nil, j}
    IN /\ currentTerm' = [currentTerm EXCEPT ![i] = term]
       /\ state' = [state EXCEPT ![i] = IF newer THEN Follower ELSE @]
       /\ leader' = [leader EXCEPT ![i] = IF newer THEN Nil ELSE @]
       /\ votedFor' = [votedFor EXCEPT ![i] = IF grant THEN j ELSE voted]
       /\ network' = Send(network, j, [mtype |-> "rvp", mterm |-> term, mvoteGranted |-> grant,
                                      msource |-> i, mdest |-> j])
       /\ UNCHANGED <<log, commitIndex, nextIndex, matchIndex, votesResponded, votesGranted, sm, smDomain>>

HandleRequestVoteResponse(i, msg) ==
    LET j == msg.msource
        newer == msg.mterm > currentTerm[i]
        term == IF newer THEN msg.mterm ELSE currentTerm[i]
    IN /\ currentTerm' = [currentTerm EXCEPT ![i] = term]
       /\ state' = [state EXCEPT ![i] = IF newer THEN Follower ELSE @]
       /\ leader' = [leader EXCEPT ![i] = IF newer THEN Nil ELSE @]
       /\ votedFor' = [votedFor EXCEPT ![i] = IF newer THEN Nil ELSE @]
       /\ votesResponded' = [votesResponded EXCEPT ![i] = IF msg.mterm = term THEN @ \cup {j} ELSE @]
       /\ votesGranted' = [votesGranted EXCEPT ![i] =
                             IF msg.mterm = term /\ msg.mvoteGranted THEN @ \cup {j} ELSE @]
       /\ UNCHANGED <<network, log, commitIndex, nextIndex, matchIndex, sm, smDomain>>

HandleAppendEntriesRequest(i, msg) ==
    LET j == msg.msource
        newer == msg.mterm > currentTerm[i]
        term == IF newer THEN msg.mterm ELSE currentTerm[i]
        st1 == IF newer THEN Follower ELSE state[i]
        current == msg.mterm = term
        st == IF current /\ st1 = Candidate THEN Follower ELSE st1
        p == msg.mprevLogIndex
        logOK == \/ p = 0
                 \/ /\ p > 0
                    /\ p <= Len(log[i])
                    /\ msg.mprevLogTerm = log[i][p].term
        reject == msg.mterm < term \/ (st = Follower /\ ~logOK)
        newLog == MergeLog(log[i], p, msg.mentries)
        applied == ApplyLog(newLog, commitIndex[i] + 1, msg.mcommitIndex, sm[i], smDomain[i])
    IN /\ currentTerm' = [currentTerm EXCEPT ![i] = term]
       /\ state' = [state EXCEPT ![i] = st]
       /\ votedFor' = [votedFor EXCEPT ![i] = IF newer THEN Nil ELSE @]
       /\ leader' = [leader EXCEPT ![i] = IF current THEN j ELSE IF newer THEN Nil ELSE @]
       /\ IF reject
          THEN /\ network' = Send(network, j, [mtype |-> "app", mterm |-> term, msuccess |-> FALSE,
                                               mmatchIndex |-> 0, msource |-> i, mdest |-> j])
               /\ UNCHANGED <<log, commitIndex, sm, smDomain>>
          ELSE /\ log' = [log EXCEPT ![i] = newLog]
               /\ sm' = [sm EXCEPT ![i] = applied[1]]
               /\ smDomain' = [smDomain EXCEPT ![i] = applied[2]]
               /\ commitIndex' = [commitIndex EXCEPT ![i] = Max(@, msg.mcommitIndex)]
               /\ network' = Send(network, j, [mtype |-> "app", mterm |-> term, msuccess |-> TRUE,
                                               mmatchIndex |-> p + Len(msg.mentries),
                                               msource |-> i, mdest |-> j])
       /\ UNCHANGED <<nextIndex, matchIndex, votesResponded, votesGranted>>

HandleAppendEntriesResponse(i, msg) ==
    LET j == msg.msource
        newer == msg.mterm > currentTerm[i]
        term == IF newer THEN msg.mterm ELSE currentTerm[i]
    IN /\ currentTerm' = [currentTerm EXCEPT ![i] = term]
       /\ state' = [state EXCEPT ![i] = IF newer THEN Follower ELSE @]
       /\ leader' = [leader EXCEPT ![i] = IF newer THEN Nil ELSE @]
       /\ votedFor' = [votedFor EXCEPT ![i] = IF newer THEN Nil ELSE @]
       /\ IF msg.mterm # term
          THEN UNCHANGED <<nextIndex, matchIndex>>
          ELSE IF msg.msuccess
          THEN /\ nextIndex' = [nextIndex EXCEPT ![i][j] = msg.mmatchIndex + 1]
               /\ matchIndex' = [matchIndex EXCEPT ![i][j] = msg.mmatchIndex]
          ELSE /\ nextIndex' = [nextIndex EXCEPT ![i][j] = Max(@ - 1, 1)]
               /\ UNCHANGED matchIndex
       /\ UNCHANGED <<network, log, commitIndex, votesResponded, votesGranted, sm, smDomain>>

HandleClientRequest(i, msg) ==
    LET j == msg.msource
    IN /\ IF state[i] = Leader
          THEN /\ log' = [log EXCEPT ![i] = Append(@, [term |-> currentTerm[i], cmd |-> msg.mcmd, client |-> j])]
               /\ UNCHANGED network
          ELSE /\ network' = Send(network, j, [mtype |-> IF msg.mcmd.type = "put" THEN "cpp" ELSE "cgp",
                                               msuccess |-> FALSE,
                                               mresponse |-> [idx |-> msg.mcmd.idx, key |-> msg.mcmd.key],
                                               mleaderHint |-> leader[i], msource |-> i, mdest |-> j])
               /\ UNCHANGED log
       /\ UNCHANGED <<state, currentTerm, commitIndex, nextIndex, matchIndex, votedFor,
                      votesResponded, votesGranted, leader, sm, smDomain>>

handleMsg(self) ==
    /\ pc[self] = "handleMsg"
    /\ netEnabled[self]
    /\ LET msg == m[self] IN
          CASE msg.mtype = "rvq" -> HandleRequestVoteRequest(self, msg)
            [] msg.mtype = "rvp" -> HandleRequestVoteResponse(self, msg)
            [] msg.mtype = "apq" -> HandleAppendEntriesRequest(self, msg)
            [] msg.mtype = "app" -> HandleAppendEntriesResponse(self, msg)
            [] OTHER -> HandleClientRequest(self, msg)
    /\ Goto(self, "serverLoop")
    /\ UNCHANGED <<netEnabled, fd, m, idx, newCommitIndex, clientLeader, req, reqIdx>>

(***************************************************************************)
(* AServerRequestVote                                                      *)
(***************************************************************************)
serverRequestVoteLoop(self) ==
    LET i == Srv(self) IN
    /\ pc[self] = "serverRequestVoteLoop"
    /\ netEnabled[i]
    /\ state[i] \in {Follower, Candidate}
    /\ network[i] = EmptyBag
    /\ state' = [state EXCEPT ![i] = Candidate]
    /\ currentTerm' = [currentTerm EXCEPT ![i] = @ + 1]
    /\ votedFor' = [votedFor EXCEPT ![i] = i]
    /\ votesResponded' = [votesResponded EXCEPT ![i] = {i}]
    /\ votesGranted' = [votesGranted EXCEPT ![i] = {i}]
    /\ leader' = [leader EXCEPT ![i] = Nil]
    /\ idx' = [idx EXCEPT ![self] = 1]
    /\ Goto(self, "requestVoteLoop")
    /\ UNCHANGED <<network, log, commitIndex, nextIndex, matchIndex, sm, smDomain,
                   netEnabled, fd, m, newCommitIndex, clientLeader, req, reqIdx>>

requestVoteLoop(self) ==
    LET i == Srv(self) IN
    /\ pc[self] = "requestVoteLoop"
    /\ netEnabled[i]
    /\ IF idx[self] <= NumServers
       THEN /\ network' = IF idx[self] = i THEN network
                          ELSE Send(network, idx[self],
                                    [mtype |-> "rvq", mterm |-> currentTerm[i],
                                     mlastLogTerm |-> LastTerm(log[i]), mlastLogIndex |-> Len(log[i]),
                                     msource |-> i, mdest |-> idx[self]])
            /\ idx' = [idx EXCEPT ![self] = @ + 1]
            /\ UNCHANGED pc
       ELSE /\ Goto(self, "serverRequestVoteLoop")
            /\ UNCHANGED <<network, idx>>
    /\ UNCHANGED <<serverVars, netEnabled, fd, m, newCommitIndex, clientLeader, req, reqIdx>>

(***************************************************************************)
(* AServerAppendEntries                                                    *)
(***************************************************************************)
serverAppendEntriesLoop(self) ==
    LET i == Srv(self) IN
    /\ pc[self] = "serverAppendEntriesLoop"
    /\ netEnabled[i]
    /\ state[i] = Leader
    /\ idx' = [idx EXCEPT ![self] = 1]
    /\ Goto(self, "appendEntriesLoop")
    /\ UNCHANGED <<network, serverVars, netEnabled, fd, m, newCommitIndex, clientLeader, req, reqIdx>>

appendEntriesLoop(self) ==
    LET i == Srv(self)
        j == idx[self]
    IN
    /\ pc[self] = "appendEntriesLoop"
    /\ netEnabled[i]
    /\ IF state[i] = Leader /\ j <= NumServers
       THEN /\ network' =
                 IF j = i THEN network
                 ELSE LET prevLogIndex == nextIndex[i][j] - 1
                          prevLogTerm == IF prevLogIndex > 0 THEN log[i][prevLogIndex].term ELSE 0
                      IN Send(network, j,
                              [mtype |-> "apq", mterm |-> currentTerm[i],
                               mprevLogIndex |-> prevLogIndex, mprevLogTerm |-> prevLogTerm,
                               mentries |-> SubSeq(log[i], nextIndex[i][j], Len(log[i])),
                               mcommitIndex |-> commitIndex[i], msource |-> i, mdest |-> j])
            /\ idx' = [idx EXCEPT ![self] = @ + 1]
            /\ UNCHANGED pc
       ELSE /\ Goto(self, "serverAppendEntriesLoop")
            /\ UNCHANGED <<network, idx>>
    /\ UNCHANGED <<serverVars, netEnabled, fd, m, newCommitIndex, clientLeader, req, reqIdx>>

(***************************************************************************)
(* AServerAdvanceCommitIndex                                               *)
(***************************************************************************)
\* The highest index of i's log that a quorum holds (i and the servers whose
\* matchIndex reaches it), or Nil.
MaxAgreeIndex(i) ==
    LET agree == {k \in 1..Len(log[i]) : isQuorum({i} \cup {s \in ServerSet : matchIndex[i][s] >= k})}
    IN IF agree = {} THEN Nil ELSE CHOOSE k \in agree : \A l \in agree : l <= k

serverAdvanceCommitIndexLoop(self) ==
    LET i == Srv(self)
        agree == MaxAgreeIndex(i)
    IN
    /\ pc[self] = "serverAdvanceCommitIndexLoop"
    /\ netEnabled[i]
    /\ state[i] = Leader
    /\ newCommitIndex' = [newCommitIndex EXCEPT ![self] =
          IF agree # Nil /\ log[i][agree].term = currentTerm[i]
          THEN Max(agree, commitIndex[i])
          ELSE commitIndex[i]]
    /\ Goto(self, "applyLoop")
    /\ UNCHANGED <<network, serverVars, netEnabled, fd, m, idx, clientLeader, req, reqIdx>>

applyLoop(self) ==
    LET i == Srv(self) IN
    /\ pc[self] = "applyLoop"
    /\ netEnabled[i]
    /\ IF commitIndex[i] < newCommitIndex[self]
       THEN LET k == commitIndex[i] + 1
                entry == log[i][k]
                cmd == entry.cmd
                applied == ApplyLog(log[i], k, k, sm[i], smDomain[i])
                ok == cmd.key \in applied[2]
            IN /\ commitIndex' = [commitIndex EXCEPT ![i] = k]
               /\ sm' = [sm EXCEPT ![i] = applied[1]]
               /\ smDomain' = [smDomain EXCEPT ![i] = applied[2]]
               /\ network' = Send(network, entry.client,
                                  [mtype |-> IF cmd.type = "put" THEN "cpp" ELSE "cgp",
                                   msuccess |-> TRUE,
                                   mresponse |-> [idx |-> cmd.idx, key |-> cmd.key,
                                                  value |-> IF ok THEN applied[1][cmd.key] ELSE Nil,
                                                  ok |-> ok],
                                   mleaderHint |-> i, msource |-> i, mdest |-> entry.client])
               /\ UNCHANGED pc
       ELSE /\ Goto(self, "serverAdvanceCommitIndexLoop")
            /\ UNCHANGED <<commitIndex, sm, smDomain, network>>
    /\ UNCHANGED <<state, currentTerm, log, nextIndex, matchIndex, votedFor, votesResponded,
                   votesGranted, leader, netEnabled, fd, m, idx, newCommitIndex, clientLeader, req, reqIdx>>

(***************************************************************************)
(* AServerBecomeLeader                                                     *)
(***************************************************************************)
serverBecomeLeaderLoop(self) ==
    LET i == Srv(self) IN
    /\ pc[self] = "serverBecomeLeaderLoop"
    /\ netEnabled[i]
    /\ state[i] = Candidate
    /\ isQuorum(votesGranted[i])
    /\ state' = [state EXCEPT ![i] = Leader]
    /\ nextIndex' = [nextIndex EXCEPT ![i] = [j \in ServerSet |-> Len(log[i]) + 1]]
    /\ matchIndex' = [matchIndex EXCEPT ![i] = [j \in ServerSet |-> 0]]
    /\ leader' = [leader EXCEPT ![i] = i]
    /\ UNCHANGED <<pc, network, currentTerm, log, commitIndex, votedFor, votesResponded,
                   votesGranted, sm, smDomain, netEnabled, fd, m, idx, newCommitIndex,
                   clientLeader, req, reqIdx>>

(***************************************************************************)
(* AServerCrasher                                                          *)
(***************************************************************************)
serverCrash(self) ==
    /\ pc[self] = "serverCrash"
    /\ netEnabled' = [netEnabled EXCEPT ![Srv(self)] = FALSE]
    /\ Goto(self, "fdUpdate")
    /\ UNCHANGED <<network, serverVars, fd, m, idx, newCommitIndex, clientLeader, req, reqIdx>>

fdUpdate(self) ==
    /\ pc[self] = "fdUpdate"
    /\ fd' = [fd EXCEPT ![Srv(self)] = TRUE]
    /\ Goto(self, "Done")
    /\ UNCHANGED <<network, serverVars, netEnabled, m, idx, newCommitIndex, clientLeader, req, reqIdx>>

(***************************************************************************)
(* AClient                                                                 *)
(***************************************************************************)
clientLoop(self) ==
    /\ pc[self] = "clientLoop"
    /\ \E r \in AllReqs : req' = [req EXCEPT ![self] = r]
    /\ reqIdx' = [reqIdx EXCEPT ![self] = @ + 1]
    /\ Goto(self, "sndReq")
    /\ UNCHANGED <<network, serverVars, netEnabled, fd, m, idx, newCommitIndex, clientLeader>>

sndReq(self) ==
    /\ pc[self] = "sndReq"
    /\ \E to \in IF clientLeader[self] = Nil THEN ServerSet ELSE {clientLeader[self]} :
          LET r == req[self]
              cmd == IF r.type = "put"
                     THEN [idx |-> reqIdx[self], type |-> "put", key |-> r.key, value |-> r.value]
                     ELSE [idx |-> reqIdx[self], type |-> "get", key |-> r.key]
          IN /\ clientLeader' = [clientLeader EXCEPT ![self] = to]
             /\ network' = Send(network, to, [mtype |-> IF r.type = "put" THEN "cpq" ELSE "cgq",
                                              mcmd |-> cmd, msource |-> self, mdest |-> to])
    /\ Goto(self, "rcvResp")
    /\ UNCHANGED <<serverVars, netEnabled, fd, m, idx, newCommitIndex, req, reqIdx>>

rcvResp(self) ==
    /\ pc[self] = "rcvResp"
    /\ \/ \E msg \in BagToSet(network[self]) :
             /\ network' = [network EXCEPT ![self] = @ (-) SetToBag({msg})]
             /\ IF msg.mresponse.idx # reqIdx[self]
                THEN UNCHANGED <<pc, clientLeader>>
                ELSE /\ clientLeader' = [clientLeader EXCEPT ![self] = msg.mleaderHint]
                     /\ Goto(self, IF msg.msuccess THEN "clientLoop" ELSE "sndReq")
       \/ /\ network[self] = EmptyBag
          /\ clientLeader' = [clientLeader EXCEPT ![self] = Nil]
          /\ Goto(self, "sndReq")
          /\ UNCHANGED network
    /\ UNCHANGED <<serverVars, netEnabled, fd, m, idx, newCommitIndex, req, reqIdx>>

server(self) == serverLoop(self) \/ handleMsg(self)
requestVote(self) == serverRequestVoteLoop(self) \/ requestVoteLoop(self)
appendEntries(self) == serverAppendEntriesLoop(self) \/ appendEntriesLoop(self)
advanceCommitIndex(self) == serverAdvanceCommitIndexLoop(self) \/ applyLoop(self)
crasher(self) == serverCrash(self) \/ fdUpdate(self)
client(self) == clientLoop(self) \/ sndReq(self) \/ rcvResp(self)

Next ==
    \/ \E self \in ServerSet : server(self)
    \/ \E self \in ServerRequestVoteSet : requestVote(self)
    \/ \E self \in ServerAppendEntriesSet : appendEntries(self)
    \/ \E self \in ServerAdvanceCommitIndexSet : advanceCommitIndex(self)
    \/ \E self \in ServerBecomeLeaderSet : serverBecomeLeaderLoop(self)
    \/ \E self \in ServerCrasherSet : crasher(self)
    \/ \E self \in ClientSet : client(self)

\* PGo's processes are fair: each keeps taking steps while it can.  The
\* crashers are not: a crash may never happen.
Spec ==
    /\ Init /\ [][Next]_vars
    /\ \A self \in ServerSet : WF_vars(server(self))
    /\ \A self \in ServerRequestVoteSet : WF_vars(requestVoteLoop(self))
    /\ \A self \in ServerAppendEntriesSet : WF_vars(appendEntries(self))
    /\ \A self \in ServerAdvanceCommitIndexSet : WF_vars(advanceCommitIndex(self))
    /\ \A self \in ServerBecomeLeaderSet : WF_vars(serverBecomeLeaderLoop(self))
    /\ \A self \in ClientSet : WF_vars(client(self))

\* The bounds of the search (the task's bounds constants).
LimitTerm == \A i \in ServerSet : currentTerm[i] < MaxTerm
LimitCommitIndex == \A i \in ServerSet : commitIndex[i] < MaxCommitIndex
StateConstraint == LimitTerm /\ LimitCommitIndex

TypeOK ==
    /\ state \in [ServerSet -> {Follower, Candidate, Leader}]
    /\ currentTerm \in [ServerSet -> Nat]
    /\ commitIndex \in [ServerSet -> Nat]
    /\ \A i \in ServerSet : commitIndex[i] <= Len(log[i])
    /\ votedFor \in [ServerSet -> ServerSet \cup {Nil}]
    /\ leader \in [ServerSet -> ServerSet \cup {Nil}]
    /\ netEnabled \in [ServerSet -> BOOLEAN]
    /\ fd \in [ServerSet -> BOOLEAN]
=============================================================================
