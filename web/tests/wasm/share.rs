//! Share links and the worker's check request, natively and in wasm32 (included by wasm.rs).

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test;

use web::check_bench::{check_model, handle_check_request, CheckRequest};
use web::grading::GradeRequest;
#[cfg(not(target_arch = "wasm32"))]
use web::grading::{handle_request, Scorecard, WorkerMessage};
use web::share::{decode_fragment, encode_fragment, Scores, ShareError, SharePayload, MAX_LINK_CHARS};
#[cfg(not(target_arch = "wasm32"))]
use web::share::differences;

fn reference(task: &str, file: &str) -> &'static str {
    sysmo_tasks::task(task).unwrap().folder("reference").into_iter().find(|(n, _)| *n == file).unwrap().1
}

/// The first `n` bytes of a text, cut at a line end.
fn lines_up_to(text: &str, n: usize) -> &str {
    let cut = text[..n.min(text.len())].rfind('\n').map(|i| i + 1).unwrap_or(0);
    &text[..cut]
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
fn a_link_for_a_10_kb_model_round_trips_and_stays_short() {
    // Real TLA+ text: the reader-writer mutex's reference model (13.7 KB), and its first 10 KB.
    let whole = reference("rwmutex", "rwmutex.tla");
    for model in [lines_up_to(whole, 10 * 1024), whole] {
        let p = SharePayload {
            task: "rwmutex".into(),
            model: model.to_string(),
            cfg: Some("SPECIFICATION Spec\nCONSTANT Threads = {0, 1}\n".into()),
            mapping: None,
            claimed: Scores { syntax: 1.0, runtime: 1.0, conformance: 0.9, invariants: 1.0, overall: 0.975, ..Scores::default() },
            pack: None,
        };
        let fragment = encode_fragment(&p).unwrap();
        println!("share link for a {} byte model: {} characters in the fragment", model.len(), fragment.len());
        // DEFLATE then base64: well under the model's own size, and far under the limit.
        assert!(fragment.len() < model.len() * 6 / 10, "{} characters for {} bytes", fragment.len(), model.len());
        assert!(fragment.len() < MAX_LINK_CHARS / 20);
        assert_eq!(decode_fragment(&fragment).unwrap(), p);
    }
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
fn decoding_checks_the_task_against_the_embedded_ones() {
    let p = SharePayload { task: "no-such-task".into(), model: String::new(), cfg: None, mapping: None, claimed: Scores::default(), pack: None };
    assert_eq!(decode_fragment(&encode_fragment(&p).unwrap()), Err(ShareError::UnknownTask { task: "no-such-task".into(), pack: None }));
    assert!(matches!(decode_fragment("#/share/1/%%%"), Err(ShareError::BadBase64(_))));
    assert!(matches!(decode_fragment("#/share/v2/abc"), Err(ShareError::UnknownVersion(v)) if v == "v2"));
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
fn grade_requests_carry_overrides() {
    let req = GradeRequest { run: 2, task: "spin".into(), model: "m".into(), cfg: Some("CONSTANT Threads = {0}".into()), mapping: Some("x".into()), bug_model: false, pack: None, exercise: None };
    assert_eq!(GradeRequest::from_json(&req.to_json()).unwrap(), req);
    // A request of the earlier form (no overrides) still reads.
    let old = GradeRequest::from_json(r#"{"run": 1, "task": "spin", "model": "m"}"#).unwrap();
    assert_eq!((old.cfg, old.mapping), (None, None));
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
fn the_worker_checks_a_model_with_tlc_s_counts() {
    // TLC on the spin reference with Threads = {0, 1, 2}: 82 states generated, 19 distinct,
    // depth 5 (tasks/spin/reference/TLC.md).
    let req = CheckRequest { run: 4, model: reference("spin", "spin.tla").into(), cfg: reference("spin", "spin.cfg").into(), max_states: None };
    let ticks = std::cell::Cell::new(0.0);
    let clock = || {
        ticks.set(ticks.get() + 250.0);
        ticks.get()
    };
    let r = check_model(&req, &clock);
    assert_eq!((r.result.as_str(), r.distinct_states, r.states_generated, r.depth), ("success", 19, 82, 5), "{r:?}");
    assert_eq!(r.elapsed_ms, 250.0, "the time between the first and the last reading of the clock");
    // Through the worker's entry point, as JSON.
    let reply: serde_json::Value = serde_json::from_str(&handle_check_request(&req.to_json(), &clock).unwrap()).unwrap();
    assert_eq!((reply["kind"].as_str(), reply["run"].as_u64(), reply["distinct_states"].as_u64()), (Some("checked"), Some(4), Some(19)));
    assert_eq!(reply["distinct_per_second"].as_f64(), Some(19.0 / 0.25));
    // A budget stops the search; a broken model or configuration says why.
    let r = check_model(&CheckRequest { max_states: Some(5), ..req.clone() }, &clock);
    assert_eq!(r.result, "budget_exhausted", "{r:?}");
    let r = check_model(&CheckRequest { model: "---- MODULE spin ----\nInit == x = \n====\n".into(), ..req.clone() }, &clock);
    assert!(r.result == "error" && r.message.as_deref().is_some_and(|m| m.contains("spin.tla:")), "{r:?}");
    let r = check_model(&CheckRequest { cfg: "CONSTANT Nope = 1\nSPECIFICATION Spec\n".into(), ..req.clone() }, &clock);
    assert_eq!(r.result, "error", "{r:?}");
    // A grade request is not a check request.
    let grade = GradeRequest { run: 1, task: "spin".into(), model: "m".into(), cfg: None, mapping: None, bug_model: false, pack: None, exercise: None };
    assert!(handle_check_request(&grade.to_json(), &clock).is_none());
    assert!(handle_check_request(r#"{"kind": "check", "run": 1}"#, &clock).unwrap().contains("no model"));
}

#[cfg(not(target_arch = "wasm32"))]
fn grade_in_worker(req: &GradeRequest) -> Scorecard {
    match handle_request(&req.to_json(), &mut |_| {}) {
        WorkerMessage::Report { report, .. } => Scorecard::from_report(&report),
        other => panic!("{other:?}"),
    }
}

/// A shared grade verifies against a fresh grade, and a changed claim is reported (natively:
/// a whole grade is slow in a debug wasm build; the browser test does it in the release build).
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn a_shared_grade_verifies_and_an_edited_claim_does_not() {
    let model = reference("spin", "spin.tla").to_string();
    let req = GradeRequest { run: 1, task: "spin".into(), model: model.clone(), cfg: None, mapping: None, bug_model: false, pack: None, exercise: None };
    let card = grade_in_worker(&req);
    let link = encode_fragment(&SharePayload { task: "spin".into(), model, cfg: None, mapping: None, claimed: Scores::from_card(&card), pack: None }).unwrap();
    let opened = decode_fragment(&link).unwrap();
    let again = grade_in_worker(&GradeRequest { run: 2, task: opened.task.clone(), model: opened.model.clone(), cfg: opened.cfg.clone(), mapping: opened.mapping.clone(), bug_model: false, pack: None, exercise: None });
    assert!(differences(&opened.claimed, &Scores::from_card(&again)).is_empty());
    let claimed = Scores { invariants: 0.5, overall: 0.875, ..opened.claimed };
    let d = differences(&claimed, &Scores::from_card(&again));
    assert_eq!(d.iter().map(|d| (d.stage, d.claimed, d.got)).collect::<Vec<_>>(), [("invariants", 0.5, 1.0), ("overall", 0.875, 1.0)]);
}

/// A configuration override reaches the grader: two threads give a smaller gate than three.
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn a_cfg_override_changes_what_is_checked() {
    let model = reference("spin", "spin.tla").to_string();
    let gate = |cfg: Option<String>| grade_in_worker(&GradeRequest { run: 1, task: "spin".into(), model: model.clone(), cfg, mapping: None, bug_model: false, pack: None, exercise: None }).gate.unwrap();
    let task_own = gate(None);
    let two = gate(Some("SPECIFICATION Spec\nCONSTANT Threads = {0, 1}\n".into()));
    assert!(task_own.contains("19 distinct states"), "{task_own}");
    assert!(!two.contains("19 distinct states") && two.starts_with("gate passed"), "{two}");
}
