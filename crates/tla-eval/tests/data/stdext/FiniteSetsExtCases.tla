------------------------- MODULE FiniteSetsExtCases -------------------------
\* FiniteSetsExt and Folds. Each case is checked against TLC 2.15 (see tests/stdext.rs): the
\* comment above a definition is what TLC printed for it, or the error expected of it.
EXTENDS Integers, Sequences, FiniteSets, FiniteSetsExt, Folds, TLC

Add(a, b) == a + b
Even(n) == n % 2 = 0
Sq(n) == n * n
Lowest(s) == CHOOSE x \in s : \A y \in s : x <= y
Highest(s) == CHOOSE x \in s : \A y \in s : x >= y

\* TLC: 55
FoldSum == FoldSet(LAMBDA x, y : x + y, 0, 0..10)
\* TLC: 4
FoldInfix == FoldSet(+, 0, {3, -4, 5})
\* TLC: 103
FoldDefined == FoldSet(Add, 100, {1, 2})
\* TLC: 7
FoldEmpty == FoldSet(+, 7, {})
\* TLC: <<3, 2, 1>>
FoldOrder == FoldSet(LAMBDA x, acc : Append(acc, x), <<>>, {3, 1, 2})
\* TLC: <<-5, 0, 2>>
FoldOrderNeg == FoldSet(LAMBDA x, acc : <<x>> \o acc, <<>>, {2, -5, 0})
\* TLC: {1, 2, 3}
FoldSetsUnion == FoldSet(\cup, {}, {{1}, {2, 3}, {}})
\* TLC: 2
FoldSub == FoldSet(-, 0, {1, 2, 3})
\* TLC: <<20, 10, 5>>
FoldTuples == FoldSet(LAMBDA x, acc : Append(acc, x[2]), <<>>, {<<2, 20>>, <<1, 10>>, <<1, 5>>})
\* TLC: 55
SumSetRange == SumSet(0..10)
\* TLC: 0
SumSetEmpty == SumSet({})
\* TLC: 5
SumSetNeg == SumSet({-3, -2, 10})
\* TLC: 120
ProductSetRange == ProductSet(1..5)
\* TLC: 1
ProductSetEmpty == ProductSet({})
\* TLC: 0
ProductSetZero == ProductSet({-2, 0, 3})
\* TLC: -6
ProductSetNeg == ProductSet({-2, 3})
\* TLC: <<0, 2, 1>>
ReduceSetOrder == ReduceSet(LAMBDA x, acc : Append(acc, x), {2, 1}, <<0>>)
\* TLC: 20
ReduceSetSum == ReduceSet(+, 1..4, 10)
\* TLC: 3
MapThenSumRecords == MapThenSumSet(LAMBDA e : e.n, {[n |-> 0], [n |-> 1], [n |-> 2]})
\* TLC: 3
MapThenSumSame == MapThenSumSet(LAMBDA e : 1, {4, 5, 6})
\* TLC: 17
MapThenSumDefined == MapThenSumSet(Sq, {-2, 2, 3})
\* TLC: 0
MapThenSumEmpty == MapThenSumSet(Sq, {})
\* TLC: {{1}, {2}}
MtfExample == MapThenFoldSet(LAMBDA x, y : x \cup y, {}, LAMBDA x : {{x}}, LAMBDA s : CHOOSE x \in s : TRUE, {1, 2})
\* TLC: <<30, 20, 10>>
MtfLowest == MapThenFoldSet(LAMBDA x, acc : Append(acc, x), <<>>, LAMBDA x : x * 10, Lowest, {3, 1, 2})
\* TLC: <<1, 2, 3>>
MtfHighest == MapThenFoldSet(LAMBDA x, acc : Append(acc, x), <<>>, LAMBDA x : x, Highest, {3, 1, 2})
\* TLC: <<1, -2, -5>>
MtfLambdaMax == MapThenFoldSet(LAMBDA x, acc : acc \o <<x>>, <<>>, LAMBDA x : -x, LAMBDA s : Max(s), {5, -1, 2})
\* TLC: 42
MtfEmpty == MapThenFoldSet(+, 42, LAMBDA x : x, LAMBDA s : Min(s), {})
\* TLC: {1, 2, 3, 4}
FlattenSetMixed == FlattenSet({{1, 2}, {2, 3}, {4}})
\* TLC: {}
FlattenSetEmpty == FlattenSet({})
\* TLC: {}
FlattenSetOfEmpty == FlattenSet({{}})
\* TLC: {1, 4}
SymDiffOverlap == SymDiff({1, 2, 3}, {2, 3, 4})
\* TLC: {1, 2, 3, 4}
SymDiffDisjoint == SymDiff({1, 2}, {3, 4})
\* TLC: {}
SymDiffSame == SymDiff({1, 2}, {1, 2})
\* TLC: {-1}
SymDiffEmpty == SymDiff({}, {-1})
\* TLC: 4
QuantifyLambda == Quantify(1..9, LAMBDA n : n % 2 = 0)
\* TLC: 2
QuantifyDefined == Quantify({-4, -3, 0, 7}, Even)
\* TLC: 0
QuantifyEmpty == Quantify({}, Even)
\* TLC: 0
QuantifyNone == Quantify(1..3, LAMBDA n : n > 5)
\* TLC: {{1, 2}, {1, 3}, {2, 3}}
KSubset2 == kSubset(2, 1..3)
\* TLC: {{}}
KSubset0 == kSubset(0, 1..3)
\* TLC: {{-1, 0, 1}}
KSubsetAll == kSubset(3, {-1, 0, 1})
\* TLC: {}
KSubsetTooMany == kSubset(4, 1..3)
\* TLC: {}
KSubsetNegative == kSubset(-1, 1..3)
\* TLC: {{}}
KSubsetEmpty == kSubset(0, {})
\* TLC: 20
KSubsetCount == Cardinality(kSubset(3, 1..6))
\* TLC: 12
MaxSet == Max({3, -7, 12, 0})
\* TLC: -7
MinSet == Min({3, -7, 12, 0})
\* TLC: -5
MaxSingle == Max({-5})
\* TLC: 2
MinRange == Min(2..9)
\* TLC: 9
MaxRange == Max(2..9)
\* TLC: {{1, 3}, {2, 3}}
ChoicesTwo == Choices({{1, 2}, {3}})
\* TLC: {{2, 5}, {1, 2, 5}, {1, 3, 5}, {2, 3, 5}}
ChoicesShared == Choices({{1, 2}, {2, 3}, {5}})
\* TLC: {{}}
ChoicesNone == Choices({})
\* TLC: {}
ChoicesWithEmpty == Choices({{1}, {}})
\* TLC: {{1}, {2}, {3}}
ChoicesSingle == Choices({{1, 2, 3}})
\* TLC: 4
ChooseUniqueLambda == ChooseUnique({2, 3, 4, 5}, LAMBDA x : x % 3 = 1)
\* TLC: 2
ChooseUniqueDefined == ChooseUnique({1, 2, 3}, Even)
\* TLC: 4
MapThenSumMax == MapThenSumSet(Max, {{1, 2}, {5}, {-3, -4}})
\* TLC: 6
FoldSetMin == FoldSet(LAMBDA x, acc : acc + Min(x), 0, {{1, 2}, {5}})
\* TLC: {1}
FoldSetCup == FoldSet(SymDiff, {}, {{1, 2}, {2, 3}, {3}})

