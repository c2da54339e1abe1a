---- MODULE 034_keyword_pick ----
\* mistake: PICK, a reserved word, used as an operator name; error at line 6
EXTENDS Naturals
CONSTANT Nodes
VARIABLE leader
PICK(S) == CHOOSE x \in S : TRUE
Init == leader = PICK(Nodes)
Next == UNCHANGED leader
====
