---- MODULE SubInner ----
EXTENDS Naturals
CONSTANT Cap
VARIABLE n
Ok == /\ n >= 0
      /\ Small:: n <= Cap
Step == \/ n < Cap /\ n' = n + 1
        \/ n = Cap /\ n' = 0
====
