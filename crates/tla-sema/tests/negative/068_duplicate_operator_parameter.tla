---- MODULE 068_duplicate_operator_parameter ----
\* mistake: operator with the same parameter name twice; error at line 7
EXTENDS Naturals
CONSTANT Procs
VARIABLE owner
Init == owner = 0
Transfer(p, p) == owner = p /\ owner' = p
Next == \E p, q \in Procs : Transfer(p, q)
====
