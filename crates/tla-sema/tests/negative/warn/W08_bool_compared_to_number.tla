---- MODULE W08_bool_compared_to_number ----
\* mistake: a Boolean compared with a number; error at line 6
EXTENDS Naturals
VARIABLE busy
Init == busy = FALSE
Start == /\ busy = 0
         /\ busy' = TRUE
Next == Start \/ UNCHANGED busy
====
