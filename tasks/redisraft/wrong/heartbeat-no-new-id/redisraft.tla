------------------------------ MODULE redisraft ------------------------------
(***************************************************************************)
(* Reference model of the Raft library under RedisRaft, as the task's      *)
(* system runs it (tasks/redisraft/src).  Servers 1..NumServers; server 1  *)
(* leads term 1 and its no-op (index 1) is committed and applied           *)
(* everywhere.  Each action is one call into one server's library: a timer *)
(* that fires, the oldest message of a connection, a client request, or    *)
(* one part of the event loop's flush.  A connection (messages[j][i], from *)
(* j to i) delivers in order and loses nothing.                            *)
(*                                                                         *)
(* A server's log holds the entries after its snapshot: index k is         *)
(* log[s][k - snapshotIndex[s]].  nodes[s][n] is n's membership as s sees  *)
(* it: "voting", "removing" (voting, gets no more messages),               *)
(* "nonvoting", "nonvoting-removing" or "absent"; an absent node's         *)
(* bookkeeping (nextIndex, matchIndex, nextMsgId, matchMsgId, votes) is 0  *)
(* or FALSE.                                                               *)
(***************************************************************************)
EXTENDS Naturals, Sequences, FiniteSets, TLC

CONSTANTS NumServers, MaxTerm, MaxIndex, MaxMsgId, NumReads

Server == 1..NumServers
Nil == 0

VARIABLES
    state, currentTerm, votedFor, leaderId,
    log, snapshotIndex, snapshotTerm, snapshotValue, snapshotNodes,
    commitIndex, lastApplied, value, msgId,
    nodes, votes, nextIndex, matchIndex, nextMsgId, matchMsgId,
    cfgChangeIndex, snapshotting, readQueue,
    messages, writes, reads

vars == <<state, currentTerm, votedFor, leaderId,
          log, snapshotIndex, snapshotTerm, snapshotValue, snapshotNodes,
          commitIndex, lastApplied, value, msgId,
          nodes, votes, nextIndex, matchIndex, nextMsgId, matchMsgId,
          cfgChangeIndex, snapshotting, readQueue,
          messages, writes, reads>>

bookVars == <<votes, nextIndex, matchIndex, nextMsgId, matchMsgId>>

Max(a, b) == IF a > b THEN a ELSE b
Min(a, b) == IF a < b THEN a ELSE b

(***************************************************************************)
(* Logs                                                                    *)
(***************************************************************************)
CurrentIdx(s) == snapshotIndex[s] + Len(log[s])
HasEntry(s, k) == snapshotIndex[s] < k /\ k <= CurrentIdx(s)
EntryAt(s, k) == log[s][k - snapshotIndex[s]]
\* The term at index k: 0 before index 1, the snapshot's at its index.
TermAt(s, k) == IF k = 0 THEN 0
                ELSE IF k = snapshotIndex[s] THEN snapshotTerm[s]
                ELSE EntryAt(s, k).term
LastLogTerm(s) == TermAt(s, CurrentIdx(s))
LastAppliedTerm(s) == TermAt(s, lastApplied[s])

(***************************************************************************)
(* Membership                                                              *)
(***************************************************************************)
Present(x) == x # "absent"
IsVoting(x) == x \in {"voting", "removing"}
IsActive(x) == x \in {"voting", "nonvoting"}
SetVoting(x) == CASE x = "nonvoting" -> "voting"
                  [] x = "nonvoting-removing" -> "removing"
                  [] OTHER -> x
ClearVoting(x) == CASE x = "voting" -> "nonvoting"
                    [] x = "removing" -> "nonvoting-removing"
                    [] OTHER -> x
Deactivate(x) == CASE x = "voting" -> "removing"
                   [] x = "nonvoting" -> "nonvoting-removing"
                   [] OTHER -> x
Reactivate(x) == CASE x = "removing" -> "voting"
                   [] x = "nonvoting-removing" -> "nonvoting"
                   [] OTHER -> x

\* A configuration st after appending entry e: an added node votes (a new
\* one is created), a removed one is deactivated.
AppendCfg(st, e) ==
    CASE e.type = "add" -> [st EXCEPT ![e.value] = IF @ = "absent" THEN "voting" ELSE SetVoting(@)]
      [] e.type = "remove" -> [st EXCEPT ![e.value] = Deactivate(@)]
      [] OTHER -> st
RECURSIVE AppendAll(_, _)
AppendAll(st, es) == IF es = <<>> THEN st ELSE AppendAll(AppendCfg(st, Head(es)), Tail(es))
\* ... after deleting entry e: the change it made is undone.
UndoCfg(st, e) ==
    CASE e.type = "add" -> [st EXCEPT ![e.value] = ClearVoting(@)]
      [] e.type = "remove" -> [st EXCEPT ![e.value] = Reactivate(@)]
      [] OTHER -> st
RECURSIVE UndoAll(_, _)
UndoAll(st, es) == IF es = <<>> THEN st ELSE UndoAll(UndoCfg(st, Head(es)), Tail(es))

Voters(s) == {n \in Server : IsVoting(nodes[s][n])}
IsMajority(numNodes, nvotes) == numNodes >= nvotes /\ numNodes \div 2 < nvotes

\* The highest value a majority of the voting nodes of s reaches, where f
\* gives each node's value (raft_update_commit_idx, quorum_msg_id).
QuorumValue(s, f(_)) ==
    LET V == Voters(s)
        need == Cardinality(V) \div 2 + 1
        vals == {f(n) : n \in V}
    IN IF V = {} THEN 0
       ELSE CHOOSE v \in vals : /\ Cardinality({n \in V : f(n) >= v}) >= need
                                /\ \A w \in vals : w > v => Cardinality({n \in V : f(n) >= w}) < need

\* The bookkeeping of a node as a server first learns of it.
FreshNext(x) == IF Present(x) THEN 1 ELSE 0

(***************************************************************************)
(* Messages                                                                *)
(***************************************************************************)
\* The message s sends a node whose next index is ni, with message id mid:
\* the entries from ni, or the snapshot when ni is compacted.
MsgFor(s, mid, ni, xlog, xcommit) ==
    IF snapshotIndex[s] >= ni
    THEN [type |-> "Snapshot", term |-> currentTerm[s], leader |-> s, msgId |-> mid,
          snapshotIndex |-> snapshotIndex[s], snapshotTerm |-> snapshotTerm[s],
          value |-> snapshotValue[s], nodes |-> snapshotNodes[s]]
    ELSE [type |-> "AppendEntries", term |-> currentTerm[s], leader |-> s, commit |-> xcommit,
          msgId |-> mid, prevLogIndex |-> ni - 1,
          prevLogTerm |-> IF ni - 1 > snapshotIndex[s] THEN xlog[ni - 1 - snapshotIndex[s]].term
                          ELSE snapshotTerm[s],
          entries |-> SubSeq(xlog, ni - snapshotIndex[s], Len(xlog))]

\* s sends each node of T (ordered by id) its entries from next index nx[n]
\* with message ids m0+1, m0+2, ...; the log is xlog.  The new messages,
\* next indexes and next message ids.
Rank(T, n) == Cardinality({u \in T : u <= n})
BcastMessages(s, T, m0, nx, xlog) ==
    [a \in Server |-> [b \in Server |->
        IF a = s /\ b \in T THEN Append(messages[a][b], MsgFor(s, m0 + Rank(T, b), nx[b], xlog, commitIndex[s]))
        ELSE messages[a][b]]]
BcastNext(s, T, nx, xlog) ==
    [n \in Server |-> IF n \in T
                      THEN IF snapshotIndex[s] >= nx[n] THEN snapshotIndex[s] + 1
                           ELSE snapshotIndex[s] + Len(xlog) + 1
                      ELSE nx[n]]
BcastNextMsgId(s, T, m0, nx) ==
    [n \in Server |-> IF n \in T /\ snapshotIndex[s] < nx[n] THEN m0 + Rank(T, n) + 1
                      ELSE nextMsgId[s][n]]

\* Server i takes the oldest message from j (and may answer it with r).
Head1(i, j) == Head(messages[j][i])
Reply(i, j, r) == [messages EXCEPT ![j][i] = Tail(@), ![i][j] = Append(@, r)]
Pop(i, j) == [messages EXCEPT ![j][i] = Tail(@)]

\* s asks every other voting node for its (pre-)vote.
RVs(s, prevote, term) ==
    [a \in Server |-> [b \in Server |->
        IF a = s /\ b # s /\ IsVoting(nodes[s][b])
        THEN Append(messages[a][b], [type |-> "RequestVote", prevote |-> prevote, term |-> term,
                                     candidate |-> s, lastLogIndex |-> CurrentIdx(s),
                                     lastLogTerm |-> LastLogTerm(s)])
        ELSE messages[a][b]]]

(***************************************************************************)
(* Init                                                                    *)
(***************************************************************************)
Init ==
    /\ state = [s \in Server |-> IF s = 1 THEN "leader" ELSE "follower"]
    /\ currentTerm = [s \in Server |-> 1]
    /\ votedFor = [s \in Server |-> 1]
    /\ leaderId = [s \in Server |-> 1]
    /\ log = [s \in Server |-> <<[term |-> 1, type |-> "noop", value |-> 0]>>]
    /\ snapshotIndex = [s \in Server |-> 0]
    /\ snapshotTerm = [s \in Server |-> 0]
    /\ snapshotValue = [s \in Server |-> 0]
    /\ snapshotNodes = [s \in Server |-> [n \in Server |-> "absent"]]
    /\ commitIndex = [s \in Server |-> 1]
    /\ lastApplied = [s \in Server |-> 1]
    /\ value = [s \in Server |-> 0]
    /\ msgId = [s \in Server |-> 0]
    /\ nodes = [s \in Server |-> [n \in Server |-> "voting"]]
    /\ votes = [s \in Server |-> [n \in Server |-> s = 1 /\ n # 1]]
    /\ nextIndex = [s \in Server |-> [n \in Server |-> IF s = 1 THEN 2 ELSE 1]]
    /\ matchIndex = [s \in Server |-> [n \in Server |-> IF s = 1 THEN 1 ELSE 0]]
    /\ nextMsgId = [s \in Server |-> [n \in Server |-> 0]]
    /\ matchMsgId = [s \in Server |-> [n \in Server |-> 0]]
    /\ cfgChangeIndex = [s \in Server |-> 0]
    /\ snapshotting = [s \in Server |-> FALSE]
    /\ readQueue = [s \in Server |-> <<>>]
    /\ messages = [a \in Server |-> [b \in Server |-> <<>>]]
    /\ writes = 0
    /\ reads = <<>>

(***************************************************************************)
(* Timers                                                                  *)
(***************************************************************************)
\* raft_election_start: the election timer of a follower or candidate fires;
\* it asks for pre-votes for the next term.
ElectionStart(i) ==
    /\ state[i] \in {"follower", "candidate"}
    /\ currentTerm[i] < MaxTerm
    /\ state' = [state EXCEPT ![i] = "precandidate"]
    /\ leaderId' = [leaderId EXCEPT ![i] = Nil]
    /\ votes' = [votes EXCEPT ![i] = [n \in Server |-> FALSE]]
    /\ messages' = RVs(i, TRUE, currentTerm[i] + 1)
    /\ UNCHANGED <<currentTerm, votedFor, log, snapshotIndex, snapshotTerm, snapshotValue,
                   snapshotNodes, commitIndex, lastApplied, value, msgId, nodes, nextIndex,
                   matchIndex, nextMsgId, matchMsgId, cfgChangeIndex, snapshotting, readQueue,
                   writes, reads>>

\* A leader's request timer fires: a new message id, then append entries (or
\* the snapshot) to every other active node.
SendHeartbeat(i) ==
    /\ state[i] = "leader"
    /\ msgId[i] < MaxMsgId
    /\ LET T == {n \in Server \ {i} : IsActive(nodes[i][n])}
           m0 == msgId[i]
       IN /\ messages' = BcastMessages(i, T, m0, nextIndex[i], log[i])
          /\ nextIndex' = [nextIndex EXCEPT ![i] = BcastNext(i, T, nextIndex[i], log[i])]
          /\ nextMsgId' = [nextMsgId EXCEPT ![i] = BcastNextMsgId(i, T, m0, nextIndex[i])]
          /\ msgId' = [msgId EXCEPT ![i] = m0 + Cardinality(T)]
    /\ UNCHANGED <<state, currentTerm, votedFor, leaderId, log, snapshotIndex, snapshotTerm,
                   snapshotValue, snapshotNodes, commitIndex, lastApplied, value, nodes, votes,
                   matchIndex, matchMsgId, cfgChangeIndex, snapshotting, readQueue, writes, reads>>

(***************************************************************************)
(* Votes                                                                   *)
(***************************************************************************)
RecvRequestVote(i, j) ==
    /\ messages[j][i] # <<>>
    /\ LET m == Head1(i, j)
           refused == m.prevote /\ leaderId[i] # Nil /\ leaderId[i] # m.candidate
           stepDown == ~refused /\ ~m.prevote /\ currentTerm[i] < m.term
           t1 == IF stepDown THEN m.term ELSE currentTerm[i]
           vf1 == IF stepDown THEN Nil ELSE votedFor[i]
           logOk == \/ m.lastLogTerm > LastLogTerm(i)
                    \/ m.lastLogTerm = LastLogTerm(i) /\ m.lastLogIndex >= CurrentIdx(i)
           grant == /\ ~refused
                    /\ t1 <= m.term
                    /\ ~(t1 = m.term /\ vf1 # Nil /\ vf1 # m.candidate)
                    /\ logOk
       IN /\ m.type = "RequestVote"
          /\ currentTerm' = [currentTerm EXCEPT ![i] = t1]
          /\ votedFor' = [votedFor EXCEPT ![i] = IF grant /\ ~m.prevote THEN m.candidate ELSE vf1]
          /\ state' = [state EXCEPT ![i] = IF stepDown THEN "follower" ELSE @]
          /\ leaderId' = [leaderId EXCEPT ![i] = IF stepDown \/ (grant /\ ~m.prevote) THEN Nil ELSE @]
          /\ messages' = Reply(i, j, [type |-> "RequestVoteResponse", prevote |-> m.prevote,
                                      requestTerm |-> m.term, term |-> t1, granted |-> grant])
    /\ UNCHANGED <<log, snapshotIndex, snapshotTerm, snapshotValue, snapshotNodes, commitIndex,
                   lastApplied, value, msgId, nodes, votes, nextIndex, matchIndex, nextMsgId,
                   matchMsgId, cfgChangeIndex, snapshotting, readQueue, writes, reads>>

\* A vote response of the current election, granted: the votes i holds then.
VoteCounts(i, j) ==
    LET m == Head1(i, j)
    IN /\ m.type = "RequestVoteResponse"
       /\ m.term <= currentTerm[i]
       /\ IF m.prevote THEN state[i] = "precandidate" /\ m.requestTerm = currentTerm[i] + 1
                       ELSE state[i] = "candidate" /\ m.requestTerm = currentTerm[i]
       /\ m.granted
NewVotes(i, j) == [votes[i] EXCEPT ![j] = IF Present(nodes[i][j]) THEN TRUE ELSE @]
NVotes(i, vs) == Cardinality({n \in Server \ {i} : IsVoting(nodes[i][n]) /\ vs[n]})
                 + (IF IsVoting(nodes[i][i]) THEN 1 ELSE 0)
WinsVote(i, j) == VoteCounts(i, j) /\ IsMajority(Cardinality(Voters(i)), NVotes(i, NewVotes(i, j)))

\* A vote response that changes no role: stale, refused, or not yet a majority.
RecvRequestVoteResponse(i, j) ==
    /\ messages[j][i] # <<>>
    /\ Head1(i, j).type = "RequestVoteResponse"
    /\ Head1(i, j).term <= currentTerm[i]
    /\ ~WinsVote(i, j)
    /\ votes' = IF VoteCounts(i, j) THEN [votes EXCEPT ![i] = NewVotes(i, j)] ELSE votes
    /\ messages' = Pop(i, j)
    /\ UNCHANGED <<state, currentTerm, votedFor, leaderId, log, snapshotIndex, snapshotTerm,
                   snapshotValue, snapshotNodes, commitIndex, lastApplied, value, msgId, nodes,
                   nextIndex, matchIndex, nextMsgId, matchMsgId, cfgChangeIndex, snapshotting,
                   readQueue, writes, reads>>

\* A pre-vote majority: raft_become_candidate, a new term and a vote for
\* itself, and vote requests.
BecomeCandidate(i, j) ==
    /\ messages[j][i] # <<>>
    /\ WinsVote(i, j)
    /\ Head1(i, j).prevote
    /\ LET t == currentTerm[i] + 1
       IN /\ currentTerm' = [currentTerm EXCEPT ![i] = t]
          /\ votedFor' = [votedFor EXCEPT ![i] = IF IsVoting(nodes[i][i]) THEN i ELSE Nil]
          /\ votes' = [votes EXCEPT ![i] = [n \in Server |-> FALSE]]
          /\ leaderId' = [leaderId EXCEPT ![i] = Nil]
          /\ state' = [state EXCEPT ![i] = "candidate"]
          /\ messages' = LET popped == Pop(i, j)
                         IN [a \in Server |-> [b \in Server |->
                              IF a = i /\ b # i /\ IsVoting(nodes[i][b])
                              THEN Append(popped[a][b], [type |-> "RequestVote", prevote |-> FALSE,
                                            term |-> t, candidate |-> i,
                                            lastLogIndex |-> CurrentIdx(i), lastLogTerm |-> LastLogTerm(i)])
                              ELSE popped[a][b]]]
    /\ UNCHANGED <<log, snapshotIndex, snapshotTerm, snapshotValue, snapshotNodes, commitIndex,
                   lastApplied, value, msgId, nodes, nextIndex, matchIndex, nextMsgId, matchMsgId,
                   cfgChangeIndex, snapshotting, readQueue, writes, reads>>

\* A vote majority: raft_become_leader appends a no-op of its term and sends
\* every other active node the entries from it.
BecomeLeader(i, j) ==
    /\ messages[j][i] # <<>>
    /\ WinsVote(i, j)
    /\ ~Head1(i, j).prevote
    /\ LET nlog == Append(log[i], [term |-> currentTerm[i], type |-> "noop", value |-> 0])
           cur == snapshotIndex[i] + Len(nlog)
           others == {n \in Server \ {i} : Present(nodes[i][n])}
           T == {n \in others : IsActive(nodes[i][n])}
           nx == [n \in Server |-> IF n \in others THEN cur ELSE nextIndex[i][n]]
           popped == Pop(i, j)
       IN /\ log' = [log EXCEPT ![i] = nlog]
          /\ votes' = [votes EXCEPT ![i] = NewVotes(i, j)]
          /\ state' = [state EXCEPT ![i] = "leader"]
          /\ leaderId' = [leaderId EXCEPT ![i] = i]
          /\ matchIndex' = [matchIndex EXCEPT ![i] = [n \in Server |->
                              IF n = i THEN cur ELSE IF n \in others THEN 0 ELSE @[n]]]
          /\ nextIndex' = [nextIndex EXCEPT ![i] = [n \in Server |->
                              IF n \in T THEN cur + 1 ELSE nx[n]]]
          /\ nextMsgId' = [nextMsgId EXCEPT ![i] = [n \in Server |->
                              IF n \in T THEN msgId[i] + Rank(T, n) + 1 ELSE @[n]]]
          /\ msgId' = [msgId EXCEPT ![i] = @ + Cardinality(T)]
          /\ messages' = [a \in Server |-> [b \in Server |->
                            IF a = i /\ b \in T
                            THEN Append(popped[a][b],
                                   [type |-> "AppendEntries", term |-> currentTerm[i], leader |-> i,
                                    commit |-> commitIndex[i], msgId |-> msgId[i] + Rank(T, b),
                                    prevLogIndex |-> cur - 1, prevLogTerm |-> TermAt(i, cur - 1),
                                    entries |-> <<nlog[Len(nlog)]>>])
                            ELSE popped[a][b]]]
    /\ UNCHANGED <<currentTerm, votedFor, snapshotIndex, snapshotTerm, snapshotValue, snapshotNodes,
                   commitIndex, lastApplied, value, nodes, matchMsgId, cfgChangeIndex,
                   snapshotting, readQueue, writes, reads>>

