---- MODULE BehaviourTrace ----
\* TLCExt's Trace is the behaviour to the state being checked, each state a record of the
\* variables: in Inv, x + 1 states counting 0, 1, ..., x; read in an action (NextByTrace), the
\* behaviour to the state whose successors are computed.
EXTENDS Naturals, Sequences, TLCExt
VARIABLE x
Init == x = 0
Next == x < 3 /\ x' = x + 1
NextByTrace == Len(Trace) < 3 /\ x' = x + 1
Inv == /\ Len(Trace) = x + 1
       /\ Trace[Len(Trace)] = [x |-> x]
       /\ \A i \in 1..Len(Trace) : Trace[i].x = i - 1
====
