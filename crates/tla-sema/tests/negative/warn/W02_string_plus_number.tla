---- MODULE W02_string_plus_number ----
\* mistake: + applied to a string; error at line 6
EXTENDS Naturals
VARIABLE label
Init == label = "n"
Next == label' = label + 1
====