\* A response of a higher term: raft_become_follower in that term.
HigherTerm(i, j) ==
    LET m == Head1(i, j)
    IN \/ m.type = "RequestVoteResponse" /\ m.term > currentTerm[i]
       \/ /\ m.type \in {"AppendEntriesResponse", "SnapshotResponse"}
          /\ Present(nodes[i][j])
          /\ state[i] = "leader"
          /\ m.msgId >= matchMsgId[i][j]
          /\ m.term > currentTerm[i]

BecomeFollower(i, j) ==
    /\ messages[j][i] # <<>>
    /\ HigherTerm(i, j)
    /\ currentTerm' = [currentTerm EXCEPT ![i] = Head1(i, j).term]
    /\ votedFor' = [votedFor EXCEPT ![i] = Nil]
    /\ state' = [state EXCEPT ![i] = "follower"]
    /\ leaderId' = [leaderId EXCEPT ![i] = Nil]
    /\ messages' = Pop(i, j)
    /\ UNCHANGED <<log, snapshotIndex, snapshotTerm, snapshotValue, snapshotNodes, commitIndex,
                   lastApplied, value, msgId, nodes, votes, nextIndex, matchIndex, nextMsgId,
                   matchMsgId, cfgChangeIndex, snapshotting, readQueue, writes, reads>>

