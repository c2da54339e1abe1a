---- MODULE W03_init_over_nat ----
\* mistake: initial value drawn from the infinite set Nat; error at line 5
EXTENDS Naturals
VARIABLE count
Init == count \in Nat
Next == count' = count + 1
====
