---- MODULE OpConstInstance ----
\* An instance that substitutes operators for an operator constant: a LAMBDA and a definition
\* of the instantiating module, applied inside the instance with arguments.
EXTENDS Naturals, FiniteSets
VARIABLES x, y
Differs(a, b) == a # b
Up == INSTANCE OpConstInner WITH Ok <- LAMBDA a, b : a >= b
Other == INSTANCE OpConstInner WITH Ok <- Differs, x <- y
vars == <<x, y>>
Init == x = 0 /\ y = 0
Next == \/ Up!Step /\ UNCHANGED y
        \/ Other!Step /\ UNCHANGED x
Inv == Cardinality(Up!Allowed) + Cardinality(Other!Allowed) >= 3
====
