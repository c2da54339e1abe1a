---- MODULE bullets ----
VARIABLES x, y, z
Init == /\ x = 0
        /\ y = 0
        /\ \/ z = 1
           \/ z = 2
        /\ x = 1 /\ y = 1
Next ==
  \/ /\ x' = x + 1
     /\ y' = y
  \/ /\ y' = y + 1
     /\ x' = x
  \/ UNCHANGED <<x, y>>
Nested == /\ \E i \in {1, 2} : /\ x = i
                               /\ y = i
          /\ z = 0
Cont == /\ x = 1
          /\ y = 2
Then == /\ x
        /\ y
      /\ z
Paren == (/\ x
          /\ y) \/ z
Col0 ==
/\ x = 1
/\ y = 2
Single == /\ x
====
