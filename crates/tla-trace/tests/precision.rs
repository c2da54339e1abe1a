//! Precision against small system graphs written here: a faithful model scores 1, a model with
//! a guard dropped or a variable left free names its over-permissive steps with paths, steps
//! from states the code does not reach (or whose steps the graph does not all know) are not
//! judged, the search keeps inside the model's constraints, and a graph that does not fit the
//! model is an error with its line.

use tla_check::load::Inputs;
use tla_sema::Library;
use tla_trace::precision::PrecisionError;
use tla_trace::{check_precision, parse_graph, GraphBuilder, Mapping, MappingExprs, Precision, PrecisionOptions};

/// A lock the code takes only when it is free and releases only when held; three threads.
const LOCK: &str = r#"---- MODULE lock ----
CONSTANT Threads
VARIABLES held, pc
Init == held = FALSE /\ pc = [t \in Threads |-> "idle"]
Acquire(t) ==
    /\ pc[t] = "idle"
    /\ ~held
    /\ held' = TRUE
    /\ pc' = [pc EXCEPT ![t] = "cs"]
Release(t) ==
    /\ pc[t] = "cs"
    /\ held' = FALSE
    /\ pc' = [pc EXCEPT ![t] = "idle"]
Next == \E t \in Threads : Acquire(t) \/ Release(t)
Spec == Init /\ [][Next]_<<held, pc>>
====
"#;

const CFG: &str = "SPECIFICATION Spec\nCONSTANT Threads = {0, 1}\n";

fn pc(a: &str, b: &str) -> serde_json::Value {
    serde_json::json!({"0": a, "1": b})
}

/// The lock's graph, as a search of its code would give it: every state and step.
fn lock_graph(frontier_at_cs0: bool) -> String {
    let mut b = GraphBuilder::for_task("lock", serde_json::json!({"Threads": [0, 1]}).as_object().unwrap().clone());
    let st = |held: bool, p: serde_json::Value| serde_json::json!({"held": held, "pc": p}).as_object().unwrap().clone();
    let args = |t: u64| serde_json::json!({"t": t}).as_object().unwrap().clone();
    let idle = b.add_state(&st(false, pc("idle", "idle")), true);
    let cs0 = b.add_state(&st(true, pc("cs", "idle")), false);
    let cs1 = b.add_state(&st(true, pc("idle", "cs")), false);
    b.add_edge(idle, "Acquire", &args(0), cs0);
    b.add_edge(idle, "Acquire", &args(1), cs1);
    if !frontier_at_cs0 {
        b.add_edge(cs0, "Release", &args(0), idle);
    } else {
        b.mark_frontier(cs0);
    }
    b.add_edge(cs1, "Release", &args(1), idle);
    for s in [idle, cs0, cs1] {
        if s != cs0 || !frontier_at_cs0 {
            b.visited(s);
        }
    }
    b.text(true, "every schedule of two threads")
}

fn precision(model: &str, graph: &str, opts: PrecisionOptions) -> Result<Precision, PrecisionError> {
    precision_of(model, graph, &[("Acquire".into(), vec!["t".into()]), ("Release".into(), vec!["t".into()])], opts)
}

fn precision_of(model: &str, graph: &str, code_actions: &[(String, Vec<String>)], opts: PrecisionOptions) -> Result<Precision, PrecisionError> {
    precision_with(model, CFG, graph, code_actions, opts)
}

fn precision_with(model: &str, cfg: &str, graph: &str, code_actions: &[(String, Vec<String>)], opts: PrecisionOptions) -> Result<Precision, PrecisionError> {
    let mt = Inputs::read("lock.tla".to_string(), model, &Library::new(), "lock.cfg".to_string(), cfg).unwrap_or_else(|(e, _)| panic!("{e:?}"));
    let mut m = mt.model().unwrap_or_else(|e| panic!("{e:?}"));
    let interner = m.interner();
    let mapping = Mapping::identity();
    let exprs = MappingExprs::parse(&mapping, "").unwrap();
    let g = parse_graph("g.ndjson", graph).unwrap();
    check_precision(&m, interner, &mapping, &exprs, Some(&mt.sources), &g, code_actions, opts, &mut |_| false)
}

#[test]
fn a_faithful_model_takes_only_the_codes_steps() {
    let p = precision(LOCK, &lock_graph(false), PrecisionOptions::default()).unwrap();
    assert_eq!((p.transitions, p.matched, p.over_total), (4, 4, 0));
    assert_eq!(p.score(), 1.0);
    assert!(p.complete && p.unreached.is_empty() && p.unknown_states == 0, "{p:?}");
}

