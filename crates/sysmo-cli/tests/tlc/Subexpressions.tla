---- MODULE Subexpressions ----
\* Subexpression names: positions in a bullet list and in an infix chain, labels (with and
\* without parameters), `!:`, `!<<` and `!>>`, a LET's body, a body under bound names given
\* with `!(...)`, CASE arms, and a subexpression of a definition reached through an instance
\* with a substitution.
EXTENDS Naturals, FiniteSets
VARIABLES x, y, k
vars == <<x, y, k>>
I == INSTANCE SubInner WITH Cap <- 2, n <- k

THEOREM Bounds == 3 \in 1..4
ASSUME Bounds!:

Init == /\ x = 0
        /\ y \in {0, 1}
        /\ k = 0

Inc(d) == /\ x < 3
          /\ x' = x + d
          /\ UNCHANGED y

Flip == y' = 1 - y /\ x' = x /\ x < 2

Pick == \E v \in {0, 1, 2} : Lbl(v):: (v # y /\ y' = v /\ x' = x)

Bump == LET top == 3 IN x < top /\ x' = x + 1

Kind == CASE x = 0 -> "zero" [] x = 1 -> "one" [] OTHER -> "many"

Next == \/ Inc(1)!1 /\ Inc(1)!2 /\ Inc(1)!3 /\ I!Step /\ UNCHANGED <<>>
        \/ Flip!1 /\ Flip!2 /\ UNCHANGED k /\ Flip!>>
        \/ Pick!(2) /\ UNCHANGED <<k>>
        \/ Pick!Lbl(0) /\ UNCHANGED k
        \/ /\ Bump!1!<< /\ Bump!1!>> /\ UNCHANGED <<y, k>>

Inv == /\ P0:: x \in 0..3
       /\ Init!2!>> = {0, 1}
       /\ I!Ok!2
       /\ I!Ok!Small
       /\ Kind!1!2 = "zero"  \/ x > 0
       /\ Inc(0)!1 \/ x = 3

Spec == Init /\ [][Next]_vars
====
