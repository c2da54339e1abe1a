---- MODULE UnnamedInstance ----
\* An unnamed INSTANCE with substitutions: its definitions read the substituted expressions
\* (Within is x <= 5, Grow is x' = x + 1), and its constant needs no value in the .cfg.
EXTENDS Naturals
VARIABLE x
INSTANCE UnnamedInner WITH Limit <- 5, v <- x
Init == x = 0
Next == x < 5 /\ Grow
====
