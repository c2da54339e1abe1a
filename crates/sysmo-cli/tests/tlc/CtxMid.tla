---- MODULE CtxMid ----
EXTENDS Naturals
VARIABLE y
In == INSTANCE CtxInner WITH x <- y, K <- 2
Step == In!Inc
Look == In!Val
Room == In!Room
====
