---- MODULE 033_keyword_state ----
\* mistake: STATE, a reserved word, used as a variable name; error at line 4
EXTENDS Naturals
VARIABLE STATE
Init == STATE = "off"
Toggle == STATE' = IF STATE = "off" THEN "on" ELSE "off"
Next == Toggle
====
