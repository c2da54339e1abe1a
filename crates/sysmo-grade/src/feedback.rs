//! The repair text of a grade: what the author of a model (a person, or an LLM in a loop)
//! needs to fix the first stage that falls short, as plain text, deterministic and bounded in
//! size, built from the report alone (and the model's text, for the lines diagnostics point
//! at). `sysmo grade --feedback` prints it.
//!
//! For the first stage below 1.0 it gives:
//! - syntax: each error with its line of source, a caret under the column, and the hints;
//! - runtime: the gate's error with the path to it (each step's action and the variables it
//!   changed), or the actions the simulations never saw take a step, or saw last before an
//!   error;
//! - conformance: per failing action, the first failing trace step (file and line), the FALSE
//!   conjunct with its operands' values, and the fields the model's closest successor gets
//!   wrong;
//! - invariants: each violated property with a short counterexample;
//! - precision: the steps the model allows and the code never takes, and the code's states
//!   the model cannot reach.
//!
//! Later stages are summarised in one line each, since fixing the first usually moves them.

use crate::itf;
use crate::report::{Report, Status};
use serde_json::Value as Json;

/// The size the text is cut to when the caller gives none: a few pages, enough for the first
/// failures of a stage and small beside a model's context window.
pub const DEFAULT_LIMIT: usize = 6_000;

/// States of a counterexample shown at most (the first and the last ones).
const CEX_HEAD: usize = 2;
const CEX_TAIL: usize = 6;
/// Over-permissive steps shown (each with its path).
const PRECISION_STEPS: usize = 5;

/// Lines written within a size limit; what does not fit is counted and said at the end.
struct Text {
    out: String,
    limit: usize,
    dropped: usize,
}

impl Text {
    fn line(&mut self, s: impl AsRef<str>) {
        let s = s.as_ref();
        if self.dropped > 0 || self.out.len() + s.len() + 1 > self.limit {
            self.dropped += 1;
            return;
        }
        self.out.push_str(s);
        self.out.push('\n');
    }

    fn finish(mut self) -> String {
        if self.dropped > 0 {
            self.out.push_str(&format!("[{} more lines left out to keep this text short]\n", self.dropped));
        }
        self.out
    }
}

fn s<'a>(v: &'a Json, k: &str) -> &'a str {
    v.get(k).and_then(Json::as_str).unwrap_or("")
}

/// A step of a counterexample, as `Action(p=v, ...)`, from the state's `#meta`.
fn step_name(state: &Json) -> String {
    let meta = state.get("#meta");
    if let Some(step) = meta.and_then(|m| m.get("step")) {
        let params: Vec<String> = step
            .get("params")
            .and_then(Json::as_object)
            .map(|p| p.iter().map(|(k, v)| format!("{k}={}", itf::text(v))).collect())
            .unwrap_or_default();
        let a = s(step, "action");
        return if params.is_empty() { a.to_string() } else { format!("{a}({})", params.join(", ")) };
    }
    meta.and_then(|m| m.get("action")).and_then(Json::as_str).unwrap_or("a step").to_string()
}

/// A counterexample (ITF) in a few lines: the first state whole, then each step with the
/// variables it changed; a long one keeps its first and last states.
fn counterexample(t: &mut Text, itf_json: &Json, indent: &str) {
    let vars: Vec<&str> = itf_json.get("vars").and_then(Json::as_array).map(|v| v.iter().filter_map(Json::as_str).collect()).unwrap_or_default();
    let states: &[Json] = itf_json.get("states").and_then(Json::as_array).map(Vec::as_slice).unwrap_or(&[]);
    let Some(first) = states.first() else { return };
    let value = |st: &Json, v: &str| st.get(v).map(itf::text).unwrap_or_default();
    let init: Vec<String> = vars.iter().map(|v| format!("{v} = {}", value(first, v))).collect();
    t.line(format!("{indent}state 1 (initial): {}", init.join(", ")));
    let n = states.len();
    let loop_to = itf_json.get("loop").and_then(Json::as_u64).map(|x| x as usize);
    for i in 1..n {
        if n > CEX_HEAD + CEX_TAIL + 1 && i == CEX_HEAD + 1 {
            t.line(format!("{indent}... {} states left out ...", n - CEX_HEAD - CEX_TAIL - 1));
        }
        if n > CEX_HEAD + CEX_TAIL + 1 && i > CEX_HEAD && i < n - CEX_TAIL {
            continue;
        }
        let (prev, st) = (&states[i - 1], &states[i]);
        let changed: Vec<String> = vars.iter().filter(|v| prev.get(**v) != st.get(**v)).map(|v| format!("{v}' = {}", value(st, v))).collect();
        let what = if changed.is_empty() { "changes no variable".to_string() } else { changed.join(", ") };
        t.line(format!("{indent}state {} after {}: {what}", i + 1, step_name(st)));
    }
    if let Some(l) = loop_to {
        t.line(format!("{indent}then back to state {} for ever (a cycle)", l + 1));
    }
}

