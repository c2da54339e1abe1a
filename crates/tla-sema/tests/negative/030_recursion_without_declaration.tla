---- MODULE 030_recursion_without_declaration ----
\* mistake: recursive operator without RECURSIVE declaration; error at line 5
EXTENDS Naturals, Sequences
VARIABLE stack
Sum(s) == IF s = << >> THEN 0 ELSE Head(s) + Sum(Tail(s))
Init == stack = << >>
Push == /\ Sum(stack) < 10
        /\ stack' = Append(stack, 1)
Next == Push
====
