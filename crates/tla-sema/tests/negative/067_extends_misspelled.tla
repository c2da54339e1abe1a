---- MODULE 067_extends_misspelled ----
\* mistake: EXTENDS Natural instead of Naturals; error at line 3
EXTENDS Natural
VARIABLE n
Init == n = 0
Next == n' = n + 1
====
