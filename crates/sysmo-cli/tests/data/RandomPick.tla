---- MODULE RandomPick ----
\* TLC's RandomElement draws with TLC's own random generator: not reproducible, so not supported.
EXTENDS Naturals, TLC
VARIABLE x
Init == x = RandomElement(1..3)
Next == UNCHANGED x
====
