---- MODULE conflicts ----
VARIABLES a, b, c
Ok == a
Bad1 == a \cup b \cap c
Bad2 == a = b = c
Bad3 == a /\ b \/ c
Bad4 == a < b > c
Bad5 == a | b + c
StillOk == (a \cup b) \cap c
====
