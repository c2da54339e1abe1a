//! Replay of small lock and queue models against traces simulated in Rust: correct models pass
//! every window and whole trace, wrong models fail at the expected line with the expected
//! explanation, malformed inputs are line-numbered errors.

use tla_check::load::Inputs;
use tla_sema::Library;
use tla_trace::testing::{lock_trace, queue_trace, HeldAs};
use tla_trace::{parse_trace, InputError, Mapping, MappingExprs, Mode, Options, Replayer, TraceReport};

const LOCK_OK: &str = r#"---- MODULE lock ----
EXTENDS Naturals
CONSTANT Threads
VARIABLES held, pc
Init == held = FALSE /\ pc = [t \in Threads |-> "idle"]
Request(t) ==
    /\ pc[t] = "idle"
    /\ pc' = [pc EXCEPT ![t] = "waiting"]
    /\ UNCHANGED held
Acquire(t) ==
    /\ pc[t] = "waiting"
    /\ ~held
    /\ held' = TRUE
    /\ pc' = [pc EXCEPT ![t] = "cs"]
Release(t) ==
    /\ pc[t] = "cs"
    /\ held' = FALSE
    /\ pc' = [pc EXCEPT ![t] = "idle"]
Next == \E t \in Threads : Request(t) \/ Acquire(t) \/ Release(t)
Spec == Init /\ [][Next]_<<held, pc>>
====
"#;

const LOCK_CFG: &str = "SPECIFICATION Spec\nCONSTANT Threads = {0, 1, 2}\n";

const QUEUE_OK: &str = r#"---- MODULE queue ----
EXTENDS Naturals, Sequences
VARIABLES q, enqs
Init == q = <<>> /\ enqs = 0
Enq(v) == Len(q) < 2 /\ q' = Append(q, v) /\ enqs' = (enqs + 1) % 3
Deq == Len(q) > 0 /\ q' = Tail(q) /\ UNCHANGED enqs
Next == (\E v \in 1..2 : Enq(v)) \/ Deq
Spec == Init /\ [][Next]_<<q, enqs>>
====
"#;

const QUEUE_CFG: &str = "SPECIFICATION Spec\n";

fn run(model_text: &str, cfg: &str, trace: &str, mapping: Option<&str>, mode: Mode) -> Result<TraceReport, InputError> {
    let name = model_text.split("MODULE ").nth(1).and_then(|r| r.split_whitespace().next()).expect("module name");
    let mt = Inputs::read(format!("{name}.tla"), model_text, &Library::new(), format!("{name}.cfg"), cfg).unwrap_or_else(|(e, _)| panic!("model does not analyse: {e:?}"));
    let mapping = match mapping {
        Some(m) => Mapping::parse("map.json", m)?,
        None => Mapping::identity(),
    };
    let exprs = MappingExprs::parse(&mapping, "map.json")?;
    let mut m = mt.model().unwrap_or_else(|e| panic!("model does not load: {e:?}"));
    let interner = m.interner();
    let r = Replayer::new(&m, interner, &mapping, &exprs, Some(&mt.sources), Options { mode, max_states: 10_000 });
    let t = parse_trace("t.ndjson", trace)?;
    r.replay(&t)
}

/// Both modes; where the windows replay tells the whole-trace result, it must be the whole
/// replay's.
fn both(model_text: &str, cfg: &str, trace: &str, mapping: Option<&str>) -> (TraceReport, TraceReport) {
    let w = run(model_text, cfg, trace, mapping, Mode::Windows).expect("windows replay");
    let h = run(model_text, cfg, trace, mapping, Mode::Whole).expect("whole replay");
    if let Some(r) = w.whole {
        assert_eq!(r, h.result, "the whole-trace result the windows replay tells");
    }
    (w, h)
}

#[test]
fn correct_lock_passes_every_window_and_whole_trace() {
    for seed in 1..=5 {
        let t = lock_trace(3, 60, seed, HeldAs::Bool);
        let (w, h) = both(LOCK_OK, LOCK_CFG, &t, None);
        assert_eq!(w.result, "pass", "{:?}", w.first_failure.map(|d| d.render()));
        assert_eq!((w.windows, w.windows_passed), (60, 60));
        assert_eq!(w.per_action.len(), 3);
        assert_eq!(h.result, "pass", "{:?}", h.first_failure.map(|d| d.render()));
        assert_eq!(h.states, 1);
    }
}

#[test]
fn correct_queue_passes_with_a_hidden_variable() {
    for seed in 1..=4 {
        let t = queue_trace(40, seed, false);
        let (w, h) = both(QUEUE_OK, QUEUE_CFG, &t, None);
        assert_eq!(w.hidden, vec!["enqs".to_string()]);
        assert_eq!(w.result, "pass", "{:?}", w.first_failure.map(|d| d.render()));
        assert_eq!(w.windows_passed, 40);
        assert_eq!(h.result, "pass", "{:?}", h.first_failure.map(|d| d.render()));
    }
}

