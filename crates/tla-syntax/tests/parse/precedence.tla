Text before the module is ignored.
---- MODULE precedence ----
EXTENDS Naturals
VARIABLES x, a, b, c, S, T
P1 == a + b * c
P2 == \A y : a => b
P3 == a \in S /\ b
P4 == ~a = b
P5 == x' = x + 1
P6 == -a^2
P7 == a + b - c
P8 == a * b + c
P9 == a - b - c
P10 == a \/ b => c
P11 == a => b <=> c
P12 == SUBSET S \X T
P13 == DOMAIN x \cup S
P14 == a .. b + 1
P15 == a :> 1 @@ b :> 2
P16 == [](a = 1) /\ <>b
P17 == ENABLED a /\ b
P18 == UNCHANGED <<a, b>> /\ x' = x
P19 == a \o b \circ c
P20 == S \X T \X S
P21 == (S \X T) \X S
P22 == a ~> b
P23 == a -+-> b
P24 == x'[a] = f[a]'
P25 == a \cdot b
P26 == a^+ \/ a^* \/ a^#
P27 == a \div b % c
P28 == a = b /\ b = c \/ c
====
Text after the module is ignored too: ( " \foo
