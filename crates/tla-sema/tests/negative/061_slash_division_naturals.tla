---- MODULE 061_slash_division_naturals ----
\* mistake: / used for division with only Naturals; error at line 7
EXTENDS Naturals
VARIABLE size
Init == size = 64
Halve == /\ size > 1
         /\ size' = size / 2
Next == Halve
====
