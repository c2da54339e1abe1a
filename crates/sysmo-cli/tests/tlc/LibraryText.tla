------------------------------ MODULE LibraryText ------------------------------
\* Library operators as TLC 2.15 evaluates them, every ASSUME checked with TLC: standard
\* modules reached through an instance (top level, LET, inside an action), infix operators
\* applied in prefix form, the Bitwise and Combinatorics operators (the bundled modules' text,
\* computed natively), and strings where TLC's Sequences and SequencesExt take them.
EXTENDS Integers, Sequences, SequencesExt, Bitwise, Combinatorics

T == INSTANCE TLC
S == INSTANCE Sequences

ASSUME T!PrintT("LibraryText")
ASSUME S!Len(S!Append(<<1>>, 2)) = 2
ASSUME LET F == INSTANCE FiniteSets IN F!Cardinality({1, 2, 3}) = 3
ASSUME LET Q == INSTANCE Sequences IN Q!Tail(<<1, 2>>) = <<2>>

ASSUME +(1, 2) = 3
ASSUME <(1, 2) /\ ~ <(2, 1)
ASSUME \cup({1}, {2}) = {1, 2}
ASSUME \o(<<1>>, <<2>>) = <<1, 2>>
ASSUME ..(1, 3) = {1, 2, 3}
ASSUME LET R == [p \in {1, 2} \X {1, 2} |-> <(p[1], p[2])] IN R[<<1, 2>>] /\ ~R[<<2, 1>>]

ASSUME <<12 & 10, 12 | 10, 12 ^^ 10, Not(5), Not(0)>> = <<8, 14, 6, 2, 0>>
ASSUME <<shiftR(20, 2), shiftR(-5, 1), shiftR(-1, 40)>> = <<5, -3, -1>>
ASSUME <<5 & (-3), 12 | (-3), 12 ^^ (-3)>> = <<5, 13, 1>>
ASSUME \A a, b \in 0..31 : (a & b) + (a | b) = a + b /\ (a ^^ b) = (a | b) - (a & b)
ASSUME <<choose(5, 2), choose(12, 6), choose(7, 0), choose(7, 7)>> = <<10, 924, 1, 1>>

ASSUME <<SubSeq("abc", 1, 2), SubSeq("abc", 2, 1), Tail("abc"), Len("")>> = <<"ab", "", "bc", 0>>
ASSUME Tail("abc") = "bc" /\ SubSeq("abcd", 2, 3) = "bc"
ASSUME <<IsPrefix("ab", "abc"), IsPrefix("b", "abc"), IsStrictPrefix("abc", "abc")>> = <<TRUE, FALSE, FALSE>>
ASSUME <<LongestCommonPrefix({"abc", "a"}), LongestCommonPrefix({"abc", "abd"})>> = <<"a", "ab">>
ASSUME <<ReplaceFirstSubSeq("x", "", "ab"), ReplaceFirstSubSeq("x", "b", "abab")>> = <<"xab", "axab">>
ASSUME FlattenSeq("") = ""
ASSUME <<SubSeqs("ab"), Prefixes("ab")>> = <<{"", "a", "b", "ab"}, {"", "a", "ab"}>>
ASSUME <<Front("abc"), Front(""), RemoveAt("abc", 2), RemoveAt("abc", 4)>> = <<"ab", "", "ac", "abc">>
ASSUME <<IndexFirstSubSeq("b", "abab"), IndexFirstSubSeq("", "ab"), ReplaceSubSeqAt(2, "x", "b", "abc")>> = <<2, 1, "axc">>

VARIABLE q
Init == q = <<>>
Next == \/ /\ S!Len(q) < 3
           /\ q' = S!Append(q, Len(q) & 1)
           /\ T!Assert(T!ToString(q) # "", "printable")
        \/ S!Len(q) = 3 /\ q' = S!SubSeq(q, 1, 0)
Inv == \A i \in DOMAIN q : q[i] = (i - 1) & 1
===============================================================================
