---- MODULE InstanceParams ----
\* An instance with a parameter that stands for state: D(w) substitutes its variable z by
\* w, and D(y) is then an instance over y. Its Init assigns y, its actions prime y and leave
\* a tuple of variables UNCHANGED, ENABLED reads through it, and so does an instance nested
\* in a nested module (A!Deep(y)!Bump). Before, the parameter was bound to y's value at the
\* call: D(y)!Bump never fired and D(y)!Start read y before Init assigned it.
EXTENDS Naturals
---- MODULE Cell ----
VARIABLE z
Start == z \in {0, 1}
Bump == z' = z + 1
Keep == UNCHANGED z
Small == z <= 6
====
---- MODULE Outer ----
CONSTANT K
Deep(w) == INSTANCE Cell WITH z <- w
====
VARIABLES y, u, v
D(w) == INSTANCE Cell WITH z <- w
T == INSTANCE Cell WITH z <- <<u, v>>
A == INSTANCE Outer WITH K <- 2
Init == D(y)!Start /\ D(u)!Start /\ v = 0
Next == \/ y < 4 /\ D(y)!Bump /\ D(u)!Keep /\ UNCHANGED v
        \/ u < 3 /\ D(u)!Bump /\ UNCHANGED <<y, v>> /\ ENABLED D(y)!Bump
        \/ u >= 3 /\ v < 2 /\ D(<<u, y>>)!Keep /\ v' = v + 1
        \/ y = 4 /\ A!Deep(y)!Bump /\ T!Keep
Inv == D(y)!Small
====
