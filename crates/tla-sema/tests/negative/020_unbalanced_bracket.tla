---- MODULE 020_unbalanced_bracket ----
\* mistake: unclosed square bracket in EXCEPT; error at line 7
EXTENDS Naturals
CONSTANT Procs
VARIABLE votes
Init == votes = [p \in Procs |-> 0]
Vote(p) == votes' = [votes EXCEPT ![p] = @ + 1
Next == \E p \in Procs : Vote(p)
====