\* TLC error: Attempted to compute the value of an expression of form CHOOSE x \in S: P, but no element of S satisfied P.
ErrMaxEmpty == Max({})
\* TLC error: Attempted to compute the value of an expression of form CHOOSE x \in S: P, but no element of S satisfied P.
ErrMinEmpty == Min({})
\* TLC error: The first argument of >= should be an integer, but instead it is: "a"
ErrMaxNotInt == Max({"a"})
\* TLC error: Attempted to compute the value of an expression of form CHOOSE x \in S: P, but no element of S satisfied P.
ErrChooseUniqueTwo == ChooseUnique({1, 2, 3, 4}, Even)
\* TLC error: Attempted to compute the value of an expression of form CHOOSE x \in S: P, but no element of S satisfied P.
ErrChooseUniqueNone == ChooseUnique({1, 3}, Even)
\* TLC error: Attempted to compare string "a" with non-string: 1
ErrSumSetNotInt == SumSet({1, "a"})
\* TLC error: Overflow when computing 1+2147483647
ErrSumSetOverflow == SumSet({2147483647, 1})
\* TLC error: Attempted to evaluate an expression of form {x \in S : P(x)} when P was an integer.
ErrQuantifyNotBool == Quantify({1}, LAMBDA x : x)
=============================================================================
