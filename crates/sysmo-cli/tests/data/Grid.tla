---- MODULE Grid ----
\* A few thousand states over several BFS levels, for runs with several workers: two counters
\* that climb, jump and reset, and a tag that moves through strings in TLC's string order (the
\* order of first appearance), so that every worker's evaluator must agree on that order.
EXTENDS Naturals
CONSTANT N
VARIABLES x, y, tag
Tags == {"zeta", "alpha", "mid"}
Init == x = 0 /\ y = 0 /\ tag = "mid"
IncX == x < N /\ x' = x + 1 /\ UNCHANGED <<y, tag>>
IncY == y < N /\ y' = y + 1 /\ UNCHANGED <<x, tag>>
Jump == x + y < N /\ x' = x + y /\ y' = (3 * x + 1) % (N + 1) /\ UNCHANGED tag
Retag == tag' = (CHOOSE t \in Tags \ {tag} : TRUE) /\ UNCHANGED <<x, y>>
Reset == x = N /\ y = N /\ x' = 0 /\ y' = 0 /\ UNCHANGED tag
Climb == IncX \/ IncY \/ Jump
Next == Climb \/ Retag \/ Reset
Fails == x < N /\ x' = (x * 10) \div (N - x - y) /\ UNCHANGED <<y, tag>>
NextFailing == Climb \/ Retag \/ Fails
Safe == ~(x + y = 2 * N - 1 /\ tag = "alpha")
Low == x + y <= N + 3
Steady == x' >= x \/ x' = 0
YRises == [][y' >= y \/ x < 5]_<<x, y>>
====
