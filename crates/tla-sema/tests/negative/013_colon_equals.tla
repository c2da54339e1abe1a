---- MODULE 013_colon_equals ----
\* mistake: := used as assignment; error at line 6
EXTENDS Naturals
VARIABLE counter
Init == counter = 0
Inc == counter' := counter + 1
Next == Inc
Spec == Init /\ [][Next]_counter
====
