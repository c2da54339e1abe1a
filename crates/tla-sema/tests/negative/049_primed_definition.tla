---- MODULE 049_primed_definition ----
\* mistake: next-state written as x' == e inside an action; error at line 6
EXTENDS Naturals
VARIABLE seq
Init == seq = 0
Next == seq' == seq + 1
====