(***************************************************************************)
(* Log replication                                                         *)
(***************************************************************************)
\* The log of s from its first kept entry up to index k.
Upto(s, k) == SubSeq(log[s], 1, k - snapshotIndex[s])
\* The entries of s after index k.
After(s, k) == SubSeq(log[s], k - snapshotIndex[s] + 1, Len(log[s]))

\* raft_recv_appendentries.
RecvAppendEntries(i, j) ==
    /\ messages[j][i] # <<>>
    /\ Head1(i, j).type = "AppendEntries"
    /\ LET m == Head1(i, j)
           p == m.prevLogIndex
           es == m.entries
       IN IF m.term < currentTerm[i]
          THEN /\ messages' = Reply(i, j, [type |-> "AppendEntriesResponse", msgId |-> m.msgId,
                                           term |-> currentTerm[i], success |-> FALSE,
                                           currentIndex |-> CurrentIdx(i)])
               /\ UNCHANGED <<state, currentTerm, votedFor, leaderId, log, commitIndex, msgId,
                              nodes, cfgChangeIndex, bookVars>>
          ELSE
          LET t1 == Max(currentTerm[i], m.term)
              prevOk == p = snapshotIndex[i] \/ (HasEntry(i, p) /\ EntryAt(i, p).term = m.prevLogTerm)
              \* the prev entry is there with another term: it and those after go.
              prevBad == p # snapshotIndex[i] /\ HasEntry(i, p) /\ EntryAt(i, p).term # m.prevLogTerm
              conflicts == {k \in 1..Len(es) : HasEntry(i, p + k) /\ EntryAt(i, p + k).term # es[k].term}
              c == IF conflicts = {} THEN 0 ELSE CHOOSE k \in conflicts : \A k2 \in conflicts : k <= k2
              \* the entries deleted, and the entries appended
              deleted == IF prevBad THEN After(i, p - 1)
                         ELSE IF prevOk /\ c > 0 THEN After(i, p + c - 1) ELSE <<>>
              kept == IF prevBad THEN Upto(i, p - 1)
                      ELSE IF prevOk /\ c > 0 THEN Upto(i, p + c - 1) ELSE log[i]
              added == IF ~prevOk THEN <<>>
                       ELSE IF c > 0 THEN SubSeq(es, c, Len(es))
                       ELSE IF p + Len(es) > CurrentIdx(i) THEN SubSeq(es, CurrentIdx(i) - p + 1, Len(es))
                       ELSE <<>>
              nlog == kept \o added
              ncur == snapshotIndex[i] + Len(nlog)
              delFrom == snapshotIndex[i] + Len(kept) + 1
              cfg1 == UndoAll(nodes[i], deleted)
              cfg2 == AppendAll(cfg1, added)
              lastCfg == {k \in 1..Len(added) : added[k].type \in {"add", "remove"}}
              cc1 == IF cfgChangeIndex[i] >= delFrom /\ Len(deleted) > 0 THEN 0 ELSE cfgChangeIndex[i]
              cc2 == IF lastCfg = {} THEN cc1
                     ELSE delFrom - 1 + (CHOOSE k \in lastCfg : \A k2 \in lastCfg : k >= k2)
              created == {n \in Server : ~Present(nodes[i][n]) /\ Present(cfg2[n])}
          IN /\ currentTerm' = [currentTerm EXCEPT ![i] = t1]
             /\ votedFor' = [votedFor EXCEPT ![i] = IF m.term > currentTerm[i] THEN Nil ELSE @]
             /\ state' = [state EXCEPT ![i] = "follower"]
             /\ leaderId' = [leaderId EXCEPT ![i] = m.leader]
             /\ log' = [log EXCEPT ![i] = nlog]
             /\ nodes' = [nodes EXCEPT ![i] = cfg2]
             /\ cfgChangeIndex' = [cfgChangeIndex EXCEPT ![i] = cc2]
             /\ nextIndex' = [nextIndex EXCEPT ![i] = [n \in Server |-> IF n \in created THEN 1 ELSE @[n]]]
             /\ UNCHANGED <<votes, matchIndex, nextMsgId, matchMsgId>>
             /\ msgId' = [msgId EXCEPT ![i] = IF prevOk THEN Max(@, m.msgId) ELSE @]
             /\ commitIndex' = [commitIndex EXCEPT ![i] =
                                  IF prevOk /\ @ < m.commit THEN Min(Max(ncur, 1), m.commit) ELSE @]
             /\ messages' = Reply(i, j, [type |-> "AppendEntriesResponse", msgId |-> m.msgId,
                                         term |-> t1, success |-> prevOk,
                                         currentIndex |-> IF prevOk THEN p + Len(es) ELSE ncur])
    /\ UNCHANGED <<snapshotIndex, snapshotTerm, snapshotValue, snapshotNodes, lastApplied, value,
                   snapshotting, readQueue, writes, reads>>

