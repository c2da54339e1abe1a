---- MODULE NamedFacts ----
\* Named assumptions and theorems used as operators: ASSUME Small, ASSUME Both, and a theorem
\* with a proof after its statement.
EXTENDS Naturals
CONSTANT N
ASSUME Small == N \in 1..5
THEOREM Sum == \A k \in 0..N : k + 0 = k
PROOF OBVIOUS
ASSUME Both == Small /\ Sum
VARIABLE x
Init == x = 0
Next == Both /\ x < N /\ x' = x + 1
====
