---- MODULE W06_index_out_of_domain ----
\* mistake: function applied outside its domain; error at line 8
EXTENDS Naturals
VARIABLES slots, i
Init == slots = [k \in 1..3 |-> 0] /\ i = 1
Fill == /\ slots' = [slots EXCEPT ![i] = 1]
        /\ i' = i + 1
Inv == slots[i] \in {0, 1}
Next == Fill
====
