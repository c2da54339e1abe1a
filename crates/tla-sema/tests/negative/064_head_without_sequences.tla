---- MODULE 064_head_without_sequences ----
\* mistake: Head used without EXTENDS Sequences; error at line 6
EXTENDS Naturals
VARIABLE jobs
Init == jobs = <<1, 2, 3>>
First == Head(jobs)
Run == /\ jobs /= << >>
       /\ jobs' = [i \in 1..2 |-> jobs[i + 1]]
Next == Run
====
