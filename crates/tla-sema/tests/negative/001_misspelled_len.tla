---- MODULE 001_misspelled_len ----
\* mistake: misspelled Len as len; error at line 7
EXTENDS Naturals, Sequences
CONSTANT Msgs, Cap
VARIABLE queue
Init == queue = << >>
Enq(m) == /\ len(queue) < Cap
          /\ queue' = Append(queue, m)
Deq == /\ queue /= << >>
       /\ queue' = Tail(queue)
Next == (\E m \in Msgs : Enq(m)) \/ Deq
Spec == Init /\ [][Next]_queue
====
