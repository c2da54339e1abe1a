---- MODULE SubstEnabled ----
\* Implements PairedCounter with both flags mapped to y and the counter to half of z. Inside the
\* instance, ENABLED reads the instance's own variables: Both is enabled (p' = 1 and q' = 2 are
\* two variables), though y' cannot be 1 and 2 at once; Bump's r' = r + 1 needs no z'.
EXTENDS Naturals
VARIABLES y, z
P == INSTANCE PairedCounter WITH p <- y, q <- y, r <- z \div 2
Init == y = 0 /\ z = 0
Next == z < 6 /\ z' = z + 1 /\ y' = y
Spec == Init /\ [][Next]_<<y, z>> /\ WF_<<y, z>>(Next)
Refines == P!Spec
BumpFair == P!BumpFair
====
