---- MODULE 036_if_without_else ----
\* mistake: IF THEN without ELSE; error at line 6
EXTENDS Naturals
VARIABLE level
Init == level = 0
Fill == IF level < 5 THEN level' = level + 1
Next == Fill
====
