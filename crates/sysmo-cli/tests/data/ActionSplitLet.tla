---- MODULE ActionSplitLet ----
\* One definition split into TLC's actions where its argument is constant-level (Handle(k)),
\* and one action whole where it is not (Handle(m), m read from the state): its disjuncts are
\* not counted as the actions they are in the split.
EXTENDS Naturals
VARIABLES x
Handle(m) == \/ m = 1 /\ x' = (x + 1) % 5
             \/ m # 1 /\ x' = (x + 2) % 5
Next == \/ LET m == x % 3 IN Handle(m)
        \/ LET k == 1 IN Handle(k)
Init == x = 0
====
