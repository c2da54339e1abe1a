---- MODULE columns ----
VARIABLES a, b, c, d, f
G == /\ a
     /\ \/ b
       \/ c
I == (/\ a
      /\ b
     )
J == /\ a
     /\ b
  => c
K == /\ LET z == 1
       IN z = a
     /\ b
L == /\ a
    /\ b
M == /\ a
     /\ b
   \/ c
N == \/ /\ a
        /\ b
     \/ c
O == /\ a
     /\ IF b
        THEN c
        ELSE d
P == /\ a
     /\ IF b
     THEN c
     ELSE d
R == /\ a
 /\ b
W == 1
S == [x \in {1} |-> /\ a
                        /\ b]
T == /\ CASE a -> b
          [] c -> d
     /\ a
U == a /\
     b
V ==
  /\ a
  /\ b
 /\ c
H == /\ a = 
     1
Q == /\ f(a,
b)
====
