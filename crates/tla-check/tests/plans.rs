//! Actions compiled into plans (tla-eval's `plan`) must enumerate the successors the
//! interpreter enumerates, in the same order, and fail with the same error at the same place.
//! Each model here is checked with compiling on and off; the outcomes must be equal, and the
//! state counts are TLC 2.15's (`tlc2.TLC -workers 1 -deadlock`).

mod common;

use tla_check::{Explorer, Options, Outcome};

/// Everything an exploration says, in words: result (with the trace, or the error and where
/// it is), distinct and generated states.
fn run(text: &str, cfg: &str, compiling: bool) -> (String, u64, u64) {
    common::with_model(text, cfg, |m| {
        m.set_compiling(compiling);
        let opts = Options { check_deadlock: m.check_deadlock(), ..Options::default() };
        let mut ex = Explorer::new(&*m, opts);
        let outcome = ex.run_to_end();
        let st = ex.stats();
        let what = match outcome {
            Outcome::Success => "success".to_string(),
            Outcome::InvariantViolated { invariant, trace } => {
                format!("{invariant} violated: {:?}", trace.iter().map(|t| format!("{:?}", t.state)).collect::<Vec<_>>())
            }
            Outcome::Error { error, trace } => format!("error {error:?} after {} states", trace.len()),
            Outcome::Deadlock { trace } => format!("deadlock after {} states", trace.len()),
            Outcome::BudgetExhausted(_) => "budget".to_string(),
        };
        (what, st.distinct, st.generated)
    })
}

/// The outcome, after checking that compiled and interpreted enumeration agree on it.
fn check(text: &str, cfg: &str) -> (String, u64, u64) {
    let compiled = run(text, cfg, true);
    let interpreted = run(text, cfg, false);
    assert_eq!(compiled, interpreted, "compiled (left) and interpreted (right) enumeration differ");
    compiled
}

const CFG: &str = "INIT Init\nNEXT Next\nINVARIANT Inv\nCHECK_DEADLOCK FALSE\n";

#[test]
fn a_name_bound_before_the_rest_of_the_action_keeps_its_value_after_it() {
    // `i` is read by Step's second disjunct after the first disjunct's continuation has bound
    // j and k: their slots must not be i's.
    let text = "---- MODULE M ----\nEXTENDS Naturals\nVARIABLES x, y\nInit == x = 0 /\\ y = 0\n\
                Step(i) == (x' = (x + i) % 5) \\/ (x' = (x + 5 - i) % 5)\n\
                Next == \\E i \\in 1..2 : Step(i) /\\ \\E j, k \\in 0..1 : y' = (j + 2 * k + i) % 4\n\
                Inv == x + y < 8\n====\n";
    assert_eq!(check(text, CFG), ("success".to_string(), 20, 321));
    // The first violation TLC reports: x = 4, y = 2 after one step (7 distinct, 7 generated).
    let (what, distinct, generated) = check(&text.replace("x + y < 8", "x + y < 6"), CFG);
    assert!(what.contains(" violated: ") && what.ends_with("\"[Int(4), Int(2)]\"]"), "{what}");
    assert_eq!((distinct, generated), (7, 7));
}

#[test]
fn an_argument_computed_with_names_of_its_own_leaves_the_arguments_before_it() {
    // The second argument binds k; the first argument's value must survive it (y' = a = x).
    let text = "---- MODULE M ----\nEXTENDS Naturals, FiniteSets\nVARIABLES x, y\nInit == x = 0 /\\ y = 0\n\
                Set(a, b) == x' = (a + b + 1) % 6 /\\ y' = a\n\
                Next == Set(x, Cardinality({k \\in 0..5 : k < x}))\n\
                Inv == y = 0 \\/ x = (2 * y + 1) % 6\n====\n";
    assert_eq!(check(text, CFG), ("success".to_string(), 4, 5));
}

