---- MODULE 063_and_or_without_parens ----
\* mistake: /\ and \/ mixed on one line without parentheses; error at line 6
EXTENDS Naturals
VARIABLES req, grant
Init == req = FALSE /\ grant = FALSE
Next == req' = TRUE /\ grant' = grant \/ grant' = TRUE /\ req' = req
====
