---- MODULE 056_python_list_literal ----
\* mistake: sequence written as a Python list [m]; error at line 7
EXTENDS Naturals, Sequences
CONSTANT Msgs
VARIABLE chan
Init == chan = << >>
Send(m) == chan' = chan \o [m]
Next == \E m \in Msgs : Send(m)
====