#[test]
fn let_definitions_fail_only_when_used_and_a_primed_variable_already_assigned_is_a_filter() {
    // Head(q) fails on the empty sequence, where h is not used: the action must go on. The
    // second `n' \in` only keeps the values of the first that it contains.
    let text = "---- MODULE M ----\nEXTENDS Naturals, Sequences\nVARIABLES q, n\nInit == q = <<>> /\\ n = 0\n\
                Next == LET h == Head(q)\n            t == n + 1\n\
                \x20       IN /\\ n < 4\n\
                \x20          /\\ IF q = <<>> THEN q' = <<t>> ELSE q' = IF h > 2 THEN <<>> ELSE Append(Tail(q), h + t)\n\
                \x20          /\\ n' \\in {n + 1, t} /\\ n' \\in {t, 7}\n\
                Inv == Len(q) <= 1\n====\n";
    assert_eq!(check(text, CFG), ("success".to_string(), 5, 5));
}

#[test]
fn errors_are_the_interpreters_at_the_same_place() {
    let module = |next: &str| {
        format!(
            "---- MODULE M ----\nEXTENDS Naturals, Sequences\nVARIABLES x, q\nInit == x = 0 /\\ q = <<>>\n\
             Next == {next}\nInv == TRUE\n====\n"
        )
    };
    let cases = [
        // The rest of the action fails: q is never assigned.
        ("x' = x + 1", "does not assign the variable q"),
        // No arm of the CASE applies.
        ("CASE x > 5 -> x' = 0 /\\ UNCHANGED q [] x < 0 -> x' = 1 /\\ UNCHANGED q", "CASE"),
        // A guard that is not a boolean.
        ("x + 1 /\\ x' = 1 /\\ UNCHANGED q", "boolean"),
        // A LET definition that fails where it is used.
        ("LET h == Head(q) IN h > 0 /\\ x' = h /\\ UNCHANGED q", "Head"),
        // Infinite sets to enumerate, for a variable and for \E.
        ("x' \\in Nat /\\ UNCHANGED q", "infinite"),
        ("\\E i \\in Nat : x' = i /\\ UNCHANGED q", "infinite"),
    ];
    for (next, word) in cases {
        let (what, _, _) = check(&module(next), CFG);
        assert!(what.starts_with("error"), "{next}: {what}");
        assert!(what.contains(word), "{next}: {what}");
    }
}

#[test]
fn applications_and_fields_read_in_place_agree_with_the_interpreter() {
    let module = |next: &str| {
        format!(
            "---- MODULE M ----\nEXTENDS Naturals, Sequences\nVARIABLES x, f\n\
             Init == x = 1 /\\ f = [i \\in 1..2 |-> [a |-> <<i, i + 1>>]]\nNext == {next}\nInv == TRUE\n====\n"
        )
    };
    // Membership, Len, a comparison and an equality on f[x].a and f[i].a read in place, x a
    // variable and i a bound name; TLC 2.15 (with -deadlock): 3 distinct, 3 generated.
    let next = "\\E i \\in {x} :\n/\\ f[i].a \\in {<<1, 2>>, <<2, 3>>}\n/\\ Len(f[x].a) < f[i].a[2] + x\n\
                /\\ f[i].a[1] = x\n/\\ f[x].a[1] = i\n/\\ x' = 3 - x\n/\\ f' = [f EXCEPT ![x].a[2] = (@ + 1) % 4]";
    assert_eq!(check(&module(next), CFG), ("success".to_string(), 3, 3));
    // EXCEPT at keys outside the domain leaves the function as it is; nested EXCEPT with @.
    // TLC 2.15 (with -deadlock): 4 distinct, 4 generated.
    let next = "/\\ x' = 3 - x\n/\\ f' = [f EXCEPT ![3].a[1] = 0, ![x].a[9] = 1, ![x].a[1] = @ + 1, \
                ![3 - x] = [@ EXCEPT !.a = Tail(@)]]\n/\\ Len(f[x].a) > 0";
    assert_eq!(check(&module(next), CFG), ("success".to_string(), 4, 4));
    // Each path fails at its step, compiled as interpreted.
    let cases = [
        ("f[i].a[3] = 1", "not in the domain"),
        ("f[x].a[3] = 1", "not in the domain"),
        ("f[i].b = 1", "no such field"),
        ("Len(f[i].a) < f[x].a[5]", "not in the domain"),
        ("f[i + 2].a = <<>>", "not in the domain"),
        ("i \\in f[i].a[1]", "set"),
        ("f[i].a[1] < \"s\"", "integer"),
    ];
    for (guard, word) in cases {
        let next = format!("\\E i \\in {{x}} : {guard} /\\ UNCHANGED <<x, f>>");
        let (what, _, _) = check(&module(&next), CFG);
        assert!(what.starts_with("error"), "{next}: {what}");
        assert!(what.contains(word), "{next}: {what}");
    }
}

