---- MODULE 085_unclosed_comment ----
\* mistake: block comment (* never closed; error at line 5
EXTENDS Naturals
VARIABLE count
(* the counter of completed requests
Init == count = 0
Next == count' = count + 1
====
