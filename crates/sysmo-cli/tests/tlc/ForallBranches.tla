---- MODULE ForallBranches ----
\* `\A` in an action is the conjunction of its instances, each enumerated as an action: the
\* disjunction and the `\E` inside Ok branch, so TLC generates a successor per way.
EXTENDS Naturals
VARIABLES s, n
R == {1, 2}
Ok == \A r \in R : s[r] = 1 \/ \E q \in R : s[q] = 0
Init == s \in [R -> {0, 1}] /\ n = 0
A == /\ n = 0
     /\ Ok
     /\ n' = 1
     /\ UNCHANGED s
Next == A
====
