---- MODULE 091_null_literal ----
\* mistake: NULL used without being defined or declared; error at line 6
EXTENDS Naturals
CONSTANT Procs
VARIABLE holder
Init == holder = NULL
Acquire(p) == holder' = p
Next == \E p \in Procs : Acquire(p)
====
