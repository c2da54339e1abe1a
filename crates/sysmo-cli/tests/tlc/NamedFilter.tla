---- MODULE NamedFilter ----
\* Membership in a set filter reached through definitions is decided without building the
\* set, as TLC's lazy SetPredValue: here the base sets are infinite (Nat, Seq) or large.
EXTENDS Naturals, Sequences
VARIABLE x
UpTo == {n \in Nat : n <= x}
Words == {w \in Seq({0, 1}) : Len(w) = x}
Pairs == {p \in SUBSET SUBSET (1..4) : \A a \in p : x \in a}
Alias == UpTo
Init == x = 1
Next == x < 6 /\ x' = x + 1
Inv == /\ x \in Alias
       /\ x + 1 \notin UpTo
       /\ [i \in 1..x |-> 1] \in Words
       /\ (x <= 4) => {1..x} \in Pairs
====
