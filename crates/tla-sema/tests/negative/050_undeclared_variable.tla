---- MODULE 050_undeclared_variable ----
\* mistake: variable used but never declared; error at line 7
EXTENDS Naturals
VARIABLE sent
Init == sent = 0
Send == /\ sent' = sent + 1
        /\ received' = received
Next == Send
====
