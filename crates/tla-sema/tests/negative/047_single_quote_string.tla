---- MODULE 047_single_quote_string ----
\* mistake: string in single quotes; error at line 5
EXTENDS Naturals
VARIABLE state
Init == state = 'idle'
Run == state' = "running"
Next == Run
====
