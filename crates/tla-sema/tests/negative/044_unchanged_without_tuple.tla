---- MODULE 044_unchanged_without_tuple ----
\* mistake: UNCHANGED x, y without << >>; error at line 7
EXTENDS Naturals
VARIABLES x, y, z
Init == x = 0 /\ y = 0 /\ z = 0
IncZ == /\ z' = z + 1
        /\ UNCHANGED x, y
Next == IncZ
====
