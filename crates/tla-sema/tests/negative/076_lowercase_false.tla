---- MODULE 076_lowercase_false ----
\* mistake: lower-case false; error at line 6
EXTENDS Naturals
CONSTANT Procs
VARIABLE waiting
Init == waiting = [p \in Procs |-> false]
Wait(p) == waiting' = [waiting EXCEPT ![p] = TRUE]
Next == \E p \in Procs : Wait(p)
====