#[test]
fn the_models_constraints_bound_the_search() {
    // A hidden counter that grows without end: only the model's CONSTRAINT makes its space
    // finite, and the search stays inside it as the explorer does (states outside it are
    // neither kept nor expanded).
    let counted = LOCK
        .replace("CONSTANT Threads\n", "EXTENDS Naturals\nCONSTANT Threads\n")
        .replace("VARIABLES held, pc", "VARIABLES held, pc, n")
        .replace("Init == held = FALSE", "Init == n = 0 /\\ held = FALSE")
        .replace("    /\\ held' = TRUE\n", "    /\\ held' = TRUE\n    /\\ n' = n + 1\n")
        .replace("    /\\ held' = FALSE\n", "    /\\ held' = FALSE\n    /\\ UNCHANGED n\n")
        .replace("_<<held, pc>>", "_<<held, pc, n>>");
    assert_eq!(counted.matches("n' = n + 1").count(), 1, "{counted}");
    let acts = [("Acquire".to_string(), vec!["t".to_string()]), ("Release".to_string(), vec!["t".to_string()])];
    let opts = PrecisionOptions { max_states: 1000, ..PrecisionOptions::default() };
    let unbounded = precision_with(&counted, CFG, &lock_graph(false), &acts, opts).unwrap();
    assert!(!unbounded.complete, "{unbounded:?}");
    let cfg = format!("{CFG}CONSTRAINT Bound\n");
    let bounded_model = counted.replace("Spec ==", "Bound == n <= 3\nSpec ==");
    let p = precision_with(&bounded_model, &cfg, &lock_graph(false), &acts, opts).unwrap();
    assert!(p.complete, "{p:?}");
    // Idle with n in 0..3, and each thread in its section with n in 1..3.
    assert_eq!(p.states_explored, 4 + 3 + 3, "{p:?}");
    assert_eq!((p.score(), p.over_total), (1.0, 0), "{p:?}");
    // An ACTION_CONSTRAINT bounds it too.
    let acfg = format!("{CFG}ACTION_CONSTRAINT Step\n");
    let step_model = counted.replace("Spec ==", "Step == n' <= 2\nSpec ==");
    let q = precision_with(&step_model, &acfg, &lock_graph(false), &acts, opts).unwrap();
    assert!(q.complete, "{q:?}");
    assert_eq!(q.states_explored, 3 + 2 + 2, "{q:?}");
}

#[test]
fn a_dropped_guard_is_named_with_a_path_to_it() {
    // Release without its `pc[t] = "cs"` guard: a thread that does not hold the lock frees it.
    let wrong = LOCK.replace("    /\\ pc[t] = \"cs\"\n", "");
    assert_ne!(wrong, LOCK);
    let p = precision(&wrong, &lock_graph(false), PrecisionOptions::default()).unwrap();
    assert!(p.score() < 1.0 && p.over_total > 0, "{p:?}");
    let labels: Vec<String> = p.over.iter().map(|o| o.label()).collect();
    assert!(labels.contains(&"Release(t=1)".to_string()), "{labels:?}");
    // From thread 0 in the critical section (state 1 of the graph): the code only lets thread 0
    // release there.
    let o = p.over.iter().find(|o| o.label() == "Release(t=1)" && o.from == 1).expect("Release(t=1) from state 1");
    assert_eq!(o.code_steps, ["Release(t=0)"]);
    assert!(o.sentence().starts_with("the model allows Release(t=1) from held = TRUE"), "{}", o.sentence());
    // The path starts in an initial state and ends with the step.
    assert_eq!(o.path.len(), 3, "{:?}", o.path);
    assert_eq!(o.changed, ["held"], "thread 1 is idle already: only the lock changes");
}

#[test]
fn a_free_variable_is_over_permissive() {
    // `held' \in BOOLEAN` where the code sets TRUE: acquiring may leave the lock free.
    let wrong = LOCK.replacen("    /\\ held' = TRUE\n", "    /\\ held' \\in BOOLEAN\n", 1);
    let p = precision(&wrong, &lock_graph(false), PrecisionOptions::default()).unwrap();
    let o = p.over.iter().find(|o| o.label() == "Acquire(t=0)").expect("Acquire(t=0) is named");
    assert!(o.to_obs.iter().any(|(f, v)| f == "held" && v.to_string() == "FALSE"), "{:?}", o.to_obs);
    // The model then reaches states the code never does; their steps are not judged.
    assert!(p.unknown_states > 0, "{p:?}");
}

