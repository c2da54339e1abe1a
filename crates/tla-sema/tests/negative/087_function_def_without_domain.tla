---- MODULE 087_function_def_without_domain ----
\* mistake: recursive function definition without domain; error at line 5
EXTENDS Naturals
VARIABLE k
fact[n] == IF n = 0 THEN 1 ELSE n * fact[n - 1]
Init == k = 0
Next == k < 5 /\ k' = k + 1
Inv == fact[k] >= 1
====
