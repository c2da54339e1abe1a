---- MODULE 026_double_prime ----
\* mistake: variable primed twice; error at line 6
EXTENDS Naturals
VARIABLE ticks
Init == ticks = 0
Tick == ticks'' = ticks + 1
Next == Tick
====
