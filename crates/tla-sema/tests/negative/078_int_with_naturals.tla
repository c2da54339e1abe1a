---- MODULE 078_int_with_naturals ----
\* mistake: Int used with only Naturals extended; error at line 6
EXTENDS Naturals
VARIABLE delta
Init == delta = 0
TypeOK == delta \in Int
Next == delta' = delta + 1
====
