---- MODULE InstVarArgInner ----
EXTENDS Naturals
VARIABLE q
Set(v, e) == v' = e
Start(v) == v = 0
IInit == Start(q)
INext == Set(q, IF q < 2 THEN q + 1 ELSE 0)
====
