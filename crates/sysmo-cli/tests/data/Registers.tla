---- MODULE Registers ----
\* TLC's registers: TLCSet(i, v) in an ASSUME and in an action, TLCGet(i) in an action and
\* in an invariant, read in TLC's order of evaluation.
EXTENDS Naturals, TLC
VARIABLES x
ASSUME TLCSet(1, 0)
Init == x = 0
Next == x < 4 /\ x' = x + 1 /\ TLCSet(1, TLCGet(1) + 1) /\ TLCSet(2, x)
Counted == TLCGet(1) < 3
\* Register 7 is never set.
NextUnset == x < 4 /\ x' = TLCGet(7)
====
