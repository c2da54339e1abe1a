---- MODULE StopFail ----
\* An action that fails to evaluate part-way: TLC has generated, stored and queued the
\* successors it produced before the failure (from y = 0: 10, then 10 \div 0 fails).
EXTENDS Naturals
VARIABLE y
Init == y = 0
Next == \E i \in {y, y + 1, y + 2} : y' = 10 \div (y + 1 - i)
====
