---- MODULE 071_choose_missing_colon ----
\* mistake: CHOOSE without colon; error at line 6
EXTENDS Naturals
CONSTANT Nodes
VARIABLE leader
Init == leader = CHOOSE n \in Nodes TRUE
Next == UNCHANGED leader
====
