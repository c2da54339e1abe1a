---- MODULE 055_except_field_without_bang ----
\* mistake: EXCEPT on a record field without !; error at line 6
EXTENDS Naturals
VARIABLE node
Init == node = [term |-> 0, role |-> "follower"]
Elect == node' = [node EXCEPT .role = "leader"]
Next == Elect
====
