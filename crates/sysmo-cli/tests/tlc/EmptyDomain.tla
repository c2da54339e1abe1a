---- MODULE EmptyDomain ----
\* A bag kept as a function that starts empty (<< >>): `m \in DOMAIN bag` is FALSE for a
\* string m while the domain is 1..0, as in TLC.
EXTENDS Naturals, Sequences
VARIABLE bag, n
Single(m, c) == [x \in {m} |-> c]
Merge(f, g) == [x \in DOMAIN f \cup DOMAIN g |-> IF x \in DOMAIN f THEN f[x] ELSE g[x]]
Init == bag = << >> /\ n = 0
Add(m) == bag' = IF m \in DOMAIN bag THEN [bag EXCEPT ![m] = @ + 1] ELSE Merge(bag, Single(m, 1))
Next == /\ n < 2
        /\ \E m \in {"a", "b"} : Add(m)
        /\ n' = n + 1
====
