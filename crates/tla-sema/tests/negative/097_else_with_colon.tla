---- MODULE 097_else_with_colon ----
\* mistake: IF written with Python-like colons; error at line 6
EXTENDS Naturals
VARIABLE stage
Init == stage = 0
Adv == stage' = IF stage < 2: stage + 1 ELSE: 0
Next == Adv
====
