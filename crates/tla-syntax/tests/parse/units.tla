---- MODULE units ----
EXTENDS Naturals
CONSTANT N
CONSTANTS Op(_, _), _ \prec _
VARIABLE x
ASSUME N \in Nat
ASSUME NIsPos == N > 0
ASSUMPTION TRUE
RECURSIVE Fact(_)
Fact(n) == IF n = 0 THEN 1 ELSE n * Fact(n - 1)
fib[n \in Nat] == IF n < 2 THEN n ELSE fib[n - 1] + fib[n - 2]
LOCAL Helper == 1
a \prec b == a < b
a ++ b == a + b
-. a == 0 - a
a ^+ == a
Apply(G(_), v) == G(v)
I == INSTANCE Inner WITH y <- x, + <- Plus
J(z) == INSTANCE Inner WITH y <- z
INSTANCE Inner WITH y <- x
LOCAL INSTANCE Inner WITH y <- x
Use == I!Val + J(1)!Val + I!Twice(2) + Inner!Val
-----------------------------------------------------------------------------
THEOREM Thm == N > 0
<1>1. N \in Nat
  BY DEF N
<1>2. QED
  OBVIOUS
LEMMA TRUE
PROOF OMITTED
---- MODULE Inner ----
VARIABLE y
Val == y
Twice(v) == v + v
====
After == 1
====
---- MODULE Second ----
Z == 1
====
