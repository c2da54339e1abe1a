---- MODULE 028_temporal_in_action ----
\* mistake: temporal operator <> inside an action; error at line 7
EXTENDS Naturals
VARIABLE req
Init == req = FALSE
Ask == /\ req' = TRUE
       /\ <>(req = FALSE)
Answer == req' = FALSE
Next == Ask \/ Answer
====
