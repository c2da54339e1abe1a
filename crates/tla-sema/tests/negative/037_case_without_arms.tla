---- MODULE 037_case_without_arms ----
\* mistake: CASE with only an OTHER arm; error at line 6
EXTENDS Naturals
VARIABLE mode
Init == mode = 0
Step == mode' = CASE OTHER -> 0
Next == Step
====
