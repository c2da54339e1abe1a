---- MODULE OpConstInner ----
EXTENDS Naturals
CONSTANT Ok(_, _)
VARIABLE x
Allowed == {v \in 0..3 : Ok(v, x)}
Step == x' \in Allowed
====
