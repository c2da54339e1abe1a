---- MODULE 005_redefine_len ----
\* mistake: redefines Len, already defined by Sequences; error at line 5
EXTENDS Naturals, Sequences
VARIABLE buf
Len(s) == IF s = << >> THEN 0 ELSE 1
Init == buf = << >>
Put == /\ Len(buf) < 3
       /\ buf' = Append(buf, 1)
Next == Put
====
