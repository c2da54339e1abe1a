(* Every form of the proof language, as SANY accepts it (checked with SANY 2.1). *)
---- MODULE Proofs ----
EXTENDS Naturals
CONSTANT N
VARIABLE x
Init == x = 0
Next == x' = x + 1
Inv == x \in Nat
a \prec b == a < b
Prop == TRUE

ASSUME NAssump == N \in Nat

AXIOM Ax == N > 0
THEOREM T1 == Init => Inv
  BY DEF Init, Inv
LEMMA L1 == TRUE
  OBVIOUS
PROPOSITION P1 == TRUE
  PROOF OMITTED
COROLLARY C1 == TRUE
  PROOF BY ONLY T1, MODULE Naturals DEFS Inv, \prec
THEOREM AP == ASSUME NEW y \in Nat, NEW CONSTANT F(_), NEW VARIABLE z,
                     NEW ACTION A, NEW STATE S, NEW TEMPORAL G,
                     ASSUME y > 0 PROVE y # 0
              PROVE y + 1 > 0
<1>1. y >= 0
  <2>. USE DEF Inv
  <2>1. SUFFICES ASSUME y > 0 PROVE y >= 0
    OBVIOUS
  <2>2. CASE y = 0
    BY <2>1
  <2>3. CASE y # 0
    <3> DEFINE w == y + 1
               v(k) == k
    <3>1. w > y
      BY DEF w
    <3> QED BY <3>1, <2>1
  <2> QED BY <2>2, <2>3
<1>2. \E k \in Nat : k > y
  <2>1. WITNESS y + 1 \in Nat
  <2>2. QED OBVIOUS
<1>3. \A k \in Nat : k + 1 > k
  <2>1. TAKE k \in Nat
  <2>2. HAVE k \in Nat
  <2>3. PICK m \in Nat : m = k + 1
    OBVIOUS
  <2>4. QED BY <2>3
<1>4. HIDE DEF Inv
<1>5. M == INSTANCE Naturals
<1>6. x' = x + 1 <=> <1>1
  PROOF OBVIOUS
<1>q. QED
  BY <1>1, <1>2, <1>3, <1>6
USE DEF Init
HIDE DEF Next
THEOREM Stepless == TRUE
<1> QED
  <2> QED OBVIOUS
THEOREM Implicit == TRUE
PROOF
<*> TRUE
  <+> TRUE
    OBVIOUS
  <*> QED OBVIOUS
<*> QED OBVIOUS
====
