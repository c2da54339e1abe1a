---- MODULE W07_too_many_indices ----
\* mistake: one-argument function applied to three arguments; error at line 9
EXTENDS Naturals
CONSTANT Procs
VARIABLE msgs
Init == msgs = [p \in Procs |-> [q \in Procs |-> 0]]
Send(p, q) == msgs' = [msgs EXCEPT ![p][q] = 1]
Next == \E p, q \in Procs : Send(p, q)
Inv == \A p \in Procs : msgs[p, p, p] = 0
====
