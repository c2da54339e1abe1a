---- MODULE 015_record_in_braces ----
\* mistake: record written with braces; error at line 5
EXTENDS Naturals
VARIABLE cfg
Init == cfg = {leader |-> 1, term |-> 0}
Bump == cfg' = [cfg EXCEPT !.term = @ + 1]
Next == Bump
====
