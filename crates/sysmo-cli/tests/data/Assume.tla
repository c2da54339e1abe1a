---- MODULE Assume ----
EXTENDS Naturals
CONSTANT N
ASSUME N > 10
VARIABLE v
Init == v = N
Next == v' = v
====
