---- MODULE InstVarArg ----
\* An instance's own action passes its variable q to an operator that assigns its parameter
\* (in Init and on a step): q, substituted by the root's y, is passed by name.
EXTENDS Naturals
VARIABLE y
I == INSTANCE InstVarArgInner WITH q <- y
Init == I!IInit
Next == I!INext
====
