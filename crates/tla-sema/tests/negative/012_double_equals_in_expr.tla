---- MODULE 012_double_equals_in_expr ----
\* mistake: == used for equality inside an expression; error at line 8
EXTENDS Naturals
VARIABLE sem
Init == sem = 1
P == /\ sem > 0
     /\ sem' = sem - 1
V == sem' = IF sem == 0 THEN 1 ELSE sem + 1
Next == P \/ V
====
