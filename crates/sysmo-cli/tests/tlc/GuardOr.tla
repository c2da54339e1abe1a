---- MODULE GuardOr ----
\* A disjunction of state-level guards inside an action, before the assignments (the shape of
\* 2PCwithBTM's `\/ /\ rmState[self] = "working" \/ tmState = "abort"`): TLC enumerates `\/`
\* inside an action as branches, so where both guards hold the step is generated twice.
EXTENDS Naturals
VARIABLES rm, tm
Init == rm = [p \in 1..2 |-> "working"] /\ tm = "init"
Abort(p) == /\ \/ rm[p] = "working"
               \/ tm = "abort"
            /\ rm' = [rm EXCEPT ![p] = "aborted"]
            /\ UNCHANGED tm
TmAbort == tm = "init" /\ tm' = "abort" /\ UNCHANGED rm
Next == TmAbort \/ \E p \in 1..2 : Abort(p)
====
