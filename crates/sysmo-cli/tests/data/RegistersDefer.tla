---- MODULE RegistersDefer ----
\* TLCExt's TLCDefer, TLCEvalDefinition and PickSuccessor, as TLC's TLCExt.java evaluates
\* them (TLC 2.15 predates them). The ASSUMEs and Inv state what each gives.
EXTENDS TLCExt, TLC, Naturals
VARIABLE x
Limit == 3
Twice == 2 * Limit
Squares[n \in 0..3] == n * n
Scaled(k) == k * Limit
ASSUME TLCEvalDefinition("Limit") = 3
ASSUME TLCEvalDefinition("Twice") = 6
ASSUME TLCEvalDefinition("Squares")[2] = 4
ASSUME PickSuccessor(FALSE)
Init == x = 0
\* TLCDefer's expression is never evaluated while model checking: no register set, no
\* division by zero.
Next == /\ x < TLCEvalDefinition("Limit")
        /\ TLCDefer(TLCSet("s:deferred", 1 \div 0))
        /\ PickSuccessor(FALSE)
        /\ x' = x + 1
        /\ PickSuccessor(x' <= Limit)
Inv == /\ TLCGetOrDefault("s:deferred", 0) = 0
       /\ PickSuccessor(FALSE)
       /\ TLCEvalDefinition("Twice") = 6
\* PickSuccessor on a complete successor whose condition is FALSE: TLC asks its user.
PickAsks == PickSuccessor(x' < 2)
NotADefinition == TLCEvalDefinition("x") = 0
WithParameters == TLCEvalDefinition("Scaled") = 0
====
