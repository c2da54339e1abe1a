---- MODULE TickCounter ----
\* mistake: module name differs from the file name; error at line 1
EXTENDS Naturals
VARIABLE tick
Init == tick = 0
Next == tick' = tick + 1
====
