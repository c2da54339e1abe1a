---- MODULE operators ----
VARIABLES a, b, c, d, x, f
E1 == x' = x + 1 /\ y' = y
E2 == CASE a -> b [] c -> d
E3 == IF a THEN b ELSE c + 1
E4 == \A z \in a : z > 0 /\ TRUE
E5 == f[a][b]
E6 == <<a, b>>[1]
E7 == a.b[1]
E8 == -x'
E9 == a # b
E10 == a =< b
E11 == []<>a
E12 == <>[]a
E13 == [][a]_b
E14 == WF_<<a,b>>(c)
E15 == a \in SUBSET b
E16 == \E <<p, q>> \in c : p
E17 == [a EXCEPT !["x"].y = 1]
E18 == {z \in a : z \in b}
E19 == {z : z \in a}
E20 == (a)'
E21 == ENABLED (a)
E22 == ENABLED a'
E23 == UNCHANGED x
E24 == a => b /\ c
E25 == ~ a \/ b
E26 == a - -b
E27 == a * -b
E28 == a ^ -b
E29 == x = -1
E30 == a + b \in c
E31 == a' \in b
E32 == a \in b .. c
E33 == {a}[1]
E34 == a \cup b \X c
E35 == a \X b \cup c
E36 == ~a \in b
E37 == -a..b
E38 == []a /\ <>b => c
E39 == a ~> []b
E40 == \E z : z
E41 == CHOOSE z : z
E42 == [a -> b]
E43 == a[b].c'
E44 == [a |-> 1].a
E45 == a!b
E46 == <<>>
E47 == {}
E48 == a ' = 1
E49 == a ++ b ++ c
E50 == a % b % c
E51 == a / b / c
E52 == a \div b * c
E53 == a * b \div c
E54 == a^b^c
E55 == a -| b
E56 == SUBSET SUBSET a
E57 == UNION UNION a
E58 == DOMAIN DOMAIN a
E59 == ~~a
E60 == - - a
E61 == x = [a EXCEPT ![1] = @ + 1, ![2] = @]
E62 == a .. b
E63 == f[a, b]
E64 == a \o b \o c
E65 == a \cdot b \cdot c
E66 == a @@ b :> c
E67 == a :> b @@ c
E68 == a <: b :> c
E69 == a \subseteq b \cup c
E70 == a \sqsubseteq b
E71 == a \wr b \wr c
E72 == a !! b
E73 == a ?? b ?? c
E74 == a $ b
E75 == a & b & c
E76 == a (+) b
E77 == a (\X) b
E78 == a \otimes b
E79 == a \bigcirc b
E80 == a :: b
E81 == a ::= b
E82 == [] [a]_b
E83 == <<a>>_b
E84 == a ~> b => c
E85 == IF a THEN b ELSE c = d
E86 == a * -b
E87 == a ^ -b
E88 == a - -b
E89 == a + -b
E90 == ENABLED a'
E91 == UNCHANGED x'
E92 == ~x'
E93 == -x'
E94 == ENABLED (a')
E95 == SUBSET a \cup b
E96 == []a = 1
E97 == ENABLED a \in b
E98 == a = ~b
E99 == <>a \cup b
E100 == []a ~> b
====