#[test]
fn an_observed_field_can_be_an_expression() {
    let t = queue_trace(30, 7, true);
    let map = r#"{"variables": {"size": {"expr": "Len(q)"}}}"#;
    let (w, h) = both(QUEUE_OK, QUEUE_CFG, &t, Some(map));
    assert_eq!((w.result, h.result), ("pass", "pass"));
    // A wrong expression fails at the first step.
    let bad = r#"{"variables": {"size": {"expr": "Len(q) + 1"}}}"#;
    let w = run(QUEUE_OK, QUEUE_CFG, &t, Some(bad), Mode::Windows).expect("replay");
    assert_eq!(w.result, "fail");
    assert_eq!(w.first_failure.expect("failure").kind, "no_model_state");
}

/// Line of the first step whose action is `action` (header = line 1, init = line 2).
fn first_line_of(trace: &str, action: &str) -> usize {
    trace.lines().position(|l| l.contains(&format!("\"action\":\"{}\"", action))).expect("action in trace") + 1
}

fn first_line_with(trace: &str, pred: impl Fn(&str) -> bool) -> usize {
    trace.lines().position(pred).expect("line") + 1
}

#[test]
fn guard_too_strong_fails_where_thread_2_first_requests() {
    let wrong = LOCK_OK.replace("    /\\ pc[t] = \"idle\"\n", "    /\\ pc[t] = \"idle\"\n    /\\ t # 2\n");
    let t = lock_trace(3, 60, 3, HeldAs::Bool);
    let line = first_line_with(&t, |l| l.contains("\"action\":\"Request\"") && l.contains("\"t\":2"));
    let (w, h) = both(&wrong, LOCK_CFG, &t, None);
    for r in [&w, &h] {
        assert_eq!(r.result, "fail");
        let d = r.first_failure.as_ref().expect("failure");
        assert_eq!(d.line, line, "{}", d.render());
        assert_eq!(d.kind, "not_enabled");
        let c = d.conjunct.as_ref().expect("conjunct");
        assert_eq!(c.text, "t # 2");
        assert_eq!(c.operands, vec![("t".to_string(), "2".to_string()), ("2".to_string(), "2".to_string())]);
        assert!(c.at.starts_with("lock.tla:8:"), "{}", c.at);
        assert!(d.render().contains("this conjunct is FALSE"));
    }
    // Windows go on after a failure: only Request windows of thread 2 fail.
    assert!(w.per_action["Request"].1 < w.per_action["Request"].0);
    assert_eq!(w.per_action["Release"].0, w.per_action["Release"].1);
}

/// An action the model defines but leaves out of Next is not a step of the model: its windows
/// fail, though its definition alone would take every one of them.
#[test]
fn an_action_left_out_of_next_fails_its_windows() {
    let wrong = LOCK_OK.replace("Acquire(t) \\/ Release(t)", "Acquire(t)");
    assert_ne!(wrong, LOCK_OK);
    let t = lock_trace(3, 30, 1, HeldAs::Bool);
    let (w, h) = both(&wrong, LOCK_CFG, &t, None);
    assert_eq!((w.result, h.result), ("fail", "fail"));
    let (release_windows, release_passed) = w.per_action["Release"];
    assert!(release_windows > 0);
    assert_eq!(release_passed, 0);
    assert!(w.per_action["Acquire"].1 > 0);
    assert_eq!(h.first_failure.as_ref().map(|d| d.line), Some(first_line_of(&t, "Release")));
}

/// Next applies an action only to the arguments its `\E` draws: a step of the action with an
/// argument outside that set is not a step of the model, and neither is one Next guards away.
#[test]
fn steps_next_does_not_draw_or_guards_away_fail_their_windows() {
    let t = lock_trace(3, 30, 1, HeldAs::Bool);
    // Release only for threads 0 and 1: thread 2's releases fail.
    let narrow = LOCK_OK.replace(
        "Next == \\E t \\in Threads : Request(t) \\/ Acquire(t) \\/ Release(t)",
        "Next == (\\E t \\in Threads : Request(t) \\/ Acquire(t)) \\/ (\\E t \\in Threads \\ {2} : Release(t))",
    );
    assert_ne!(narrow, LOCK_OK);
    let twos = t.lines().filter(|l| l.contains("\"Release\"") && l.contains("\"t\":2")).count();
    assert!(twos > 0, "the trace releases thread 2");
    let (w, _) = both(&narrow, LOCK_CFG, &t, None);
    let (n, p) = w.per_action["Release"];
    assert_eq!(n - p, twos, "exactly thread 2's releases fail");
    // The same set, but written as a guard beside the action.
    let guarded = LOCK_OK.replace("Acquire(t) \\/ Release(t)", "Acquire(t) \\/ (t # 2 /\\ Release(t))");
    let (w, _) = both(&guarded, LOCK_CFG, &t, None);
    let (n, p) = w.per_action["Release"];
    assert_eq!(n - p, twos, "a guard in Next rejects thread 2's releases too");
}

