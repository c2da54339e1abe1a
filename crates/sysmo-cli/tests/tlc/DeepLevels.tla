---- MODULE DeepLevels ----
\* Formulas reached through more than twenty definitions, and levels that come from
\* what a parameter is bound to: fairness and a property are still temporal.
EXTENDS Naturals
VARIABLE x
Init == x = 0
SetTo(v, e) == v' = e
Next == SetTo(x, (x + 1) % 3)
F0 == WF_x(Next)
F1 == F0
F2 == F1
F3 == F2
F4 == F3
F5 == F4
F6 == F5
F7 == F6
F8 == F7
F9 == F8
F10 == F9
F11 == F10
F12 == F11
F13 == F12
F14 == F13
F15 == F14
F16 == F15
F17 == F16
F18 == F17
F19 == F18
F20 == F19
F21 == F20
F22 == F21
F23 == F22
F24 == F23
Q0 == []<>(x = 2)
Q1 == Q0
Q2 == Q1
Q3 == Q2
Q4 == Q3
Q5 == Q4
Q6 == Q5
Q7 == Q6
Q8 == Q7
Q9 == Q8
Q10 == Q9
Q11 == Q10
Q12 == Q11
Q13 == Q12
Q14 == Q13
Q15 == Q14
Q16 == Q15
Q17 == Q16
Q18 == Q17
Q19 == Q18
Q20 == Q19
Q21 == Q20
Q22 == Q21
Q23 == Q22
Q24 == Q23
Can(A) == ENABLED A
AlwaysCan == [](Can(SetTo(x, 1)))
Spec == Init /\ [][Next]_x /\ F24
====
