-------------------------- MODULE SequencesExtCases -------------------------
\* SequencesExt. Each case is checked against TLC 2.15 (see tests/stdext.rs): the comment above
\* a definition is what TLC printed for it, or the error expected of it.
EXTENDS Integers, Sequences, FiniteSets, SequencesExt, TLC

Pos(x) == x > 0
Minus(a, b) == a - b
Tup(a, b) == <<a, b>>

\* TLC: {-2, 1, 3}
ToSetDup == ToSet(<<3, 1, 3, -2>>)
\* TLC: {}
ToSetEmpty == ToSet(<<>>)
\* TLC: (1 :> 1 @@ 3 :> 2)
ToBagDup == ToBag(<<3, 1, 3>>)
\* TLC: << >>
ToBagEmpty == ToBag(<<>>)
\* TLC: <<-1, 2, 3>>
SetToSeqInts == SetToSeq({3, -1, 2})
\* TLC: << >>
SetToSeqEmpty == SetToSeq({})
\* TLC: <<{}, {2}, {1, 2}>>
SetToSeqSets == SetToSeq({{2}, {}, {1, 2}})
\* TLC: {<<1, 2, 3>>, <<1, 3, 2>>, <<2, 1, 3>>, <<2, 3, 1>>, <<3, 1, 2>>, <<3, 2, 1>>}
SetToSeqsThree == SetToSeqs({1, 2, 3})
\* TLC: {<< >>}
SetToSeqsEmpty == SetToSeqs({})
\* TLC: <<3, 2, -1>>
SetToSortSeqGt == SetToSortSeq({3, -1, 2}, >)
\* TLC: <<-1, 2, 3>>
SetToSortSeqLambda == SetToSortSeq({3, -1, 2}, LAMBDA a, b : a * a < b * b)
\* TLC: {<< >>, <<1>>, <<2>>, <<1, 2>>, <<2, 1>>}
SetToAllKPermutationsTwo == SetToAllKPermutations({1, 2})
\* TLC: {<< >>}
SetToAllKPermutationsEmpty == SetToAllKPermutations({})
\* TLC: 65
SetToAllKPermutationsCount == Cardinality(SetToAllKPermutations(1..4))
\* TLC: {<<0, 0>>, <<0, 1>>, <<1, 0>>, <<1, 1>>}
TupleOfTwo == TupleOf({0, 1}, 2)
\* TLC: {<< >>}
TupleOfZero == TupleOf({0, 1}, 0)
\* TLC: {<< >>, <<0>>, <<1>>, <<0, 0>>, <<0, 1>>, <<1, 0>>, <<1, 1>>}
SeqOfTwo == SeqOf({0, 1}, 2)
\* TLC: {<< >>}
SeqOfZero == SeqOf({7}, 0)
\* TLC: 40
BoundedSeqCount == Cardinality(BoundedSeq(1..3, 3))
\* TLC: TRUE
ContainsYes == Contains(<<1, 2, 3>>, 2)
\* TLC: FALSE
ContainsNo == Contains(<<1, 2, 3>>, 4)
\* TLC: FALSE
ContainsEmpty == Contains(<<>>, 1)
\* TLC: TRUE
IsSortedYes == IsSorted(<<1, 2, 2, 5>>, <=)
\* TLC: FALSE
IsSortedStrictNo == IsSorted(<<1, 2, 2, 5>>, <)
\* TLC: TRUE
IsSortedEmpty == IsSorted(<<>>, <)
\* TLC: TRUE
IsSortedLambda == IsSorted(<<3, 2, -1>>, LAMBDA a, b : a > b)
\* TLC: TRUE
IsSortedDefined == IsSorted(<<1, 5, 3>>, LAMBDA a, b : TRUE)
\* TLC: <<3, 2, 1>>
ReverseSome == Reverse(<<1, 2, 3>>)
\* TLC: << >>
ReverseEmpty == Reverse(<<>>)
\* TLC: <<2, 3>>
RemoveSome == Remove(<<1, 2, 1, 3>>, 1)
\* TLC: <<1, 2>>
RemoveAbsent == Remove(<<1, 2>>, 5)
\* TLC: <<0, 2, 0, 3>>
ReplaceAllSome == ReplaceAll(<<1, 2, 1, 3>>, 1, 0)
\* TLC: << >>
ReplaceAllEmpty == ReplaceAll(<<>>, 1, 0)
\* TLC: 2
SelectInSeqFound == SelectInSeq(<<-1, 2, 3>>, Pos)
\* TLC: 0
SelectInSeqNone == SelectInSeq(<<-1, -2>>, Pos)
\* TLC: 0
SelectInSeqEmpty == SelectInSeq(<<>>, Pos)
\* TLC: 3
SelectLastInSeqFound == SelectLastInSeq(<<-1, 2, 3, -4>>, LAMBDA x : x > 0)
\* TLC: 0
SelectLastInSeqNone == SelectLastInSeq(<<-1>>, Pos)
\* TLC: 2
SelectInSubSeqFound == SelectInSubSeq(<<5, -1, 2, 3>>, 2, 4, Pos)
\* TLC: 4
SelectLastInSubSeqFound == SelectLastInSubSeq(<<5, -1, 2, 3, 9>>, 1, 4, Pos)
\* TLC: 0
SelectInSubSeqEmpty == SelectInSubSeq(<<5, 6>>, 2, 1, Pos)
\* TLC: <<0, 1, 2>>
InsertAtFront == InsertAt(<<1, 2>>, 1, 0)
\* TLC: <<1, 9, 2>>
InsertAtMiddle == InsertAt(<<1, 2>>, 2, 9)
\* TLC: <<1, 2, 9>>
InsertAtEnd == InsertAt(<<1, 2>>, 3, 9)
\* TLC: <<9>>
InsertAtEmpty == InsertAt(<<>>, 1, 9)
\* TLC: <<1, 0, 3>>
ReplaceAtSome == ReplaceAt(<<1, 2, 3>>, 2, 0)
\* TLC: <<2, 3>>
RemoveAtFirst == RemoveAt(<<1, 2, 3>>, 1)
\* TLC: <<1, 2>>
RemoveAtLast == RemoveAt(<<1, 2, 3>>, 3)
\* TLC: <<2, 1>>
RemoveFirstSome == RemoveFirst(<<1, 2, 1>>, 1)
\* TLC: <<1, 2, 1>>
RemoveFirstAbsent == RemoveFirst(<<1, 2, 1>>, 3)
\* TLC: <<-1, 3>>
RemoveFirstMatchSome == RemoveFirstMatch(<<-1, 2, 3>>, Pos)
\* TLC: <<-1, -2>>
RemoveFirstMatchNone == RemoveFirstMatch(<<-1, -2>>, LAMBDA x : x > 0)
\* TLC: <<0, 1, 2>>
ConsSome == Cons(0, <<1, 2>>)
\* TLC: <<0>>
ConsEmpty == Cons(0, <<>>)
\* TLC: <<1, 2, 3>>
SnocSome == Snoc(3, <<1, 2>>)
\* TLC: <<1, 2>>
FrontSome == Front(<<1, 2, 3>>)
\* TLC: <<>>
FrontEmpty == Front(<<>>)
\* TLC: 3
LastSome == Last(<<1, 2, 3>>)
\* TLC: TRUE
IsPrefixYes == IsPrefix(<<1, 2>>, <<1, 2, 3>>)
\* TLC: FALSE
IsPrefixNo == IsPrefix(<<1, 3>>, <<1, 2, 3>>)
\* TLC: TRUE
IsPrefixEmpty == IsPrefix(<<>>, <<1>>)
\* TLC: FALSE
IsPrefixLonger == IsPrefix(<<1, 2>>, <<1>>)
\* TLC: FALSE
IsStrictPrefixSame == IsStrictPrefix(<<1, 2>>, <<1, 2>>)
\* TLC: TRUE
IsStrictPrefixYes == IsStrictPrefix(<<1>>, <<1, 2>>)
\* TLC: TRUE
IsSuffixYes == IsSuffix(<<2, 3>>, <<1, 2, 3>>)
\* TLC: FALSE
IsSuffixNo == IsSuffix(<<1, 3>>, <<1, 2, 3>>)
\* TLC: FALSE
IsStrictSuffixSame == IsStrictSuffix(<<3>>, <<3>>)
\* TLC: TRUE
IsStrictSuffixEmpty == IsStrictSuffix(<<>>, <<3>>)
\* TLC: {<<>>, <<1>>, <<1, 2>>, <<1, 2, 3>>}
PrefixesSome == Prefixes(<<1, 2, 3>>)
\* TLC: {<<>>}
PrefixesEmpty == Prefixes(<<>>)
\* TLC: {<<>>, <<1>>, <<1, 2>>}
CommonPrefixesSome == CommonPrefixes({<<1, 2, 3>>, <<1, 2, 4>>, <<1, 2>>})
\* TLC: {}
CommonPrefixesEmpty == CommonPrefixes({})
\* TLC: {<<>>, <<5>>, <<5, 6>>}
CommonPrefixesOne == CommonPrefixes({<<5, 6>>})
\* TLC: <<1, 2>>
LongestCommonPrefixSome == LongestCommonPrefix({<<1, 2, 3>>, <<1, 2, 4>>})
\* TLC: <<>>
LongestCommonPrefixNone == LongestCommonPrefix({<<1>>, <<2>>})
\* TLC: <<>>
LongestCommonPrefixEmptySeq == LongestCommonPrefix({<<>>, <<1>>})
\* TLC: {<<>>, <<3>>, <<2, 3>>, <<1, 2, 3>>}
SuffixesSome == Suffixes(<<1, 2, 3>>)
\* TLC: {<<>>}
SuffixesEmpty == Suffixes(<<>>)
\* TLC: <<1, 3, 1, 3, 2>>
SeqModSome == <<SeqMod(1, 3), SeqMod(3, 3), SeqMod(7, 3), SeqMod(0, 3), SeqMod(-1, 3)>>
\* TLC: 6
FoldSeqSum == FoldSeq(+, 0, <<1, 2, 3>>)
\* TLC: <<7, 6, 5>>
FoldSeqOrder == FoldSeq(LAMBDA x, acc : Append(acc, x), <<>>, <<5, 6, 7>>)
\* TLC: -6
FoldLeftMinus == FoldLeft(Minus, 0, <<1, 2, 3>>)
\* TLC: <<<<<<0, 1>>, 2>>, 3>>
FoldLeftOrder == FoldLeft(Tup, 0, <<1, 2, 3>>)
\* TLC: 10
FoldLeftEmpty == FoldLeft(Minus, 10, <<>>)
\* TLC: 2
FoldRightMinus == FoldRight(-, <<1, 2, 3>>, 0)
\* TLC: <<1, <<2, <<3, 0>>>>>>
FoldRightOrder == FoldRight(Tup, <<1, 2, 3>>, 0)
\* TLC: <<1, 2, 3>>
FoldLeftDomainSome == FoldLeftDomain(LAMBDA acc, i : acc \o <<i>>, <<>>, <<"a", "b", "c">>)
\* TLC: <<3, 2, 1>>
FoldRightDomainSome == FoldRightDomain(LAMBDA i, acc : acc \o <<i>>, <<"a", "b", "c">>, <<>>)
\* TLC: <<1, 2, 3>>
FlattenSeqSome == FlattenSeq(<<<<1, 2>>, <<>>, <<3>>>>)
\* TLC: <<>>
FlattenSeqEmpty == FlattenSeq(<<>>)
\* TLC: "abc"
FlattenSeqStrings == FlattenSeq(<<"ab", "c">>)
\* TLC: <<<<1, 3>>, <<2, 4>>>>
ZipEqual == Zip(<<1, 2>>, <<3, 4>>)
\* TLC: <<<<1, 4>>>>
ZipShorter == Zip(<<1, 2, 3>>, <<4>>)
\* TLC: << >>
ZipEmpty == Zip(<<>>, <<1>>)
\* TLC: <<<<1>>, <<3>>, <<2>>, <<4>>>>
InterleaveSome == Interleave(<<1, 2>>, <<3, 4>>)
\* TLC: <<<<>>, <<>>>>
InterleaveEmpty == Interleave(<<>>, <<>>)
\* TLC: {<<>>, <<1>>, <<2>>, <<3>>, <<1, 2>>, <<2, 3>>, <<1, 2, 3>>}
SubSeqsSome == SubSeqs(<<1, 2, 3>>)
\* TLC: {<<>>}
SubSeqsEmpty == SubSeqs(<<>>)
\* TLC: {<<>>, <<1>>, <<1, 1>>}
SubSeqsDup == SubSeqs(<<1, 1>>)
\* TLC: {<<>>, <<1>>, <<2>>, <<3>>, <<2, 1>>, <<3, 1>>, <<3, 2>>, <<3, 2, 1>>}
AllSubSeqsSome == AllSubSeqs(<<1, 2, 3>>)
\* TLC: {<<>>}
AllSubSeqsEmpty == AllSubSeqs(<<>>)
\* TLC: 2
IndexFirstSubSeqSome == IndexFirstSubSeq(<<2, 3>>, <<1, 2, 3, 2, 3>>)
\* TLC: 1
IndexFirstSubSeqEmpty == IndexFirstSubSeq(<<>>, <<1, 2>>)
\* TLC: 2
IndexFirstSubSeqOverlap == IndexFirstSubSeq(<<1, 1>>, <<0, 1, 1, 1>>)
\* TLC: <<1, 9, 9, 4>>
ReplaceSubSeqAtSome == ReplaceSubSeqAt(2, <<9, 9>>, <<2, 3>>, <<1, 2, 3, 4>>)
\* TLC: <<0, 1, 2>>
ReplaceSubSeqAtEmpty == ReplaceSubSeqAt(1, <<0>>, <<>>, <<1, 2>>)
\* TLC: <<1, 0, 2, 3>>
ReplaceFirstSubSeqSome == ReplaceFirstSubSeq(<<0>>, <<2, 3>>, <<1, 2, 3, 2, 3>>)
\* TLC: <<1, 2>>
ReplaceFirstSubSeqAbsent == ReplaceFirstSubSeq(<<0>>, <<4>>, <<1, 2>>)
\* TLC: <<0, 1, 2>>
ReplaceFirstSubSeqEmpty == ReplaceFirstSubSeq(<<0>>, <<>>, <<1, 2>>)
\* TLC: <<0>>
ReplaceAllSubSeqsSame == ReplaceAllSubSeqs(<<0>>, <<1, 2>>, <<1, 2>>)
\* TLC: <<1, 2>>
ReplaceAllSubSeqsIdentity == ReplaceAllSubSeqs(<<1>>, <<1>>, <<1, 2>>)
\* TLC: <<0, 1, 0, 2>>
ReplaceAllSubSeqsEmptyPattern == ReplaceAllSubSeqs(<<0>>, <<>>, <<1, 2>>)
\* TLC: <<0, 2, 0>>
ReplaceAllSubSeqsTwo == ReplaceAllSubSeqs(<<0>>, <<1>>, <<1, 2, 1>>)
\* TLC: <<1, 2>>
ReplaceAllSubSeqsAbsent == ReplaceAllSubSeqs(<<0>>, <<3>>, <<1, 2>>)
\* TLC: <<0, 1>>
ReplaceAllSubSeqsOverlap == ReplaceAllSubSeqs(<<0>>, <<1, 1>>, <<1, 1, 1>>)
\* TLC: <<2, 1, 0>>
ReplaceAllSubSeqsNotLeftmost == ReplaceAllSubSeqs(<<0>>, <<1, 1>>, <<2, 1, 1, 1>>)
\* TLC: <<2>>
ReplaceAllSubSeqsRemove == ReplaceAllSubSeqs(<<>>, <<1>>, <<1, 2, 1>>)
\* TLC: <<3, 3, 3, 1, 3, 3, 3>>
ReplaceAllSubSeqsLonger == ReplaceAllSubSeqs(<<3, 3, 3>>, <<2>>, <<2, 1, 2>>)
\* TLC: <<3, 2, 1>>
FoldFunctionSnoc == FoldFunction(Snoc, <<>>, <<1, 2, 3>>)
\* TLC: <<3, 2, 1>>
FoldLeftCons == FoldLeft(LAMBDA acc, x : Cons(x, acc), <<>>, <<1, 2, 3>>)
\* TLC: <<1, 2, 3>>
FoldRightAppend == FoldRight(Cons, <<1, 2, 3>>, <<>>)
\* TLC: <<<<>>, <<1>>, <<1, 2>>, <<1, 2, 3>>>>
SortByStdOperator == SortSeq(<<<<1, 2>>, <<1>>, <<>>, <<1, 2, 3>>>>, IsStrictPrefix)
\* TLC: <<1, 2, 3>>
FoldSeqConcat == FoldSeq(\o, <<>>, <<<<1>>, <<2, 3>>, <<>>>>)

\* TLC error: Attempted to apply tuple <<>> to integer 0 which is out of domain.
ErrLastEmpty == Last(<<>>)
\* TLC error: Attempted to compute the value of an expression of form CHOOSE x \in S: P, but no element of S satisfied P.
ErrIndexFirstSubSeqAbsent == IndexFirstSubSeq(<<4>>, <<1, 2>>)
\* TLC error: Attempted to evaluate a CASE with no conditions true.
ErrInterleaveLengths == Interleave(<<1>>, <<>>)
\* TLC error: The third argument of SubSeq must be in the domain of its first argument: <<1, 2>> , but instead it is 3
ErrRemoveAtOutside == RemoveAt(<<1, 2>>, 4)
\* TLC error: The argument of Len should be a sequence, but instead it is: {1, 2}
ErrReverseSet == Reverse({1, 2})
\* TLC error: The second argument of % should be a positive number, but instead it is: 0
ErrSeqModZero == SeqMod(1, 0)
\* TLC error: The first argument of >= should be an integer, but instead it is: "a"
ErrFoldLeftRecord == FoldLeft(+, 0, [a |-> 1, b |-> 2])
=============================================================================
