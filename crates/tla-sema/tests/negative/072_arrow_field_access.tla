---- MODULE 072_arrow_field_access ----
\* mistake: record field accessed with ->; error at line 6
EXTENDS Naturals
VARIABLE req
Init == req = [id |-> 1, done |-> FALSE]
Finish == /\ req->done = FALSE
          /\ req' = [req EXCEPT !.done = TRUE]
Next == Finish
====
