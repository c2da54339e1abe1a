---- MODULE 011_double_pipe ----
\* mistake: || used for disjunction; error at line 10
EXTENDS Naturals
VARIABLE light
Init == light = "red"
Change == light' = CASE light = "red" -> "green"
                     [] light = "green" -> "yellow"
                     [] light = "yellow" -> "red"
Stay == UNCHANGED light
Next == Change || Stay
====
