---- MODULE 065_seq_without_sequences ----
\* mistake: Seq(S) used without EXTENDS Sequences; error at line 7
EXTENDS Naturals
CONSTANT Vals
VARIABLE hist
Init == hist = << >>
TypeOK == hist \in Seq(Vals)
Next == UNCHANGED hist
====
