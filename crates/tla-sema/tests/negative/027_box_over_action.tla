---- MODULE 027_box_over_action ----
\* mistake: [] applied to an action that is not [A]_v; error at line 7
EXTENDS Naturals
VARIABLE hr
Init == hr \in 1..12
Next == hr' = IF hr = 12 THEN 1 ELSE hr + 1
Spec == Init /\ []Next
====
