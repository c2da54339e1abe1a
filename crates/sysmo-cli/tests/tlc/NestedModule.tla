---- MODULE NestedModule ----
\* Modules nested in the file: one that reads the enclosing module's constant declared
\* before it, instantiated by name (its variable substituted implicitly, and explicitly), and
\* one instantiated without a name; the fairness and the property reach through an instance.
EXTENDS Naturals
CONSTANT Max
---- MODULE Counter ----
VARIABLE n
Init == n = 0
Step == n < Max /\ n' = n + 1
Reset == n = Max /\ n' = 0
Next == Step \/ Reset
Live == WF_n(Next)
Grows == []<>(n = Max)
====
---- MODULE Pair ----
VARIABLE a, b
Swap == a' = b /\ b' = a
====
VARIABLES n, m, a, b
C == INSTANCE Counter
D == INSTANCE Counter WITH n <- m
INSTANCE Pair
Init == C!Init /\ D!Init /\ a = 0 /\ b = 1
Next == \/ C!Next /\ UNCHANGED <<m, a, b>>
        \/ D!Step /\ UNCHANGED <<n, a, b>>
        \/ Swap /\ UNCHANGED <<n, m>>
Spec == Init /\ [][Next]_<<n, m, a, b>> /\ C!Live
Grows == C!Grows
Bound == n <= Max /\ m <= Max
====
