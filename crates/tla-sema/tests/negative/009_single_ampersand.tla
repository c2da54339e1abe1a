---- MODULE 009_single_ampersand ----
\* mistake: & used for conjunction; error at line 6
EXTENDS Naturals
VARIABLES locked, owner
Init == locked = FALSE /\ owner = 0
Acquire(p) == locked = FALSE & locked' = TRUE /\ owner' = p
Release == locked' = FALSE /\ owner' = 0
Next == (\E p \in 1..3 : Acquire(p)) \/ Release
====
