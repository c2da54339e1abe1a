---- MODULE ParamInstance ----
\* A parameterized instance whose parameter K stands for the instantiated module's constant
\* K (declared in a module it extends): P(3)!Op and the lemma P(3)!L read K as 3.
EXTENDS Naturals
P(K) == INSTANCE ParamInstMid
VARIABLE x
ASSUME P(3)!Op
ASSUME P(3)!L
ASSUME ~P(5)!L
Init == x = 0
Next == UNCHANGED x
====
