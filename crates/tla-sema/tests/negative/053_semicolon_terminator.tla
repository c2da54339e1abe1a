---- MODULE 053_semicolon_terminator ----
\* mistake: statement ended with a semicolon; error at line 5
EXTENDS Naturals
VARIABLE k
Init == k = 0;
Next == k' = k + 1
====
