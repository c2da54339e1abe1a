---- MODULE 092_len_on_set_typo_size ----
\* mistake: size(...) used instead of Cardinality; error at line 8
EXTENDS Naturals, FiniteSets
CONSTANT Nodes
VARIABLE votes
Init == votes = {}
Vote(n) == votes' = votes \cup {n}
Quorum == size(votes) * 2 > Cardinality(Nodes)
Next == \E n \in Nodes : Vote(n)
====
