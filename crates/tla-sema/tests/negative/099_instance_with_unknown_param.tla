---- MODULE 099_instance_with_unknown_param ----
\* mistake: parameter of an instance substitution that the instantiated module lacks; error at line 5
EXTENDS Naturals
VARIABLE s
N == INSTANCE Naturals WITH count <- s
Init == s = 0
Next == s' = s + 1
====
