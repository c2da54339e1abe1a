//! A task's prompt: the text a user gives an LLM to model the task (`sysmo prompt --task ID`,
//! the web app's Prompt tab).
//!
//! The prompt holds the task (title, original system, description), the system's code — the
//! files of the task crate's `src/` that produced the task's traces (the folder of the traces'
//! header `source`), without `workload.rs`, the harness that starts the threads (or drives the
//! simulated network) and records the runs —, what to model and what to leave out, the pinned names, and the expected output: one
//! TLA+ module named as pinned, with Init, Next, vars and Spec (fairness where liveness needs
//! it), plus a .cfg with the task's constants.
//!
//! [`prompt`] is a pure function of the `task.toml` text and the code files.
//!
//! **Without hints** ([`Hints::None`], `sysmo prompt --no-hints`) the prompt names no action:
//! the model chooses its own, and its author writes the mapping (docs/mapping.md) from the
//! step names the traces record (listed, with their arguments, and one trace's first lines
//! shown) to those actions, in a third file `mapping.json`.

use std::collections::BTreeMap;

use sysmo_task_format::TaskToml;

/// Whether the prompt lists the task's actions.
#[derive(Clone, Copy, Debug)]
pub enum Hints<'a> {
    /// The pinned actions, each with its parameters and meaning.
    Actions,
    /// No action list; the traces (file name, text) show the steps' names to map.
    None { traces: &'a [(&'a str, &'a str)] },
}

/// The prompt for a task, from its `task.toml` text and the code files (path, text) that ran.
pub fn prompt(task_toml: &str, code: &[(String, String)]) -> Result<String, String> {
    prompt_with(task_toml, code, Hints::Actions)
}

/// Each step name the traces record, with the names of its arguments.
fn step_vocabulary(traces: &[(&str, &str)]) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (_, text) in traces {
        for l in text.lines() {
            let Ok(v) = serde_json::from_str::<serde_json::Value>(l) else { continue };
            if v.get("kind").and_then(|k| k.as_str()) != Some("step") {
                continue;
            }
            let Some(a) = v.get("action").and_then(|a| a.as_str()) else { continue };
            let args = out.entry(a.to_string()).or_default();
            for k in v.get("args").and_then(|a| a.as_object()).into_iter().flat_map(|o| o.keys()) {
                if !args.contains(k) {
                    args.push(k.clone());
                }
            }
        }
    }
    out
}

