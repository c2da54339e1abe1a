---- MODULE 043_nat_without_naturals ----
\* mistake: Nat used without EXTENDS Naturals; error at line 5
VARIABLE count
Init == count = 0
TypeOK == count \in Nat
Next == UNCHANGED count
====
