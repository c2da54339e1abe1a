---- MODULE 094_missing_then ----
\* mistake: IF without THEN; error at line 6
EXTENDS Naturals
VARIABLE speed
Init == speed = 0
Accel == speed' = IF speed < 3 speed + 1 ELSE speed
Next == Accel
====
