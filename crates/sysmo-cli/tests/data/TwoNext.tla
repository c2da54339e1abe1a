---- MODULE TwoNext ----
\* Two next-state relations in one SPECIFICATION: TLC refuses it, and so does sysmo.
EXTENDS Naturals
VARIABLE x
Init == x = 0
A == x' = x + 1
B == x' = x
Spec == Init /\ [][A]_x /\ [][B]_x
====
