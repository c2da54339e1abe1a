-------------------------------- MODULE curp --------------------------------
(***************************************************************************)
(* Xline's CURP, as the curp task's system runs it: replicas with a        *)
(* speculative pool (specPool) and an uncommitted pool (ucp), clients that *)
(* propose commands to every replica and decide in a fast round or wait in *)
(* a slow round, and a consensus backend abstracted to one log, a commit   *)
(* index and the current leader.                                           *)
(*                                                                         *)
(* Client c's j-th command is (j-1)*NumClients + c and writes key j: the   *)
(* commands of one round conflict.  A message in a client's mailbox is a   *)
(* record of one shape: an answer, or an after-sync result ("synced").     *)
(***************************************************************************)
EXTENDS Naturals, Sequences, FiniteSets

CONSTANTS NumReplicas, NumClients, NumRounds, MaxTerm

Replicas == 1..NumReplicas
Clients == 1..NumClients
Cmds == 1..(NumClients * NumRounds)
Key(k) == (k - 1) \div NumClients + 1
ClientOf(k) == ((k - 1) % NumClients) + 1

Quorum == NumReplicas \div 2 + 1
RecoverQuorum == Quorum \div 2 + 1
SuperQuorum == (NumReplicas - Quorum) + RecoverQuorum

VARIABLES term, role, specPool, ucp, lastApplied, inbox,
          leader, log, commitIndex,
          pc, cmd, answers, result, mail

vars == <<term, role, specPool, ucp, lastApplied, inbox, leader, log,
          commitIndex, pc, cmd, answers, result, mail>>

NoAnswer == [term |-> 0, leader |-> FALSE, conflict |-> FALSE, er |-> FALSE]
NoResult == [path |-> "none", term |-> 0]

Max(S) == CHOOSE x \in S : \A y \in S : y <= x

\* A set of numbers as a sequence in increasing order.
NumSeq(S) == [i \in 1..Cardinality(S) |-> CHOOSE x \in S : Cardinality({y \in S : y < x}) = i - 1]

\* A mailbox's messages in the traces' order: by command, sender, answers first.
MsgRank(m) == (m.cmd * 100 + m.from) * 2 + (IF m.type = "synced" THEN 1 ELSE 0)
MailSeq(S) == [i \in 1..Cardinality(S) |->
                 CHOOSE m \in S : Cardinality({n \in S : MsgRank(n) < MsgRank(m)}) = i - 1]

TypeOK ==
    /\ term \in [Replicas -> 1..MaxTerm]
    /\ role \in [Replicas -> {"leader", "follower"}]
    /\ specPool \in [Replicas -> SUBSET Cmds]
    /\ ucp \in [Replicas -> SUBSET Cmds]
    /\ lastApplied \in [Replicas -> 0..Len(log)]
    /\ inbox \in [Replicas -> SUBSET Cmds]
    /\ leader \in Replicas
    /\ commitIndex \in 0..Len(log)
    /\ pc \in [Clients -> {"propose", "fast", "slow", "done"}]
    /\ cmd \in [Clients -> 0..(NumClients * NumRounds)]
    /\ result \in [Clients -> [path : {"none", "fast", "slow"}, term : 0..MaxTerm]]

Init ==
    /\ term = [r \in Replicas |-> 1]
    /\ role = [r \in Replicas |-> IF r = 1 THEN "leader" ELSE "follower"]
    /\ specPool = [r \in Replicas |-> {}]
    /\ ucp = [r \in Replicas |-> {}]
    /\ lastApplied = [r \in Replicas |-> 0]
    /\ inbox = [r \in Replicas |-> {}]
    /\ leader = 1
    /\ log = <<>>
    /\ commitIndex = 0
    /\ pc = [c \in Clients |-> "propose"]
    /\ cmd = [c \in Clients |-> 0]
    /\ answers = [c \in Clients |-> [r \in Replicas |-> NoAnswer]]
    /\ result = [c \in Clients |-> NoResult]
    /\ mail = [c \in Clients |-> {}]

\* The backend's term: its leader's.
CurrentTerm == term[leader]
NextCmd(c) == IF cmd[c] = 0 THEN c ELSE cmd[c] + NumClients
HasNext(c) == NextCmd(c) <= NumClients * NumRounds
InLog(k) == \E i \in 1..Len(log) : log[i] = k
Committed(k) == \E i \in 1..commitIndex : log[i] = k
Applied(r, k) == \E i \in 1..lastApplied[r] : log[i] = k
Conflicts(pool, k) == \E d \in pool : d # k /\ Key(d) = Key(k)

Answer(r, k, isLeader, conflict, er) ==
    [type |-> "answer", cmd |-> k, from |-> r, term |-> term[r],
     leader |-> isLeader, conflict |-> conflict, er |-> er]

Send(k, m) == mail' = [mail EXCEPT ![ClientOf(k)] = @ \cup {m}]

Propose(c) ==
    /\ pc[c] = "propose"
    /\ HasNext(c)
    /\ cmd' = [cmd EXCEPT ![c] = NextCmd(c)]
    /\ answers' = [answers EXCEPT ![c] = [r \in Replicas |-> NoAnswer]]
    /\ result' = [result EXCEPT ![c] = NoResult]
    /\ pc' = [pc EXCEPT ![c] = "fast"]
    /\ inbox' = [r \in Replicas |-> inbox[r] \cup {NextCmd(c)}]
    /\ UNCHANGED <<term, role, specPool, ucp, lastApplied, leader, log, commitIndex, mail>>

ProcessProposeLeader(r, k) ==
    /\ role[r] = "leader"
    /\ k \in inbox[r]
    /\ inbox' = [inbox EXCEPT ![r] = @ \ {k}]
    /\ IF Applied(r, k)
         THEN /\ Send(k, Answer(r, k, TRUE, TRUE, FALSE))
              /\ UNCHANGED <<specPool, ucp, log>>
         ELSE LET spConflict == Conflicts(specPool[r], k)
                  conflict == spConflict \/ Conflicts(ucp[r], k)
              IN /\ specPool' = [specPool EXCEPT ![r] = IF spConflict THEN @ ELSE @ \cup {k}]
                 /\ ucp' = [ucp EXCEPT ![r] = @ \cup {k}]
                 /\ log' = IF term[r] = CurrentTerm /\ ~InLog(k) THEN Append(log, k) ELSE log
                 /\ Send(k, Answer(r, k, TRUE, conflict, ~conflict))
    /\ UNCHANGED <<term, role, lastApplied, leader, commitIndex, pc, cmd, answers, result>>

ProcessProposeNonLeader(r, k) ==
    /\ role[r] = "follower"
    /\ k \in inbox[r]
    /\ inbox' = [inbox EXCEPT ![r] = @ \ {k}]
    /\ IF Applied(r, k)
         THEN /\ Send(k, Answer(r, k, FALSE, TRUE, FALSE))
              /\ UNCHANGED specPool
         ELSE LET conflict == Conflicts(specPool[r], k)
              IN /\ specPool' = [specPool EXCEPT ![r] = IF conflict THEN @ ELSE @ \cup {k}]
                 /\ Send(k, Answer(r, k, FALSE, conflict, FALSE))
    /\ UNCHANGED <<term, role, ucp, lastApplied, leader, log, commitIndex, pc, cmd, answers, result>>

Commit ==
    /\ commitIndex < Len(log)
    /\ commitIndex' = commitIndex + 1
    /\ UNCHANGED <<term, role, specPool, ucp, lastApplied, inbox, leader, log,
                   pc, cmd, answers, result, mail>>

ProcessCommitMsg(r) ==
    /\ lastApplied[r] < commitIndex
    /\ LET k == log[lastApplied[r] + 1]
       IN /\ specPool' = [specPool EXCEPT ![r] = @ \ {k}]
          /\ ucp' = [ucp EXCEPT ![r] = @ \ {k}]
          /\ lastApplied' = [lastApplied EXCEPT ![r] = @ + 1]
          /\ Send(k, [type |-> "synced", cmd |-> k, from |-> r, term |-> term[r],
                      leader |-> TRUE, conflict |-> FALSE, er |-> FALSE])
    /\ UNCHANGED <<term, role, inbox, leader, log, commitIndex, pc, cmd, answers, result>>

LeaderChange(l) ==
    /\ CurrentTerm < MaxTerm
    /\ l # leader
    /\ \E Q \in SUBSET Replicas :
         /\ l \in Q
         /\ Cardinality(Q) >= Quorum
         /\ LET nt == CurrentTerm + 1
                recovered == {k \in Cmds : /\ Cardinality({v \in Q : k \in specPool[v]}) >= 1
                                           /\ ~Committed(k)}
                newLog == log \o NumSeq({k \in recovered : ~InLog(k)})
            IN /\ leader' = l
               /\ log' = newLog
               /\ term' = [r \in Replicas |-> IF r \in Q THEN nt ELSE term[r]]
               /\ role' = [r \in Replicas |-> IF r = l THEN "leader"
                                              ELSE IF r \in Q THEN "follower" ELSE role[r]]
               /\ specPool' = [specPool EXCEPT ![l] = recovered]
               /\ ucp' = [r \in Replicas |->
                            IF r = l THEN {newLog[i] : i \in (commitIndex + 1)..Len(newLog)}
                            ELSE IF r \in Q THEN {} ELSE ucp[r]]
    /\ UNCHANGED <<lastApplied, inbox, commitIndex, pc, cmd, answers, result, mail>>

