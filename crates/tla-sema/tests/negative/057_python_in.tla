---- MODULE 057_python_in ----
\* mistake: membership written with Python's in; error at line 7
EXTENDS Naturals
CONSTANT Users
VARIABLE online
Init == online = {}
Login(u) == /\ ~(u in online)
            /\ online' = online \cup {u}
Next == \E u \in Users : Login(u)
====
