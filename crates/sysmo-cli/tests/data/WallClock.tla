---- MODULE WallClock ----
\* TLC's JavaTime: seconds since 1970 (later than 2025-01-01), read again on each use.
EXTENDS Naturals, TLC
ASSUME JavaTime > 1735689600
VARIABLE t
Init == t = JavaTime
Next == UNCHANGED t
Inv == t <= JavaTime
====
