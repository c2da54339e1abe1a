---- MODULE FirstDefinition ----
\* Two definitions of one name brought in by EXTENDS, and by INSTANCE after a definition of
\* the module's own: SANY warns and the first one counts (Limit is FirstA's, Step is ours).
EXTENDS Naturals, FirstB, FirstA
VARIABLE x
Step == 1
INSTANCE FirstC
Init == x = 0
Next == x < Limit /\ x' = x + Step
====
