---- MODULE 070_let_without_in ----
\* mistake: LET without IN; error at line 7
EXTENDS Naturals
VARIABLE total
Init == total = 0
Add == LET d == 5
       total' = total + d
Next == Add
====