/// The prompt with or without the action list.
pub fn prompt_with(task_toml: &str, code: &[(String, String)], hints: Hints<'_>) -> Result<String, String> {
    let t = TaskToml::parse(task_toml)?;
    let id = t.id.as_str();
    let title = if t.title.is_empty() { id } else { t.title.as_str() };
    let module = t.pinned.module.as_str();
    let summary = t.description.summary.trim();
    let mut p = String::new();
    let mut line = |s: &str| {
        p.push_str(s);
        p.push('\n');
    };

    line(&format!("# Modeling task `{id}`: {title}"));
    line("");
    line("Write a TLA+ specification of the concurrent system described below. Your model will be");
    line("parsed, run, compared step by step with traces recorded from the code, and checked against");
    match hints {
        Hints::Actions => line("the task's invariants, so use the pinned names below exactly."),
        Hints::None { .. } => {
            line("the task's invariants, so use the pinned module, constants and variables below exactly.");
            line("Which actions to model is yours to decide; a mapping you write says which of your");
            line("actions each step of the traces is.");
        }
    }
    line("");
    line("## The system");
    line("");
    line(summary);
    line("");
    let or = |s: &'static str, v: &str| if v.is_empty() { s.to_string() } else { v.to_string() };
    let system = or("unknown", &t.original.system);
    let file = or("unknown", &t.original.file);
    let language = or("unknown language", &t.original.language);
    let lines = t.original_lines().map(|(n, _)| format!(", about {n} lines")).unwrap_or_default();
    line(&format!("Original system: {system}; file {file} ({language}{lines})."));
    line("");

    line("## The code that ran");
    line("");
    if code.iter().any(|(_, text)| text.contains("probe.step(")) {
        line("The traces your model is compared with were recorded from the Rust code below. Calls such as");
        line("`probe.step(\"Action\", ...)` are the recorder's hooks, not behaviour of the system: each marks");
        line("the point where the named action takes effect (one atomic step of the model) and shows how");
        line("the pinned variables change there. The harness that starts the threads and records the runs");
        line("is not shown; the constants in the expected .cfg below say how many threads run.");
    } else {
        line("The traces your model is compared with were recorded from the Rust code below: the system's");
        line("processes, each a state machine whose steps are the task's actions (one atomic step of the");
        line("model each). The harness that runs them is not shown: on a seeded simulated network it");
        line("chooses which enabled step happens next (which message is delivered, lost or duplicated,");
        line("which timer fires, which node crashes or restarts) and records the pinned variables after");
        line("each step. The constants in the expected .cfg below say how many nodes run.");
    }
    line("");
    for (path, text) in code {
        line(&format!("### {path}"));
        line("");
        line("```rust");
        p_push_code(&mut line, text);
        line("```");
        line("");
    }

    line("## What the model must capture");
    line("");
    let must = &t.description.must_capture;
    if must.is_empty() {
        line("- the behaviour described above, step by step as the code takes its steps");
    }
    for m in must {
        line(&format!("- {m}"));
    }
    line("");
    line("## What to leave out");
    line("");
    let leave = &t.description.leave_out;
    if leave.is_empty() {
        line("- anything the pinned variables cannot express");
    }
    for m in leave {
        line(&format!("- {m}"));
    }
    line("");

    line("## Pinned names");
    line("");
    line(&format!("Module: `{module}`"));
    line("");
    let consts = &t.pinned.constants;
    line("Constants:");
    if consts.is_empty() {
        line("- none");
    }
    for (k, v) in consts {
        line(&format!("- `{k}`: {v}"));
    }
    line("");
    line("Variables (name: type or values; no other variables):");
    let vars = &t.pinned.variables;
    if vars.is_empty() {
        return Err("task.toml has no pinned variables".into());
    }
    for (k, v) in vars {
        line(&format!("- `{k}`: {v}"));
    }
    line("");
    let mut action_heads = Vec::new();
    match hints {
        Hints::Actions => {
            line("Actions (one operator each, with exactly these parameters; the traces name them):");
            if t.pinned.actions.is_empty() {
                return Err("task.toml has no pinned actions".into());
            }
            for a in &t.pinned.actions {
                let head = a.head();
                line(&format!("- `{head}`: {}", a.meaning));
                action_heads.push(head);
            }
            line("");
        }
        Hints::None { traces } => {
            let vocabulary = step_vocabulary(traces);
            if vocabulary.is_empty() {
                return Err("the task's traces record no step".into());
            }
            line("Actions: not pinned. Choose them from the code, each one atomic step of it. The traces");
            line("record the code's steps under these names, with these arguments (a step's `state` is the");
            line("pinned variables after it):");
            for (a, args) in &vocabulary {
                line(&format!("- `{a}` ({})", if args.is_empty() { "no arguments".to_string() } else { args.join(", ") }));
            }
            line("");
            if let Some((file, text)) = traces.first() {
                line(&format!("The first lines of one trace ({file}):"));
                line("");
                line("```json");
                for l in text.lines().take(6) {
                    line(l);
                }
                line("```");
                line("");
            }
        }
    }

    line("## Expected output");
    line("");
    let var_names: Vec<&str> = vars.keys().map(String::as_str).collect();
    line(&format!("1. `{module}.tla`: one module, `---- MODULE {module} ----`, that defines"));
    if !consts.is_empty() {
        let names: Vec<&str> = consts.keys().map(String::as_str).collect();
        line(&format!("   - `CONSTANT {}` and `VARIABLES {}`;", names.join(", "), var_names.join(", ")));
    } else {
        line(&format!("   - `VARIABLES {}` (no constants);", var_names.join(", ")));
    }
    line(&format!("   - `vars == <<{}>>`;", var_names.join(", ")));
    line("   - `Init`, the initial states;");
    match hints {
        Hints::Actions => line(&format!("   - the actions {}, each one atomic step of the code;", action_heads.iter().map(|h| format!("`{h}`")).collect::<Vec<_>>().join(", "))),
        Hints::None { .. } => line("   - your actions, each an operator for one atomic step of the code;"),
    }
    line("   - `Next`, the disjunction of the actions, their parameters bound by `\\E` over the values");
    line("     they range over (thread or node ids from the constants, slice lengths, ...);");
    line("   - `Spec == Init /\\ [][Next]_vars /\\ Fairness`, where `Fairness` gives weak fairness");
    line("     (`WF_vars`) or strong fairness (`SF_vars`) to the steps the system is sure to take, so");
    line("     that the liveness the code guarantees (a thread or process that can proceed eventually");
    line("     does) holds in the model, and no more than the code guarantees.");
    line("   Helper definitions (such as `TypeOK`) are welcome; use only the standard modules");
    line("   (Naturals, Integers, Sequences, FiniteSets, TLC). A state with no successor is allowed");
    line("   (the runs end); the model is checked with deadlock checking off.");
    line(&format!("2. `{module}.cfg`, the task's configuration:"));
    line("");
    line("```");
    line("SPECIFICATION Spec");
    for (k, v) in t.check.constants_cfg() {
        line(&format!("CONSTANT {k} = {v}"));
    }
    line("```");
    line("");
    line(&format!(
        "The model's reachable states are explored up to {} states and depth {}: keep its state",
        t.check.max_states, t.check.max_depth
    ));
    line("space within that.");
    line("");
    if let Hints::None { .. } = hints {
        line("3. `mapping.json`: which of your actions each step name of the traces is, as JSON:");
        line("");
        line("```json");
        line("{\"version\": 1, \"actions\": {");
        line("  \"StepName\": \"YourAction\",");
        line("  \"OtherStep\": {\"action\": \"YourOtherAction\", \"args\": {\"t\": \"self\"}}");
        line("}}");
        line("```");
        line("");
        line("   Every step name above needs an entry. `args` maps a step's argument to your action's");
        line("   parameter of another name (arguments not listed bind the parameter of the same name; a");
        line("   parameter no argument gives ranges over the set your `Next` draws it from). Each step");
        line("   must be one step of your `Next` by that action, between the states the trace records");
        line("   (compared on the pinned variables). If your model takes extra steps the traces do not");
        line("   record, list those actions in `\"internal\": [\"A\", ...]` (at most one such step between");
        line("   two recorded ones).");
        line("");
        line("Answer with the three files, each in its own code block headed by its file name.");
    } else {
        line("Answer with the two files, each in its own code block headed by its file name.");
    }
    Ok(p)
}

/// Appends code text line by line (a final newline is not doubled).
fn p_push_code(line: &mut impl FnMut(&str), text: &str) {
    for l in text.strip_suffix('\n').unwrap_or(text).split('\n') {
        line(l);
    }
}
