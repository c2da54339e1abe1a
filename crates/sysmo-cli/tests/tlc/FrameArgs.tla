---- MODULE FrameArgs ----
\* Arguments passed by name into an instance's operators mean what they mean where they are
\* written: the instance substitutes its x by y, and the root's x is another variable.
EXTENDS Naturals
VARIABLES x, y
I == INSTANCE FrameArgsInner WITH x <- y, Limit <- 3
Init == x = 0 /\ y = 0
SetX == I!Set(x, (x + 1) % 3) /\ I!Keep(y)
BumpY == I!Bump(y, LAMBDA n : (n + 2) % 4) /\ I!Keep(x)
Next == SetX \/ BumpY
Inv == I!Fresh(x) /\ (x > 0 => I!CanSet(x))
====
