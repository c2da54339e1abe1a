---- MODULE ActionSplit ----
EXTENDS Naturals, Sequences
CONSTANT Procs
VARIABLES pc, msgs, n
vars == <<pc, msgs, n>>
Send(p) == pc[p] = "idle" /\ pc' = [pc EXCEPT ![p] = "sent"] /\ msgs' = msgs \cup {p} /\ n' = n + 1
Go(p, s) == pc' = [pc EXCEPT ![p] = s] /\ UNCHANGED <<msgs, n>>
Try(p) ==
    \/ pc[p] = "sent" /\ p \in msgs /\ Go(p, "done")
    \/ pc[p] = "sent" /\ p \notin msgs /\ Go(p, "idle")
Receive(m) == msgs' = msgs \ {m} /\ UNCHANGED <<pc, n>>
Reset == LET done == {p \in Procs : pc[p] = "done"} IN
           done = Procs /\ pc' = [p \in Procs |-> "idle"] /\ UNCHANGED <<msgs, n>>
Bump(k) == n < 3 /\ n' = n + k /\ UNCHANGED <<pc, msgs>>
Next ==
    \/ \E p \in Procs : Send(p) \/ Try(p)
    \/ \E m \in msgs : Receive(m)
    \/ Reset
    \/ Bump(n)
    \/ \E p \in Procs : \E q \in Procs \ {p} : pc[p] = "done" /\ pc[q] = "done" /\ n' = 0 /\ UNCHANGED <<pc, msgs>>
Init == pc = [p \in Procs |-> "idle"] /\ msgs = {} /\ n = 0
Constr == n <= 4
====
