---- MODULE Asserts ----
EXTENDS Naturals, TLC
VARIABLE a
Init == a = 0
Next == a < 5 /\ Assert(a < 2, "a got too big") /\ a' = a + 1
====