/// Processes whose actions each begin with a guard on `pc[self]` (or `s[self]`): a disjunct
/// whose guard compares it with another string (integer) is passed over. The actions read
/// variables assigned before them (`x'`, `q'`, `s'[self]`), a LET whose unused definition
/// fails (`Head(<<>>)`), and a function definition applied to a computed argument.
const PROCS: &str = r#"---- MODULE M ----
EXTENDS Naturals, Sequences
VARIABLES pc, s, x, q
Procs == {1, 2, 3}
Double[i \in 0..9] == 2 * i
Init == pc = [p \in Procs |-> PC0] /\ s = [p \in Procs |-> 0] /\ x = 0 /\ q = <<>>
A(self) == /\ pc[self] = "a"
           /\ pc' = [pc EXCEPT ![self] = "b"]
           /\ x' = LET h == Head(q) t == x + self IN IF q = <<>> THEN t % 4 ELSE (h + t) % 4
           /\ q' = IF Len(q) < 2 THEN Append(q, x') ELSE <<>>
           /\ UNCHANGED s
B(self) == /\ pc[self] = "b"
B_BODY
           /\ UNCHANGED s
C(self) == /\ pc[self] = "c"
           /\ pc' = [pc EXCEPT ![self] = "a"]
           /\ UNCHANGED <<s, x, q>>
N(self) == /\ s[self] = 0
           /\ s' = [s EXCEPT ![self] = 1]
           /\ UNCHANGED <<pc, x, q>>
M(self) == /\ s[self] = 1
           /\ s' = [s EXCEPT ![self] = 0]
           /\ x' = IF {y \in 0..2 : y # s'[self]} = {0, 2} THEN 3 ELSE x
           /\ UNCHANGED <<pc, q>>
P(self) == A(self) \/ B(self) \/ C(self) \/ N(self) \/ M(self)
Next == \E self \in Procs : P(self)
Inv == x \in 0..3
====
"#;

#[test]
fn guards_on_one_key_primed_reads_let_and_function_definitions_agree_with_the_interpreter() {
    let module = |pc0: &str, b: &str| PROCS.replace("PC0", pc0).replace("B_BODY", b);
    let b = "           /\\ q' = <<>>\n           /\\ pc' = [pc EXCEPT ![self] = \"c\"]\n           /\\ x' = Double[Len(q') + self] % 3";
    // TLC 2.15: 1264 distinct states, 7585 generated.
    assert_eq!(check(&module("\"a\"", b), CFG), ("success".to_string(), 1264, 7585));
    // q' read before it is assigned; Double applied outside its domain. TLC 2.15 fails on
    // the same step: 7 (and 35) states generated.
    let early = "           /\\ x' = Double[Len(q') + self] % 3\n           /\\ q' = <<>>\n           /\\ pc' = [pc EXCEPT ![self] = \"c\"]";
    let (what, _, generated) = check(&module("\"a\"", early), CFG);
    assert!(what.starts_with("error") && what.contains("read before it is assigned"), "{what}");
    assert_eq!(generated, 7);
    let (what, _, generated) = check(&module("\"a\"", &b.replace("+ self]", "+ self + 7]")), CFG);
    assert!(what.starts_with("error") && what.contains("not in its domain"), "{what}");
    assert_eq!(generated, 35);
    // pc[3] = 0 is compared with "a" by A's guard: an error, as in TLC, not a disjunct passed
    // over (TLC 2.15 fails there, after 5 states generated).
    let (what, _, generated) = check(&module("IF p = 3 THEN 0 ELSE \"a\"", b), CFG);
    assert!(what.starts_with("error") && what.contains("compare the integer 0 with the string"), "{what}");
    assert_eq!(generated, 5);
}

