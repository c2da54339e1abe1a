---- MODULE TallyView ----
\* TallyPair read through an instance of it: its specification's Init and Next, its
\* invariant and its properties are read two instances deep.
VARIABLES a, b
W == INSTANCE TallyPair
Spec == W!Spec
Safe == W!Safe
RefinesA == W!RefinesA
RefinesB == W!RefinesB
====
