---- MODULE 090_enabled_on_temporal ----
\* mistake: ENABLED applied to a temporal formula; error at line 7
EXTENDS Naturals
VARIABLE x
Init == x = 0
Next == x' = x + 1
Live == ENABLED (<>(x > 2))
====
