---- MODULE 089_prime_on_constant_expr ----
\* mistake: prime applied to a whole action; error at line 7
EXTENDS Naturals
VARIABLE v
Init == v = 0
Step == v' = v + 1
Next == Step'
====
