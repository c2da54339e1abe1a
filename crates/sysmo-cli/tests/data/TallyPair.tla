---- MODULE TallyPair ----
\* Two instances of one module with different substitutions; the specification, the
\* invariant and the properties are all read inside them.
EXTENDS Naturals
VARIABLES a, b
A == INSTANCE Tally WITH n <- a, Step <- 2, Cap <- 9
B == INSTANCE Tally WITH n <- b, Step <- 3, Cap <- 7
Init == A!Init /\ B!Init
Next == \/ A!Inc /\ UNCHANGED b
        \/ B!Inc /\ UNCHANGED a
        \/ A!Reset /\ B!Reset
Spec == Init /\ [][Next]_<<a, b>>
Safe == /\ A!TypeOK /\ B!TypeOK
        /\ A!Room = (a + 2 <= 9)
        /\ B!Room = (b + 3 <= 7)
RefinesA == A!Spec
RefinesB == B!Spec
====
