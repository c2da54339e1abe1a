---- MODULE 045_wf_call_syntax ----
\* mistake: WF_vars(Next) written as WF(vars, Next); error at line 8
EXTENDS Naturals
VARIABLES a, b
vars == <<a, b>>
Init == a = 0 /\ b = 0
Next == a' = b /\ b' = a
Spec == Init /\ [][Next]_vars /\ WF(vars, Next)
====
