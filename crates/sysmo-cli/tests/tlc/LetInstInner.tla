---- MODULE LetInstInner ----
EXTENDS Naturals
CONSTANT Cap
VARIABLE x
Room == x < Cap
NextVal(d) == x + d
====
