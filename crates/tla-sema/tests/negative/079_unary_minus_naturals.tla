---- MODULE 079_unary_minus_naturals ----
\* mistake: unary minus with only Naturals extended; error at line 6
EXTENDS Naturals
VARIABLE dir
Init == dir = 1
Flip == dir' = -dir
Next == Flip
====
