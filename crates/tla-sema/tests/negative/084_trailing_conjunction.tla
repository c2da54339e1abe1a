---- MODULE 084_trailing_conjunction ----
\* mistake: conjunction with nothing after the last /\; error at line 7
EXTENDS Naturals
VARIABLES rd, wr
Init == rd = 0 /\ wr = 0
Read == /\ wr = 0
        /\ rd' = rd + 1 /\
Next == Read
====
