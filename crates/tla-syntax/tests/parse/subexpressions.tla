---- MODULE Subexpressions ----
\* Subexpression names, and a proof that starts at column 1 after its theorem.
A == Inv!2 /\ Q!: /\ Next!1!<< /\ Op(1)!lbl(2)!>> /\ I!Inv!P0 /\ S!(3, 4)!@
THEOREM T ==
          x = x
BY (x # {}) <=> ~(x = {}) DEF A
B == 1
====
