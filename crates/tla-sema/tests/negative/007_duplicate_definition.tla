---- MODULE 007_duplicate_definition ----
\* mistake: TypeOK defined twice; error at line 8
EXTENDS Naturals
VARIABLE hour
TypeOK == hour \in 1..12
Init == hour \in 1..12
Tick == hour' = IF hour = 12 THEN 1 ELSE hour + 1
TypeOK == hour \in Nat
Spec == Init /\ [][Tick]_hour
====
