---- MODULE 069_param_shadows_variable ----
\* mistake: operator parameter named like a state variable; error at line 6
EXTENDS Naturals, Sequences
VARIABLE msgs
Init == msgs = << >>
Send(msgs) == msgs' = Append(msgs, 1)
Next == Send(<< >>)
====
