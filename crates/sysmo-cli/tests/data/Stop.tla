---- MODULE Stop ----
\* TLC counts a successor as generated when it produces it, and a run that stops at a
\* successor counts none after it, not even those of the same action: from x = 2 the
\* quantifier, over a set that reads the state, gives 5 (seen) and then 6, which violates
\* Below6; its 7 and the second disjunct's 0 are never generated.
EXTENDS Naturals
VARIABLE x
Init == x = 0
Next == \/ \E d \in {2 * x + 1, 2 * x + 2, 2 * x + 3} : x' = d
        \/ x' = 0
Below6 == x # 6
====
