---- MODULE Hallway ----
\* Drives a Dimmer at level k % 3. Hallway defines its own lit (a number): inside the Light
\* instance, lit still means Dimmer's definition, read in Dimmer's context.
EXTENDS Naturals
VARIABLE k
lit == k
D == INSTANCE Dimmer WITH level <- k % 3
Init == k = 0
Next == k' = (k + 1) % 5
Safe == D!Safe
Agree == D!L!Now = (k % 3 > 0)
====