/// The repair text of `report` for the model `model_text`, cut to about `limit` characters.
pub fn feedback(report: &Report, model_text: &str, limit: usize) -> String {
    let mut t = Text { out: String::new(), limit: limit.max(200), dropped: 0 };
    let scores = report.stages.scores();
    let line: Vec<String> = scores.iter().map(|(k, score, status)| {
        if *status == Status::Ran { format!("{k} {score:.4}") } else { format!("{k} {score:.4} ({})", status.as_str()) }
    }).collect();
    t.line(format!("Grade of {} on task {}: {}; overall {:.4}.", report.model, report.task, line.join(", "), report.overall));
    let first = scores.iter().find(|(k, score, status)| {
        // A task without a system graph has nothing to say about precision.
        let no_graph = *k == "precision" && *status == Status::Skipped && report.stages.precision.graph.is_none() && report.combined.is_none();
        *score < 1.0 && !no_graph
    });
    let Some((stage, _, _)) = first else {
        t.line("Every stage scores 1.0: nothing to repair.");
        return t.finish();
    };
    t.line(format!("Fix the {stage} stage first; the stages after it depend on it."));
    t.line("");
    let st = &report.stages;
    match *stage {
        "syntax" => {
            let lines: Vec<&str> = model_text.lines().collect();
            let errors: Vec<_> = st.syntax.diagnostics.iter().filter(|d| d.severity == tla_syntax::Severity::Error).collect();
            t.line(format!("The module has {} error(s); {} of {} definitions check on their own.", errors.len(), st.syntax.definitions.parsed, st.syntax.definitions.total));
            for d in errors {
                t.line(format!("line {}, column {}: {} {}", d.line, d.column, d.code, d.message));
                if let Some(src) = lines.get(d.line.saturating_sub(1) as usize) {
                    t.line(format!("  | {src}"));
                    let col = src.chars().take(d.column.saturating_sub(1) as usize).map(|c| if c == '\t' { '\t' } else { ' ' }).collect::<String>();
                    t.line(format!("  | {col}^"));
                }
                for h in &d.hints {
                    t.line(format!("  hint: {h}"));
                }
            }
        }
        "runtime" => {
            let rt = &st.runtime;
            match &rt.gate {
                Some(g) if !g.passed => {
                    t.line(format!(
                        "The exhaustive run (deadlock checking off, at most {} states, depth {}) stopped with {}: {}",
                        g.max_states,
                        g.max_depth,
                        g.result,
                        g.message.as_deref().unwrap_or("")
                    ));
                    if let Some(at) = g.message.as_deref().and_then(|m| source_line(model_text, m)) {
                        t.line(at);
                    }
                    if let Some(c) = g.counterexample.as_ref().filter(|c| !c.is_null()) {
                        t.line("The path to it:");
                        counterexample(&mut t, c, "  ");
                    }
                }
                Some(_) => {
                    let never: Vec<&str> = rt.actions.iter().filter(|a| !a.produced).map(|a| a.action.as_str()).collect();
                    let last: Vec<&str> = rt.actions.iter().filter(|a| a.produced && a.before_error).map(|a| a.action.as_str()).collect();
                    if !never.is_empty() {
                        t.line(format!("These actions never took a step in the task's seeded simulations (their guards never held): {}.", never.join(", ")));
                    }
                    if !last.is_empty() {
                        t.line(format!("These actions were the last step before an error: {}.", last.join(", ")));
                    }
                    for e in rt.simulation.iter().flat_map(|sim| &sim.errors) {
                        t.line(format!("simulation run {}: {} after {}", e.run, e.message, e.last_action.as_deref().unwrap_or("the initial state")));
                    }
                }
                None => t.line(rt.reason.clone().unwrap_or_else(|| "The runtime stage could not run.".into())),
            }
        }
        "conformance" => {
            let cf = &st.conformance;
            if let Some(r) = &cf.reason {
                t.line(r);
            }
            t.line(format!("{} of {} trace steps (windows) replay; the actions whose steps the model cannot take:", cf.windows_passed, cf.windows));
            for a in cf.actions.iter().filter(|a| a.verdict == 0) {
                t.line(format!("- {}: {} of {} steps fail.", a.action, a.windows - a.passed, a.windows));
                let Some(f) = a.first_failure.as_ref().filter(|f| !f.is_null()) else { continue };
                let args: Vec<String> = f.get("args").and_then(Json::as_object).map(|m| m.iter().map(|(k, v)| format!("{k} = {}", v.as_str().unwrap_or(""))).collect()).unwrap_or_default();
                t.line(format!(
                    "  first at {} line {} (step {}{}): {}",
                    s(f, "file"),
                    f.get("line").and_then(Json::as_u64).unwrap_or(0),
                    s(f, "trace_action"),
                    if args.is_empty() { String::new() } else { format!(" with {}", args.join(", ")) },
                    s(f, "message")
                ));
                if let Some(c) = f.get("first_false_conjunct").filter(|c| !c.is_null()) {
                    let ops: Vec<String> = c.get("operands").and_then(Json::as_array).map(|o| o.iter().map(|o| format!("{} = {}", s(o, "expr"), s(o, "value"))).collect()).unwrap_or_default();
                    let at = s(c, "at");
                    t.line(format!(
                        "  the first FALSE conjunct{}: {}{}",
                        if at.is_empty() { String::new() } else { format!(" ({at})") },
                        s(c, "text"),
                        if ops.is_empty() { String::new() } else { format!(", where {}", ops.join(", ")) }
                    ));
                }
                for d in f.get("differences").and_then(Json::as_array).map(Vec::as_slice).unwrap_or(&[]) {
                    t.line(format!("  the closest successor has {} = {}, the trace shows {}", s(d, "field"), s(d, "model"), s(d, "observed")));
                }
            }
        }
        "invariants" => {
            let iv = &st.invariants;
            if let Some(r) = &iv.reason {
                t.line(r);
            }
            for i in iv.invariants.iter().filter(|i| i.verdict != "pass") {
                let must = if i.expect == "violate" { "must be violated by a faithful model" } else { "must hold" };
                t.line(format!("- {} ({}, {}): {}{}", i.name, i.kind, must, i.result, i.message.as_deref().map(|m| format!(": {m}")).unwrap_or_default()));
                if let Some(c) = i.counterexample.as_ref().filter(|c| !c.is_null()) {
                    counterexample(&mut t, c, "    ");
                }
            }
        }
        _ => {
            let pr = &st.precision;
            if let Some(r) = &pr.reason {
                t.line(r);
            }
            if pr.over_permissive > 0 {
                t.line(format!(
                    "The model allows {} step(s) that the code never takes (it conforms to the traces, but forbids too little). The first ones:",
                    pr.over_permissive
                ));
                for o in pr.steps.iter().take(PRECISION_STEPS) {
                    t.line(format!("- {}", o.message));
                    counterexample(&mut t, &o.counterexample, "    ");
                }
            }
            if pr.unreached > 0 {
                t.line(format!("The code reaches {} state(s) that no explored state of the model projects onto, such as:", pr.unreached));
                for u in &pr.unreached_examples {
                    t.line(format!("- {}", itf::text(u)));
                }
            }
        }
    }
    // The later stages in a line each.
    let later: Vec<String> = scores
        .iter()
        .skip_while(|(k, _, _)| k != stage)
        .skip(1)
        .map(|(k, score, status)| format!("{k} {score:.4} ({})", status.as_str()))
        .collect();
    if !later.is_empty() {
        t.line("");
        t.line(format!("Later stages, for information: {}.", later.join(", ")));
    }
    t.finish()
}

/// The model's line a message points at (`(spin.tla:17:11)`, the last such place in it), with
/// the definition it lies in: `at line 17, in TryLock: /\ locked = "false"`.
fn source_line(model_text: &str, message: &str) -> Option<String> {
    let at = message.rfind(".tla:")?;
    let mut nums = message[at + 5..].split(|c: char| !c.is_ascii_digit());
    let line: usize = nums.next()?.parse().ok()?;
    let lines: Vec<&str> = model_text.lines().collect();
    let text = lines.get(line.checked_sub(1)?)?.trim();
    // The definition: the nearest line at or above that starts a definition at column 0.
    let def = lines[..line].iter().rev().find_map(|l| {
        let head = l.split("==").next().filter(|_| l.contains("=="))?;
        let name: String = head.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        (!name.is_empty() && !l.starts_with(char::is_whitespace) && name.chars().next().is_some_and(|c| !c.is_ascii_digit())).then_some(name)
    });
    Some(match def {
        Some(d) => format!("at line {line}, in {d}: {text}"),
        None => format!("at line {line}: {text}"),
    })
}
