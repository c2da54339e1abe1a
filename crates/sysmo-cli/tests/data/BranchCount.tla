---- MODULE BranchCount ----
\* TLC counts every way an action is satisfied as a generated state: when P holds, Q in
\* `P => Q` is read as an action, so its disjuncts are branches (here y' = y and y' = 1 - y).
\* The last conjunct comes after x' and y' are both assigned: it is only a condition.
\* TLC 2.15 (deadlock not checked): 8 states generated, 6 distinct, depth 4.
EXTENDS Naturals
VARIABLES x, y
Init == x = 0 /\ y = 0
Next == /\ x < 3
        /\ x' = x + 1
        /\ x >= 1 => \/ y' = y
                     \/ y' = 1 - y
        /\ x < 1 => y' = y
        /\ \A i \in 1..2 : i > x \/ i > 0
====
