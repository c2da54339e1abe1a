---- MODULE CtxInner ----
EXTENDS Naturals
CONSTANT K
VARIABLE x
Val == x + K
Inc == x' = x + K
Both == <<x, K>>
Room == ENABLED (x' = x + K /\ x' < 5)
====
