---- MODULE 032_bound_shadows_variable ----
\* mistake: bound variable reuses the name of a state variable; error at line 7
EXTENDS Naturals
CONSTANT Slots
VARIABLES slot, used
Init == slot = 0 /\ used = {}
Alloc == \E slot \in Slots : used' = used \cup {slot} /\ UNCHANGED slot
Next == Alloc
====
