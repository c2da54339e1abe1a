---------------------------- MODULE SortSeqCases ----------------------------
\* TLC's SortSeq. Each case is checked against TLC 2.15 (see tests/stdext.rs): the comment
\* above a definition is what TLC printed for it, or the error expected of it.
EXTENDS Integers, Sequences, FiniteSets, TLC

Gt(a, b) == a > b
ByFirst(p, q) == p[1] < q[1]
\* TLC: <<<<2, "a">>, <<1, "b">>, <<2, "c">>, <<1, "d">>>>
Pairs == <<<<2, "a">>, <<1, "b">>, <<2, "c">>, <<1, "d">>>>

\* TLC: <<1, 2, 3>>
SortLt == SortSeq(<<3, 1, 2>>, <)
\* TLC: <<3, 2, 1>>
SortGt == SortSeq(<<3, 1, 2>>, >)
\* TLC: <<1, 1, 2, 2>>
SortLe == SortSeq(<<2, 1, 2, 1>>, <=)
\* TLC: <<3, 2, 1, 1>>
SortGe == SortSeq(<<2, 1, 3, 1>>, >=)
\* TLC: <<>>
SortEmpty == SortSeq(<<>>, <)
\* TLC: <<5>>
SortSingle == SortSeq(<<5>>, <)
\* TLC: <<-10, -3, 0, 2, 7>>
SortNegative == SortSeq(<<0, -3, 7, -10, 2>>, <)
\* TLC: <<4, 4, 4>>
SortAllEqual == SortSeq(<<4, 4, 4>>, <)
\* TLC: <<3, 2, 1>>
SortLambda == SortSeq(<<3, 1, 2>>, LAMBDA a, b : a > b)
\* TLC: <<3, 2, 1>>
SortDefined == SortSeq(<<3, 1, 2>>, Gt)
\* TLC: <<-1, 4, 9>>
SortLetOp == LET Lt(a, b) == a < b IN SortSeq(<<9, -1, 4>>, Lt)
\* TLC: <<<<1, "b">>, <<1, "d">>, <<2, "a">>, <<2, "c">>>>
SortStableStrict == SortSeq(Pairs, ByFirst)
\* TLC: <<<<1, "d">>, <<1, "b">>, <<2, "c">>, <<2, "a">>>>
SortTiesNonStrict == SortSeq(Pairs, LAMBDA p, q : p[1] <= q[1])
\* TLC: <<{}, {3}, {1, 2}>>
SortBySize == SortSeq(<<{1, 2}, {}, {3}>>, LAMBDA a, b : Cardinality(a) < Cardinality(b))
\* TLC: <<[k |-> 0], [k |-> 1], [k |-> 2]>>
SortRecords == SortSeq(<<[k |-> 2], [k |-> 0], [k |-> 1]>>, LAMBDA a, b : a.k < b.k)
\* TLC: <<3, 2, 1>>
SortAlwaysTrue == SortSeq(<<1, 2, 3>>, LAMBDA a, b : TRUE)
\* TLC: <<3, 1, 2>>
SortAlwaysFalse == SortSeq(<<3, 1, 2>>, LAMBDA a, b : FALSE)
\* TLC: <<1, 2, 3, 4, 5, 6>>
SortSorted == SortSeq([i \in 1..6 |-> 7 - i], <)
\* TLC: <<5, 10, 12, 7>>
SortMod == SortSeq(<<5, 12, 7, 10>>, LAMBDA a, b : a % 5 < b % 5)
\* TLC: <<3, 2, 1>>
SortGeqSymbol == SortSeq(<<1, 3, 2>>, \geq)

\* TLC error: The first argument of SortSeq should be a natural number, but instead it is: {1, 3}
ErrSortSet == SortSeq({3, 1}, <)
\* TLC error: The second argument of SortSeq should be a boolean function, but instead it is: 3
ErrSortNotBool == SortSeq(<<1, 2>>, +)
\* TLC error: The first argument of < should be an integer, but instead it is: "a"
ErrSortIncomparable == SortSeq(<<1, "a">>, <)
=============================================================================
