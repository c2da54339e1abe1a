------------------------- MODULE redisraftInvariants -------------------------
(***************************************************************************)
(* The redisraft task's properties, over the pinned names of module        *)
(* `redisraft`: variables state, currentTerm, votedFor, leaderId, log,     *)
(* snapshotIndex, snapshotTerm, snapshotValue, snapshotNodes, commitIndex, *)
(* lastApplied, value, msgId, nodes, votes, nextIndex, matchIndex,         *)
(* nextMsgId, matchMsgId, cfgChangeIndex, snapshotting, readQueue,         *)
(* messages, writes, reads; constants NumServers, MaxTerm, MaxIndex,       *)
(* MaxMsgId, NumReads.  Servers are 1..NumServers and 0 is no server.      *)
(* log[s] holds the entries after the snapshot: index k is                 *)
(* log[s][k - snapshotIndex[s]].                                           *)
(*                                                                         *)
(* This module EXTENDS `redisraft`, so it is checked against whichever     *)
(* module of that name sits beside it.  Add the lines of invariants.cfg to *)
(* the model's .cfg.  Every template of the task is here; the names below  *)
(* are prefixed RR so as not to clash with a model's own definitions.      *)
(***************************************************************************)
EXTENDS redisraft

RRServer == 1..NumServers
RRNil == 0
RRStates == {"follower", "precandidate", "candidate", "leader"}
RRMin(a, b) == IF a < b THEN a ELSE b
RRCur(s) == snapshotIndex[s] + Len(log[s])
\* Whether s still holds the entry at index k (not in its snapshot).
RRHas(s, k) == snapshotIndex[s] < k /\ k <= RRCur(s)
RREntry(s, k) == log[s][k - snapshotIndex[s]]
RRTerm(s, k) == IF k = 0 THEN 0 ELSE IF k = snapshotIndex[s] THEN snapshotTerm[s] ELSE RREntry(s, k).term
RRVoting(s, n) == nodes[s][n] \in {"voting", "removing"}
RRMaxTerm == CHOOSE t \in {currentTerm[s] : s \in RRServer} : \A s \in RRServer : currentTerm[s] <= t

\* [safety] LogInv: committed entries never conflict between servers (where
\* both still hold them).
LogInv ==
    \A i, j \in RRServer : \A k \in 1..RRMin(commitIndex[i], commitIndex[j]) :
        RRHas(i, k) /\ RRHas(j, k) => RREntry(i, k) = RREntry(j, k)

\* [safety] MoreThanOneLeaderInv: at most one leader per term.
MoreThanOneLeaderInv ==
    \A i, j \in RRServer :
        (currentTerm[i] = currentTerm[j] /\ state[i] = "leader" /\ state[j] = "leader") => i = j

\* [safety] LogMatchingInv: two entries of the same index and term have the
\* same entries before them (where both servers still hold them).
LogMatchingInv ==
    \A i, j \in RRServer : i # j =>
        \A k \in 1..RRMin(RRCur(i), RRCur(j)) :
            (RRHas(i, k) /\ RRHas(j, k) /\ RREntry(i, k).term = RREntry(j, k).term) =>
                \A x \in 1..k : RRHas(i, x) /\ RRHas(j, x) => RREntry(i, x) = RREntry(j, x)

\* [safety] RaftStateTransitionInv: the four states; a leader has a term; a
\* candidate has voted for itself (when it is a voting member: a server the
\* configuration does not count votes for nobody) and has a term.
RaftStateTransitionInv ==
    \A n \in RRServer :
        /\ state[n] \in RRStates
        /\ state[n] = "leader" => currentTerm[n] > 0
        /\ state[n] = "candidate" => currentTerm[n] > 0 /\ (RRVoting(n, n) => votedFor[n] = n)
        /\ state[n] = "precandidate" => currentTerm[n] >= 0

\* [safety] PreCandidateTermStabilityInv: a pre-candidate has not moved to the
\* term it asks pre-votes for, and its vote is a server or none.
PreCandidateTermStabilityInv ==
    \A n \in RRServer :
        state[n] = "precandidate" =>
            /\ currentTerm[n] >= 0
            /\ votedFor[n] \in RRServer \cup {RRNil}
            /\ \A j \in RRServer : \A x \in 1..Len(messages[n][j]) :
                  LET m == messages[n][j][x]
                  IN m.type = "RequestVote" /\ m.prevote => m.term <= currentTerm[n] + 1

\* [safety] ElectionTimeoutConsistencyInv: the system has no clock (a timer
\* that fires is a step), so there is no elapsed time to bound; what remains
\* is that only a non-leader's timer starts an election: a leader never asks
\* for votes in its own term.
ElectionTimeoutConsistencyInv ==
    \A n \in RRServer : state[n] = "leader" =>
        \A j \in RRServer : \A x \in 1..Len(messages[n][j]) :
            messages[n][j][x].type = "RequestVote" => messages[n][j][x].term <= currentTerm[n]

\* [safety] VoteConsistencyInv: a vote is given in a term; a voting candidate
\* voted for itself; a vote is a server or none.
VoteConsistencyInv ==
    \A n \in RRServer :
        /\ votedFor[n] # RRNil => currentTerm[n] > 0
        /\ (state[n] = "candidate" /\ RRVoting(n, n)) => votedFor[n] = n
        /\ votedFor[n] \in RRServer \cup {RRNil}

\* [safety] LeaderLogCompletenessInv: a leader of the highest term holds every
\* committed entry of every server (where both still hold it).
LeaderLogCompletenessInv ==
    \A l \in RRServer : (state[l] = "leader" /\ currentTerm[l] = RRMaxTerm) =>
        \A f \in RRServer : \A k \in 1..commitIndex[f] :
            /\ k <= RRCur(l)
            /\ RRHas(l, k) /\ RRHas(f, k) => RREntry(l, k) = RREntry(f, k)

\* [safety] TermValidityInv: terms are natural numbers; a leader's is positive.
TermValidityInv ==
    \A n \in RRServer : currentTerm[n] >= 0 /\ (state[n] = "leader" => currentTerm[n] > 0)

\* [safety] CommitIndexConsistencyInv: the commit index is within the log and
\* its entry is of a term the server has reached; applied entries are
\* committed.
CommitIndexConsistencyInv ==
    \A n \in RRServer :
        /\ commitIndex[n] <= RRCur(n)
        /\ commitIndex[n] >= snapshotIndex[n]
        /\ lastApplied[n] <= commitIndex[n]
        /\ commitIndex[n] > 0 => RRTerm(n, commitIndex[n]) <= currentTerm[n]

\* [safety] AppendEntriesConsistencyInv: the template asks that every append
\* entries in flight match its receiver's log, which Raft does not promise
\* (that is why a receiver can refuse one).  What the code keeps: an append
\* entries a leader sent in its current term agrees with the leader's log,
\* which it only appends to.
AppendEntriesConsistencyInv ==
    \A l, f \in RRServer : (state[l] = "leader") =>
        \A x \in 1..Len(messages[l][f]) :
            LET m == messages[l][f][x]
            IN (m.type = "AppendEntries" /\ m.term = currentTerm[l]) =>
                /\ (m.prevLogIndex = 0 \/ RRHas(l, m.prevLogIndex) \/ m.prevLogIndex = snapshotIndex[l]) =>
                      RRTerm(l, m.prevLogIndex) = m.prevLogTerm
                /\ \A e \in 1..Len(m.entries) :
                      RRHas(l, m.prevLogIndex + e) => RREntry(l, m.prevLogIndex + e) = m.entries[e]

\* [safety] RequestVoteTermConsistencyInv: a vote request's terms and index
\* are natural numbers, and its last log term is not above the term it asks.
RequestVoteTermConsistencyInv ==
    \A i, j \in RRServer : \A x \in 1..Len(messages[i][j]) :
        LET m == messages[i][j][x]
        IN m.type = "RequestVote" =>
             /\ m.term >= 0 /\ m.lastLogTerm >= 0 /\ m.lastLogIndex >= 0
             /\ m.lastLogTerm <= m.term

\* [safety] NextIndexConsistencyInv: a leader's next index for every other node
\* it knows is within 1..its last index + 1.
NextIndexConsistencyInv ==
    \A l \in RRServer : state[l] = "leader" =>
        \A f \in RRServer : (f # l /\ nodes[l][f] # "absent") =>
            /\ nextIndex[l][f] >= 1
            /\ nextIndex[l][f] <= RRCur(l) + 1

\* [safety] MatchIndexConsistencyInv: a leader's match index for a node of its
\* term does not exceed that node's log, nor the leader's own.
MatchIndexConsistencyInv ==
    \A l \in RRServer : state[l] = "leader" =>
        \A f \in RRServer : (f # l /\ nodes[l][f] # "absent") =>
            /\ matchIndex[l][f] <= RRCur(l)
            /\ currentTerm[f] = currentTerm[l] => matchIndex[l][f] <= RRCur(f)

\* [safety] LinearizableReads (the bug's): a read served returns the state at
\* an index at least the highest commit index of any server when it was
\* issued, so it sees every write completed before it.
LinearizableReads ==
    \A k \in DOMAIN reads : reads[k].status = "served" => reads[k].index >= reads[k].floor

\* Elections are over: every follower and candidate has reached MaxTerm, so
\* no election timer fires any more.
RRElectionsOver == \A n \in RRServer : state[n] \in {"follower", "candidate"} => currentTerm[n] >= MaxTerm

\* [liveness] EventualLeaderElectionLiveness: there is a leader infinitely
\* often, unless the elections the runs allow are over.  The system's runs are
\* finite (elections stop at MaxTerm, clients stop), so the template's form,
\* []<>(\E n : state[n] = "leader"), is false of it: a vote split three ways in
\* term MaxTerm ends a run with no leader.
EventualLeaderElectionLiveness == []<>((\E n \in RRServer : state[n] = "leader") \/ RRElectionsOver)

\* [liveness] ElectionProgressLiveness: the template asks that a follower whose
\* election timer elapsed become a (pre-)candidate; with no clock, what it
\* means here is that every read issued ends, served or dropped.
ElectionProgressLiveness ==
    \A k \in 1..NumReads : [](k \in DOMAIN reads => <>(k \in DOMAIN reads /\ reads[k].status # "pending"))
=============================================================================
