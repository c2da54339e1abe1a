---- MODULE 059_python_and ----
\* mistake: conjunction written with and; error at line 6
EXTENDS Naturals
VARIABLES full, empty
Init == full = FALSE /\ empty = TRUE
Fill == empty and full' = TRUE /\ empty' = FALSE
Next == Fill
====
