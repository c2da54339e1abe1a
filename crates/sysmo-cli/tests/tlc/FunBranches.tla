---- MODULE FunBranches ----
\* `f[a]` of a function definition in an action or Init: TLC enumerates the definition's body
\* as an action, so a successor reached through two disjuncts (or two witnesses of `\E`) that
\* hold is generated twice. The module's definitions, a LET's, a recursive one, two arguments.
EXTENDS Naturals
VARIABLES x, y
Ok[n \in 0..3] == n = 0 \/ n < 2 \/ \E k \in 0..n : k = 1
Rec[n \in 0..3] == n = 0 \/ (n > 0 /\ Rec[n - 1]) \/ n = 2
Two[a \in 0..3, b \in 0..2] == a > b \/ \E c \in {a, b} : c = 0
Init == x \in 0..1 /\ Ok[x] /\ Rec[x + 2] /\ y = 0
Next == \/ /\ x < 3
           /\ Ok[x]
           /\ x' = x + 1 /\ y' = y
        \/ /\ y < 2
           /\ LET Even[m \in 0..5] == m % 2 = 0 \/ m = y IN Even[x]
           /\ y' = y + 1 /\ x' = x
        \/ /\ Rec[x] /\ Two[x, y]
           /\ x' = 0 /\ y' = 0
====
