---- MODULE 004_append_no_sequences ----
\* mistake: Append used without EXTENDS Sequences; error at line 7
EXTENDS Naturals
CONSTANT Items
VARIABLE log
Init == log = << >>
Write(i) == log' = Append(log, i)
Next == \E i \in Items : Write(i)
Spec == Init /\ [][Next]_log
====
