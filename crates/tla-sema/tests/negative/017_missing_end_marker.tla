---- MODULE 017_missing_end_marker ----
\* mistake: module not closed by ====; error at line 7
EXTENDS Naturals
VARIABLE x
Init == x = 0
Next == x' = (x + 1) % 5
Spec == Init /\ [][Next]_x
