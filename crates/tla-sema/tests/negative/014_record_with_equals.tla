---- MODULE 014_record_with_equals ----
\* mistake: record built with = instead of |->; error at line 5
EXTENDS Naturals
VARIABLE msg
Init == msg = [type = "req", from = 1]
Reply == msg' = [type |-> "ack", from |-> msg.from]
Next == Reply
====
