---- MODULE OperatorArgument ----
\* A LET operator passed to an operator parameter of another name: inside it, R is the set the
\* quantifier binds, not the parameter R(_, _) it is called through.
EXTENDS Naturals
Apply(R(_, _), s, t) == R(s, t)
ASSUME \A R \in SUBSET ({1, 2} \X {1, 2}) :
         LET RR(s, t) == <<s, t>> \in R
         IN  Apply(RR, 1, 2) = (<<1, 2>> \in R)
VARIABLE x
Init == x = 0
Next == x < 2 /\ x' = x + 1
====
