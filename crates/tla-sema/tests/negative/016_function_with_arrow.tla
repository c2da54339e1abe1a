---- MODULE 016_function_with_arrow ----
\* mistake: function constructor written with -> instead of |->; error at line 6
EXTENDS Naturals
CONSTANT Procs
VARIABLE pc
Init == pc = [p \in Procs -> "idle"]
Go(p) == /\ pc[p] = "idle"
         /\ pc' = [pc EXCEPT ![p] = "busy"]
Next == \E p \in Procs : Go(p)
====
