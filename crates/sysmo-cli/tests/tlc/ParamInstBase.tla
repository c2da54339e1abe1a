---- MODULE ParamInstBase ----
EXTENDS Naturals
CONSTANTS K
Big(n) == n > K
====
