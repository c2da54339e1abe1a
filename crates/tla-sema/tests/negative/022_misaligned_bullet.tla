---- MODULE 022_misaligned_bullet ----
\* mistake: continuation line indented left of its conjunction bullet; error at line 10
EXTENDS Naturals
CONSTANT Procs
VARIABLE pc
Init == pc = [p \in Procs |-> "idle"]
Next == \E p \in Procs :
          /\ pc[p] = "idle"
          /\ pc' = [pc EXCEPT ![p] =
        "done"]
====
