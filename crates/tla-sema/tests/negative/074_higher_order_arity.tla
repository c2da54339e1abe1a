---- MODULE 074_higher_order_arity ----
\* mistake: operator argument of the wrong arity; error at line 8
EXTENDS Naturals
VARIABLE acc
Apply(F(_), v) == F(v)
Add(a, b) == a + b
Init == acc = 0
Next == acc' = Apply(Add, acc)
====
