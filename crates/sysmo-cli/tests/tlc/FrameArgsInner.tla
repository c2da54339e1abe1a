---- MODULE FrameArgsInner ----
EXTENDS Naturals
CONSTANT Limit
VARIABLE x
Set(v, e) == v' = e
Keep(v) == UNCHANGED v
Bump(v, F(_)) == v' = F(v)
CanSet(v) == ENABLED (v' = 1)
Fresh(v) == v < Limit
====
