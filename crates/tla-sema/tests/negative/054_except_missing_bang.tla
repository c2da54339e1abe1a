---- MODULE 054_except_missing_bang ----
\* mistake: EXCEPT update without !; error at line 7
EXTENDS Naturals
CONSTANT Accounts
VARIABLE bal
Init == bal = [a \in Accounts |-> 10]
Pay(a) == bal' = [bal EXCEPT [a] = @ - 1]
Next == \E a \in Accounts : Pay(a)
====
