---- MODULE 046_forall_missing_colon ----
\* mistake: \A x \in S P without a colon; error at line 7
EXTENDS Naturals
CONSTANT Procs
VARIABLE pc
Init == pc = [p \in Procs |-> "idle"]
AllIdle == \A p \in Procs pc[p] = "idle"
Next == UNCHANGED pc
====
