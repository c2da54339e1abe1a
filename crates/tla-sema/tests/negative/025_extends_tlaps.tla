---- MODULE 025_extends_tlaps ----
\* mistake: EXTENDS TLAPS, which the model checker's library does not provide; error at line 3
EXTENDS Naturals, TLAPS
VARIABLE n
Init == n = 0
Next == n' = n + 1
Inv == n \in Nat
THEOREM Spec == Init /\ [][Next]_n => []Inv
====
