---- MODULE Light ----
\* A light that is lit or not.
VARIABLE lit
Now == lit
LitIsBool == lit \in BOOLEAN
====
