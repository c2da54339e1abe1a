---- MODULE 019_unbalanced_paren ----
\* mistake: unclosed parenthesis; error at line 7
EXTENDS Naturals
VARIABLES x, y
Init == x = 0 /\ y = 0
Step == /\ x' = (x + 1) % 3
        /\ y' = ((y + x) % 3
Next == Step
====