\* raft_recv_appendentries_response (a higher term is BecomeFollower).
RecvAppendEntriesResponse(i, j) ==
    /\ messages[j][i] # <<>>
    /\ Head1(i, j).type = "AppendEntriesResponse"
    /\ ~HigherTerm(i, j)
    /\ LET m == Head1(i, j)
           ignored == ~Present(nodes[i][j]) \/ state[i] # "leader"
                      \/ m.msgId < matchMsgId[i][j] \/ m.term < currentTerm[i]
       IN IF ignored \/ (~m.success /\ m.currentIndex < matchIndex[i][j])
          THEN /\ messages' = Pop(i, j)
               /\ UNCHANGED <<msgId, nextIndex, matchIndex, nextMsgId, matchMsgId>>
          ELSE IF ~m.success
          THEN LET ni == Max(Min(m.currentIndex + 1, CurrentIdx(i)), 1)
                   T == IF IsActive(nodes[i][j]) THEN {j} ELSE {}
                   nx == [nextIndex[i] EXCEPT ![j] = ni]
                   popped == Pop(i, j)
               IN /\ messages' = [a \in Server |-> [b \in Server |->
                                    IF a = i /\ b \in T
                                    THEN Append(popped[a][b], MsgFor(i, msgId[i] + 1, ni, log[i], commitIndex[i]))
                                    ELSE popped[a][b]]]
                  /\ nextIndex' = [nextIndex EXCEPT ![i] = BcastNext(i, T, nx, log[i])]
                  /\ nextMsgId' = [nextMsgId EXCEPT ![i] = BcastNextMsgId(i, T, msgId[i], nx)]
                  /\ msgId' = [msgId EXCEPT ![i] = @ + Cardinality(T)]
                  /\ UNCHANGED <<matchIndex, matchMsgId>>
          ELSE /\ messages' = Pop(i, j)
               /\ matchIndex' = [matchIndex EXCEPT ![i][j] = Max(@, m.currentIndex)]
               /\ matchMsgId' = [matchMsgId EXCEPT ![i][j] = Max(@, m.msgId)]
               /\ UNCHANGED <<msgId, nextIndex, nextMsgId>>
    /\ UNCHANGED <<state, currentTerm, votedFor, leaderId, log, snapshotIndex, snapshotTerm,
                   snapshotValue, snapshotNodes, commitIndex, lastApplied, value, nodes, votes,
                   cfgChangeIndex, snapshotting, readQueue, writes, reads>>

