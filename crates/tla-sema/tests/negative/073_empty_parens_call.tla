---- MODULE 073_empty_parens_call ----
\* mistake: zero-parameter operator called with (); error at line 7
EXTENDS Naturals
VARIABLE c
Init == c = 0
Inc == c' = c + 1
Next == Inc()
====