/// Three ways to receive begin with the same guard, `net[p] # << >>`: where it is false for the
/// first, the others are passed over; where it holds, each goes on; where it fails, the first
/// fails with the interpreter's error.
const RECEIVE: &str = r#"---- MODULE M ----
EXTENDS Naturals, Sequences
VARIABLES net, n
Init == net = [p \in 1..3 |-> <<>>] /\ n = 0
Send(p) == /\ p < 4 /\ Len(net[p]) < 2 /\ net' = [net EXCEPT ![p] = Append(@, n % 3)] /\ n' = (n + 1) % 4
RecvA(p) == /\ net[p] # << >> /\ Head(net[p]) = 0 /\ net' = [net EXCEPT ![p] = Tail(@)] /\ UNCHANGED n
RecvB(p) == /\ net[p] # << >> /\ Head(net[p]) = 1 /\ net' = [net EXCEPT ![p] = Tail(@)] /\ n' = 0
RecvC(p) == /\ net[p] # << >> /\ net' = [net EXCEPT ![p] = <<>>] /\ UNCHANGED n
Next == \E p \in 1..P : Send(p) \/ RecvA(p) \/ RecvB(p) \/ RecvC(p)
Inv == n < 4
====
"#;

#[test]
fn disjuncts_that_begin_with_the_same_guard_agree_with_the_interpreter() {
    // TLC 2.15: 6544 distinct states, 36232 generated.
    assert_eq!(check(&RECEIVE.replace("1..P", "1..3"), CFG), ("success".to_string(), 6544, 36232));
    // net[4] does not exist: RecvA's guard fails (TLC 2.15: after 4 states generated).
    let (what, _, generated) = check(&RECEIVE.replace("1..P", "1..4"), CFG);
    assert!(what.starts_with("error") && what.contains("not in the domain"), "{what}");
    assert_eq!(generated, 4);
}

/// Names ranging over `S \ {x}`: integers, strings, tuples, model values; one name and two;
/// in actions, quantifiers and set maps.
const LESS_ONE: &str = r#"---- MODULE M ----
EXTENDS Naturals, FiniteSets
CONSTANT P
VARIABLES x, y
Init == x = 0 /\ y = "a"
Next == \/ \E p \in 0..3 : \E q \in 0..3 \ {p} : x' = (x + p * q) % 7 /\ y' = y
        \/ \E s \in {"a", "b", "c"} \ {y} : y' = s /\ x' = x
        \/ \E i, j \in {1, 2, 3} \ {x} : x' = (i + j) % 7 /\ y' = y
        \/ \E q \in {<<x>>, <<2>>} \ {<<1>>} : x' = q[1] /\ y' = "c"
        \/ \E a \in P : \E b \in P \ {a} : y' = (IF a = b THEN "z" ELSE "d") /\ x' = 6 - x
Inv == /\ \A p \in 0..3 : Cardinality({q \in 0..3 \ {p} : q > x}) <= 3
       /\ \A q \in {x, x + 1} \ {3} : q # 9
       /\ {q * 2 : q \in 0..2 \ {x}} # {}
       /\ y # "z"
       /\ x < 7
====
"#;

