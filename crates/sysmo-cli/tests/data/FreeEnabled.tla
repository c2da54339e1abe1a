---- MODULE FreeEnabled ----
\* Toggle leaves y out of the action that fairness names: ENABLED Toggle does not depend on y,
\* so weak fairness forces x to keep toggling (TLC 2.15: no error).
EXTENDS Naturals
VARIABLES x, y
Toggle == x' = 1 - x
Next == Toggle /\ y' = y
Spec == x = 0 /\ y = 0 /\ [][Next]_<<x, y>> /\ WF_x(Toggle)
OftenOne == []<>(x = 1)
====
