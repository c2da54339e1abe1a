---- MODULE 002_vars_wrong_case ----
\* mistake: vars defined but Vars used; error at line 12
EXTENDS Naturals
VARIABLES count, done
vars == <<count, done>>
Init == count = 0 /\ done = FALSE
Incr == /\ ~done
        /\ count' = count + 1
        /\ UNCHANGED done
Finish == done' = TRUE /\ UNCHANGED count
Next == Incr \/ Finish
Spec == Init /\ [][Next]_Vars
====