\* The event loop's flush sends append entries to j when j is behind or a
\* read waits for j to acknowledge a newer message id.
LastReadMsgId(i) == IF readQueue[i] = <<>> THEN 0 ELSE readQueue[i][Len(readQueue[i])].msgId
SendAppendEntries(i, j) ==
    /\ state[i] = "leader"
    /\ j # i
    /\ IsActive(nodes[i][j])
    /\ ~(nextMsgId[i][j] > LastReadMsgId(i) /\ nextIndex[i][j] > CurrentIdx(i))
    /\ messages' = BcastMessages(i, {j}, msgId[i], nextIndex[i], log[i])
    /\ nextIndex' = [nextIndex EXCEPT ![i] = BcastNext(i, {j}, nextIndex[i], log[i])]
    /\ nextMsgId' = [nextMsgId EXCEPT ![i] = BcastNextMsgId(i, {j}, msgId[i], nextIndex[i])]
    /\ msgId' = [msgId EXCEPT ![i] = @ + 1]
    /\ UNCHANGED <<state, currentTerm, votedFor, leaderId, log, snapshotIndex, snapshotTerm,
                   snapshotValue, snapshotNodes, commitIndex, lastApplied, value, nodes, votes,
                   matchIndex, matchMsgId, cfgChangeIndex, snapshotting, readQueue, writes, reads>>