#[test]
fn names_ranging_over_a_set_less_one_element_agree_with_the_interpreter() {
    let cfg = "CONSTANT P = {p1, p2, p3}\nINIT Init\nNEXT Next\nINVARIANT Inv\nCHECK_DEADLOCK FALSE\n";
    // TLC 2.15: 28 distinct states, 808 generated.
    assert_eq!(check(LESS_ONE, cfg), ("success".to_string(), 28, 808));
    // The first violation TLC 2.15 reports: x = 6 after one step (4 distinct, 10 generated).
    let (what, distinct, generated) = check(&LESS_ONE.replace("x < 7", "x < 6"), cfg);
    assert!(what.starts_with("0 violated: ") && what.contains("[Int(0), Str(") && what.contains("\"[Int(6), Str("), "{what}");
    assert_eq!((distinct, generated), (4, 10));
    // An element of another kind than the one taken out: TLC 2.15 fails comparing "a" with 1
    // when x = 2, after 4 states generated.
    let text = "---- MODULE M ----\nEXTENDS Naturals\nVARIABLES x\nInit == x = 0\n\
                Next == \\E q \\in {1, 2} \\ {IF x = 2 THEN \"a\" ELSE x} : x' = q\nInv == TRUE\n====\n";
    let (what, distinct, generated) = check(text, CFG);
    assert!(what.starts_with("error") && what.contains("compare the string"), "{what}");
    assert_eq!((distinct, generated), (3, 4));
}

/// Ways to receive a message, each a LET of the same head of a queue and a guard on its
/// `type`; the LET of RecvReq has a definition (`m.c`) that fails for the messages without
/// `c`, where its guard is false.
const RECV_TYPES: &str = r#"---- MODULE M ----
EXTENDS Naturals, Sequences
VARIABLES net, cnt
Procs == 1..2
Init == net = [p \in Procs |-> <<[type |-> "req", c |-> 1]>>] /\ cnt = [p \in Procs |-> 0]
RecvReq(p) == /\ net[p] # << >>
              /\ LET m == Head(net[p])
                     c == m.c
                 IN /\ m.type = "req"
                    /\ cnt' = [cnt EXCEPT ![p] = (@ + c) % 3]
                    /\ net' = [net EXCEPT ![p] = Append(Tail(@), [type |-> "ack"])]
RecvAck(p) == /\ net[p] # << >>
              /\ LET m == Head(net[p])
                 IN /\ m.type = "ack"
                    /\ net' = [net EXCEPT ![p] = IF Len(@) < 2
                                                 THEN Append(Append(Tail(@), [type |-> "rel", c |-> 2]), [type |-> OTHER])
                                                 ELSE Tail(@)]
                    /\ UNCHANGED cnt
RecvRel(p) == /\ net[p] # << >>
              /\ LET m == Head(net[p])
                 IN /\ m.type = "rel"
                    /\ net' = [net EXCEPT ![p] = Append(Tail(@), [type |-> "req", c |-> m.c])]
                    /\ cnt' = [cnt EXCEPT ![p] = (@ + 1) % 3]
Drop(p) == /\ net[p] # << >>
           /\ Len(net[p]) > 2
           /\ net' = [net EXCEPT ![p] = Tail(@)]
           /\ UNCHANGED cnt
Next == \E p \in 1..P : RecvReq(p) \/ RecvAck(p) \/ RecvRel(p) \/ Drop(p)
Inv == \A p \in Procs : Len(net[p]) <= 3
====
"#;

#[test]
fn disjuncts_that_go_on_with_a_let_of_the_same_message_agree_with_the_interpreter() {
    let text = |other: &str, procs: &str| RECV_TYPES.replace("OTHER", other).replace("1..P", procs);
    // TLC 2.15: 16 distinct states, 25 generated.
    assert_eq!(check(&text("\"other\"", "1..2"), CFG), ("success".to_string(), 16, 25));
    // A message whose type is an integer: comparing it with "req" fails (TLC 2.15: after 10
    // distinct states, 13 generated), and is not taken for another type.
    let (what, distinct, generated) = check(&text("7", "1..2"), CFG);
    assert!(what.starts_with("error") && what.contains("compare the integer 7"), "{what}");
    assert_eq!((distinct, generated), (10, 13));
    // net[3] does not exist: the first guard fails (TLC 2.15: 3 distinct, 3 generated).
    let (what, distinct, generated) = check(&text("\"other\"", "1..3"), CFG);
    assert!(what.starts_with("error") && what.contains("not in the domain"), "{what}");
    assert_eq!((distinct, generated), (3, 3));
}
