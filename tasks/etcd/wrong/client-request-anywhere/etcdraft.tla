------------------------------- MODULE etcdraft -------------------------------
(***************************************************************************)
(* Reference model of the etcd Raft task: Raft with PreVote as etcd's      *)
(* raft.go (v3.5) runs it, CheckQuorum off, no snapshots, no configuration *)
(* changes.  One action is one event the system records: an election      *)
(* timeout, a heartbeat timeout, a client proposal, a restart, or the      *)
(* handling of one message by one node (etcd's Step, including its term    *)
(* rules, followed by the role's step function).                           *)
(*                                                                         *)
(* Observed (pinned) variables: currentTerm, votedFor, state, lead, log    *)
(* (each entry is its term), commitIndex.  Hidden variables:               *)
(*   msgs      every message ever sent.  A message is never removed: the   *)
(*             network may deliver it late, more than once or never, in    *)
(*             any order, so loss, delay, duplication and reordering need  *)
(*             no action of their own.                                     *)
(*   granted, rejected   the (pre-)votes a (pre-)candidate has counted.    *)
(*   matchIndex  the leader's match index of each peer.                    *)
(*                                                                         *)
(* Abstraction of the leader's next index (see ../NOTES.md): a MsgApp      *)
(* carries the leader's whole log at the time it is sent; the receiver     *)
(* handles it as the message for any previous index p the leader could    *)
(* have chosen (entries p+1 to the leader's last index, as a leader sends  *)
(* a follower everything it lacks).  Every p an etcd leader would choose  *)
(* is one of them, so every behaviour of the system is one of the         *)
(* model's; the entries are always a slice of one leader's log, so        *)
(* Raft's safety argument is unchanged.                                    *)
(***************************************************************************)
EXTENDS Naturals, Sequences, FiniteSets

CONSTANTS Servers, MaxTerm, MaxLogLen

VARIABLES currentTerm, votedFor, state, lead, log, commitIndex,
          msgs, granted, rejected, matchIndex

vars == <<currentTerm, votedFor, state, lead, log, commitIndex,
          msgs, granted, rejected, matchIndex>>

None == 0
States == {"Follower", "PreCandidate", "Candidate", "Leader"}

Max(a, b) == IF a >= b THEN a ELSE b
Min(a, b) == IF a <= b THEN a ELSE b

LastTerm(l) == IF l = <<>> THEN 0 ELSE l[Len(l)]

IsQuorum(S) == 2 * Cardinality(S) > Cardinality(Servers)

\* etcd's raftLog.isUpToDate: a candidate's (last index, last term) against ours.
UpToDate(i, mindex, mlogterm) ==
    \/ mlogterm > LastTerm(log[i])
    \/ mlogterm = LastTerm(log[i]) /\ mindex >= Len(log[i])

\* One message shape for every type (unused fields 0, <<>> or FALSE).
Msg(type, from, to, term, index, logterm, ents, commit, reject) ==
    [mtype |-> type, msource |-> from, mdest |-> to, mterm |-> term,
     mindex |-> index, mlogterm |-> logterm, mentries |-> ents,
     mcommit |-> commit, mreject |-> reject]

Reply(m, type, term, index, reject) ==
    Msg(type, m.mdest, m.msource, term, index, 0, <<>>, 0, reject)

NoMatch == [k \in Servers |-> 0]

\* MsgApp from leader i to each peer: its whole log and its commit index.
AppsFrom(i, term, lg, commit, peers) ==
    {Msg("MsgApp", i, k, term, 0, 0, lg, commit, FALSE) : k \in peers}

TypeOK ==
    /\ currentTerm \in [Servers -> Nat]
    /\ votedFor \in [Servers -> Servers \cup {None}]
    /\ state \in [Servers -> States]
    /\ lead \in [Servers -> Servers \cup {None}]
    /\ log \in [Servers -> Seq(Nat)]
    /\ commitIndex \in [Servers -> Nat]
    /\ granted \in [Servers -> SUBSET Servers]
    /\ rejected \in [Servers -> SUBSET Servers]
    /\ matchIndex \in [Servers -> [Servers -> Nat]]

Init ==
    /\ currentTerm = [n \in Servers |-> 0]
    /\ votedFor = [n \in Servers |-> None]
    /\ state = [n \in Servers |-> "Follower"]
    /\ lead = [n \in Servers |-> None]
    /\ log = [n \in Servers |-> <<>>]
    /\ commitIndex = [n \in Servers |-> 0]
    /\ msgs = {}
    /\ granted = [n \in Servers |-> {}]
    /\ rejected = [n \in Servers |-> {}]
    /\ matchIndex = [n \in Servers |-> NoMatch]

\* The message j sent to i of the given type.
Incoming(i, j, type) == {m \in msgs : m.mtype = type /\ m.mdest = i /\ m.msource = j}

-----------------------------------------------------------------------------
(* Timers, proposals, crashes.                                             *)

\* MsgHup with PreVote: becomePreCandidate (term and vote unchanged, leader
\* forgotten, votes reset with its own grant) and MsgPreVote at term+1 with
\* its last index and term.  A leader does not campaign.
Timeout(i) ==
    /\ state[i] # "Leader"
    /\ currentTerm[i] < MaxTerm
    /\ state' = [state EXCEPT ![i] = "PreCandidate"]
    /\ lead' = [lead EXCEPT ![i] = None]
    /\ granted' = [granted EXCEPT ![i] = {i}]
    /\ rejected' = [rejected EXCEPT ![i] = {}]
    /\ msgs' = msgs \cup {Msg("MsgPreVote", i, k, currentTerm[i] + 1, Len(log[i]),
                              LastTerm(log[i]), <<>>, 0, FALSE) : k \in Servers \ {i}}
    /\ UNCHANGED <<currentTerm, votedFor, log, commitIndex, matchIndex>>

\* MsgProp at any node (wrong: the code takes a proposal only at the leader):
\* one entry of its term, then MsgApp to every peer.
ClientRequest(i) ==
    /\ Len(log[i]) < MaxLogLen
    /\ LET lg == Append(log[i], currentTerm[i]) IN
       /\ log' = [log EXCEPT ![i] = lg]
       /\ msgs' = msgs \cup AppsFrom(i, currentTerm[i], lg, commitIndex[i], Servers \ {i})
    /\ UNCHANGED <<currentTerm, votedFor, state, lead, commitIndex, granted, rejected, matchIndex>>

\* MsgBeat: a heartbeat to each peer carrying min(peer's match, commit).
HeartbeatTimeout(i) ==
    /\ state[i] = "Leader"
    /\ msgs' = msgs \cup {Msg("MsgHeartbeat", i, k, currentTerm[i], 0, 0, <<>>,
                              Min(matchIndex[i][k], commitIndex[i]), FALSE) : k \in Servers \ {i}}
    /\ UNCHANGED <<currentTerm, votedFor, state, lead, log, commitIndex, granted, rejected, matchIndex>>

\* Crash and restart: HardState (term, vote, commit) and the log survive;
\* the node comes back as a follower without a leader; votes counted and
\* progress are lost.  Messages in flight stay in the network (they may
\* still be delivered, or never).
Restart(i) ==
    /\ state' = [state EXCEPT ![i] = "Follower"]
    /\ lead' = [lead EXCEPT ![i] = None]
    /\ granted' = [granted EXCEPT ![i] = {}]
    /\ rejected' = [rejected EXCEPT ![i] = {}]
    /\ matchIndex' = [matchIndex EXCEPT ![i] = NoMatch]
    /\ UNCHANGED <<currentTerm, votedFor, log, commitIndex, msgs>>

-----------------------------------------------------------------------------
(* Handling a message.  etcd's Step first compares terms:                  *)
(*  - higher term: the receiver becomes a follower at that term (vote and  *)
(*    leader cleared; the leader is the sender for MsgApp/MsgHeartbeat),   *)
(*    except for MsgPreVote and a granted MsgPreVoteResp, which never      *)
(*    change the receiver's term;                                          *)
(*  - lower term: MsgApp and MsgHeartbeat are answered with a plain        *)
(*    MsgAppResp at the receiver's term (so a stale leader steps down),    *)
(*    MsgPreVote with a rejection at the receiver's term, anything else is *)
(*    ignored;                                                             *)
(*  - then the role's step function handles the message.                   *)
(* Each handler below computes the state after Step's term rule (term1,    *)
(* vote1, state1, lead1, stepped) and continues from it.                   *)

StepsDown(i, m) ==
    /\ m.mterm > currentTerm[i]
    /\ m.mtype # "MsgPreVote"
    /\ ~(m.mtype = "MsgPreVoteResp" /\ ~m.mreject)

\* becomeFollower(term, ld) of node i, with the other variables' updates
\* left to the caller: returns the new values as a record.
AfterStep(i, m) ==
    IF StepsDown(i, m)
    THEN [term |-> m.mterm, vote |-> None, st |-> "Follower",
          ld |-> IF m.mtype \in {"MsgApp", "MsgHeartbeat"} THEN m.msource ELSE None,
          stepped |-> TRUE]
    ELSE [term |-> currentTerm[i], vote |-> votedFor[i], st |-> state[i],
          ld |-> lead[i], stepped |-> FALSE]

\* Sets node i's term, vote, role and leader; a node that became a
\* follower forgets its votes and its progress (etcd's reset()).
SetRole(i, term, vote, st, ld, reset) ==
    /\ currentTerm' = [currentTerm EXCEPT ![i] = term]
    /\ votedFor' = [votedFor EXCEPT ![i] = vote]
    /\ state' = [state EXCEPT ![i] = st]
    /\ lead' = [lead EXCEPT ![i] = ld]
    /\ IF reset
       THEN /\ granted' = [granted EXCEPT ![i] = {}]
            /\ rejected' = [rejected EXCEPT ![i] = {}]
            /\ matchIndex' = [matchIndex EXCEPT ![i] = NoMatch]
       ELSE UNCHANGED <<granted, rejected, matchIndex>>

\* A message with a lower term that the receiver ignores (or answers),
\* changing nothing else.
Stale(i, m) ==
    /\ m.mterm < currentTerm[i]
    /\ msgs' = IF m.mtype \in {"MsgApp", "MsgHeartbeat"}
               THEN msgs \cup {Reply(m, "MsgAppResp", currentTerm[i], 0, FALSE)}
               ELSE IF m.mtype = "MsgPreVote"
               THEN msgs \cup {Reply(m, "MsgPreVoteResp", currentTerm[i], 0, TRUE)}
               ELSE msgs
    /\ UNCHANGED <<currentTerm, votedFor, state, lead, log, commitIndex, granted, rejected, matchIndex>>

\* A message after which only Step's term rule acts (the role ignores it).
OnlyStep(i, m) ==
    LET s == AfterStep(i, m) IN
    /\ SetRole(i, s.term, s.vote, s.st, s.ld, s.stepped)
    /\ UNCHANGED <<log, commitIndex, msgs>>

\* MsgPreVote / MsgVote: grant when the receiver can vote (it voted for j
\* already, or it has neither voted nor a leader, or it is a pre-vote for
\* a higher term) and j's log is at least as up to date.  A grant carries
\* the request's term, a rejection the receiver's; a granted MsgVote
\* records the vote.
HandleVote(i, j, m, prevote) ==
    LET s == AfterStep(i, m)
        canVote == \/ s.vote = j
                   \/ s.vote = None /\ s.ld = None
                   \/ prevote /\ m.mterm > s.term
        grant == canVote /\ UpToDate(i, m.mindex, m.mlogterm)
        rtype == IF prevote THEN "MsgPreVoteResp" ELSE "MsgVoteResp"
    IN
    /\ SetRole(i, s.term, IF grant /\ ~prevote THEN j ELSE s.vote, s.st, s.ld, s.stepped)
    /\ msgs' = msgs \cup {IF grant THEN Reply(m, rtype, m.mterm, 0, FALSE)
                          ELSE Reply(m, rtype, s.term, 0, TRUE)}
    /\ UNCHANGED <<log, commitIndex>>

HandlePreVoteRequest(i, j) ==
    \E m \in Incoming(i, j, "MsgPreVote") :
        IF m.mterm < currentTerm[i] THEN Stale(i, m) ELSE HandleVote(i, j, m, TRUE)

HandleVoteRequest(i, j) ==
    \E m \in Incoming(i, j, "MsgVote") :
        IF m.mterm < currentTerm[i] THEN Stale(i, m) ELSE HandleVote(i, j, m, FALSE)

\* becomeLeader: lead itself, progress reset, an empty entry of its term
\* appended, MsgApp to every peer.
BecomeLeader(i) ==
    LET lg == Append(log[i], currentTerm[i]) IN
    /\ state' = [state EXCEPT ![i] = "Leader"]
    /\ lead' = [lead EXCEPT ![i] = i]
    /\ log' = [log EXCEPT ![i] = lg]
    /\ matchIndex' = [matchIndex EXCEPT ![i] = NoMatch]
    /\ granted' = [granted EXCEPT ![i] = {}]
    /\ rejected' = [rejected EXCEPT ![i] = {}]
    /\ msgs' = msgs \cup AppsFrom(i, currentTerm[i], lg, commitIndex[i], Servers \ {i})
    /\ UNCHANGED <<currentTerm, votedFor, commitIndex>>

\* becomeCandidate and the election campaign: term+1, vote for itself,
\* MsgVote to every peer.
BecomeCandidate(i) ==
    /\ currentTerm' = [currentTerm EXCEPT ![i] = currentTerm[i] + 1]
    /\ votedFor' = [votedFor EXCEPT ![i] = i]
    /\ state' = [state EXCEPT ![i] = "Candidate"]
    /\ lead' = [lead EXCEPT ![i] = None]
    /\ granted' = [granted EXCEPT ![i] = {i}]
    /\ rejected' = [rejected EXCEPT ![i] = {}]
    /\ matchIndex' = [matchIndex EXCEPT ![i] = NoMatch]
    /\ msgs' = msgs \cup {Msg("MsgVote", i, k, currentTerm[i] + 1, Len(log[i]),
                              LastTerm(log[i]), <<>>, 0, FALSE) : k \in Servers \ {i}}
    /\ UNCHANGED <<log, commitIndex>>

\* A (pre-)candidate records j's answer (the first answer of each voter
\* counts) and polls: a quorum of grants wins, a quorum of rejections
\* loses (back to follower, same term).
Poll(i, j, m, win) ==
    LET g == IF j \in granted[i] \cup rejected[i] \/ m.mreject THEN granted[i] ELSE granted[i] \cup {j}
        r == IF j \in granted[i] \cup rejected[i] \/ ~m.mreject THEN rejected[i] ELSE rejected[i] \cup {j}
    IN
    IF IsQuorum(g) THEN win
    ELSE IF IsQuorum(r)
    THEN /\ SetRole(i, currentTerm[i], votedFor[i], "Follower", None, TRUE)
         /\ UNCHANGED <<log, commitIndex, msgs>>
    ELSE /\ granted' = [granted EXCEPT ![i] = g]
         /\ rejected' = [rejected EXCEPT ![i] = r]
         /\ UNCHANGED <<currentTerm, votedFor, state, lead, log, commitIndex, msgs, matchIndex>>

HandlePreVoteResponse(i, j) ==
    \E m \in Incoming(i, j, "MsgPreVoteResp") :
        IF m.mterm < currentTerm[i] THEN Stale(i, m)
        ELSE IF StepsDown(i, m) \/ state[i] # "PreCandidate" THEN OnlyStep(i, m)
        ELSE Poll(i, j, m, BecomeCandidate(i))

HandleVoteResponse(i, j) ==
    \E m \in Incoming(i, j, "MsgVoteResp") :
        IF m.mterm < currentTerm[i] THEN Stale(i, m)
        ELSE IF StepsDown(i, m) \/ state[i] # "Candidate" THEN OnlyStep(i, m)
        ELSE Poll(i, j, m, BecomeLeader(i))

\* The log after appending entries p+1..q of `ents` behind a matching index
\* p (etcd's maybeAppend: the first conflicting or new index ci; nothing
\* changes when there is none, else the log is cut before ci and the rest
\* appended).
Merge(lg, ents, p, q) ==
    LET conflicts == {k \in (p + 1)..q : k > Len(lg) \/ lg[k] # ents[k]} IN
    IF conflicts = {} THEN lg
    ELSE LET ci == CHOOSE k \in conflicts : \A x \in conflicts : k <= x IN
         SubSeq(lg, 1, ci - 1) \o SubSeq(ents, ci, q)

Matches(lg, ents, p) ==
    IF p = 0 THEN TRUE ELSE IF p > Len(lg) THEN FALSE ELSE lg[p] = ents[p]

\* MsgApp from leader j at i's term (after Step): a follower follows j; a
\* (pre-)candidate becomes j's follower; then handleAppendEntries with the
\* previous index p the leader chose (its next index for i, less one) and
\* the entries after it up to the leader's last index q at sending:
\*  - p below i's commit: answered with the commit index, nothing changes;
\*  - p matches: entries appended, commit = max(commit, min(leader commit,
\*    q)), accepted with index q;
\*  - p does not match: rejected (hint: i's last index), nothing changes.
HandleAppendEntriesRequest(i, j) ==
    \E m \in Incoming(i, j, "MsgApp") :
        IF m.mterm < currentTerm[i] THEN Stale(i, m)
        ELSE LET s == AfterStep(i, m) IN
        IF s.st = "Leader" THEN OnlyStep(i, m)
        ELSE
        /\ SetRole(i, s.term, s.vote, "Follower", j, s.stepped \/ s.st # "Follower")
        /\ \/ /\ commitIndex[i] > 0
              /\ msgs' = msgs \cup {Reply(m, "MsgAppResp", s.term, commitIndex[i], FALSE)}
              /\ UNCHANGED <<log, commitIndex>>
           \/ LET q == Len(m.mentries) IN
              \E p \in commitIndex[i]..q :
              \/ /\ Matches(log[i], m.mentries, p)
                 /\ log' = [log EXCEPT ![i] = Merge(log[i], m.mentries, p, q)]
                 /\ commitIndex' = [commitIndex EXCEPT ![i] = Max(commitIndex[i], Min(m.mcommit, q))]
                 /\ msgs' = msgs \cup {Reply(m, "MsgAppResp", s.term, q, FALSE)}
              \/ /\ ~Matches(log[i], m.mentries, p)
                 /\ msgs' = msgs \cup {Reply(m, "MsgAppResp", s.term, Len(log[i]), TRUE)}
                 /\ UNCHANGED <<log, commitIndex>>

\* The largest index a quorum has (the leader's own log counts as matched)
\* whose entry is of the leader's term, or the current commit index.
NewCommit(i, match) ==
    LET ok == {k \in (commitIndex[i] + 1)..Len(log[i]) :
                 /\ log[i][k] = currentTerm[i]
                 /\ IsQuorum({i} \cup {n \in Servers \ {i} : match[n] >= k})}
    IN IF ok = {} THEN commitIndex[i] ELSE CHOOSE k \in ok : \A x \in ok : x <= k

\* MsgAppResp at the leader: an acceptance raises j's match index; when the
\* commit index moves the leader broadcasts MsgApp (carrying the new
\* commit), and it sends j what j lacks (on a rejection, from the hint).
HandleAppendEntriesResponse(i, j) ==
    \E m \in Incoming(i, j, "MsgAppResp") :
        IF m.mterm < currentTerm[i] THEN Stale(i, m)
        ELSE IF StepsDown(i, m) \/ state[i] # "Leader" THEN OnlyStep(i, m)
        ELSE LET match == IF m.mreject THEN matchIndex[i]
                          ELSE [matchIndex[i] EXCEPT ![j] = Max(@, m.mindex)]
                 c == NewCommit(i, match)
             IN
             /\ matchIndex' = [matchIndex EXCEPT ![i] = match]
             /\ commitIndex' = [commitIndex EXCEPT ![i] = c]
             /\ msgs' = msgs \cup AppsFrom(i, currentTerm[i], log[i], c,
                                           IF c > commitIndex[i] THEN Servers \ {i} ELSE {j})
             /\ UNCHANGED <<currentTerm, votedFor, state, lead, log, granted, rejected>>

\* MsgHeartbeat from leader j at i's term: i follows j, commits up to the
\* heartbeat's commit (within its own log) and answers.
HandleHeartbeat(i, j) ==
    \E m \in Incoming(i, j, "MsgHeartbeat") :
        IF m.mterm < currentTerm[i] THEN Stale(i, m)
        ELSE LET s == AfterStep(i, m) IN
        IF s.st = "Leader" THEN OnlyStep(i, m)
        ELSE
        /\ SetRole(i, s.term, s.vote, "Follower", j, s.stepped \/ s.st # "Follower")
        /\ commitIndex' = [commitIndex EXCEPT ![i] = Max(commitIndex[i], Min(m.mcommit, Len(log[i])))]
        /\ msgs' = msgs \cup {Reply(m, "MsgHeartbeatResp", s.term, 0, FALSE)}
        /\ UNCHANGED log

\* MsgHeartbeatResp at the leader: it sends j a MsgApp (what j lacks).
HandleHeartbeatResponse(i, j) ==
    \E m \in Incoming(i, j, "MsgHeartbeatResp") :
        IF m.mterm < currentTerm[i] THEN Stale(i, m)
        ELSE IF StepsDown(i, m) \/ state[i] # "Leader" THEN OnlyStep(i, m)
        ELSE /\ msgs' = msgs \cup AppsFrom(i, currentTerm[i], log[i], commitIndex[i], {j})
             /\ UNCHANGED <<currentTerm, votedFor, state, lead, log, commitIndex,
                            granted, rejected, matchIndex>>

-----------------------------------------------------------------------------
Next ==
    \E i \in Servers :
        \/ Timeout(i)
        \/ ClientRequest(i)
        \/ HeartbeatTimeout(i)
        \/ Restart(i)
        \/ \E j \in Servers \ {i} :
            \/ HandlePreVoteRequest(i, j)
            \/ HandlePreVoteResponse(i, j)
            \/ HandleVoteRequest(i, j)
            \/ HandleVoteResponse(i, j)
            \/ HandleAppendEntriesRequest(i, j)
            \/ HandleAppendEntriesResponse(i, j)
            \/ HandleHeartbeat(i, j)
            \/ HandleHeartbeatResponse(i, j)

\* Elections must be able to make progress: every node's election timer
\* fires (weak fairness), and every message that would change something
\* is eventually handled.  Proposals, heartbeats and restarts are not
\* forced.
Fairness ==
    \A i \in Servers :
        /\ WF_vars(Timeout(i))
        /\ \A j \in Servers \ {i} :
            /\ WF_vars(HandlePreVoteRequest(i, j))
            /\ WF_vars(HandlePreVoteResponse(i, j))
            /\ WF_vars(HandleVoteRequest(i, j))
            /\ WF_vars(HandleVoteResponse(i, j))
            /\ WF_vars(HandleAppendEntriesRequest(i, j))
            /\ WF_vars(HandleAppendEntriesResponse(i, j))
            /\ WF_vars(HandleHeartbeat(i, j))
            /\ WF_vars(HandleHeartbeatResponse(i, j))

Spec == Init /\ [][Next]_vars /\ Fairness
=============================================================================
