---- MODULE 040_python_for ----
\* mistake: Python-like for loop; error at line 7
EXTENDS Naturals
CONSTANT Procs
VARIABLE ready
Init == ready = [p \in Procs |-> FALSE]
Reset == for p in Procs: ready'[p] = FALSE
Next == Reset
====
