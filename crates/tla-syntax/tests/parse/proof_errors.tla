(* Each module has one error in its proof, an error SANY reports too. *)
---- MODULE ProofError1 ----
THEOREM T == TRUE
<2>1. TRUE
<1>2. QED
====
---- MODULE ProofError3 ----
THEOREM T == TRUE
<1>1. HAVE TRUE
  OBVIOUS
<1>2. QED
====
---- MODULE ProofError4 ----
THEOREM T == ASSUME NEW F(_) \in {} PROVE TRUE
====
---- MODULE ProofError7 ----
THEOREM T == ASSUME TRUE PROVE
<1>1. QED
====
---- MODULE ProofError8 ----
THEOREM T == TRUE
<1>1. TRUE BY
<1>2. QED
====
---- MODULE ProofError9 ----
THEOREM T == TRUE
<1>1. PICK x : 
<1>2. QED
====
---- MODULE ProofError10 ----
THEOREM T == ASSUME NEW TRUE PROVE TRUE
====
