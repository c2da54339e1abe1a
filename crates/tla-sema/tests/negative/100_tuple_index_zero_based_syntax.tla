---- MODULE 100_tuple_index_zero_based_syntax ----
\* mistake: tuple indexed with Python slicing; error at line 6
EXTENDS Naturals, Sequences
VARIABLE buf
Init == buf = <<1, 2, 3>>
Drop == buf' = buf[1:]
Next == Drop
====
