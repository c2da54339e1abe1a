---- MODULE 060_mod_word ----
\* mistake: modulus written as mod; error at line 6
EXTENDS Naturals
VARIABLE hour
Init == hour = 0
Tick == hour' = (hour + 1) mod 12
Next == Tick
====
