---- MODULE LossyQueue ----
EXTENDS Naturals, Sequences
CONSTANT N
VARIABLES sent, recv, msgs, acks

Drop(ch) == /\ ch # << >>
            /\ \E k \in 1..Len(ch) : ch' = SubSeq(ch, 1, k - 1) \o SubSeq(ch, k + 1, Len(ch))

Init == sent = 0 /\ recv = 0 /\ msgs = << >> /\ acks = << >>
Send == sent < N /\ sent' = sent + 1 /\ msgs' = Append(msgs, sent + 1) /\ UNCHANGED <<recv, acks>>
Deliver == msgs # << >> /\ recv' = recv + 1 /\ msgs' = Tail(msgs) /\ acks' = Append(acks, Head(msgs)) /\ UNCHANGED sent
Ack == acks # << >> /\ acks' = Tail(acks) /\ UNCHANGED <<sent, recv, msgs>>
LoseMsg == Drop(msgs) /\ UNCHANGED <<sent, recv, acks>>
LoseAck == Drop(acks) /\ UNCHANGED <<sent, recv, msgs>>
Next == Send \/ Deliver \/ Ack \/ LoseMsg \/ LoseAck
Spec == Init /\ [][Next]_<<sent, recv, msgs, acks>>
====