\* raft_update_commit_idx: the index a majority of the voting nodes holds,
\* if of the leader's term (the leader's own log is synced at once).
CommitCandidate(i) == QuorumValue(i, LAMBDA n : IF n = i THEN CurrentIdx(i) ELSE matchIndex[i][n])
LogCommit(i) ==
    /\ state[i] = "leader"
    /\ CommitCandidate(i) > commitIndex[i]
    /\ TermAt(i, CommitCandidate(i)) = currentTerm[i]
    /\ commitIndex' = [commitIndex EXCEPT ![i] = CommitCandidate(i)]
    /\ UNCHANGED <<state, currentTerm, votedFor, leaderId, log, snapshotIndex, snapshotTerm,
                   snapshotValue, snapshotNodes, lastApplied, value, msgId, nodes, votes,
                   nextIndex, matchIndex, nextMsgId, matchMsgId, cfgChangeIndex, snapshotting,
                   readQueue, messages, writes, reads>>

\* Applying the committed entries from..to of s: the value written last, the
\* nodes whose removal is applied (never s itself), the configuration
\* change index cleared when applied.
LastWrite(s, from, to, v) ==
    LET ws == {k \in from..to : EntryAt(s, k).type = "write"}
    IN IF ws = {} THEN v ELSE EntryAt(s, CHOOSE k \in ws : \A k2 \in ws : k >= k2).value
Removed(s, from, to) == {EntryAt(s, k).value : k \in {k \in from..to : EntryAt(s, k).type = "remove"}} \ {s}
ApplyUpTo(s, to) ==
    LET from == lastApplied[s] + 1
        gone == Removed(s, from, to)
    IN /\ value' = [value EXCEPT ![s] = LastWrite(s, from, to, @)]
       /\ lastApplied' = [lastApplied EXCEPT ![s] = to]
       /\ cfgChangeIndex' = [cfgChangeIndex EXCEPT ![s] = IF @ \in from..to THEN 0 ELSE @]
       /\ nodes' = [nodes EXCEPT ![s] = [n \in Server |-> IF n \in gone THEN "absent" ELSE @[n]]]
       /\ leaderId' = [leaderId EXCEPT ![s] = IF @ \in gone THEN Nil ELSE @]
       /\ votes' = [votes EXCEPT ![s] = [n \in Server |-> IF n \in gone THEN FALSE ELSE @[n]]]
       /\ nextIndex' = [nextIndex EXCEPT ![s] = [n \in Server |-> IF n \in gone THEN 0 ELSE @[n]]]
       /\ matchIndex' = [matchIndex EXCEPT ![s] = [n \in Server |-> IF n \in gone THEN 0 ELSE @[n]]]
       /\ nextMsgId' = [nextMsgId EXCEPT ![s] = [n \in Server |-> IF n \in gone THEN 0 ELSE @[n]]]
       /\ matchMsgId' = [matchMsgId EXCEPT ![s] = [n \in Server |-> IF n \in gone THEN 0 ELSE @[n]]]

\* raft_apply_entry.
ApplyEntry(i) ==
    /\ ~snapshotting[i]
    /\ lastApplied[i] < commitIndex[i]
    /\ ApplyUpTo(i, lastApplied[i] + 1)
    /\ UNCHANGED <<state, currentTerm, votedFor, log, snapshotIndex, snapshotTerm, snapshotValue,
                   snapshotNodes, commitIndex, msgId, snapshotting, readQueue, messages, writes, reads>>

(***************************************************************************)
(* Client requests                                                         *)
(***************************************************************************)
\* raft_recv_entry at a leader: the entry is appended to its log.
AppendAtLeader(i, e) ==
    /\ log' = [log EXCEPT ![i] = Append(@, e)]

RecvEntry(i) ==
    /\ state[i] = "leader"
    /\ CurrentIdx(i) < MaxIndex
    /\ writes' = writes + 1
    /\ AppendAtLeader(i, [term |-> currentTerm[i], type |-> "write", value |-> writes + 1])
    /\ UNCHANGED <<state, currentTerm, votedFor, leaderId, snapshotIndex, snapshotTerm,
                   snapshotValue, snapshotNodes, commitIndex, lastApplied, value, msgId, nodes,
                   votes, nextIndex, matchIndex, nextMsgId, matchMsgId, cfgChangeIndex,
                   snapshotting, readQueue, messages, reads>>

CfgChangeAllowed(i) ==
    /\ state[i] = "leader"
    /\ CurrentIdx(i) < MaxIndex
    /\ cfgChangeIndex[i] = 0
    /\ ~snapshotting[i]

AddNode(i, n) ==
    /\ CfgChangeAllowed(i)
    /\ nodes[i][n] = "absent"
    /\ AppendAtLeader(i, [term |-> currentTerm[i], type |-> "add", value |-> n])
    /\ cfgChangeIndex' = [cfgChangeIndex EXCEPT ![i] = CurrentIdx(i) + 1]
    /\ nodes' = [nodes EXCEPT ![i][n] = "voting"]
    /\ nextIndex' = [nextIndex EXCEPT ![i][n] = 1]
    /\ UNCHANGED <<state, currentTerm, votedFor, leaderId, snapshotIndex, snapshotTerm,
                   snapshotValue, snapshotNodes, commitIndex, lastApplied, value, msgId, votes,
                   matchIndex, nextMsgId, matchMsgId, snapshotting, readQueue, messages, writes, reads>>

RemoveNode(i, n) ==
    /\ CfgChangeAllowed(i)
    /\ n # i
    /\ nodes[i][n] = "voting"
    /\ Cardinality(Voters(i)) >= 3
    /\ AppendAtLeader(i, [term |-> currentTerm[i], type |-> "remove", value |-> n])
    /\ cfgChangeIndex' = [cfgChangeIndex EXCEPT ![i] = CurrentIdx(i) + 1]
    /\ nodes' = [nodes EXCEPT ![i][n] = "removing"]
    /\ UNCHANGED <<state, currentTerm, votedFor, leaderId, snapshotIndex, snapshotTerm,
                   snapshotValue, snapshotNodes, commitIndex, lastApplied, value, msgId, votes,
                   nextIndex, matchIndex, nextMsgId, matchMsgId, snapshotting, readQueue,
                   messages, writes, reads>>

