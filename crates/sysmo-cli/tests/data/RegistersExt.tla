---- MODULE RegistersExt ----
\* TLCExt's operators that TLC computes in Java (TLCGetOrDefault, TLCModelValue), the named
\* registers of TLCSet("s:name", v), and those whose text gives TLC's answer (TLCGetAndSet,
\* TLCNoOp, TLCCache, AssertEq). The ASSUMEs run in order, as in TLC.
EXTENDS TLCExt, TLC, Naturals
CONSTANT Alice
ASSUME TLCGetOrDefault(7, "none") = "none"
ASSUME TLCGetOrDefault("s:count", 0) = 0
ASSUME TLCGetOrDefault("not a register", 1) = 1
ASSUME TLCSet("s:count", 5)
ASSUME TLCGet("s:count") = 5
ASSUME TLCGetOrDefault("s:count", 0) = 5
ASSUME TLCGetAndSet("s:count", +, 2, 0) = 5
ASSUME TLCGet("s:count") = 7
ASSUME TLCSet(3, "three") /\ TLCGetOrDefault(3, "none") = "three"
ASSUME TLCModelValue("alice") = Alice
ASSUME TLCModelValue("bob") # Alice
ASSUME ToString(TLCModelValue("bob")) = "bob"
ASSUME TLCNoOp(3) = 3
ASSUME TLCCache(2 + 2, {}) = 4
ASSUME AssertEq(1 + 1, 2)
VARIABLE x
Init == x = 0
Next == x < 3 /\ x' = x + 1 /\ TLCSet("s:last", x + 1)
Inv == TLCGetOrDefault("s:last", 0) <= 3
====
