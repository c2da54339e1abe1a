---- MODULE 080_exists_missing_backslash ----
\* mistake: \E x \in S written as \E x in S; error at line 7
EXTENDS Naturals
CONSTANT Nodes
VARIABLE alive
Init == alive = Nodes
Fail == \E n in alive : alive' = alive \ {n}
Next == Fail
====