\* raft_recv_read_request: the read waits for a quorum to acknowledge a new
\* message id.  Its floor is the highest commit index of any server now.
RecvReadRequest(i) ==
    /\ state[i] = "leader"
    /\ Len(reads) < NumReads
    /\ LET floor == CHOOSE f \in {commitIndex[s] : s \in Server} : \A s \in Server : commitIndex[s] <= f
       IN reads' = Append(reads, [server |-> i, floor |-> floor, status |-> "pending", index |-> 0, value |-> 0])
    /\ msgId' = [msgId EXCEPT ![i] = @ + 1]
    /\ readQueue' = [readQueue EXCEPT ![i] = Append(@, [id |-> Len(reads) + 1,
                                                        readIndex |-> CurrentIdx(i),
                                                        msgId |-> msgId[i] + 1])]
    /\ UNCHANGED <<state, currentTerm, votedFor, leaderId, log, snapshotIndex, snapshotTerm,
                   snapshotValue, snapshotNodes, commitIndex, lastApplied, value, nodes, votes,
                   nextIndex, matchIndex, nextMsgId, matchMsgId, cfgChangeIndex, snapshotting,
                   messages, writes>>

\* raft_process_read_queue: a server that no longer leads drops its reads; a
\* leader that applied an entry of its term serves, in order, the reads a
\* quorum acknowledged and whose index it applied.
QuorumMsgId(i) == QuorumValue(i, LAMBDA n : IF n = i THEN msgId[i] ELSE matchMsgId[i][n])
ReadOk(i, q) == q.msgId <= QuorumMsgId(i) /\ q.readIndex <= lastApplied[i]
ProcessReadQueue(i) ==
    /\ readQueue[i] # <<>>
    /\ \/ /\ state[i] # "leader"
          /\ reads' = [k \in DOMAIN reads |->
                         IF \E x \in 1..Len(readQueue[i]) : readQueue[i][x].id = k
                         THEN [reads[k] EXCEPT !.status = "dropped"] ELSE reads[k]]
          /\ readQueue' = [readQueue EXCEPT ![i] = <<>>]
       \/ /\ state[i] = "leader"
          /\ LastAppliedTerm(i) >= currentTerm[i]
          /\ ReadOk(i, Head(readQueue[i]))
          /\ LET q == readQueue[i]
                 n == CHOOSE n \in 1..Len(q) : (\A x \in 1..n : ReadOk(i, q[x]))
                                              /\ (n = Len(q) \/ ~ReadOk(i, q[n + 1]))
             IN /\ reads' = [k \in DOMAIN reads |->
                               IF \E x \in 1..n : q[x].id = k
                               THEN [reads[k] EXCEPT !.status = "served", !.index = lastApplied[i],
                                                     !.value = value[i]]
                               ELSE reads[k]]
                /\ readQueue' = [readQueue EXCEPT ![i] = SubSeq(q, n + 1, Len(q))]
    /\ UNCHANGED <<state, currentTerm, votedFor, leaderId, log, snapshotIndex, snapshotTerm,
                   snapshotValue, snapshotNodes, commitIndex, lastApplied, value, msgId, nodes,
                   votes, nextIndex, matchIndex, nextMsgId, matchMsgId, cfgChangeIndex,
                   snapshotting, messages, writes>>

(***************************************************************************)
(* Snapshots                                                               *)
(***************************************************************************)
NumSnapshottable(i) == IF Len(log[i]) <= 1 THEN 0 ELSE commitIndex[i] - snapshotIndex[i]

\* raft_begin_snapshot: every committed entry is applied, then applies wait
\* for the snapshot to end.
SnapshotBegin(i) ==
    /\ ~snapshotting[i]
    /\ NumSnapshottable(i) > 0
    /\ ApplyUpTo(i, commitIndex[i])
    /\ snapshotting' = [snapshotting EXCEPT ![i] = TRUE]
    /\ UNCHANGED <<state, currentTerm, votedFor, log, snapshotIndex, snapshotTerm, snapshotValue,
                   snapshotNodes, commitIndex, msgId, readQueue, messages, writes, reads>>

\* raft_end_snapshot: the snapshot holds the state at the last applied entry
\* and the configuration; the log keeps what comes after.  A leader sends it
\* to the active nodes whose next entry it compacted.
SnapshotEnd(i) ==
    /\ snapshotting[i]
    /\ LET k == lastApplied[i]
           T == IF state[i] = "leader"
                THEN {n \in Server \ {i} : IsActive(nodes[i][n]) /\ k > 0 /\ nextIndex[i][n] <= k}
                ELSE {}
           Snap(mid) == [type |-> "Snapshot", term |-> currentTerm[i], leader |-> i, msgId |-> mid,
                         snapshotIndex |-> k, snapshotTerm |-> LastAppliedTerm(i),
                         value |-> value[i], nodes |-> nodes[i]]
       IN /\ snapshotIndex' = [snapshotIndex EXCEPT ![i] = k]
          /\ snapshotTerm' = [snapshotTerm EXCEPT ![i] = LastAppliedTerm(i)]
          /\ snapshotValue' = [snapshotValue EXCEPT ![i] = value[i]]
          /\ snapshotNodes' = [snapshotNodes EXCEPT ![i] = nodes[i]]
          /\ log' = [log EXCEPT ![i] = After(i, k)]
          /\ snapshotting' = [snapshotting EXCEPT ![i] = FALSE]
          /\ messages' = [a \in Server |-> [b \in Server |->
                            IF a = i /\ b \in T
                            THEN Append(messages[a][b], Snap(msgId[i] + Rank(T, b)))
                            ELSE messages[a][b]]]
          /\ msgId' = [msgId EXCEPT ![i] = @ + Cardinality(T)]
          /\ nextIndex' = [nextIndex EXCEPT ![i] = [n \in Server |-> IF n \in T THEN k + 1 ELSE @[n]]]
    /\ UNCHANGED <<state, currentTerm, votedFor, leaderId, commitIndex, lastApplied, value, nodes,
                   votes, matchIndex, nextMsgId, matchMsgId, cfgChangeIndex, readQueue, writes, reads>>

