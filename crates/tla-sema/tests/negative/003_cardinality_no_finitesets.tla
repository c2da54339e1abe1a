---- MODULE 003_cardinality_no_finitesets ----
\* mistake: Cardinality used without EXTENDS FiniteSets; error at line 12
EXTENDS Naturals
CONSTANT Procs
VARIABLE inCS
Init == inCS = {}
Enter(p) == /\ inCS = {}
            /\ inCS' = inCS \cup {p}
Exit(p) == /\ p \in inCS
           /\ inCS' = inCS \ {p}
Next == \E p \in Procs : Enter(p) \/ Exit(p)
Mutex == Cardinality(inCS) <= 1
====
