---- MODULE errors ----
VARIABLES x, y
Good1 == x = 1
NotEq == x != 1
DoubleEq == x == 1
Unclosed == f[(x + 1]
Assign == x' := 1
AndAnd == x && y
Arrow == [i \in {1} -> i]
Rec == [a -> 1, b |-> 2]
Bad = 1
Kw == IF x THEN 1
Junk == x y
CASE == 1
Str == "abc
Good2 == y = 2
