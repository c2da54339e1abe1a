---- MODULE 008_bang_equals ----
\* mistake: != used for inequality instead of /=; error at line 7
EXTENDS Naturals
CONSTANT N
VARIABLE turn
Init == turn = 0
Pass == /\ turn != N
        /\ turn' = turn + 1
Next == Pass
====
