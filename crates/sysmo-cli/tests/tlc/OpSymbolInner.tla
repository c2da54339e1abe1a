---- MODULE OpSymbolInner ----
EXTENDS Naturals
CONSTANT F(_), G(_, _)
VARIABLE y
Init == y = F(1)
Next == y < 10 /\ y' = G(y, F(y))
====
