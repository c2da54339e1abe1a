---- MODULE 075_unchanged_primed ----
\* mistake: UNCHANGED applied to a primed variable; error at line 6
EXTENDS Naturals
VARIABLES p, q
Init == p = 0 /\ q = 0
StepP == p' = p + 1 /\ UNCHANGED q'
Next == StepP
====
