---- MODULE 098_return_keyword ----
\* mistake: return used inside an operator body; error at line 5
EXTENDS Naturals
VARIABLE best
Max(a, b) == return IF a > b THEN a ELSE b
Init == best = 0
Next == best' = Max(best, 3)
====
