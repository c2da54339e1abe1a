------------------------------ MODULE zookeeper ------------------------------
(***************************************************************************)
(* Reference model of ZooKeeper's Fast Leader Election as the task's       *)
(* system runs it (tasks/zookeeper/src).  Peers 1..NumServers, all voting  *)
(* members, all down at the start.  Peer 1's history is of epoch 2, the    *)
(* others' of epoch 1; peer 2's last zxid is 2, the others' 1.             *)
(*                                                                         *)
(* A vote is [leader, zxid, epoch]; a notification or a vote kept in       *)
(* recvset or outofelection adds the sender's round and state.  A          *)
(* connection (messages[j][i], from j to i) holds at most one              *)
(* notification: a newer one replaces it, and one to a peer that is down   *)
(* is lost.  Each action is one move of one peer: it starts or crashes,    *)
(* takes a notification, its poll times out, or it leaves FOLLOWING or     *)
(* LEADING for a new round.                                                *)
(***************************************************************************)
EXTENDS Naturals, Sequences, FiniteSets, TLC

CONSTANTS NumServers, MaxRound, MaxCrashes

Server == 1..NumServers

VARIABLES state, up, currentEpoch, lastZxid, logicalclock, vote,
          recvset, outofelection, finalizing, messages, crashes

vars == <<state, up, currentEpoch, lastZxid, logicalclock, vote,
          recvset, outofelection, finalizing, messages, crashes>>

NoVote == [leader |-> 0, zxid |-> 0, epoch |-> 0]
NoVotes == [s \in {} |-> NoVote]

\* A peer's own vote: itself and the history it holds.
Own(i) == [leader |-> i, zxid |-> lastZxid[i], epoch |-> currentEpoch[i]]

\* totalOrderPredicate: does vote n beat vote c?  Epoch, then zxid, then id.
Better(n, c) ==
    \/ n.epoch > c.epoch
    \/ n.epoch = c.epoch /\ (n.zxid > c.zxid \/ (n.zxid = c.zxid /\ n.leader > c.leader))

VoteOf(n) == [leader |-> n.leader, zxid |-> n.zxid, epoch |-> n.epoch]

Notif(v, r, st) == [leader |-> v.leader, zxid |-> v.zxid, epoch |-> v.epoch, round |-> r, state |-> st]

\* Vote.equals: with a LOOKING vote all four numbers, between settled votes
\* the leader and its epoch.
Same(a, b) ==
    IF a.state = "LOOKING" \/ b.state = "LOOKING"
    THEN a.leader = b.leader /\ a.zxid = b.zxid /\ a.epoch = b.epoch /\ a.round = b.round
    ELSE a.leader = b.leader /\ a.epoch = b.epoch

\* The vote tracker: a quorum of the votes in vs equal v.
HasQuorum(vs, v) == Cardinality({s \in DOMAIN vs : Same(vs[s], v)}) * 2 > NumServers

\* checkLeader, for peer i whose round is r0.
CheckLeader(i, r0, vs, l, r) ==
    IF l # i THEN l \in DOMAIN vs /\ vs[l].state = "LEADING" ELSE r0 = r

Put(f, k, v) == [x \in DOMAIN f \cup {k} |-> IF x = k THEN v ELSE f[x]]

\* Sends n from i to every peer (itself included) that is up, on msgs.
Broadcast(msgs, i, n) ==
    [msgs EXCEPT ![i] = [j \in Server |-> IF j = i \/ up[j] THEN <<n>> ELSE msgs[i][j]]]

\* Sends n from i to j on msgs.
SendTo(msgs, i, j, n) == [msgs EXCEPT ![i][j] = <<n>>]

Nothing(i) == \A j \in Server : messages[j][i] = <<>>

Init ==
    /\ state = [s \in Server |-> "LOOKING"]
    /\ up = [s \in Server |-> FALSE]
    /\ currentEpoch = [s \in Server |-> IF s = 1 THEN 2 ELSE 1]
    /\ lastZxid = [s \in Server |-> IF s = 2 THEN 2 ELSE 1]
    /\ logicalclock = [s \in Server |-> 0]
    /\ vote = [s \in Server |-> NoVote]
    /\ recvset = [s \in Server |-> NoVotes]
    /\ outofelection = [s \in Server |-> NoVotes]
    /\ finalizing = [s \in Server |-> FALSE]
    /\ messages = [a \in Server |-> [b \in Server |-> <<>>]]
    /\ crashes = 0

\* lookForLeader's entry in round r: i's own vote, votes forgotten, notifications.
NewElection(i, r, msgs) ==
    /\ state' = [state EXCEPT ![i] = "LOOKING"]
    /\ logicalclock' = [logicalclock EXCEPT ![i] = r]
    /\ vote' = [vote EXCEPT ![i] = Own(i)]
    /\ recvset' = [recvset EXCEPT ![i] = NoVotes]
    /\ outofelection' = [outofelection EXCEPT ![i] = NoVotes]
    /\ finalizing' = [finalizing EXCEPT ![i] = FALSE]
    /\ messages' = Broadcast(msgs, i, Notif(Own(i), r, "LOOKING"))

Start(i) ==
    /\ ~up[i]
    /\ up' = [up EXCEPT ![i] = TRUE]
    /\ NewElection(i, 1, messages)
    /\ UNCHANGED <<currentEpoch, lastZxid, crashes>>

Crash(i) ==
    /\ up[i]
    /\ crashes < MaxCrashes
    /\ up' = [up EXCEPT ![i] = FALSE]
    /\ state' = [state EXCEPT ![i] = "LOOKING"]
    /\ logicalclock' = [logicalclock EXCEPT ![i] = 0]
    /\ vote' = [vote EXCEPT ![i] = NoVote]
    /\ recvset' = [recvset EXCEPT ![i] = NoVotes]
    /\ outofelection' = [outofelection EXCEPT ![i] = NoVotes]
    /\ finalizing' = [finalizing EXCEPT ![i] = FALSE]
    /\ messages' = [a \in Server |-> [b \in Server |-> IF a = i \/ b = i THEN <<>> ELSE messages[a][b]]]
    /\ crashes' = crashes + 1
    /\ UNCHANGED <<currentEpoch, lastZxid>>

\* The connections once i took j's notification.
Popped(i, j) == [messages EXCEPT ![j][i] = Tail(@)]

\* What LOOKING peer i makes of notification n from j: a record of its new
\* round, vote, recvset, outofelection, final wait, state, and the
\* notification to broadcast (or none).
Handle(i, j, n) ==
    LET lc == logicalclock[i]
        cur == vote[i]
        nv == [leader |-> n.leader, zxid |-> n.zxid, epoch |-> n.epoch, round |-> n.round, state |-> n.state]
        keep == [lc |-> lc, vote |-> cur, recv |-> recvset[i], ooe |-> outofelection[i],
                 fin |-> FALSE, st |-> "LOOKING", bcast |-> FALSE]
    IN
    IF finalizing[i] /\ ~Better(VoteOf(n), cur)
    THEN [keep EXCEPT !.fin = TRUE, !.recv = Put(recvset[i], j, nv)]
    ELSE IF n.state = "LOOKING"
    THEN IF n.round < lc THEN keep
         ELSE LET r == IF n.round > lc THEN n.round ELSE lc
                  v == IF n.round > lc
                       THEN IF Better(VoteOf(n), Own(i)) THEN VoteOf(n) ELSE Own(i)
                       ELSE IF Better(VoteOf(n), cur) THEN VoteOf(n) ELSE cur
                  b == n.round > lc \/ Better(VoteOf(n), cur)
                  rs == Put(IF n.round > lc THEN NoVotes ELSE recvset[i], j, nv)
              IN [lc |-> r, vote |-> v, recv |-> rs, ooe |-> outofelection[i],
                  fin |-> HasQuorum(rs, Notif(v, r, "LOOKING")),
                  st |-> "LOOKING", bcast |-> b]
    ELSE LET rs == IF n.round = lc THEN Put(recvset[i], j, nv) ELSE recvset[i]
             os == Put(outofelection[i], j, nv)
             decided == [lc |-> lc, vote |-> VoteOf(n), recv |-> rs, ooe |-> outofelection[i], fin |-> FALSE,
                         st |-> IF n.leader = i THEN "LEADING" ELSE "FOLLOWING", bcast |-> FALSE]
         IN IF n.round = lc /\ HasQuorum(rs, nv) /\ CheckLeader(i, lc, rs, n.leader, n.round)
            THEN decided
            ELSE IF HasQuorum(os, nv) /\ CheckLeader(i, lc, os, n.leader, n.round)
            THEN [decided EXCEPT !.lc = n.round, !.ooe = os]
            ELSE [keep EXCEPT !.recv = rs, !.ooe = os]

\* LOOKING peer i takes notification n from j and h is what it makes of it.
Receive(i, j, n, h) ==
    LET m1 == Popped(i, j)
        m2 == IF h.bcast THEN Broadcast(m1, i, Notif(h.vote, h.lc, "LOOKING")) ELSE m1
        \* A LOOKING sender of a lower round gets i's vote back.
        m3 == IF n.state = "LOOKING" /\ n.round < logicalclock[i]
              THEN SendTo(m2, i, j, Notif(vote[i], logicalclock[i], "LOOKING")) ELSE m2
    IN
    /\ logicalclock' = [logicalclock EXCEPT ![i] = h.lc]
    /\ vote' = [vote EXCEPT ![i] = h.vote]
    /\ recvset' = [recvset EXCEPT ![i] = h.recv]
    /\ outofelection' = [outofelection EXCEPT ![i] = h.ooe]
    /\ finalizing' = [finalizing EXCEPT ![i] = h.fin]
    /\ state' = [state EXCEPT ![i] = h.st]
    /\ messages' = m3
    /\ UNCHANGED <<up, currentEpoch, lastZxid, crashes>>

\* LOOKING peer i takes j's notification and still looks.
ReceiveNotification(i, j) ==
    /\ up[i] /\ state[i] = "LOOKING" /\ messages[j][i] # <<>>
    /\ LET n == Head(messages[j][i])
           h == Handle(i, j, n)
       IN h.st = "LOOKING" /\ Receive(i, j, n, h)

\* LOOKING peer i takes settled peer j's notification and decides.
DecideBySettled(i, j) ==
    /\ up[i] /\ state[i] = "LOOKING" /\ messages[j][i] # <<>>
    /\ LET n == Head(messages[j][i])
           h == Handle(i, j, n)
       IN h.st # "LOOKING" /\ Receive(i, j, n, h)

\* A FOLLOWING or LEADING peer takes j's notification and answers a LOOKING
\* sender with the vote it settled on.
SettledReceive(i, j) ==
    /\ up[i] /\ state[i] # "LOOKING" /\ messages[j][i] # <<>>
    /\ LET n == Head(messages[j][i]) IN
       messages' = IF n.state = "LOOKING"
                   THEN SendTo(Popped(i, j), i, j, Notif(vote[i], logicalclock[i], state[i]))
                   ELSE Popped(i, j)
    /\ UNCHANGED <<state, up, currentEpoch, lastZxid, logicalclock, vote, recvset, outofelection, finalizing, crashes>>

NotificationTimeout(i) ==
    /\ up[i] /\ state[i] = "LOOKING" /\ ~finalizing[i] /\ Nothing(i)
    /\ messages' = Broadcast(messages, i, Notif(vote[i], logicalclock[i], "LOOKING"))
    /\ UNCHANGED <<state, up, currentEpoch, lastZxid, logicalclock, vote, recvset, outofelection, finalizing, crashes>>

FinalizeWait(i) ==
    /\ up[i] /\ state[i] = "LOOKING" /\ finalizing[i] /\ Nothing(i)
    /\ state' = [state EXCEPT ![i] = IF vote[i].leader = i THEN "LEADING" ELSE "FOLLOWING"]
    /\ finalizing' = [finalizing EXCEPT ![i] = FALSE]
    /\ UNCHANGED <<up, currentEpoch, lastZxid, logicalclock, vote, recvset, outofelection, messages, crashes>>

Followers(i) == {j \in Server : up[j] /\ state[j] = "FOLLOWING" /\ vote[j].leader = i}

StopFollowing(i) ==
    /\ up[i] /\ state[i] = "FOLLOWING" /\ logicalclock[i] < MaxRound
    /\ LET l == vote[i].leader IN ~(up[l] /\ state[l] = "LEADING")
    /\ NewElection(i, logicalclock[i] + 1, messages)
    /\ UNCHANGED <<up, currentEpoch, lastZxid, crashes>>

StopLeading(i) ==
    /\ up[i] /\ state[i] = "LEADING" /\ logicalclock[i] < MaxRound
    /\ ~((Cardinality(Followers(i)) + 1) * 2 > NumServers)
    /\ NewElection(i, logicalclock[i] + 1, messages)
    /\ UNCHANGED <<up, currentEpoch, lastZxid, crashes>>

Next ==
    \/ \E i \in Server :
         \/ Start(i) \/ Crash(i) \/ NotificationTimeout(i) \/ FinalizeWait(i)
         \/ StopFollowing(i) \/ StopLeading(i)
    \/ \E i, j \in Server :
         \/ ReceiveNotification(i, j) \/ DecideBySettled(i, j) \/ SettledReceive(i, j)

\* Every peer's threads move on: a peer down starts, a notification in flight
\* is taken, a poll that can time out does, a follower without a leader or a
\* leader without a quorum looks again; a final wait that keeps being able to
\* end ends (strong fairness: other peers' notifications may keep arriving).
\* Crashes need not happen.
Fairness ==
    /\ \A i \in Server :
         /\ WF_vars(Start(i))
         /\ WF_vars(NotificationTimeout(i))
         /\ SF_vars(FinalizeWait(i))
         /\ WF_vars(StopFollowing(i))
         /\ WF_vars(StopLeading(i))
    /\ \A i, j \in Server :
         WF_vars(ReceiveNotification(i, j) \/ DecideBySettled(i, j) \/ SettledReceive(i, j))

Spec == Init /\ [][Next]_vars /\ Fairness
=============================================================================