\* raft_recv_snapshot: a newer snapshot is loaded with its configuration.
RecvSnapshot(i, j) ==
    /\ messages[j][i] # <<>>
    /\ Head1(i, j).type = "Snapshot"
    /\ ~snapshotting[i]
    /\ LET m == Head1(i, j)
       IN IF m.term < currentTerm[i]
          THEN /\ messages' = Reply(i, j, [type |-> "SnapshotResponse", msgId |-> m.msgId,
                                           snapshotIndex |-> m.snapshotIndex,
                                           term |-> currentTerm[i], success |-> FALSE])
               /\ UNCHANGED <<state, currentTerm, votedFor, leaderId, log, snapshotIndex,
                              snapshotTerm, snapshotValue, snapshotNodes, commitIndex,
                              lastApplied, value, nodes, cfgChangeIndex, bookVars>>
          ELSE
          LET t1 == Max(currentTerm[i], m.term)
              k == m.snapshotIndex
              load == k > CurrentIdx(i)
              selfSt == IF Present(m.nodes[i]) THEN m.nodes[i] ELSE "nonvoting"
              cfg == [n \in Server |-> IF n = i THEN selfSt ELSE m.nodes[n]]
          IN /\ currentTerm' = [currentTerm EXCEPT ![i] = t1]
             /\ votedFor' = [votedFor EXCEPT ![i] = IF m.term > currentTerm[i] THEN Nil ELSE @]
             /\ state' = [state EXCEPT ![i] = "follower"]
             /\ leaderId' = [leaderId EXCEPT ![i] = m.leader]
             /\ messages' = Reply(i, j, [type |-> "SnapshotResponse", msgId |-> m.msgId,
                                         snapshotIndex |-> k, term |-> t1, success |-> TRUE])
             /\ IF load
                THEN /\ log' = [log EXCEPT ![i] = <<>>]
                     /\ snapshotIndex' = [snapshotIndex EXCEPT ![i] = k]
                     /\ snapshotTerm' = [snapshotTerm EXCEPT ![i] = m.snapshotTerm]
                     /\ snapshotValue' = [snapshotValue EXCEPT ![i] = m.value]
                     /\ snapshotNodes' = [snapshotNodes EXCEPT ![i] = m.nodes]
                     /\ commitIndex' = [commitIndex EXCEPT ![i] = Max(@, k)]
                     /\ lastApplied' = [lastApplied EXCEPT ![i] = k]
                     /\ value' = [value EXCEPT ![i] = m.value]
                     /\ nodes' = [nodes EXCEPT ![i] = cfg]
                     /\ cfgChangeIndex' = [cfgChangeIndex EXCEPT ![i] = 0]
                     /\ votes' = [votes EXCEPT ![i] = [n \in Server |-> FALSE]]
                     /\ nextIndex' = [nextIndex EXCEPT ![i] = [n \in Server |->
                                        IF n = i THEN @[n] ELSE FreshNext(cfg[n])]]
                     /\ matchIndex' = [matchIndex EXCEPT ![i] = [n \in Server |-> IF n = i THEN @[n] ELSE 0]]
                     /\ nextMsgId' = [nextMsgId EXCEPT ![i] = [n \in Server |-> IF n = i THEN @[n] ELSE 0]]
                     /\ matchMsgId' = [matchMsgId EXCEPT ![i] = [n \in Server |-> IF n = i THEN @[n] ELSE 0]]
                ELSE UNCHANGED <<log, snapshotIndex, snapshotTerm, snapshotValue, snapshotNodes,
                                 commitIndex, lastApplied, value, nodes, cfgChangeIndex, bookVars>>
    /\ UNCHANGED <<msgId, snapshotting, readQueue, writes, reads>>

\* raft_recv_snapshot_response (a higher term is BecomeFollower).
RecvSnapshotResponse(i, j) ==
    /\ messages[j][i] # <<>>
    /\ Head1(i, j).type = "SnapshotResponse"
    /\ ~HigherTerm(i, j)
    /\ LET m == Head1(i, j)
           ignored == ~Present(nodes[i][j]) \/ state[i] # "leader"
                      \/ m.term < currentTerm[i] \/ m.msgId < matchMsgId[i][j]
       IN IF ignored
          THEN UNCHANGED <<nextIndex, matchMsgId>>
          ELSE /\ matchMsgId' = [matchMsgId EXCEPT ![i][j] = m.msgId]
               /\ nextIndex' = [nextIndex EXCEPT ![i][j] =
                                  IF m.snapshotIndex = snapshotIndex[i] /\ m.success
                                  THEN Max(snapshotIndex[i] + 1, @) ELSE @]
    /\ messages' = Pop(i, j)
    /\ UNCHANGED <<state, currentTerm, votedFor, leaderId, log, snapshotIndex, snapshotTerm,
                   snapshotValue, snapshotNodes, commitIndex, lastApplied, value, msgId, nodes,
                   votes, matchIndex, nextMsgId, cfgChangeIndex, snapshotting, readQueue,
                   writes, reads>>

Next ==
    \/ \E i \in Server :
         \/ ElectionStart(i) \/ SendHeartbeat(i) \/ RecvEntry(i) \/ RecvReadRequest(i)
         \/ LogCommit(i) \/ ApplyEntry(i) \/ ProcessReadQueue(i)
         \/ SnapshotBegin(i) \/ SnapshotEnd(i)
    \/ \E i, j \in Server :
         \/ RecvRequestVote(i, j) \/ RecvRequestVoteResponse(i, j)
         \/ BecomeCandidate(i, j) \/ BecomeLeader(i, j) \/ BecomeFollower(i, j)
         \/ RecvAppendEntries(i, j) \/ RecvAppendEntriesResponse(i, j)
         \/ SendAppendEntries(i, j) \/ RecvSnapshot(i, j) \/ RecvSnapshotResponse(i, j)
    \/ \E i, n \in Server : AddNode(i, n) \/ RemoveNode(i, n)

Spec == Init /\ [][Next]_vars /\ WF_vars(Next)
=============================================================================
