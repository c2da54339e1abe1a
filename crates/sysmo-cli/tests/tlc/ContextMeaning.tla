---- MODULE ContextMeaning ----
\* One module instantiated in several contexts: the same names (x, K) in the same
\* definitions mean a different variable and constant under each instance, nested ones
\* (M!In), parameterised ones (P(v, k)) and one in a LET included; ENABLED inside them cuts
\* the substitution off as TLC does.
EXTENDS Naturals
VARIABLES a, b, c
A == INSTANCE CtxInner WITH x <- a, K <- 1
B == INSTANCE CtxInner WITH x <- b, K <- 3
M == INSTANCE CtxMid WITH y <- c
P(v, k) == INSTANCE CtxInner WITH x <- v, K <- k
Init == a = 0 /\ b = 0 /\ c = 0
Next == \/ A!Inc /\ UNCHANGED <<b, c>>
        \/ B!Inc /\ UNCHANGED <<a, c>>
        \/ M!Step /\ UNCHANGED <<a, b>>
        \/ P(a, 2)!Inc /\ UNCHANGED <<b, c>>
        \/ P(c, 3)!Inc /\ UNCHANGED <<a, b>>
Bound == a < 9 /\ b < 10 /\ c < 8
Inv == /\ A!Val = a + 1
       /\ B!Val = b + 3
       /\ M!Look = c + 2
       /\ P(b, 5)!Val = b + 5
       /\ A!Both = <<a, 1>>
       /\ B!Both = <<b, 3>>
       /\ A!Room = (a + 1 < 5)
       /\ B!Room = (b + 3 < 5)
       /\ M!Room = (c + 2 < 5)
       /\ P(c, 1)!Room = (c + 1 < 5)
       /\ LET L == INSTANCE CtxInner WITH x <- c, K <- 4 IN L!Val = c + 4
====
