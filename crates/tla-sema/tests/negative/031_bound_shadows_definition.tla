---- MODULE 031_bound_shadows_definition ----
\* mistake: bound variable reuses the name of a definition; error at line 8
EXTENDS Naturals
CONSTANT Workers
VARIABLE busy
w == 3
Init == busy = {}
Start == \E w \in Workers : busy' = busy \cup {w}
Next == Start
====
