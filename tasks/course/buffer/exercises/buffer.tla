------------------------------- MODULE buffer -------------------------------
(***************************************************************************)
(* A model of the course's bounded buffer with a mistake to find and fix  *)
(* (the exercise "fix the model"): it replays most traces, not all.       *)
(* The buffer (code/buffer.py): one                                       *)
(* producer, thread 0, puts items 1..Items into a buffer of capacity Cap;  *)
(* each consumer gets one item.  Each action is what a thread does while   *)
(* it holds the monitor's lock.  A thread that cannot go on waits; every   *)
(* put and every get wakes all waiting threads, which then look again.     *)
(*   pc[t]: "run", "waiting" (on the condition), "woken" (notified, not    *)
(*   yet running again) or "done".                                         *)
(***************************************************************************)
EXTENDS Naturals, Sequences

CONSTANTS Consumers, Items, Cap

VARIABLES buf, next, got, pc

vars == <<buf, next, got, pc>>

Threads == {0} \cup Consumers

Init ==
    /\ buf = <<>>
    /\ next = 1
    /\ got = [t \in Consumers |-> 0]
    /\ pc = [t \in Threads |-> "run"]

\* Every waiting thread is woken; the thread that acted becomes `after`.
Wake(t, after) == pc' = [u \in Threads |-> IF u = t THEN after ELSE IF pc[u] = "waiting" THEN "woken" ELSE pc[u]]

Ready(t) == pc[t] \in {"run", "woken"}

Put(t) ==
    /\ t = 0 /\ Ready(t)
    /\ Len(buf) < Cap
    /\ buf' = Append(buf, next)
    /\ next' = next + 1
    /\ Wake(t, IF next = Items THEN "done" ELSE "run")
    /\ UNCHANGED got

WaitFull(t) ==
    /\ t = 0 /\ Ready(t)
    /\ Len(buf) = Cap
    /\ pc' = [pc EXCEPT ![t] = "waiting"]
    /\ UNCHANGED <<buf, next, got>>

Get(t) ==
    /\ t \in Consumers /\ Ready(t)
    /\ buf # <<>>
    /\ got' = [got EXCEPT ![t] = Head(buf)]
    /\ buf' = Tail(buf)
    /\ pc' = [pc EXCEPT ![t] = "done"]
    /\ UNCHANGED next

WaitEmpty(t) ==
    /\ t \in Consumers /\ Ready(t)
    /\ buf = <<>>
    /\ pc' = [pc EXCEPT ![t] = "waiting"]
    /\ UNCHANGED <<buf, next, got>>

Next == \E t \in Threads : Put(t) \/ WaitFull(t) \/ Get(t) \/ WaitEmpty(t)

\* A thread that can go on does, eventually.
Fairness == \A t \in Threads : WF_vars(Put(t) \/ WaitFull(t) \/ Get(t) \/ WaitEmpty(t))

Spec == Init /\ [][Next]_vars /\ Fairness
=============================================================================
