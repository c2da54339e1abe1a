--------------------------- MODULE FunctionsCases ---------------------------
\* Functions. Each case is checked against TLC 2.15 (see tests/stdext.rs): the comment above a
\* definition is what TLC printed for it, or the error expected of it.
EXTENDS Integers, Sequences, FiniteSets, Functions, TLC

\* TLC: (0 :> 10 @@ 1 :> 11 @@ 2 :> 12)
F == (0 :> 10 @@ 1 :> 11 @@ 2 :> 12)
\* TLC: (0 :> 1 @@ 1 :> 1 @@ 2 :> 3)
G == (0 :> 1 @@ 1 :> 1 @@ 2 :> 3)
Odd(n) == n % 2 = 1
Mul(a, b) == a * b

\* TLC: (0 :> 10 @@ 2 :> 12)
RestrictSubset == Restrict(F, {0, 2})
\* TLC: << >>
RestrictEmpty == Restrict(F, {})
\* TLC: <<5, 6>>
RestrictSeq == Restrict(<<5, 6, 7>>, {1, 2})
\* TLC: (2 :> 6 @@ 3 :> 7)
RestrictSeqTail == Restrict(<<5, 6, 7>>, {2, 3})
\* TLC: [b |-> 2]
RestrictRecord == Restrict([a |-> 1, b |-> 2], {"b"})
\* TLC: (0 :> 10 @@ 2 :> 12)
RestrictDomainLambda == RestrictDomain(F, LAMBDA x : x \in {0, 2})
\* TLC: (1 :> 4 @@ 3 :> 6)
RestrictDomainDefined == RestrictDomain(<<4, 5, 6, 7>>, Odd)
\* TLC: << >>
RestrictDomainNone == RestrictDomain(F, LAMBDA x : FALSE)
\* TLC: (1 :> 0 @@ 3 :> 2)
RestrictValuesLambda == RestrictValues(<<0, 1, 2>>, LAMBDA y : y \in {0, 2})
\* TLC: (0 :> 1 @@ 1 :> 1 @@ 2 :> 3)
RestrictValuesDefined == RestrictValues(G, Odd)
\* TLC: TRUE
IsRestrictionYes == IsRestriction([one |-> 1], [one |-> 1, two |-> 2])
\* TLC: TRUE
IsRestrictionSame == IsRestriction([one |-> 1], [one |-> 1])
\* TLC: FALSE
IsRestrictionValue == IsRestriction([one |-> 1, two |-> 2], [one |-> 1, two |-> 3])
\* TLC: FALSE
IsRestrictionDomain == IsRestriction([one |-> 1, two |-> 2], [two |-> 2])
\* TLC: TRUE
IsRestrictionSeq == IsRestriction(<<1, 2>>, <<1, 2, 3>>)
\* TLC: TRUE
IsRestrictionEmpty == IsRestriction(<<>>, F)
\* TLC: {1, 3}
RangeFcn == Range(G)
\* TLC: {-2, 1, 3}
RangeSeq == Range(<<3, 1, 3, -2>>)
\* TLC: {}
RangeEmpty == Range(<<>>)
\* TLC: {1}
RangeRecord == Range([a |-> 1, b |-> 1])
\* TLC: (0 :> 11 @@ 1 :> 12 @@ 2 :> 15)
PointwiseInfix == Pointwise(F, G, +)
\* TLC: <<-3, -3, -3>>
PointwiseLambda == Pointwise(<<1, 2, 3>>, <<4, 5, 6, 7>>, LAMBDA a, b : a - b)
\* TLC: <<-3, 6>>
PointwiseDefined == Pointwise(<<-1, 2>>, <<3, 3>>, Mul)
\* TLC: << >>
PointwiseEmpty == Pointwise(<<>>, <<>>, +)
\* TLC: (10 :> 0 @@ 11 :> 1 @@ 12 :> 2)
InverseFull == Inverse(F, DOMAIN F, Range(F))
\* TLC: (11 :> 1 @@ 13 :> 0)
InverseOutside == Inverse(F, DOMAIN F, {11, 13})
\* TLC: (1 :> 0 @@ 3 :> 2)
InverseNotInjective == Inverse(G, DOMAIN G, {1, 3})
\* TLC: (5 :> 1 @@ 6 :> 2 @@ 7 :> 1)
InverseSeq == Inverse(<<5, 6>>, {1, 2}, {5, 6, 7})
\* TLC: << >>
InverseEmptyRange == Inverse(F, DOMAIN F, {})
\* TLC: (10 :> 0 @@ 11 :> 1 @@ 12 :> 2)
AntiFunctionFcn == AntiFunction(F)
\* TLC: (7 :> 1 @@ 8 :> 2)
AntiFunctionSeq == AntiFunction(<<7, 8, 7>>)
\* TLC: << >>
AntiFunctionEmpty == AntiFunction(<<>>)
\* TLC: TRUE
IsInjectiveYes == IsInjective(F)
\* TLC: FALSE
IsInjectiveNo == IsInjective(G)
\* TLC: TRUE
IsInjectiveEmpty == IsInjective(<<>>)
\* TLC: FALSE
IsInjectiveSeq == IsInjective(<<1, 2, 1>>)
\* TLC: {<<3, 4>>, <<3, 5>>, <<4, 3>>, <<4, 5>>, <<5, 3>>, <<5, 4>>}
InjectionSmall == Injection({1, 2}, {3, 4, 5})
\* TLC: {}
InjectionNone == Injection({1, 2, 3}, {4, 5})
\* TLC: {<< >>}
InjectionEmptyDomain == Injection({}, {1})
\* TLC: {<<4, 4, 5>>, <<4, 5, 4>>, <<4, 5, 5>>, <<5, 4, 4>>, <<5, 4, 5>>, <<5, 5, 4>>}
SurjectionSmall == Surjection({1, 2, 3}, {4, 5})
\* TLC: {}
SurjectionNone == Surjection({1}, {4, 5})
\* TLC: {<< >>}
SurjectionEmpty == Surjection({}, {})
\* TLC: {}
SurjectionEmptyRange == Surjection({1}, {})
\* TLC: {<<3, 4>>, <<4, 3>>}
BijectionSmall == Bijection({1, 2}, {3, 4})
\* TLC: {}
BijectionNone == Bijection({1, 2}, {3})
\* TLC: 24
BijectionCount == Cardinality(Bijection(1..4, 5..8))
\* TLC: 60
InjectionCount == Cardinality(Injection(1..3, 1..5))
\* TLC: 36
SurjectionCount == Cardinality(Surjection(1..4, 1..3))
\* TLC: TRUE
ExistsInjectionYes == ExistsInjection({1, 2}, {3, 4, 5})
\* TLC: FALSE
ExistsInjectionNo == ExistsInjection({1, 2, 3}, {4, 5})
\* TLC: TRUE
ExistsInjectionEmpty == ExistsInjection({}, {})
\* TLC: FALSE
ExistsInjectionIntoEmpty == ExistsInjection({1}, {})
\* TLC: TRUE
ExistsSurjectionYes == ExistsSurjection({1, 2, 3}, {4, 5})
\* TLC: FALSE
ExistsSurjectionNo == ExistsSurjection({1}, {4, 5})
\* TLC: TRUE
ExistsSurjectionEmpty == ExistsSurjection({}, {})
\* TLC: FALSE
ExistsSurjectionFromEmpty == ExistsSurjection({}, {1})
\* TLC: FALSE
ExistsSurjectionOntoEmpty == ExistsSurjection({1}, {})
\* TLC: TRUE
ExistsBijectionYes == ExistsBijection({1, 2}, {"a", "b"})
\* TLC: FALSE
ExistsBijectionNo == ExistsBijection({1, 2}, {3})
\* TLC: TRUE
ExistsBijectionEmpty == ExistsBijection({}, {})
\* TLC: {}
FoldFunctionOnSetEmpty == FoldFunctionOnSet(LAMBDA x, y : {x} \cup y, {}, <<1, 2>>, {})
\* TLC: <<6, 4>>
FoldFunctionOnSetSome == FoldFunctionOnSet(LAMBDA x, acc : Append(acc, x), <<>>, <<4, 5, 6>>, {3, 1})
\* TLC: {1, 2}
FoldFunctionSet == FoldFunction(LAMBDA x, y : {x} \cup y, {}, <<1, 2, 1>>)
\* TLC: <<12, 11, 10>>
FoldFunctionOrder == FoldFunction(LAMBDA x, acc : Append(acc, x), <<>>, F)
\* TLC: 9
FoldFunctionInfix == FoldFunction(-, 0, <<2, -3, 4>>)
\* TLC: -3
FoldFunctionDefined == FoldFunction(Mul, -1, G)
\* TLC: 5
FoldFunctionEmpty == FoldFunction(+, 5, <<>>)
\* TLC: 9
SumFunctionOnSetSome == SumFunctionOnSet(<<4, 5, 6>>, {1, 2})
\* TLC: 0
SumFunctionOnSetEmpty == SumFunctionOnSet(<<4, 5, 6>>, {})
\* TLC: 15
SumFunctionSeq == SumFunction(<<4, 5, 6>>)
\* TLC: 5
SumFunctionFcn == SumFunction(G)
\* TLC: -15
SumFunctionNeg == SumFunction([x \in -2..2 |-> x * x - 5])
\* TLC: 0
SumFunctionEmpty == SumFunction(<<>>)
\* TLC: <<TRUE, FALSE>>
PointwiseStdOperator == Pointwise(<<<<1, 2>>, <<3>>>>, <<<<1, 2, 3>>, <<4>>>>, IsRestriction)
\* TLC: <<{1}, {}, {2, 3}>>
RestrictValuesBy == RestrictValues(<<{1}, {}, {2, 3}>>, IsFiniteSet)

\* TLC error: Attempted to apply tuple <<1, 2>> to integer 3 which is out of domain.
ErrRestrictOutside == Restrict(<<1, 2>>, {3})
\* TLC error: Attempted to compute the value of an expression of form CHOOSE x \in S: P, but no element of S satisfied P.
ErrInverseNoSource == Inverse(F, {}, {10})
\* TLC error: Attempted to apply the operator overridden by the Java method public static tlc2.value.impl.IntValue tlc2.module.Integers.Plus(tlc2.value.impl.IntValue,tlc2.value.impl.IntValue), but it produced the f
ErrSumFunctionNotInt == SumFunction(<<1, "a">>)
\* TLC error: Attempted to apply tuple <<1>> to integer 2 which is out of domain.
ErrPointwiseShorter == Pointwise(<<1, 2>>, <<1>>, +)
\* TLC error: Attempted to apply the operator DOMAIN to a non-function (a set of the form {e1, ... ,eN})
ErrRangeNotFcn == Range({1, 2})
=============================================================================
