---- MODULE misaligned ----
VARIABLES x, y, z
Next == /\ x' = 1
        /\ y' = 2
       /\ z' = 3
Ok == 1
====
