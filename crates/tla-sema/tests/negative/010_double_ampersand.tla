---- MODULE 010_double_ampersand ----
\* mistake: && used for conjunction; error at line 6
EXTENDS Naturals
VARIABLE balance
Init == balance = 100
Withdraw(a) == balance >= a && balance' = balance - a
Deposit(a) == balance' = balance + a
Next == \E a \in 1..10 : Withdraw(a) \/ Deposit(a)
====
