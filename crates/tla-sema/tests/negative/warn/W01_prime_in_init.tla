---- MODULE W01_prime_in_init ----
\* mistake: Init assigns a primed variable; error at line 5
EXTENDS Naturals
VARIABLE x
Init == x' = 0
Next == x' = (x + 1) % 3
====
