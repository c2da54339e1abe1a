------------------------------- MODULE buffer -------------------------------
(***************************************************************************)
(* The course's bounded buffer with its bug (code/buffer.py --bug): a      *)
(* consumer checks the buffer once, with `if`, where it needs `while`.     *)
(* Woken by a put, it takes without looking again; the other consumer,     *)
(* woken by the same put, may have taken the item first, and it takes from *)
(* an empty buffer (Python's IndexError, recorded as item -1).  The rest   *)
(* is the reference model.                                                 *)
(***************************************************************************)
EXTENDS Integers, Sequences

CONSTANTS Consumers, Items, Cap

VARIABLES buf, next, got, pc

vars == <<buf, next, got, pc>>

Threads == {0} \cup Consumers

Init ==
    /\ buf = <<>>
    /\ next = 1
    /\ got = [t \in Consumers |-> 0]
    /\ pc = [t \in Threads |-> "run"]

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

\* The bug: a woken consumer does not look at the buffer again.
Get(t) ==
    /\ t \in Consumers /\ Ready(t)
    /\ buf # <<>> \/ pc[t] = "woken"
    /\ got' = [got EXCEPT ![t] = IF buf = <<>> THEN -1 ELSE Head(buf)]
    /\ buf' = IF buf = <<>> THEN buf ELSE Tail(buf)
    /\ Wake(t, "done")
    /\ UNCHANGED next

WaitEmpty(t) ==
    /\ t \in Consumers /\ pc[t] = "run"
    /\ buf = <<>>
    /\ pc' = [pc EXCEPT ![t] = "waiting"]
    /\ UNCHANGED <<buf, next, got>>

Next == \E t \in Threads : Put(t) \/ WaitFull(t) \/ Get(t) \/ WaitEmpty(t)

Fairness == \A t \in Threads : WF_vars(Put(t) \/ WaitFull(t) \/ Get(t) \/ WaitEmpty(t))

Spec == Init /\ [][Next]_vars /\ Fairness
=============================================================================
