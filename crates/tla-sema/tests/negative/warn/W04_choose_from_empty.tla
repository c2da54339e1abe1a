---- MODULE W04_choose_from_empty ----
\* mistake: CHOOSE over a set with no element satisfying the predicate; error at line 6
EXTENDS Naturals
CONSTANT Nodes
VARIABLE leader
Init == leader = CHOOSE n \in Nodes : n > 10
Next == UNCHANGED leader
====
