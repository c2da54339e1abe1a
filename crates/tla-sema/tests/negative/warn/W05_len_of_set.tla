---- MODULE W05_len_of_set ----
\* mistake: Len applied to a set; error at line 6
EXTENDS Naturals, Sequences
VARIABLE waiting
Init == waiting = {}
Join == /\ Len(waiting) < 2
        /\ waiting' = waiting \cup {1}
Next == Join
====
