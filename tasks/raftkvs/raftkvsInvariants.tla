--------------------------- MODULE raftkvsInvariants ---------------------------
(***************************************************************************)
(* The raftkvs task's properties, over the pinned names of module          *)
(* `raftkvs`: constants NumServers, NumClients, MaxNodeFail, MaxTerm,       *)
(* MaxCommitIndex; variables pc, state, currentTerm, log, commitIndex,      *)
(* votesGranted, sm, netEnabled (servers 1..NumServers, clients from        *)
(* 6*NumServers+1).                                                        *)
(*                                                                         *)
(* This module EXTENDS `raftkvs`, so it is checked against whichever       *)
(* module of that name sits beside it.  Add the lines of invariants.cfg to *)
(* the model's .cfg: state predicates as INVARIANT, temporal properties as *)
(* PROPERTY (liveness under the model's own fairness).                     *)
(*                                                                         *)
(* All fifteen of the task's templates are here.  Three are not checked:   *)
(* LimitTerm and LimitCommitIndex bound the search (a model's .cfg has     *)
(* them, or its own bounds, as a CONSTRAINT), and PersistentLogEquality is *)
(* vacuous (the system keeps one log; PGo's plog is a mirror of it).  Two  *)
(* liveness templates are false of the system as written, and are stated  *)
(* as the progress it does promise (see ClientsLiveness and                *)
(* ElectionLiveness).                                                      *)
(***************************************************************************)
EXTENDS raftkvs

RKServers == 1..NumServers
RKClients == (6 * NumServers + 1)..(6 * NumServers + NumClients)
RKMin(a, b) == IF a < b THEN a ELSE b
RKQuorum(s) == Cardinality(s) * 2 > NumServers
\* The observed variables, for the action properties' subscripts.
RKVars == <<pc, state, currentTerm, log, commitIndex, votesGranted, sm, netEnabled>>

\* [bound] LimitTerm: each server's term is below MaxTerm.  A bound of the
\* search, not a property: a model's .cfg has it as a CONSTRAINT (the
\* reference model defines its own LimitTerm, hence the prefix here).
RKLimitTerm == \A i \in RKServers : currentTerm[i] < MaxTerm

\* [bound] LimitCommitIndex: each commit index is below MaxCommitIndex.  A
\* bound of the search, as LimitTerm.
RKLimitCommitIndex == \A i \in RKServers : commitIndex[i] < MaxCommitIndex

\* [safety] LimitNodeFailure: at most MaxNodeFail servers are disabled.
LimitNodeFailure == Cardinality({i \in RKServers : ~netEnabled[i]}) <= MaxNodeFail

\* [safety] ElectionSafety: no two leaders in the same term.
ElectionSafety ==
    ~\E i, j \in RKServers :
        /\ i # j
        /\ currentTerm[i] = currentTerm[j]
        /\ state[i] = "leader"
        /\ state[j] = "leader"

\* [safety] LogMatching: two logs with an entry of the same term at the same
\* index agree on every entry up to it.
LogMatching ==
    \A i, j \in RKServers :
        \A k \in 1..RKMin(Len(log[i]), Len(log[j])) :
            log[i][k].term = log[j][k].term => SubSeq(log[i], 1, k) = SubSeq(log[j], 1, k)

\* [safety] LeaderCompleteness: an entry committed at server i is in the log
\* of every leader whose term is at least i's.  (The template asks it of
\* every leader whose term is at least the entry's; a deposed leader that
\* has not heard of the newer term yet is such a leader and may lack it.)
LeaderCompleteness ==
    \A i \in RKServers :
        \A k \in 1..RKMin(commitIndex[i], Len(log[i])) :
            \A j \in RKServers :
                (state[j] = "leader" /\ currentTerm[j] >= currentTerm[i]) =>
                    /\ k <= Len(log[j])
                    /\ log[j][k] = log[i][k]

\* [safety] StateMachineSafety: committed prefixes are identical.
StateMachineSafety ==
    \A i, j \in RKServers :
        \A k \in 1..RKMin(RKMin(commitIndex[i], commitIndex[j]), RKMin(Len(log[i]), Len(log[j]))) :
            log[i][k] = log[j][k]

\* [safety] ApplyLogConsistency: servers with the same commit index have
\* applied the same state machine (same keys, same values).
ApplyLogConsistency ==
    \A i, j \in RKServers :
        commitIndex[i] = commitIndex[j] => /\ DOMAIN sm[i] = DOMAIN sm[j]
                                           /\ sm[i] = sm[j]

\* [vacuous] PersistentLogEquality: the volatile log equals the persistent
\* one.  The system has one log (PGo's plog mirrors it write for write), so
\* there is nothing to compare; not checked.
PersistentLogEquality == TRUE

\* [safety] TermBounded: terms never exceed MaxTerm.
TermBounded == \A i \in RKServers : currentTerm[i] <= MaxTerm

\* [safety] CommitIndexBounded: commit indexes never exceed MaxCommitIndex.
CommitIndexBounded == \A i \in RKServers : commitIndex[i] <= MaxCommitIndex

\* [safety] NodeFailureBounded: at most MaxNodeFail + 1 servers disabled.
NodeFailureBounded == Cardinality({i \in RKServers : ~netEnabled[i]}) <= MaxNodeFail + 1

\* [safety] LeaderAppendOnly: a server that stays leader only appends to its
\* log.
LeaderAppendOnly ==
    [][\A i \in RKServers :
          (state[i] = "leader" /\ state'[i] = "leader") =>
              log[i] = SubSeq(log'[i], 1, Len(log[i]))]_RKVars

\* [liveness] ClientsLiveness: a client waiting for a response at rcvResp
\* moves on: it takes its response and goes back to clientLoop, or retries
\* at sndReq.  (The template asks that it always reach clientLoop; a request
\* whose leader crashed, or that never commits within the bounds, is
\* retried for ever instead.)
ClientsLiveness ==
    \A c \in RKClients : pc[c] = "rcvResp" ~> pc[c] # "rcvResp"

\* [liveness] ElectionLiveness: a live candidate with a quorum of votes
\* becomes leader (or steps down, or crashes).  (The template asks that a
\* leader exist infinitely often; with a crash and a bound on terms the
\* servers may run out of elections, and a candidate may never get a
\* quorum.)
ElectionLiveness ==
    \A i \in RKServers :
        (state[i] = "candidate" /\ RKQuorum(votesGranted[i]) /\ netEnabled[i])
            ~> (state[i] # "candidate" \/ ~netEnabled[i])
=============================================================================
