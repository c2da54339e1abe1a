---- MODULE 021_unbalanced_tuple ----
\* mistake: tuple << not closed; error at line 5
EXTENDS Naturals, Sequences
VARIABLES head, tail
vars == <<head, tail
Init == head = 0 /\ tail = 0
Push == tail' = tail + 1 /\ UNCHANGED head
Next == Push
Spec == Init /\ [][Next]_vars
====
