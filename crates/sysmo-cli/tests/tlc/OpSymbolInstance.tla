---- MODULE OpSymbolInstance ----
\* Operator constants substituted by a definition, a LAMBDA, a parameter of a parameterised
\* instance, and an operator symbol standing alone (`G <- +`), which SANY accepts.
EXTENDS Naturals
VARIABLE x
Double(a) == 2 * a
I == INSTANCE OpSymbolInner WITH y <- x, F <- Double, G <- LAMBDA a, b : a + b
J(H(_)) == INSTANCE OpSymbolInner WITH y <- x, F <- H, G <- +
Init == I!Init
Next == I!Next \/ J(LAMBDA z : z + 1)!Next
====
