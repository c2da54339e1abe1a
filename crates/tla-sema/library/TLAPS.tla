-------------------------------- MODULE TLAPS --------------------------------
(***************************************************************************)
(* The names a proof written for the TLA+ Proof System (TLAPS) refers to:  *)
(* the back-end pragmas used after BY (each is TRUE; the proof system      *)
(* reads the name, the model checker never evaluates it) and the proof     *)
(* rules of the Temporal Logic of Actions. Written for SysMo Playground,   *)
(* which parses proofs and checks models but does not check proofs: a      *)
(* module that EXTENDS TLAPS is accepted as SANY accepts it.               *)
(***************************************************************************)

\* Back ends: SMT solvers, Zenon, Isabelle, LS4, with a timeout argument (T)
\* or a tactic (M).
SimpleArithmetic == TRUE
SMT == TRUE
SMTT(X) == TRUE
CVC3 == TRUE
CVC3T(X) == TRUE
CVC4 == TRUE
CVC4T(X) == TRUE
Yices == TRUE
YicesT(X) == TRUE
veriT == TRUE
veriTT(X) == TRUE
Zipper == TRUE
ZipperT(X) == TRUE
Z3 == TRUE
Z3T(X) == TRUE
Spass == TRUE
SpassT(X) == TRUE
LS4 == TRUE
LS4T(X) == TRUE
PTL == TRUE
PropositionalTemporalLogic == TRUE
Zenon == TRUE
ZenonT(X) == TRUE
SlowZenon == TRUE
SlowerZenon == TRUE
VerySlowZenon == TRUE
SlowestZenon == TRUE
Isa == TRUE
IsaT(X) == TRUE
IsaM(X) == TRUE
IsaMT(X, Y) == TRUE
IsaWithSetExtensionality == TRUE
Auto == TRUE
SlowAuto == TRUE
SlowerAuto == TRUE
SlowestAuto == TRUE
Force == TRUE
SlowForce == TRUE
SlowerForce == TRUE
SlowestForce == TRUE
SimplifyAndSolve == TRUE
SlowSimplifyAndSolve == TRUE
SlowerSimplifyAndSolve == TRUE
SlowestSimplifyAndSolve == TRUE
Simplification == TRUE
SlowSimplification == TRUE
SlowerSimplification == TRUE
SlowestSimplification == TRUE
Blast == TRUE
SlowBlast == TRUE
SlowerBlast == TRUE
SlowestBlast == TRUE
AutoBlast == TRUE
AllProvers == TRUE
AllProversT(X) == TRUE
AllSMT == TRUE
AllSMTT(X) == TRUE
AllIsa == TRUE
AllIsaT(X) == TRUE
Trivial == TRUE

\* Directives that rewrite the goal before a back end sees it.
ExpandENABLED == TRUE
ExpandCdot == TRUE
AutoUSE == TRUE
Lambdify == TRUE
ENABLEDaxioms == TRUE
ENABLEDrewrites == TRUE
ENABLEDrules == TRUE
LevelComparison == TRUE
EnabledWrapper(Op(_)) == FALSE
CdotWrapper(Op(_)) == FALSE

\* Two facts of set theory.
THEOREM SetExtensionality == \A S, T : (\A x : x \in S <=> x \in T) => S = T
THEOREM NoSetContainsEverything == \A S : \E x : x \notin S

\* The proof rules of "The Temporal Logic of Actions" (Lamport, 1994).
THEOREM RuleTLA1 ==
  ASSUME STATE P, STATE f, P /\ (f' = f) => P'
  PROVE  []P <=> P /\ [][P => P']_f

THEOREM RuleTLA2 ==
  ASSUME STATE P, STATE Q, STATE f, STATE g, ACTION A, ACTION B,
         P /\ [A]_f => Q /\ [B]_g
  PROVE  []P /\ [][A]_f => []Q /\ [][B]_g

THEOREM RuleINV1 ==
  ASSUME STATE I, STATE F, ACTION N, I /\ [N]_F => I'
  PROVE  I /\ [][N]_F => []I

THEOREM RuleINV2 ==
  ASSUME STATE I, STATE f, ACTION N
  PROVE  []I => ([][N]_f <=> [][N /\ I /\ I']_f)

THEOREM RuleWF1 ==
  ASSUME STATE P, STATE Q, STATE f, ACTION N, ACTION A,
         P /\ [N]_f => (P' \/ Q'),
         P /\ <<N /\ A>>_f => Q',
         P => ENABLED <<A>>_f
  PROVE  [][N]_f /\ WF_f(A) => (P ~> Q)

THEOREM RuleSF1 ==
  ASSUME STATE P, STATE Q, STATE f, ACTION N, ACTION A, TEMPORAL F,
         P /\ [N]_f => (P' \/ Q'),
         P /\ <<N /\ A>>_f => Q',
         []P /\ [][N]_f /\ []F => <>ENABLED <<A>>_f
  PROVE  [][N]_f /\ SF_f(A) /\ []F => (P ~> Q)

THEOREM RuleWF2 ==
  ASSUME STATE P, STATE f, STATE g, STATE EM,
         ACTION A, ACTION B, ACTION N, ACTION M, TEMPORAL F,
         <<N /\ B>>_f => <<M>>_g,
         P /\ P' /\ <<N /\ A>>_f /\ EM => B,
         P /\ EM => ENABLED A,
         [][N /\ ~B]_f /\ WF_f(A) /\ []F /\ <>[]EM => <>[]P
  PROVE  [][N]_f /\ WF_f(A) /\ []F => []<><<M>>_g \/ []<>(~EM)

THEOREM RuleSF2 ==
  ASSUME STATE P, STATE f, STATE g, STATE EM,
         ACTION A, ACTION B, ACTION N, ACTION M, TEMPORAL F,
         <<N /\ B>>_f => <<M>>_g,
         P /\ P' /\ <<N /\ A>>_f /\ EM => B,
         P /\ EM => ENABLED A,
         [][N /\ ~B]_f /\ SF_f(A) /\ []F /\ []<>EM => <>[]P
  PROVE  [][N]_f /\ SF_f(A) /\ []F => []<><<M>>_g \/ <>[](~EM)

THEOREM RuleInvImplication ==
  ASSUME STATE F, STATE G, F => G
  PROVE  []F => []G

THEOREM RuleStepSimulation ==
  ASSUME STATE I, STATE f, STATE g, ACTION M, ACTION N,
         I /\ I' /\ [M]_f => [N]_g
  PROVE  []I /\ [][M]_f => [][N]_g
==============================================================================
