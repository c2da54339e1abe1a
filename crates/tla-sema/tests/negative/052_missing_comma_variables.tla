---- MODULE 052_missing_comma_variables ----
\* mistake: VARIABLES list without commas; error at line 4
EXTENDS Naturals
VARIABLES x y
Init == x = 0 /\ y = 0
Next == x' = y /\ y' = x
====
