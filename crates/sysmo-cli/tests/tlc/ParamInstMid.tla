---- MODULE ParamInstMid ----
EXTENDS ParamInstBase
LEMMA L == \A n \in 5..6 : Big(n)
Op == \A n \in 5..6 : Big(n)
====
