---- MODULE UnnamedInner ----
EXTENDS Naturals
CONSTANT Limit
VARIABLE v
Within == v <= Limit
Grow == v' = v + 1
====
