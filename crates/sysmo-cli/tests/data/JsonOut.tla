---- MODULE JsonOut ----
\* Json's ToJson, ToJsonArray and ToJsonObject, which TLC computes in Java (CommunityModules'
\* Json override, with Gson): compact JSON, sets in TLC's order, functions that are not
\* sequences as objects keyed by the printed domain value.
EXTENDS Json, Naturals
ASSUME ToJson(<<1, "two", TRUE>>) = "[1,\"two\",true]"
ASSUME ToJson([node |-> {3, 1, 2}]) = "{\"node\":[1,2,3]}"
ASSUME ToJson(<<>>) = "[]"
ASSUME ToJson([i \in {0, 1} |-> i * 2]) = "{\"0\":0,\"1\":2}"
ASSUME ToJsonArray({<<1>>, <<2>>}) = "[[1],[2]]"
ASSUME ToJson("a\"b") = "\"a\\\"b\""
ASSUME ToJsonObject([zeta |-> <<1, 2>>]) = "{\"zeta\":[1,2]}"
ASSUME ToJson([k \in {"x"} |-> [m \in 1..2 |-> m]]) = "{\"x\":[1,2]}"
VARIABLE x
Init == x = 0
Next == UNCHANGED x
Tuple == ToJsonObject(<<1>>) = "?"
====
