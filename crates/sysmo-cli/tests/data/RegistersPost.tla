---- MODULE RegistersPost ----
\* TLC evaluates the .cfg's POSTCONDITION once the state space is explored (and the temporal
\* properties hold), with TLCGet("stats") giving the run's figures: here 2 initial states, 6
\* distinct states in 5 levels, 7 states generated (2 initial, 5 successors), and the
\* registers as the run left them (TLCSet in Next evaluated once per successor).
\* RegistersPostFalse.cfg names a false one, which TLC reports as it reports a false ASSUME;
\* RegistersPostLive.cfg the same after a temporal property, checked first;
\* RegistersPostBroken.cfg one whose evaluation fails, reported the same way.
EXTENDS Naturals, TLC
VARIABLE x
Init == x \in {0, 1} /\ TLCSet(1, 0)
Next == x < 5 /\ x' = x + 1 /\ TLCSet(1, TLCGet(1) + 1)
Stats == TLCGet("stats")
Post == /\ Stats.distinct = 6 /\ TLCGet("distinct") = 6
        /\ Stats.generated = 7 /\ TLCGet("generated") = 7
        /\ Stats.initial = 2
        /\ Stats.diameter = 5 /\ TLCGet("diameter") = 5
        /\ Stats.queue = 0 /\ TLCGet("queue") = 0
        /\ TLCGet(1) = 5
        /\ TLCGet("duration") >= 0
Wrong == Stats.distinct = 7
Broken == Stats.nothing = 1
Always == [](x \in 0..5)
====