#[test]
fn a_missing_action_is_reported_at_its_first_line() {
    let wrong = LOCK_OK.replace("Release(t) ==", "Leave(t) ==").replace("\\/ Release(t)", "\\/ Leave(t)");
    let t = lock_trace(3, 30, 1, HeldAs::Bool);
    let e = run(&wrong, LOCK_CFG, &t, None, Mode::Windows).expect_err("unknown action");
    assert_eq!(e.code, "E0506");
    assert_eq!(e.line, first_line_of(&t, "Release"));
    assert!(e.message.contains("Release"));
    // Mapped to the model's name, it passes.
    let (w, h) = both(&wrong, LOCK_CFG, &t, Some(r#"{"actions": {"Release": "Leave"}}"#));
    assert_eq!((w.result, h.result), ("pass", "pass"));
}

#[test]
fn an_action_updating_the_wrong_variable_shows_the_difference() {
    let wrong = LOCK_OK.replace(
        "    /\\ held' = FALSE\n    /\\ pc' = [pc EXCEPT ![t] = \"idle\"]",
        "    /\\ held' = FALSE\n    /\\ UNCHANGED pc",
    );
    let t = lock_trace(3, 30, 2, HeldAs::Bool);
    let line = first_line_of(&t, "Release");
    let (w, h) = both(&wrong, LOCK_CFG, &t, None);
    for r in [&w, &h] {
        let d = r.first_failure.as_ref().expect("failure");
        assert_eq!((d.line, d.kind), (line, "mismatch"), "{}", d.render());
        assert_eq!(d.diffs.len(), 1);
        assert_eq!(d.diffs[0].field, "pc");
        assert_eq!(d.conjunct.as_ref().expect("conjunct").text, "UNCHANGED pc");
    }
}

#[test]
fn two_steps_merged_into_one_fail_at_the_first_of_them() {
    // The model's Request takes the lock at once (request and acquire merged).
    let wrong = LOCK_OK.replace(
        "    /\\ pc' = [pc EXCEPT ![t] = \"waiting\"]\n    /\\ UNCHANGED held",
        "    /\\ ~held\n    /\\ held' = TRUE\n    /\\ pc' = [pc EXCEPT ![t] = \"cs\"]",
    );
    let t = lock_trace(3, 30, 4, HeldAs::Bool);
    let line = first_line_of(&t, "Request");
    assert_eq!(line, 3);
    let (w, h) = both(&wrong, LOCK_CFG, &t, None);
    for r in [&w, &h] {
        let d = r.first_failure.as_ref().expect("failure");
        assert_eq!((d.line, d.kind), (line, "mismatch"), "{}", d.render());
        let fields: Vec<&str> = d.diffs.iter().map(|x| x.field.as_str()).collect();
        assert_eq!(fields, vec!["held", "pc"]);
        let c = d.conjunct.as_ref().expect("conjunct");
        assert_eq!(c.text, "held' = TRUE");
        assert_eq!(c.operands[0], ("held'".to_string(), "FALSE".to_string()));
    }
}

#[test]
fn a_missing_value_translation_is_reported_with_the_types() {
    let t = lock_trace(3, 30, 5, HeldAs::Words);
    let e = run(LOCK_OK, LOCK_CFG, &t, None, Mode::Whole).expect_err("type error");
    assert_eq!((e.code, e.line), ("E0507", 2));
    assert!(e.message.contains("held is observed as the string \"free\""), "{}", e.message);
    assert!(e.message.contains("translation"));
    let map = r#"{"values": {"held": {"\"locked\"": true, "\"free\"": false}}}"#;
    let (w, h) = both(LOCK_OK, LOCK_CFG, &t, Some(map));
    assert_eq!((w.result, h.result), ("pass", "pass"));
    // Half a translation: the first line that needs the other half is reported.
    let half = r#"{"values": {"held": {"\"free\"": false}}}"#;
    let e = run(LOCK_OK, LOCK_CFG, &t, Some(half), Mode::Windows).expect_err("type error");
    assert_eq!((e.code, e.line), ("E0507", first_line_of(&t, "Acquire")));
    assert!(e.message.contains("\"locked\""), "{}", e.message);
}

#[test]
fn a_queue_served_from_the_wrong_end_fails_where_the_order_shows() {
    let wrong = QUEUE_OK.replace("q' = Tail(q)", "q' = SubSeq(q, 1, Len(q) - 1)");
    let t = queue_trace(60, 3, false);
    let lines: Vec<&str> = t.lines().collect();
    // The first Deq from a queue holding two different values.
    let line = (2..lines.len())
        .find(|&i| lines[i].contains("\"Deq\"") && (lines[i - 1].contains("[1,2]") || lines[i - 1].contains("[2,1]")))
        .expect("such a step")
        + 1;
    let (w, h) = both(&wrong, QUEUE_CFG, &t, None);
    for r in [&w, &h] {
        let d = r.first_failure.as_ref().expect("failure");
        assert_eq!((d.line, d.kind), (line, "mismatch"), "{}", d.render());
        assert_eq!(d.diffs[0].field, "q");
    }
}

#[test]
fn malformed_inputs_are_line_numbered_errors() {
    let good = lock_trace(3, 6, 1, HeldAs::Bool);
    let lines: Vec<String> = good.lines().map(str::to_string).collect();
    let with = |i: usize, l: &str| {
        let mut v = lines.clone();
        v[i] = l.to_string();
        v.join("\n")
    };
    let cases: Vec<(String, &str, usize)> = vec![
        (String::new(), "E0503", 0),
        ("\n\n".into(), "E0503", 0),
        (with(3, "{\"kind\":\"step\",\"seq\":"), "E0501", 4),
        (with(3, &lines[3].replace("Request", "Jump").replace("Acquire", "Jump").replace("Release", "Jump")), "E0506", 4),
        (with(4, &lines[4].replace("\"pc\":", "\"pcs\":")), "E0508", 5),
        (with(4, &lines[4].replace(",\"state\":", ",\"status\":")), "E0502", 5),
        (with(2, &lines[2].replace("\"held\":false", "\"held\":1").replace("\"held\":true", "\"held\":1")), "E0507", 3),
        (with(0, &lines[0].replace("[0,1,2]", "[0,1]")), "E0504", 1),
        (with(3, &lines[3].replace("\"seq\":2", "\"seq\":5")), "E0505", 4),
        (with(1, &lines[2]), "E0505", 3),
        (with(5, &lines[5].replace("\"held\":false", "\"held\":null").replace("\"held\":true", "\"held\":null")), "E0507", 6),
        (lines[1..].join("\n"), "E0503", 1),
    ];
    for (text, code, line) in cases {
        for mode in [Mode::Windows, Mode::Whole] {
            let e = run(LOCK_OK, LOCK_CFG, &text, None, mode).expect_err(&format!("{code} expected"));
            assert_eq!((e.code, e.line), (code, line), "{e}");
        }
    }
    // A header constant the model names otherwise: an error that says how to map it; mapped
    // to the model's name it is compared, mapped to null it is not.
    let renamed = with(0, &lines[0].replace("\"Threads\"", "\"THREADS\""));
    let e = run(LOCK_OK, LOCK_CFG, &renamed, None, Mode::Windows).expect_err("unknown constant");
    assert_eq!((e.code, e.line), ("E0509", 1), "{e}");
    assert!(e.message.contains("under \"constants\" in the mapping"), "{e}");
    for m in [r#"{"constants": {"THREADS": "Threads"}}"#, r#"{"constants": {"THREADS": null}}"#] {
        run(LOCK_OK, LOCK_CFG, &renamed, Some(m), Mode::Windows).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    let other = with(0, &lines[0].replace("\"Threads\":[0,1,2]", "\"THREADS\":[0,1]"));
    let e = run(LOCK_OK, LOCK_CFG, &other, Some(r#"{"constants": {"THREADS": "Threads"}}"#), Mode::Windows).expect_err("other value");
    assert_eq!(e.code, "E0504", "{e}");
    let e = run(LOCK_OK, LOCK_CFG, &renamed, Some(r#"{"constants": {"THREADS": "Thread"}}"#), Mode::Windows).expect_err("bad target");
    assert_eq!(e.code, "E0510", "{e}");
    // The mapping of another task.
    let e = run(LOCK_OK, LOCK_CFG, &good, Some(r#"{"task": "queue"}"#), Mode::Windows).expect_err("other task");
    assert_eq!((e.code, e.line), ("E0504", 1));
    // A malformed mapping.
    for bad in ["{", "[]", r#"{"actions": 3}"#, r#"{"colour": 1}"#, r#"{"variables": {"x": {"expr": "1 +"}}}"#, r#"{"constants": {"N": 3}}"#] {
        let e = run(LOCK_OK, LOCK_CFG, &good, Some(bad), Mode::Windows).expect_err("bad mapping");
        assert_eq!(e.code, "E0510", "{bad}: {e}");
    }
}
