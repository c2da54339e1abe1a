---- MODULE 029_cyclic_definitions ----
\* mistake: two operators defined in terms of each other without RECURSIVE; error at line 5
EXTENDS Naturals
VARIABLE n
IsEven(k) == IF k = 0 THEN TRUE ELSE IsOdd(k - 1)
IsOdd(k) == IF k = 0 THEN FALSE ELSE IsEven(k - 1)
Init == n = 0
Next == n' = n + 1
Inv == IsEven(n) \/ IsOdd(n)
====
