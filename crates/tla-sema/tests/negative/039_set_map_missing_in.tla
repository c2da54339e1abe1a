---- MODULE 039_set_map_missing_in ----
\* mistake: set map written {x : S} without \in; error at line 7
EXTENDS Naturals
CONSTANT Keys
VARIABLE store
Init == store = [k \in Keys |-> 0]
Values == {store[k] : Keys}
Put(k, v) == store' = [store EXCEPT ![k] = v]
Next == \E k \in Keys, v \in 0..2 : Put(k, v)
====
