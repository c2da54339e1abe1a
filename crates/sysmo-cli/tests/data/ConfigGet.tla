---- MODULE ConfigGet ----
\* TLCGet("config") in an ASSUME and in Next: the model checker's record of its settings (the
\* record of TLC since 2021; TLC 2.15 predates it). Deadlock checking is on, so x steps by 1.
\* The worker count is whatever --workers says, so only its range is checked here.
EXTENDS Naturals, TLC
ASSUME /\ TLCGet("config").mode = "bfs"
       /\ TLCGet("config").worker \in 1..64
       /\ DOMAIN TLCGet("config") = {"mode", "deadlock", "worker", "seed", "fingerprint", "install"}
VARIABLE x
Init == x = 0
Next == x < 3 /\ x' = x + IF TLCGet("config").deadlock THEN 1 ELSE 2
Stop == x = 3 /\ UNCHANGED x
Spec == Init /\ [][Next \/ Stop]_x
====
