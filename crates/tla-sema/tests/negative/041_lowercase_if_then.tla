---- MODULE 041_lowercase_if_then ----
\* mistake: lower-case if/then/else; error at line 6
EXTENDS Naturals
VARIABLE x
Init == x = 0
Next == x' = if x < 3 then x + 1 else 0
====
