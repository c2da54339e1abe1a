//! The page's view models (editor, gallery, task tabs, worker messages, scorecard) and the value fingerprints, run natively by `cargo test` and in wasm32 (node) by
//! `cargo test --target wasm32-unknown-unknown -p web --test wasm`.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test;

use tla_syntax::SourceFile;
use web::{analyze_text, SAMPLE_MODULE};

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
fn line_col_counts_characters_not_bytes() {
    // "∧" is three bytes in UTF-8; the column after it is the third character.
    let f = SourceFile::new("M.tla", "a\nx ∧ y\n");
    assert_eq!(f.line_col(0), (1, 1));
    assert_eq!(f.line_col(2), (2, 1));
    let y = "a\nx ∧ y\n".find('y').unwrap() as u32;
    assert_eq!(f.line_col(y), (2, 5));
    assert_eq!(f.line_starts(), &[0, 2, 10]);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
fn sample_module_is_clean_and_scores_one() {
    let v = analyze_text(SAMPLE_MODULE);
    assert!(v.clean, "{:?}", v.diagnostics);
    assert!(v.diagnostics.is_empty(), "{:?}", v.diagnostics);
    assert_eq!(v.syntax_score, 1.0);
    assert!(v.definitions_parsed <= v.definitions_total);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
fn diagnostics_point_inside_the_text() {
    let text = "---- MODULE Broken ----\nVARIABLE x\nInit == x = \nNext == x' = x +\n====\n";
    let v = analyze_text(text);
    let lines = text.lines().count() as u32;
    assert!(!v.clean, "a dangling `+` must be an error");
    assert!(v.syntax_score < 1.0);
    assert!(!v.diagnostics.is_empty());
    // The page agrees with the front end and places every diagnostic in the text.
    assert_eq!(v.clean, v.diagnostics.iter().all(|d| d.severity != tla_syntax::Severity::Error));
    assert!(v.syntax_score >= 0.0 && v.syntax_score <= 1.0);
    for d in &v.diagnostics {
        assert!(d.line >= 1 && d.line <= lines + 1, "{d:?}");
        assert!(d.column >= 1, "{d:?}");
        assert!(d.summary().starts_with(&d.code));
    }
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
fn file_is_named_after_its_module() {
    assert_eq!(web::file_name_for("---- MODULE Spin_Lock ----\n===="), "Spin_Lock.tla");
    assert_eq!(web::file_name_for("(* no module here *)"), "Main.tla");
    assert_eq!(web::file_name_for(SAMPLE_MODULE), "HourClock.tla");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
fn fingerprints_are_the_same_on_every_target() {
    // The native test in crates/tla-eval/tests/values.rs checks the same list against the same
    // file; run here under wasm32, equal numbers mean equal fingerprints on both targets.
    let got: String = tla_eval::testing::fingerprint_fixture()
        .iter()
        .map(|(text, fp)| format!("{fp:016x} {text}\n"))
        .collect();
    assert_eq!(got, include_str!("../../crates/tla-eval/tests/data/fingerprints.txt"));
}

// ---- The gallery, the task page's tabs and the grading worker's messages ----

use web::catalog::{self, all_tasks, invariant_docs, template_module, trace_view};
use web::grading::{handle_request, GradeRequest, Scorecard, WorkerMessage};

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
fn the_gallery_lists_every_embedded_task_with_its_facts() {
    let infos = all_tasks();
    assert_eq!(infos.len(), sysmo_tasks::tasks().len(), "a task.toml does not read");
    assert!(infos.len() >= 7);
    let spin = infos.iter().find(|t| t.id == "spin").unwrap();
    assert_eq!(spin.title, "Asterinas spin lock");
    assert_eq!((spin.system.as_str(), spin.language.as_str()), ("Asterinas", "Rust"));
    assert_eq!((spin.original_lines, spin.approx, spin.tutorial), (Some(210), true, false));
    assert_eq!(spin.module, "spin");
    assert_eq!(spin.actions.iter().map(|a| a.head()).collect::<Vec<_>>(), ["TryLock(t)", "LockSpin(t)", "LockAcquired(t)", "Unlock(t)"]);
    assert_eq!(spin.variables.iter().map(|(v, _)| v.as_str()).collect::<Vec<_>>(), ["locked", "pc"]);
    assert_eq!(spin.check_constants, [("Threads".to_string(), "{0, 1, 2}".to_string())]);
    assert!(spin.code_lines > 20 && spin.traces > 0);
    assert!(spin.must_capture.len() >= 3 && !spin.leave_out.is_empty());
    let tutorials: Vec<&str> = infos.iter().filter(|t| t.tutorial).map(|t| t.id.as_str()).collect();
    assert!(tutorials.contains(&"hourclock") && !tutorials.contains(&"mutex"), "{tutorials:?}");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
fn every_template_parses_clean_with_the_pinned_names() {
    for info in all_tasks() {
        let t = template_module(&info);
        let v = web::analyze_text(&t);
        assert!(v.clean && v.syntax_score == 1.0, "{}: {:?}\n{t}", info.id, v.diagnostics);
        assert!(t.starts_with(&format!("---- MODULE {} ----", info.module)), "{}", info.id);
        for a in &info.actions {
            assert!(t.contains(&format!("\n{} ==", a.head())), "{}: {}", info.id, a.head());
        }
        for (v, _) in &info.variables {
            assert!(t.contains(v.as_str()), "{}: {v}", info.id);
        }
    }
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
fn invariants_are_listed_with_their_comment_sentence() {
    let module = "---- MODULE mInvariants ----\nEXTENDS m\n\nHelper == 1\n\n\\* [safety] Never two threads at once.  More words.\n\\* Still more.\nMutex == TRUE\n\n\\* [liveness] A holder eventually releases.\nLive == TRUE\nOther == TRUE\n====\n";
    let docs = invariant_docs(module, "INVARIANT Mutex\n", Some("PROPERTY Live\n"));
    let names: Vec<&str> = docs.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(names, ["Helper", "Mutex", "Live", "Other"]);
    assert_eq!(docs[1].tag.as_deref(), Some("safety"));
    assert_eq!(docs[1].sentence, "Never two threads at once.");
    assert_eq!(docs[1].checked_as.as_deref(), Some("INVARIANT"));
    assert!(!docs[1].must_violate && docs[2].must_violate);
    assert_eq!(docs[3].sentence, "");
    // The spin task: every name invariants.cfg checks is documented.
    let spin = sysmo_tasks::task("spin").unwrap();
    let docs = invariant_docs(spin.invariants_tla().unwrap().1, spin.file("invariants.cfg").unwrap(), spin.file("violations.cfg"));
    let checked: Vec<&str> = docs.iter().filter(|d| d.checked_as.is_some()).map(|d| d.name.as_str()).collect();
    assert!(checked.contains(&"MutualExclusion") && checked.contains(&"TryLockNoSpinning"), "{checked:?}");
    assert!(docs.iter().filter(|d| d.checked_as.is_some()).all(|d| !d.sentence.is_empty()), "{docs:?}");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
fn a_trace_reads_as_a_table() {
    let text = concat!(
        r#"{"kind":"header","task":"x","version":1,"constants":{"N":[0,1]},"seed":7,"scheduler":"pct"}"#, "\n",
        r#"{"kind":"init","state":{"locked":false,"pc":{"0":"idle"}}}"#, "\n",
        r#"{"kind":"step","seq":1,"action":"Lock","actor":0,"args":{"t":0},"state":{"locked":true,"pc":{"0":"cs"}}}"#, "\n",
        "not json\n",
    );
    let v = trace_view(text);
    assert_eq!((v.scheduler.as_str(), v.seed.as_str(), v.constants.as_str()), ("pct", "7", "[N |-> <<0, 1>>]"));
    assert_eq!(v.init, r#"[locked |-> FALSE, pc |-> [0 |-> "idle"]]"#);
    assert_eq!(v.rows.len(), 2);
    assert_eq!((v.rows[0].line, v.rows[0].actor.as_str(), v.rows[0].action.as_str(), v.rows[0].args.as_str()), (3, "0", "Lock", "[t |-> 0]"));
    assert_eq!(v.rows[1].action, "(unreadable)");
    let spin = sysmo_tasks::task("spin").unwrap();
    let first = trace_view(spin.traces[0].1);
    assert!(!first.rows.is_empty() && first.rows.iter().all(|r| !r.action.is_empty() && r.action != "(unreadable)"));
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
fn itf_values_read_as_tla() {
    let v: serde_json::Value = serde_json::json!({"#set": [1, {"#tup": ["a", true]}], "x": 1});
    assert_eq!(catalog::tla_text(&v), r#"{1, <<"a", TRUE>>}"#);
    let m: serde_json::Value = serde_json::json!({"#map": [[0, "idle"], [1, "cs"]]});
    assert_eq!(catalog::tla_text(&m), r#"(0 :> "idle" @@ 1 :> "cs")"#);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
fn worker_messages_round_trip() {
    let req = GradeRequest { run: 3, task: "spin".into(), model: "---- MODULE spin ----\n====\n".into(), cfg: None, mapping: None, bug_model: false, pack: None, exercise: None };
    assert_eq!(GradeRequest::from_json(&req.to_json()).unwrap(), req);
    for m in [
        WorkerMessage::Ready,
        WorkerMessage::Progress { run: 1, stage: "checking".into(), slices: 4, syntax: Some(0.5) },
        WorkerMessage::Stage { run: 2, progress: gate_progress() },
        WorkerMessage::Report { run: 2, report: Box::new(gated_report()) },
        WorkerMessage::Failed { run: 3, message: "no task".into() },
        WorkerMessage::Exercise {
            run: 4,
            verdict: web::grading::ExerciseVerdict {
                exercise: "kill".into(),
                outcome: sysmo_grade::exercise::Outcome { solved: false, why: "1 of 2 bug models".into(), killed: Some((1, 2)), short_stage: Some("property".into()) },
            },
        },
    ] {
        assert_eq!(WorkerMessage::from_json(&m.to_json()).unwrap(), m);
    }
    let mut posted = vec![];
    let last = handle_request(&GradeRequest { run: 9, task: "nope".into(), model: String::new(), cfg: None, mapping: None, bug_model: false, pack: None, exercise: None }.to_json(), &mut |m| posted.push(m));
    assert!(matches!(last, WorkerMessage::Failed { run: 9, ref message } if message.contains("nope")), "{last:?}");
    assert!(matches!(handle_request("{", &mut |_| {}), WorkerMessage::Failed { .. }));
}

/// A progress report of the runtime gate, as the grader sends one.
fn gate_progress() -> sysmo_grade::Progress {
    let mut last = None;
    let reference = sysmo_tasks::task("spin").unwrap().folder("reference").into_iter().find(|(n, _)| *n == "spin.tla").unwrap().1;
    web::grading::grade_task_with_progress("spin", reference, None, None, &|| true, &mut |p| {
        if last.is_none() && p.phase == "gate" {
            last = Some(p.clone());
        }
    })
    .unwrap();
    last.expect("a report of the gate")
}

/// The report of a model whose syntax gates the other stages: every field of a report, quick
/// to make.
fn gated_report() -> sysmo_grade::report::Report {
    web::grading::grade_task("spin", &broken_spin(), &|| false).unwrap()
}

/// `patch` laid over `base`: objects merge key by key, anything else replaces.
fn merged(base: serde_json::Value, patch: serde_json::Value) -> serde_json::Value {
    match (base, patch) {
        (serde_json::Value::Object(mut b), serde_json::Value::Object(p)) => {
            for (k, v) in p {
                let old = b.remove(&k).unwrap_or(serde_json::Value::Null);
                b.insert(k, merged(old, v));
            }
            serde_json::Value::Object(b)
        }
        (_, p) => p,
    }
}

/// A spin model with one broken definition (a definition sign inside EXCEPT).
fn broken_spin() -> String {
    let reference = sysmo_tasks::task("spin").unwrap().folder("reference").into_iter().find(|(n, _)| *n == "spin.tla").unwrap().1;
    let broken = reference.replace("pc' = [pc EXCEPT ![t] = \"idle\"]", "pc' = [pc EXCEPT ![t] == \"idle\"]");
    assert_ne!(broken, reference, "the reference's Unlock changed: update the test");
    broken
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
fn a_broken_definition_gives_a_partial_syntax_score_and_gates_the_rest() {
    let mut posted = vec![];
    let last = handle_request(&GradeRequest { run: 1, task: "spin".into(), model: broken_spin(), cfg: None, mapping: None, bug_model: false, pack: None, exercise: None }.to_json(), &mut |m| posted.push(m));
    let WorkerMessage::Report { run: 1, report } = last else { panic!("{last:?}") };
    assert!(matches!(&posted[0], WorkerMessage::Progress { stage, .. } if stage == "syntax"), "{posted:?}");
    let card = Scorecard::from_report(&report);
    let syntax = &card.stages[0];
    assert_eq!(syntax.key, "syntax");
    assert!(syntax.score > 0.0 && syntax.score < 1.0, "{syntax:?}");
    assert!(posted.iter().any(|m| matches!(m, WorkerMessage::Progress { syntax: Some(s), .. } if *s == syntax.score)), "{posted:?}");
    assert!(!card.diagnostics.is_empty());
    for s in &card.stages[1..] {
        assert_eq!((s.status.as_str(), s.score), ("skipped", 0.0), "{s:?}");
    }
    assert_eq!(card.overall, syntax.score / 4.0);
    // The stage reports end every stage, the gated ones marked.
    let mut board = web::progress::Board::default();
    for m in &posted {
        if let WorkerMessage::Stage { run: 1, progress } = m {
            board.apply(progress);
        }
    }
    assert_eq!(board.bars.iter().map(|b| b.state.as_str()).collect::<Vec<_>>(), ["ran", "skipped", "skipped", "skipped", "skipped"]);
    assert_eq!(board.bars[0].score, Some(syntax.score));
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
fn an_over_permissive_model_shows_its_steps_with_their_paths() {
    // LockSpin without its guard: every trace replays, the code never spins on a free lock.
    let model = include_str!("../../tasks/spin/wrong/spin-on-free-lock/spin.tla");
    let report = web::grading::grade_task("spin", model, &|| false).unwrap();
    let card = Scorecard::from_report(&report);
    let stage = |k: &str| card.stages.iter().find(|s| s.key == k).unwrap().clone();
    assert_eq!(stage("conformance").score, 1.0);
    let p = stage("precision");
    assert!(p.status == "ran" && p.score < 1.0, "{p:?}");
    assert!(card.combined.is_some_and(|c| c < card.overall), "{:?} {}", card.combined, card.overall);
    let row = card.precision.iter().find(|o| o.step == "LockSpin(t=0)").expect("LockSpin(t=0) is named");
    assert!(row.from.contains(&("locked".to_string(), "FALSE".to_string())), "{:?}", row.from);
    assert!(row.code_steps.iter().any(|s| s == "LockAcquired(t=0)"), "{:?}", row.code_steps);
    // The path ends with the step: thread 0 spinning while the lock is free.
    let last = row.counterexample.states.last().unwrap();
    assert!(last.values.iter().any(|(n, v)| n == "locked" && v == "FALSE"), "{:?}", last.values);
    assert!(card.precision_note.contains("system graph"), "{}", card.precision_note);
}

/// The whole grade of the reference model: natively only (in a debug wasm build under node it
/// is slow; the browser test grades it in the release build).
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn the_spin_reference_model_scores_one_in_every_stage() {
    let reference = sysmo_tasks::task("spin").unwrap().folder("reference").into_iter().find(|(n, _)| *n == "spin.tla").unwrap().1;
    let calls = std::cell::Cell::new(0u32);
    let report = web::grading::grade_task("spin", reference, &|| {
        calls.set(calls.get() + 1);
        false
    })
    .unwrap();
    let card = Scorecard::from_report(&report);
    for s in &card.stages {
        assert_eq!((s.status.as_str(), s.score), ("ran", 1.0), "{s:?}");
    }
    assert_eq!(card.overall, 1.0);
    assert_eq!(card.task, "spin");
    assert!(!card.coverage.is_empty() && card.coverage.iter().all(|c| c.counted && c.produced), "{:?}", card.coverage);
    assert!(!card.conformance.is_empty() && card.conformance.iter().all(|c| c.ok && c.first_failure.is_none()));
    assert!(!card.invariants.is_empty() && card.invariants.iter().all(|i| i.verdict == "pass"));
    assert!(calls.get() > 0, "the grader never asked whether to stop");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
fn a_violated_invariant_shows_its_counterexample_as_states() {
    // A report as sysmo-grade writes it (schema sysmo-grade/2): what the card reads laid over
    // a whole report.
    let patch = serde_json::json!({
        "task": "spin", "overall": 0.75,
        "stages": {
            "syntax": {"score": 1.0, "status": "ran", "definitions": {"total": 8, "parsed": 8}, "diagnostics": []},
            "runtime": {"score": 1.0, "status": "ran", "gate": {"passed": true, "result": "success", "distinct_states": 10, "depth": 4,
                                 "states_generated": 12, "max_states": 100000, "max_depth": 100},
                        "actions": [{"action": "Unlock", "produced": true, "before_error": false, "counted": true}]},
            "conformance": {"score": 1.0, "status": "ran", "windows": 2, "windows_passed": 1, "window_pass_rate": 0.5, "traces": 1, "whole_traces_passed": 0,
                            "actions": [{"action": "Unlock", "windows": 2, "passed": 1, "verdict": 0,
                                         "first_failure": {"file": "pct-001.ndjson", "line": 4, "message": "no successor matches",
                                                           "first_false_conjunct": {"text": "pc[t] = \"cs\"", "operands": [{"expr": "pc[t]", "value": "\"idle\""}]},
                                                           "differences": [{"field": "locked", "observed": "FALSE", "model": "TRUE"}]}}]},
            "invariants": {"score": 0.0, "status": "ran", "checked": 1, "passed": 0, "invariants": [
                {"name": "MutualExclusion", "kind": "invariant", "expect": "hold", "verdict": "fail", "result": "violated", "distinct_states": 2,
                 "counterexample": {"#meta": {"description": "MutualExclusion violated"}, "vars": ["locked", "pc"], "states": [
                    {"#meta": {"index": 0}, "locked": false, "pc": {"#map": [[0, "idle"]]}},
                    {"#meta": {"index": 1, "action": "TryLock"}, "locked": true, "pc": {"#map": [[0, "cs"]]}}]}}]}
        }
    });
    let report = merged(serde_json::to_value(gated_report()).unwrap(), patch);
    let report: sysmo_grade::report::Report = serde_json::from_value(report).expect("a whole report");
    let card = Scorecard::from_report(&report);
    assert_eq!(card.stages.iter().map(|s| s.key.as_str()).collect::<Vec<_>>(), ["syntax", "runtime", "conformance", "invariants", "precision"]);
    let f = card.conformance[0].first_failure.as_deref().unwrap();
    assert!(f.starts_with("pct-001.ndjson:4: no successor matches"), "{f}");
    assert!(f.contains("FALSE: pc[t] = \"cs\" where pc[t] = \"idle\"") && f.contains("locked: observed FALSE, model TRUE"), "{f}");
    let cex = card.invariants[0].counterexample.as_ref().unwrap();
    assert_eq!(cex.states.len(), 2);
    assert_eq!(cex.states[1].action.as_deref(), Some("TryLock"));
    assert_eq!(cex.states[1].values, [("locked".to_string(), "TRUE".to_string()), ("pc".to_string(), "(0 :> \"cs\")".to_string())]);
    assert_eq!(card.stages[3].summary, "0 of 1 pass");
    assert_eq!(card.coverage, [web::grading::CoverageRow { action: "Unlock".into(), produced: true, counted: true, before_error: false }]);
    assert!(card.gate.as_deref().unwrap().starts_with("gate passed (success, 10 distinct states"));
}

// ---- Share links and the worker's check request ----

#[path = "wasm/share.rs"]
mod share;

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
fn each_task_with_a_bug_folder_has_its_bug_model_with_a_cfg() {
    use web::grading::BugModel;
    for t in sysmo_tasks::tasks() {
        let has_bug = t.files.iter().any(|(p, _)| p.starts_with("bug/") && p.ends_with(".tla"));
        let bug = BugModel::of(t).unwrap_or_else(|e| panic!("{}: {e}", t.id));
        assert_eq!(bug.is_some(), has_bug, "{}", t.id);
        if let Some(b) = bug {
            assert!(b.text.contains("MODULE") && b.cfg_path.starts_with("bug/") && b.cfg_path.ends_with(".cfg"), "{}: {b:?}", t.id);
        }
    }
    // A task whose bug shows beyond its grading budget, with a .cfg of its own.
    let r = BugModel::of(sysmo_tasks::task("redisraft").unwrap()).unwrap().unwrap();
    assert_eq!((r.path.as_str(), r.cfg_path.as_str(), r.max_states), ("bug/redisraft.tla", "bug/stale-read.cfg", Some(40000)));
    assert!(BugModel::of(sysmo_tasks::task("spin").unwrap()).unwrap().is_none());
}

/// Grades a task's bug model as the page's bug panel asks the worker to.
fn grade_bug_model(task: &str) -> (Vec<WorkerMessage>, WorkerMessage) {
    let mut posted = vec![];
    let req = GradeRequest { run: 4, task: task.into(), bug_model: true, ..GradeRequest::default() };
    let read = GradeRequest::from_json(&req.to_json()).unwrap();
    assert_eq!(read, req);
    let last = handle_request(&req.to_json(), &mut |m| posted.push(m));
    (posted, last)
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
fn the_bug_model_is_refuted_on_request_and_its_counterexamples_play() {
    use web::bug_run::findings;
    use web::player::Trace;
    // locksvc's bug model violates properties of the task's invariants.
    let (posted, last) = grade_bug_model("locksvc");
    assert!(posted.iter().any(|m| matches!(m, WorkerMessage::Stage { run: 4, progress } if progress.stage == "invariants")));
    let WorkerMessage::Report { run: 4, report } = last else { panic!("{last:?}") };
    assert_eq!(report.model, "bug/locksvc.tla");
    let card = Scorecard::from_report(&report);
    let found = findings(&card);
    let names: Vec<&str> = found.iter().map(|f| f.name.as_str()).collect();
    assert!(names.contains(&"LockSafety") && !names.contains(&"runtime gate"), "{names:?}");
    for f in &found {
        let cex = f.counterexample.as_ref().unwrap_or_else(|| panic!("{} has no counterexample", f.name));
        let trace = Trace::from_itf(&cex.itf);
        assert!(trace.states.len() >= 2 && trace.states[1].action.is_some(), "{}: {trace:?}", f.name);
    }
    // The precision stage needs the correct code's graph: the bug model is not judged by it.
    assert_eq!(card.stages[4].status, "skipped");

    // mutex's bug model states its property in its own .cfg: the runtime gate refutes it.
    let (_, last) = grade_bug_model("mutex");
    let WorkerMessage::Report { report, .. } = last else { panic!("{last:?}") };
    let found = findings(&Scorecard::from_report(&report));
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].name == "runtime gate" && found[0].summary.contains("AtMostOneHolder"), "{found:?}");
    assert!(found[0].counterexample.as_ref().is_some_and(|c| c.states.len() >= 2));

    // A task without a bug model, and an unknown task, say so.
    for (task, says) in [("spin", "has no bug model"), ("nope", "no task `nope`")] {
        let (_, last) = grade_bug_model(task);
        assert!(matches!(&last, WorkerMessage::Failed { run: 4, message } if message.contains(says)), "{last:?}");
    }
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
fn a_hidden_propertys_formula_is_redacted_and_its_messages_dropped() {
    use web::catalog::{hide_in_report, redact};
    let module = "---- MODULE bInvariants ----\nEXTENDS b\n\n\\* [safety] A done consumer got an item.\nGets == \\A t \\in C :\n    got[t] > 0\n\nOther == TRUE\n====\n";
    let shown = redact(module, &["Gets".to_string()]);
    assert_eq!(shown, "---- MODULE bInvariants ----\nEXTENDS b\n\n\\* [safety] A done consumer got an item.\nGets == (hidden by the task's author)\n\nOther == TRUE\n====\n");
    assert_eq!(redact(module, &[]), module);
    let mut report = gated_report();
    report.stages.invariants.invariants = serde_json::from_value(serde_json::json!([
        {"name": "Gets", "kind": "invariant", "expect": "hold", "verdict": "error", "result": "error", "message": "evaluating got[t] > 0: not a function", "distinct_states": 1},
        {"name": "Other", "kind": "invariant", "expect": "hold", "verdict": "pass", "result": "holds", "message": "kept", "distinct_states": 1},
    ])).unwrap();
    hide_in_report(&mut report, &["Gets".to_string()]);
    let i = &report.stages.invariants.invariants;
    assert_eq!((i[0].message.as_deref(), i[0].verdict.as_ref(), i[1].message.as_deref()), (None, "error", Some("kept")));
}
