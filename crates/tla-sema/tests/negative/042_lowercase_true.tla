---- MODULE 042_lowercase_true ----
\* mistake: lower-case true; error at line 6
EXTENDS Naturals
VARIABLE flag
Init == flag = FALSE
Raise == flag' = true
Next == Raise
====
