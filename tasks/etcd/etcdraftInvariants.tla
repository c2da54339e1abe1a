--------------------------- MODULE etcdraftInvariants ---------------------------
(***************************************************************************)
(* The etcd Raft task's properties, over the pinned names of module        *)
(* `etcdraft`: variables currentTerm, votedFor, state, lead, log (each     *)
(* entry is its term), commitIndex; constants Servers, MaxTerm, MaxLogLen; *)
(* node id 0 means "none".                                                 *)
(*                                                                         *)
(* This module EXTENDS `etcdraft`, so it is checked against whichever      *)
(* module of that name sits beside it (the reference model or a user's    *)
(* model with the same pinned names).  Add the lines of invariants.cfg to  *)
(* the model's .cfg: state predicates as INVARIANT, action properties and  *)
(* liveness as PROPERTY (liveness under the model's own fairness).  Each   *)
(* name is checked on its own.                                             *)
(*                                                                         *)
(* Some of the task's property templates speak of variables the pinned     *)
(* state does not have (election and heartbeat counters, a check-quorum    *)
(* flag, a leader-transfer target).  Each such property states the         *)
(* template's intent over what exists; its comment says how.               *)
(***************************************************************************)
EXTENDS etcdraft

NoNode == 0
Roles == {"Follower", "PreCandidate", "Candidate", "Leader"}

MinOf(a, b) == IF a <= b THEN a ELSE b

\* [safety] Committed entries never disagree: on any two nodes, the entries
\* both have committed are the same.
LogInv ==
    \A i, j \in Servers :
        \A k \in 1..MinOf(MinOf(commitIndex[i], commitIndex[j]),
                          MinOf(Len(log[i]), Len(log[j]))) :
            log[i][k] = log[j][k]

\* [safety] At most one leader per term.
MoreThanOneLeaderInv ==
    \A i, j \in Servers :
        (state[i] = "Leader" /\ state[j] = "Leader" /\ currentTerm[i] = currentTerm[j])
            => i = j

\* [safety] Log matching: two logs with an entry of the same term at the
\* same index agree on every entry up to that index.
LogMatchingInv ==
    \A i, j \in Servers :
        \A k \in 1..MinOf(Len(log[i]), Len(log[j])) :
            log[i][k] = log[j][k] =>
                \A x \in 1..k : log[i][x] = log[j][x]

\* [safety] Leader completeness (beside the templates; the bug model's
\* refutation): a leader holds every entry that a node in the same or an
\* earlier term has committed.  (A node of a later term may have committed
\* entries of a later leader, which an old leader cannot have.)
LeaderCompletenessInv ==
    \A l, n \in Servers :
        (state[l] = "Leader" /\ currentTerm[n] <= currentTerm[l]) =>
            \A k \in 1..MinOf(commitIndex[n], Len(log[n])) :
                k <= Len(log[l]) /\ log[l][k] = log[n][k]

\* [safety] Roles and the variables that go with them: a leader has a
\* positive term and knows itself as leader; a candidate has a positive
\* term and voted for itself; a follower's known leader is a node.
EtcdStateTransitionInv ==
    \A n \in Servers :
        /\ state[n] \in Roles
        /\ state[n] = "Leader" => (currentTerm[n] > 0 /\ lead[n] = n)
        /\ state[n] = "Candidate" => (votedFor[n] = n /\ currentTerm[n] > 0)
        /\ (state[n] = "Follower" /\ lead[n] # NoNode) => lead[n] \in Servers

\* [safety] PreVote keeps terms stable.  The template's state predicate
\* (a pre-candidate's term is a natural number and its vote a node or
\* none) is kept, and its point -- becoming a pre-candidate does not
\* change the term, unlike becoming a candidate -- is checked as an action
\* property: no step that makes a node a pre-candidate changes its term or
\* its vote.
PreVoteTermStabilityInv ==
    /\ [][\A n \in Servers :
            (state'[n] = "PreCandidate" /\ state[n] # "PreCandidate")
                => (currentTerm'[n] = currentTerm[n] /\ votedFor'[n] = votedFor[n])]_vars
    /\ [](\A n \in Servers :
            state[n] = "PreCandidate" =>
                (currentTerm[n] \in Nat /\ votedFor[n] \in Servers \cup {NoNode}))

\* [safety] Election timers.  The pinned state has no elapsed counters or
\* randomised timeouts; what the timers' consistency means for the roles:
\* an election timeout (the only step into PreCandidate) happens at a
\* follower or a (pre-)candidate, never at a leader, and a leader's
\* heartbeat timer never changes a node's role or term.
ElectionTimeoutConsistencyInv ==
    [][\A n \in Servers :
         (state'[n] = "PreCandidate" /\ state[n] # "PreCandidate")
             => state[n] \in {"Follower", "Candidate"}]_vars

\* [safety] Check-quorum is one setting for the whole cluster (off in
\* this system); the pinned state has no flag.  With the same setting on
\* every node, every node steps down the same way: a leader gives up its
\* role only to become a follower, and only at a higher term or without a
\* known leader (a restart) -- never by hearing from a peer at its own
\* term.
CheckQuorumConfigConsistencyInv ==
    [][\A n \in Servers :
         (state[n] = "Leader" /\ state'[n] # "Leader")
             => /\ state'[n] = "Follower"
                /\ (currentTerm'[n] > currentTerm[n] \/ lead'[n] = NoNode)]_vars

\* [safety] Votes: a vote is recorded only in a positive term, a candidate
\* voted for itself, a vote is a node or none.
VoteConsistencyInv ==
    \A n \in Servers :
        /\ votedFor[n] # NoNode => currentTerm[n] > 0
        /\ state[n] = "Candidate" => votedFor[n] = n
        /\ votedFor[n] \in Servers \cup {NoNode}

\* [safety] Leader transfer is left out of this system, so there is no
\* transfer target.  The template's intent -- the leadership a node
\* claims is consistent -- over the pinned names: a leader names itself,
\* and every node of the leader's term that knows a leader knows that one.
LeaderTransferConstraintInv ==
    \A l, n \in Servers :
        (state[l] = "Leader" /\ currentTerm[n] = currentTerm[l] /\ lead[n] # NoNode)
            => lead[n] = l

\* [safety] Terms are natural numbers; a leader's is positive.
TermValidityInv ==
    \A n \in Servers :
        /\ currentTerm[n] \in Nat
        /\ state[n] = "Leader" => currentTerm[n] > 0

\* [safety] The commit index stays within the log, and the entry there is
\* of a term no later than the node's own.
CommitIndexConsistencyInv ==
    \A n \in Servers :
        /\ commitIndex[n] \in Nat
        /\ commitIndex[n] <= Len(log[n])
        /\ commitIndex[n] > 0 => log[n][commitIndex[n]] <= currentTerm[n]

\* [liveness] Elections make progress: again and again some node is
\* leader -- or the terms have run into the checking bound MaxTerm (a
\* model bounded in terms cannot elect for ever: every election after a
\* disruption uses a new term).
EventualLeaderElectionLiveness ==
    []<>(\E n \in Servers : state[n] = "Leader" \/ currentTerm[n] >= MaxTerm)

\* [liveness] A follower that knows no leader eventually campaigns (the
\* template's "election elapsed past the timeout" is the follower without
\* a leader: its timer is not reset by anyone), unless it hears from a
\* leader first or its term is at the checking bound.
ElectionProgressLiveness ==
    \A n \in Servers :
        (state[n] = "Follower" /\ lead[n] = NoNode /\ currentTerm[n] < MaxTerm)
            ~> (state[n] \in {"PreCandidate", "Candidate", "Leader"}
                \/ lead[n] # NoNode \/ currentTerm[n] >= MaxTerm)
=============================================================================
