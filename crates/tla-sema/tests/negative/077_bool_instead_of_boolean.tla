---- MODULE 077_bool_instead_of_boolean ----
\* mistake: Bool used instead of BOOLEAN; error at line 6
EXTENDS Naturals
VARIABLE open
Init == open = FALSE
TypeOK == open \in Bool
Toggle == open' = ~open
Next == Toggle
====
