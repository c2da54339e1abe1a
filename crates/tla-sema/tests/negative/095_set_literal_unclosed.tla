---- MODULE 095_set_literal_unclosed ----
\* mistake: set literal { not closed; error at line 5
EXTENDS Naturals
VARIABLE colour
Colours == {"red", "green", "blue"
Init == colour \in Colours
Next == colour' \in Colours
====
