---- MODULE expressions ----
EXTENDS Naturals, Sequences
CONSTANTS N, Proc, F(_), _ ++ _, -. _
VARIABLES pc, msgs, f
Sets == {1, 2, 3} \cup {} \cup {p \in Proc : p > 1} \cup {p * 2 : p \in Proc}
Map2 == {<<p, q>> : p \in Proc, q \in Proc}
Filt == {<<p, q>> \in Proc \X Proc : p # q}
Funs == [p \in Proc |-> 0]
Funs2 == [p, q \in Proc, <<r, s>> \in Proc \X Proc |-> p + q]
FSet == [Proc -> BOOLEAN]
Rec == [type |-> "req", from |-> 1]
RSet == [type : {"req"}, from : Proc]
Ex == [f EXCEPT ![1] = 2, ![2].a = @ + 1, !.b = "x", ![1, 2] = TRUE]
Tup == <<1, <<>>, "a\"b\\c">> \o <<>>
Nums == <<\b101, \o17, \h1F, \B11, \O7, \HFF, 42, 3.14>>
Quant == \A p, q \in Proc, <<r, s>> \in Proc \X Proc : \E t \in Proc : p = t
UQ == \A p : \E q : p = q
Ch == CHOOSE p \in Proc : TRUE
Ch2 == CHOOSE <<p, q>> \in Proc \X Proc : p = q
Ch3 == CHOOSE p : p \notin Proc
Cond == IF N > 1 THEN "big" ELSE IF N = 1 THEN "one" ELSE "small"
Cs == CASE N = 1 -> 1 [] N = 2 -> 2 [] OTHER -> 0
Lt == LET g(a) == a + 1
          h[i \in 1..N] == IF i = 1 THEN 1 ELSE i * h[i - 1]
          RECURSIVE r(_)
          r(n) == IF n = 0 THEN 0 ELSE r(n - 1)
      IN g(h[N]) + r(2)
Field == msgs.from.id
Apply == f[1, 2] + F(N) + Len(<<1>>) + (1 ++ 2) + -. 3
Lam == F(LAMBDA v : v + 1)
Strs == STRING \cup BOOLEAN
Acts == [][pc' = pc]_<<pc, msgs>> /\ <<pc' = 1>>_pc /\ WF_pc(pc' = 2) /\ SF_<<pc, msgs>>(TRUE)
Temp == \EE t : t = 1
Lbl == lbl:: pc = 1
Uni == ∀ p ∈ Proc : p ≠ 1 ∧ ⟨p, p⟩ ∈ Proc × Proc ⇒ p ≤ 2
Neg == -1 + (- N)
Range == 1..N
Sub == Proc \ {1} \subseteq Proc
Set2 == UNION {{1}, {2}}
====
