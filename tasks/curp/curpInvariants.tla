---------------------------- MODULE curpInvariants ----------------------------
(***************************************************************************)
(* The curp task's properties, over the pinned names of module `curp`:     *)
(* variables term, role, specPool, ucp, lastApplied, inbox, leader, log,   *)
(* commitIndex, pc, cmd, answers, result, mail; constants NumReplicas,     *)
(* NumClients, NumRounds, MaxTerm.  Replicas are 1..NumReplicas, clients   *)
(* 1..NumClients, and client c's j-th command is (j-1)*NumClients + c,     *)
(* writing key j.                                                          *)
(*                                                                         *)
(* This module EXTENDS `curp`, so it is checked against whichever module   *)
(* of that name sits beside it.  Add the lines of invariants.cfg to the    *)
(* model's .cfg.  Every template of the task is here; the names below are  *)
(* prefixed CP so as not to clash with a model's own definitions.          *)
(***************************************************************************)
EXTENDS curp

CPReplicas == 1..NumReplicas
CPClients == 1..NumClients
CPCmds == 1..(NumClients * NumRounds)
CPKey(k) == (k - 1) \div NumClients + 1
CPQuorum == NumReplicas \div 2 + 1
CPRecoverQuorum == CPQuorum \div 2 + 1
CPSuperQuorum == (NumReplicas - CPQuorum) + CPRecoverQuorum

\* The commands clients have proposed: a client's current command and those before it.
CPProposed == {k \in CPCmds : \E c \in CPClients : cmd[c] # 0 /\ (k - c) % NumClients = 0 /\ k <= cmd[c]}
CPInLog(k) == \E i \in 1..Len(log) : log[i] = k
CPCommitted(k) == \E i \in 1..commitIndex : log[i] = k
\* A command its client ended with a fast result.
CPFastDone(k) == \E c \in CPClients : cmd[c] = k /\ result[c].path = "fast"

\* [safety] SpeculativeConflictInv: no speculative pool holds two commands
\* that write the same key.
SpeculativeConflictInv ==
    \A r \in CPReplicas : \A a, b \in specPool[r] : CPKey(a) = CPKey(b) => a = b

\* [safety] UncommittedValidityInv: uncommitted pools hold proposed commands only.
UncommittedValidityInv == \A r \in CPReplicas : ucp[r] \subseteq CPProposed

\* [safety] SpeculativeValidityInv: speculative pools hold proposed commands only.
SpeculativeValidityInv == \A r \in CPReplicas : specPool[r] \subseteq CPProposed

\* [safety] CommittedValidityInv: committed entries are proposed commands.
CommittedValidityInv == \A i \in 1..commitIndex : log[i] \in CPProposed

\* [safety] CommitMessageValidityInv: an after-sync result is sent only for a
\* committed command.
CommitMessageValidityInv ==
    \A c \in CPClients : \A m \in mail[c] : m.type = "synced" => CPCommitted(m.cmd)

\* [safety] NoLowerTermResult: a client never ends a command with a fast
\* result of a lower term than an answer it took in that round (the bug
\* switch breaks it).
NoLowerTermResult ==
    \A c \in CPClients :
        result[c].path = "fast" => \A r \in CPReplicas : answers[c][r].term <= result[c].term

\* [safety] LogUniqueInv: the log orders a command at most once.
LogUniqueInv == \A i, j \in 1..Len(log) : log[i] = log[j] => i = j

\* [safety] OneLeaderPerTermInv: at most one replica believes it leads in a term.
OneLeaderPerTermInv ==
    \A a, b \in CPReplicas : (role[a] = "leader" /\ role[b] = "leader" /\ term[a] = term[b]) => a = b

\* [liveness] EventualCommitLiveness, as the system keeps it: a command that
\* ended fast is eventually committed (the fast path's durability).  The
\* template's form, every proposed command eventually committed, does not hold
\* of the system, and is kept below unchecked: a command whose proposal the
\* next leader took as a follower, and that too few voters held to be
\* recovered, is never ordered, since clients do not retry.
EventualCommitLiveness == \A k \in CPCmds : CPFastDone(k) ~> CPCommitted(k)
EventualCommitLivenessTemplate == \A k \in CPCmds : (k \in CPProposed) ~> CPCommitted(k)

\* [liveness] SpeculativeEmptyLiveness: a committed command eventually leaves
\* every speculative pool.
SpeculativeEmptyLiveness ==
    \A k \in CPCmds : \A r \in CPReplicas : CPCommitted(k) ~> (k \notin specPool[r])
===============================================================================
