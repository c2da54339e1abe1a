---- MODULE 088_quantifier_over_two_sets_wrong ----
\* mistake: two bound variables joined with 'and'; error at line 7
EXTENDS Naturals
CONSTANT Procs
VARIABLE pc
Init == pc = [p \in Procs |-> 0]
Mutex == \A p \in Procs and q \in Procs : p /= q => pc[p] + pc[q] <= 1
Next == UNCHANGED pc
====