#[test]
fn every_projected_step_is_listed_with_where_it_departs_from() {
    // The free-variable model again, listing all its steps: from the graph's settled states
    // they are the code's or not; from the states the code never reaches (the lock free with
    // a thread in its section) they are unknown. Without the option nothing is listed.
    let wrong = LOCK.replacen("    /\\ held' = TRUE\n", "    /\\ held' \\in BOOLEAN\n", 1);
    let plain = precision(&wrong, &lock_graph(false), PrecisionOptions::default()).unwrap();
    assert!(plain.projected.is_empty());
    let p = precision(&wrong, &lock_graph(false), PrecisionOptions { all_steps: true, ..PrecisionOptions::default() }).unwrap();
    let listed: Vec<String> = p.projected.iter().map(|(k, c)| format!("{c:?} {k}")).collect();
    let shown = listed.join("\n");
    let has = |class: &str, step: &str| listed.iter().any(|l| l.starts_with(class) && l.contains(step));
    assert!(has("Code", r#"Acquire(t=0): [held |-> FALSE, pc |-> (0 :> "idle" @@ 1 :> "idle")] -> [held |-> TRUE, pc |-> (0 :> "cs" @@ 1 :> "idle")]"#), "{shown}");
    assert!(has("Over", r#"Acquire(t=0): [held |-> FALSE, pc |-> (0 :> "idle" @@ 1 :> "idle")] -> [held |-> FALSE, pc |-> (0 :> "cs" @@ 1 :> "idle")]"#), "{shown}");
    assert!(has("Unknown", r#"Release(t=0): [held |-> FALSE, pc |-> (0 :> "cs" @@ 1 :> "idle")]"#), "{shown}");
    // The listing does not change what is judged.
    assert_eq!((p.transitions, p.matched, p.over_total), (plain.transitions, plain.matched, plain.over_total));
    assert_eq!(p.projected.values().filter(|c| matches!(c, tla_trace::precision::StepClass::Code | tla_trace::precision::StepClass::Over)).count(), p.transitions);
}

#[test]
fn steps_the_graph_does_not_all_know_are_not_judged() {
    // cs0 (state 1) is on the search's frontier: the dropped guard's steps from there are not
    // judged; those from cs1 (state 2) still are.
    let wrong = LOCK.replace("    /\\ pc[t] = \"cs\"\n", "");
    let p = precision(&wrong, &lock_graph(true), PrecisionOptions::default()).unwrap();
    assert!(p.unsettled_states >= 1, "{p:?}");
    assert!(p.over.iter().all(|o| o.from != 1), "{:?}", p.over.iter().map(|o| (o.from, o.label())).collect::<Vec<_>>());
    assert!(p.over.iter().any(|o| o.from == 2 && o.label() == "Release(t=0)"));
}

#[test]
fn an_action_the_graph_never_shows_is_judged_only_on_an_exhaustive_graph() {
    // The code can also `Steal`, but no run ever could while another thread holds the lock;
    // the model lets an idle thread take the held lock.
    let wrong = LOCK.replace(
        "Next == \\E t \\in Threads : Acquire(t) \\/ Release(t)",
        "Steal(t) == held /\\ pc[t] = \"idle\" /\\ pc' = [pc EXCEPT ![t] = \"cs\"] /\\ UNCHANGED held\n\
         Next == \\E t \\in Threads : Acquire(t) \\/ Release(t) \\/ Steal(t)",
    );
    assert_ne!(wrong, LOCK);
    let t = || vec!["t".to_string()];
    let named = [("Acquire".to_string(), t()), ("Release".to_string(), t()), ("Steal".to_string(), t())];
    let p = precision_of(&wrong, &lock_graph(false), &named, PrecisionOptions::default()).unwrap();
    let labels: Vec<String> = p.over.iter().map(|o| o.label()).collect();
    assert!(labels.contains(&"Steal(t=1)".to_string()) && labels.contains(&"Steal(t=0)".to_string()), "{labels:?}");
    let o = p.over.iter().find(|o| o.label() == "Steal(t=1)").unwrap();
    assert_eq!((o.from, o.code_steps.clone()), (1, vec!["Release(t=0)".to_string()]));
    assert!(o.code_targets.is_empty() && o.sentence().ends_with("the code only takes Release(t=0)"), "{}", o.sentence());
    // Not named as the code's: not judged (its steps lead to states the code never reaches).
    let p = precision(&wrong, &lock_graph(false), PrecisionOptions::default()).unwrap();
    assert!(p.over.iter().all(|o| o.action != "Steal"), "{:?}", p.over.iter().map(|o| o.label()).collect::<Vec<_>>());
    // A sampled graph may only not have met it yet.
    let sampled = lock_graph(false).replacen("\"exhaustive\":true", "\"exhaustive\":false", 1);
    let p = precision_of(&wrong, &sampled, &named, PrecisionOptions { min_visits: 1, ..PrecisionOptions::default() }).unwrap();
    assert!(p.over.iter().all(|o| o.action != "Steal") && p.score() == 1.0, "{p:?}");
    // An action the model lacks is set aside with the reason.
    let p = precision_of(LOCK, &lock_graph(false), &named, PrecisionOptions::default()).unwrap();
    assert_eq!(p.skipped_actions, [("Steal".to_string(), "the model has no such action".to_string())]);
    assert_eq!(p.score(), 1.0);
}

#[test]
fn a_graph_of_other_constants_or_names_is_an_error_with_its_line() {
    let other = lock_graph(false).replacen("\"Threads\":[0,1]", "\"Threads\":[0,1,2]", 1);
    match precision(LOCK, &other, PrecisionOptions::default()) {
        Err(PrecisionError::Input(e)) => assert!(e.message.contains("Threads"), "{e}"),
        r => panic!("{r:?}"),
    }
    let renamed = lock_graph(false).replace("\"Release\"", "\"Leave\"");
    match precision(LOCK, &renamed, PrecisionOptions::default()) {
        Err(PrecisionError::Input(e)) => assert!(e.line > 0 && e.message.contains("Leave"), "{e}"),
        r => panic!("{r:?}"),
    }
}

#[test]
fn a_sampled_graph_judges_only_states_visited_often_enough() {
    // The same graph as sampled runs that visited each state once.
    let sampled = lock_graph(false).replacen("\"exhaustive\":true", "\"exhaustive\":false", 1);
    assert_ne!(sampled, lock_graph(false));
    let p = precision(LOCK, &sampled, PrecisionOptions::default()).unwrap();
    assert_eq!((p.transitions, p.unsettled_states), (0, 3), "{p:?}");
    assert_eq!(p.score(), 0.0);
    let p = precision(LOCK, &sampled, PrecisionOptions { min_visits: 1, ..PrecisionOptions::default() }).unwrap();
    assert_eq!((p.transitions, p.matched), (4, 4), "{p:?}");
}

/// A mailbox whose receive takes its message from a set that depends on the state.
const BOX: &str = r#"---- MODULE box ----
VARIABLES box, got
Init == box = {} /\ got = 0
Send(v) == v \notin box /\ box' = box \cup {v} /\ UNCHANGED got
Recv(m) == box' = box \ {m} /\ got' = m
Next == (\E v \in {1} : Send(v)) \/ (\E m \in box : Recv(m))
Spec == Init /\ [][Next]_<<box, got>>
====
"#;

fn box_graph() -> String {
    let obj = |v: serde_json::Value| v.as_object().unwrap().clone();
    let mut b = GraphBuilder::for_task("box", serde_json::Map::new());
    let st = |boxed: bool, got: u64| obj(serde_json::json!({"box": if boxed { vec![1] } else { vec![] }, "got": got}));
    let (e0, f0, e1, f1) = (b.add_state(&st(false, 0), true), b.add_state(&st(true, 0), false), b.add_state(&st(false, 1), false), b.add_state(&st(true, 1), false));
    b.add_edge(e0, "Send", &obj(serde_json::json!({"v": 1})), f0);
    b.add_edge(f0, "Recv", &serde_json::Map::new(), e1);
    b.add_edge(e1, "Send", &obj(serde_json::json!({"v": 1})), f1);
    b.add_edge(f1, "Recv", &serde_json::Map::new(), e1);
    for s in [e0, f0, e1, f1] {
        b.visited(s);
    }
    b.text(true, "the mailbox's every schedule")
}

#[test]
fn an_action_whose_parameter_comes_from_the_state_is_judged_in_each_state() {
    let check = |model: &str| {
        // The trace shows `box` as a sequence; the model holds a set: a value translation is not
        // needed for the empty and one-element cases once the field is read through an
        // expression.
        let mapping = Mapping::parse("m.json", r#"{"variables": {"box": {"expr": "IF box = {} THEN <<>> ELSE <<1>>"}}}"#).unwrap();
        let mt = Inputs::read("box.tla".to_string(), model, &Library::new(), "box.cfg".to_string(), "SPECIFICATION Spec\n").unwrap_or_else(|(e, _)| panic!("{e:?}"));
        let mut m = mt.model().unwrap_or_else(|e| panic!("{e:?}"));
        let interner = m.interner();
        let exprs = MappingExprs::parse(&mapping, "m.json").unwrap();
        let g = parse_graph("g.ndjson", &box_graph()).unwrap();
        check_precision(&m, interner, &mapping, &exprs, Some(&mt.sources), &g, &[], PrecisionOptions::default(), &mut |_| false).unwrap()
    };
    let p = check(BOX);
    assert!(p.skipped_actions.is_empty(), "{:?}", p.skipped_actions);
    assert_eq!((p.transitions, p.matched), (4, 4), "{p:?}");
    // A receive that leaves the message in the box: over-permissive from both full states.
    let wrong = BOX.replace("box' = box \\ {m} /\\ got' = m", "UNCHANGED box /\\ got' = m");
    assert_ne!(wrong, BOX);
    let p = check(&wrong);
    assert!(p.over.iter().any(|o| o.label() == "Recv"), "{:?}", p.over.iter().map(|o| o.sentence()).collect::<Vec<_>>());
}
