---- MODULE 093_dot_method_call ----
\* mistake: method call syntax on a set; error at line 6
EXTENDS Naturals
VARIABLE pending
Init == pending = {1, 2}
Done(i) == pending' = pending.remove(i)
Next == \E i \in pending : Done(i)
====
