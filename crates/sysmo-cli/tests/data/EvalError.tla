---- MODULE EvalError ----
EXTENDS Naturals
VARIABLE k
Init == k = 2
Div == k > 0 /\ k < 5 /\ k' = 10 \div (k - 1)
Dec == k > 0 /\ k' = k - 1
Next == Div \/ Dec
====
