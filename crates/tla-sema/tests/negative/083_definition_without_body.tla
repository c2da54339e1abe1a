---- MODULE 083_definition_without_body ----
\* mistake: definition with == and no body; error at line 6
EXTENDS Naturals
VARIABLE phase
Init == phase = 0
TypeOK ==
Next == phase' = 1 - phase
====
