------------------------- MODULE zookeeperInvariants -------------------------
(***************************************************************************)
(* The zookeeper task's properties, over the pinned names of module        *)
(* `zookeeper`: variables state, up, currentEpoch, lastZxid, logicalclock, *)
(* vote, recvset, outofelection, finalizing, messages, crashes; constants  *)
(* NumServers, MaxRound, MaxCrashes.  Peers are 1..NumServers.             *)
(*                                                                         *)
(* This module EXTENDS `zookeeper`, so it is checked against whichever     *)
(* module of that name sits beside it.  Add the lines of invariants.cfg to *)
(* the model's .cfg.  Every template of the task is here; the names below  *)
(* are prefixed ZK so as not to clash with a model's own definitions.      *)
(* The templates speak of votedFor[s] and votes[s]: here they are          *)
(* vote[s].leader and the senders whose vote, in recvset or outofelection, *)
(* is for s.                                                               *)
(***************************************************************************)
EXTENDS zookeeper

ZKServer == 1..NumServers
ZKStates == {"LOOKING", "FOLLOWING", "LEADING"}
ZKQuorum(S) == Cardinality(S) * 2 > NumServers
\* The senders whose vote, as s keeps it, is for peer l.
ZKVotesFor(s, l) ==
    {j \in DOMAIN recvset[s] : recvset[s][j].leader = l}
        \cup {j \in DOMAIN outofelection[s] : outofelection[s][j].leader = l}
ZKVotes(s) == ZKVotesFor(s, s)
ZKLeading(s) == up[s] /\ state[s] = "LEADING"
ZKFollowers(s) == {j \in ZKServer : up[j] /\ state[j] = "FOLLOWING" /\ vote[j].leader = s}
\* The vote order of totalOrderPredicate, as a comparison: is a older than b?
ZKOlder(a, b) ==
    \/ a.epoch < b.epoch
    \/ a.epoch = b.epoch /\ (a.zxid < b.zxid \/ (a.zxid = b.zxid /\ a.leader < b.leader))
ZKOwn(s) == [leader |-> s, zxid |-> lastZxid[s], epoch |-> currentEpoch[s]]
\* No peer can start a new round any more: some peer reached MaxRound.
ZKRoundsOver == \E s \in ZKServer : logicalclock[s] >= MaxRound

\* [safety] LeaderUniqueness: two leaders that a quorum each supports (the
\* leader and the peers up that follow it) are one.  The template's form
\* (at most one LEADING peer per round) is not a property of the election
\* alone: peers 2 and 3 start, 3 takes 2's vote and 2 leads round 1 on
\* {2, 3}; peer 1 starts late, in round 1, 3 (still looking) takes its better
\* vote and 1 leads round 1 too on {1, 3}.  ZooKeeper relies on Zab's epoch
\* agreement after the election (left out here) to keep two such leaders
\* from both leading; what the election keeps is that no two leaders are
\* each followed by a quorum.
LeaderUniqueness ==
    \A i, j \in ZKServer :
        (ZKLeading(i) /\ ZKLeading(j) /\ ZKQuorum(ZKFollowers(i) \cup {i}) /\ ZKQuorum(ZKFollowers(j) \cup {j}))
            => i = j

\* [safety] StateValidity: every peer is LOOKING, FOLLOWING or LEADING; a
\* peer that is down is LOOKING, in no round and in no final wait.
StateValidity ==
    \A s \in ZKServer :
        /\ state[s] \in ZKStates
        /\ ~up[s] => state[s] = "LOOKING" /\ logicalclock[s] = 0 /\ ~finalizing[s]
        /\ finalizing[s] => state[s] = "LOOKING"

\* [safety] EpochMonotonicity: epochs are non-negative, a leader's positive;
\* a peer that is up is in a round of at least 1, at most MaxRound.
EpochMonotonicity ==
    \A s \in ZKServer :
        /\ currentEpoch[s] >= 0
        /\ state[s] = "LEADING" => currentEpoch[s] > 0
        /\ up[s] => logicalclock[s] \in 1..MaxRound

\* [safety] LeaderVotesForSelf: a leader's vote is for itself.
LeaderVotesForSelf == \A s \in ZKServer : state[s] = "LEADING" => vote[s].leader = s

\* [safety] FollowerHasLeader: a follower's vote is for another peer.
FollowerHasLeader == \A s \in ZKServer : state[s] = "FOLLOWING" => vote[s].leader \in ZKServer \ {s}

\* [safety] VoteRecencyConsistency: zxids are non-negative, and a peer that
\* looks never proposes a vote older (by epoch, then zxid, then id) than
\* its own: a vote is only ever replaced by a better one.  The bug switch
\* breaks this.
VoteRecencyConsistency ==
    \A s \in ZKServer :
        /\ lastZxid[s] >= 0
        /\ (up[s] /\ state[s] = "LOOKING") => ~ZKOlder(vote[s], ZKOwn(s))

\* [safety] QuorumVoteValidity: the votes a peer keeps are from peers and
\* for peers.
QuorumVoteValidity ==
    \A s \in ZKServer :
        /\ DOMAIN recvset[s] \subseteq ZKServer
        /\ DOMAIN outofelection[s] \subseteq ZKServer
        /\ \A j \in DOMAIN recvset[s] : recvset[s][j].leader \in ZKServer
        /\ \A j \in DOMAIN outofelection[s] : outofelection[s][j].leader \in ZKServer

\* [safety] SelfVoteInclusion: a leader's vote is its own vote, its own
\* history.  The template's form (the leader is among the senders it
\* counted) is not kept: in its final wait a peer drops a notification that
\* does not beat its vote, its own included, so a leader may have counted
\* two other peers' votes and never its own.
SelfVoteInclusion == \A s \in ZKServer : state[s] = "LEADING" => vote[s] = ZKOwn(s)

\* [safety] LeaderHasQuorum: a leader counted a quorum of votes for itself.
LeaderHasQuorum == \A s \in ZKServer : state[s] = "LEADING" => ZKQuorum(ZKVotes(s))

\* [safety] FollowerHasQuorum: a follower counted a quorum of votes for its
\* leader (the follower's side of termPredicate).
FollowerHasQuorum ==
    \A s \in ZKServer : state[s] = "FOLLOWING" => ZKQuorum(ZKVotesFor(s, vote[s].leader))

\* [liveness] EventualLeaderElection: a leader is elected, unless the rounds
\* the runs allow are over.  The runs are finite (a peer leaves FOLLOWING or
\* LEADING only below MaxRound), so a run may end with followers of a peer
\* that restarted in an older round and can never lead them.
EventualLeaderElection == <>((\E s \in ZKServer : ZKLeading(s)) \/ ZKRoundsOver)

\* [liveness] ElectionConvergence: a peer in its final wait leaves it (it
\* decides, a better vote ends the wait, or it crashes).  The template's
\* form, that a peer looking forever eventually decides, is false of a peer
\* whose round is behind followers of MaxRound that wait for a leader that
\* is no longer there.
ElectionConvergence == \A s \in ZKServer : finalizing[s] ~> ~finalizing[s]
=============================================================================