AppendEntries(r) ==
    /\ term[r] < CurrentTerm
    /\ term' = [term EXCEPT ![r] = CurrentTerm]
    /\ role' = [role EXCEPT ![r] = "follower"]
    /\ ucp' = [ucp EXCEPT ![r] = {}]
    /\ UNCHANGED <<specPool, lastApplied, inbox, leader, log, commitIndex,
                   pc, cmd, answers, result, mail>>

\* Client c's command ends: its next one, or done.
Finish(c) == pc' = [pc EXCEPT ![c] = IF HasNext(c) THEN "propose" ELSE "done"]

\* The fast round over the answers `ans` (replica -> answer, term 0 for none):
\* the highest term among them, the acceptances in it, and whether the
\* leader of that term returned a result.
Got(ans) == {r \in Replicas : ans[r].term > 0}
TopTerm(ans) == Max({ans[r].term : r \in Got(ans)})
Accepted(ans) == {r \in Got(ans) : ans[r].term = TopTerm(ans) /\ ~ans[r].conflict}
HasResult(ans) == \E r \in Got(ans) : ans[r].term = TopTerm(ans) /\ ans[r].er

FastRound(c) ==
    /\ pc[c] = "fast"
    /\ \E m \in mail[c] :
         /\ mail' = [mail EXCEPT ![c] = @ \ {m}]
         /\ IF m.type = "answer" /\ m.cmd = cmd[c]
              THEN LET ans == [answers[c] EXCEPT ![m.from] =
                                 [term |-> m.term, leader |-> m.leader,
                                  conflict |-> m.conflict, er |-> m.er]]
                   IN /\ answers' = [answers EXCEPT ![c] = ans]
                      /\ IF Cardinality(Accepted(ans)) >= SuperQuorum /\ HasResult(ans)
                           THEN /\ result' = [result EXCEPT ![c] = [path |-> "fast", term |-> TopTerm(ans)]]
                                /\ Finish(c)
                           ELSE /\ UNCHANGED result
                                /\ pc' = IF Cardinality(Got(ans)) = NumReplicas
                                           THEN [pc EXCEPT ![c] = "slow"] ELSE pc
            ELSE IF m.type = "synced" /\ m.cmd = cmd[c]
              THEN /\ result' = [result EXCEPT ![c] = [path |-> "slow", term |-> 0]]
                   /\ Finish(c)
                   /\ UNCHANGED answers
            ELSE UNCHANGED <<pc, answers, result>>
    /\ UNCHANGED <<term, role, specPool, ucp, lastApplied, inbox, leader, log, commitIndex, cmd>>

SlowRound(c) ==
    /\ pc[c] = "slow"
    /\ \E m \in mail[c] :
         /\ mail' = [mail EXCEPT ![c] = @ \ {m}]
         /\ IF m.type = "synced" /\ m.cmd = cmd[c]
              THEN /\ result' = [result EXCEPT ![c] = [path |-> "slow", term |-> 0]]
                   /\ Finish(c)
              ELSE UNCHANGED <<pc, result>>
    /\ UNCHANGED <<term, role, specPool, ucp, lastApplied, inbox, leader, log, commitIndex,
                   cmd, answers>>

Next ==
    \/ \E c \in Clients : Propose(c) \/ FastRound(c) \/ SlowRound(c)
    \/ \E r \in Replicas, k \in Cmds : ProcessProposeLeader(r, k) \/ ProcessProposeNonLeader(r, k)
    \/ Commit
    \/ \E r \in Replicas : ProcessCommitMsg(r) \/ AppendEntries(r)
    \/ \E l \in Replicas : LeaderChange(l)

\* Every run of the system ends (each command is proposed once, elections stop at
\* MaxTerm); fairness makes it go on while a step is enabled.
Spec == Init /\ [][Next]_vars /\ WF_vars(Next)
=============================================================================
