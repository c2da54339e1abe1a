---- MODULE Tally ----
EXTENDS Naturals
CONSTANTS Step, Cap
VARIABLE n
Init == n = 0
Inc == n + Step <= Cap /\ n' = n + Step
Reset == n >= Cap - Step /\ n' = 0
Spec == Init /\ [][Inc \/ Reset]_n
Room == ENABLED Inc
TypeOK == n \in 0..Cap
====
