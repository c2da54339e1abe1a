---- MODULE CfgForms ----
\* .cfg forms TLC accepts: a constant substituted by TRUE (`C <- TRUE`), and a keyword with an
\* empty list (PROPERTIES) before the next one.
EXTENDS Naturals
CONSTANT Go, Top
VARIABLE x
Init == x = 0
Next == Go /\ x < Top /\ x' = x + 1
====
