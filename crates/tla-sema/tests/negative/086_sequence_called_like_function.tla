---- MODULE 086_sequence_called_like_function ----
\* mistake: sequence indexed with ( ) instead of [ ]; error at line 6
EXTENDS Naturals, Sequences
VARIABLE queue
Init == queue = <<3, 1, 2>>
Front == queue(1)
Pop == queue' = Tail(queue)
Next == Pop
====
