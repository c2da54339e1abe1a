---- MODULE Exit ----
\* TLCSet("exit", TRUE) stops the run as TLC does: the state being expanded is finished (its
\* other successors are generated and stored), then the run ends with success, the states on
\* the queue unexplored. From x = 3, the second disjunct asks to stop and still gives 20; the
\* third gives 5 after it. TLC 2.15: 10 states generated, 7 distinct, 3 left on the queue,
\* depth 4. With the invariant of ExitInv.cfg, the initial state asks to stop: 1 state
\* generated, 1 left on the queue.
EXTENDS Naturals, TLC
VARIABLE x
Init == x = 0
Next == x < 10 /\ (x' = x + 1 \/ (x = 3 /\ TLCSet("exit", TRUE) /\ x' = 20) \/ x' = x + 2)
StopAtOnce == IF x = 0 THEN TLCSet("exit", TRUE) ELSE TRUE
Reach == <>(x = 10)
====
