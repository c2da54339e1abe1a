---- MODULE Dimmer ----
\* A dimmer at some level; the light it drives is lit when the level is above 0. The instance
\* of Light leaves lit to the same name here, where lit is a definition over level.
EXTENDS Naturals
VARIABLE level
lit == level > 0
L == INSTANCE Light
Safe == L!LitIsBool
====
