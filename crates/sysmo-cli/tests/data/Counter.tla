---- MODULE Counter ----
EXTENDS Naturals
CONSTANT Limit
VARIABLES x, log
Init == x = 0 /\ log = <<>>
Inc == x < Limit /\ x' = x + 1 /\ log' = [step |-> x, seen |-> {x, x + 1}]
Reset == x = Limit /\ x' = 0 /\ log' = log
Next == Inc \/ Reset
TypeOK == x \in 0..Limit
Small == x < 3
OnlyUp == [][x' > x]_x
====
