---- MODULE 038_set_filter_bar ----
\* mistake: set filter written with | instead of :; error at line 7
EXTENDS Naturals, FiniteSets
CONSTANT Procs
VARIABLE pc
Init == pc = [p \in Procs |-> "ncs"]
InCS == {p \in Procs | pc[p] = "cs"}
Mutex == Cardinality(InCS) <= 1
Next == UNCHANGED pc
====
