---- MODULE prefix_form ----
\* An infix operator applied as a prefix one, as SANY accepts it.
A == +(1, 2)
B == <(x, y) /\ \cup({1}, {2}) = {1, 2}
C == *(2, +(1, 2)) + 1
D == (+)(b, c)
E == ..(1, <<3, 4>>[1])
\* `-` with one operand is the negation, and SANY rejects it with two.
F == -(x)
G == -(5, 2)
====
