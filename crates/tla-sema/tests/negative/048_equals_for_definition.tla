---- MODULE 048_equals_for_definition ----
\* mistake: top-level definition written with = instead of ==; error at line 5
EXTENDS Naturals
VARIABLE pos
Init = pos = 0
Move == pos' = pos + 1
Next == Move
====
