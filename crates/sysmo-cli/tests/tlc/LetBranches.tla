---- MODULE LetBranches ----
\* A LET definition with no parameters, used as an action: TLC enumerates its body there, so
\* two disjuncts (or two witnesses of \E) that hold give the same successor twice. Used as a
\* value (IF's condition, an operand of =), it is a value.
EXTENDS Naturals
VARIABLES x, y
Init == LET start == x = 0 \/ x \in {0, 1} IN start /\ y = 0
Next == \/ /\ x < 3
           /\ LET ok == x = 0 \/ x < 2 \/ \E k \in 0..x : k = 1
                  again == ok
              IN /\ again
                 /\ x' = x + 1
                 /\ y' = y
        \/ /\ y < 2
           /\ LET even == x % 2 = 0 \/ x = 3
              IN /\ IF even THEN y' = y + 1 ELSE y' = y + 2
                 /\ (even = TRUE) \/ x = 1
                 /\ x' = x
====
