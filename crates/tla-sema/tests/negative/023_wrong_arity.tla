---- MODULE 023_wrong_arity ----
\* mistake: operator of two parameters called with one; error at line 8
EXTENDS Naturals, Sequences
CONSTANT Nodes
VARIABLE net
Init == net = [n \in Nodes |-> << >>]
Send(to, m) == net' = [net EXCEPT ![to] = Append(@, m)]
Broadcast(m) == \E n \in Nodes : Send(m)
Next == \E m \in 1..2 : Broadcast(m)
====
