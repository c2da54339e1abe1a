//! A task's prompt: the text a user gives an LLM to model the task (`sysmo prompt --task ID`,
//! the web app's Prompt tab).
//!
//! The prompt holds the task (title, original system, description), the system's code — the
//! files of the task crate's `src/` that produced the task's traces (the folder of the traces'
//! header `source`), without `workload.rs`, the harness that starts the threads and records the
//! runs —, what to model and what to leave out, the pinned names, and the expected output: one
//! TLA+ module named as pinned, with Init, Next, vars and Spec (fairness where liveness needs
//! it), plus a .cfg with the task's constants.
//!
//! [`prompt`] is a pure function of the `task.toml` text and the code files.

use toml::Value;

fn str_at<'a>(v: &'a Value, path: &[&str]) -> Option<&'a str> {
    let mut cur = v;
    for k in path {
        cur = cur.get(k)?;
    }
    cur.as_str()
}

fn list_at(v: &Value, path: &[&str]) -> Vec<String> {
    let mut cur = v;
    for k in path {
        match cur.get(k) {
            Some(x) => cur = x,
            None => return vec![],
        }
    }
    cur.as_array().map(|a| a.iter().filter_map(|x| x.as_str().map(str::to_string)).collect()).unwrap_or_default()
}

/// A `.cfg` value written from a task.toml value: integers, strings, booleans, sets of them.
fn cfg_value(v: &Value) -> Result<String, String> {
    Ok(match v {
        Value::Integer(i) => i.to_string(),
        Value::Boolean(b) => if *b { "TRUE" } else { "FALSE" }.to_string(),
        Value::String(s) => format!("{s:?}"),
        Value::Array(a) => {
            let items: Result<Vec<String>, String> = a.iter().map(cfg_value).collect();
            format!("{{{}}}", items?.join(", "))
        }
        other => return Err(format!("constant value {other:?} has no .cfg form")),
    })
}

/// The prompt for a task, from its `task.toml` text and the code files (path, text) that ran.
pub fn prompt(task_toml: &str, code: &[(String, String)]) -> Result<String, String> {
    let t: Value = toml::from_str(task_toml).map_err(|e| format!("task.toml: {e}"))?;
    let id = str_at(&t, &["id"]).ok_or("task.toml has no id")?;
    let title = str_at(&t, &["title"]).unwrap_or(id);
    let module = str_at(&t, &["pinned", "module"]).ok_or("task.toml has no [pinned] module")?;
    let summary = str_at(&t, &["description", "summary"]).unwrap_or("").trim();
    let mut p = String::new();
    let mut line = |s: &str| {
        p.push_str(s);
        p.push('\n');
    };

    line(&format!("# Modeling task `{id}`: {title}"));
    line("");
    line("Write a TLA+ specification of the concurrent system described below. Your model will be");
    line("parsed, run, compared step by step with traces recorded from the code, and checked against");
    line("the task's invariants, so use the pinned names below exactly.");
    line("");
    line("## The system");
    line("");
    line(summary);
    line("");
    let system = str_at(&t, &["original", "system"]).unwrap_or("unknown");
    let file = str_at(&t, &["original", "file"]).unwrap_or("unknown");
    let language = str_at(&t, &["original", "language"]).unwrap_or("unknown language");
    let lines = t
        .get("original")
        .and_then(|o| o.get("lines").or_else(|| o.get("approx_lines")))
        .and_then(Value::as_integer)
        .map(|n| format!(", about {n} lines"))
        .unwrap_or_default();
    line(&format!("Original system: {system}; file {file} ({language}{lines})."));
    line("");

    line("## The code that ran");
    line("");
    line("The traces your model is compared with were recorded from the Rust code below. Calls such as");
    line("`probe.step(\"Action\", ...)` are the recorder's hooks, not behaviour of the system: each marks");
    line("the point where the named action takes effect (one atomic step of the model) and shows how");
    line("the pinned variables change there. The harness that starts the threads and records the runs");
    line("is not shown; the constants in the expected .cfg below say how many threads run.");
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
    let must = list_at(&t, &["description", "must_capture"]);
    if must.is_empty() {
        line("- the behaviour described above, step by step as the code takes its steps");
    }
    for m in &must {
        line(&format!("- {m}"));
    }
    line("");
    line("## What to leave out");
    line("");
    let leave = list_at(&t, &["description", "leave_out"]);
    if leave.is_empty() {
        line("- anything the pinned variables cannot express");
    }
    for m in &leave {
        line(&format!("- {m}"));
    }
    line("");

    line("## Pinned names");
    line("");
    line(&format!("Module: `{module}`"));
    line("");
    let pinned = t.get("pinned").ok_or("task.toml has no [pinned] table")?;
    let consts = pinned.get("constants").and_then(Value::as_table);
    line("Constants:");
    match consts {
        Some(c) if !c.is_empty() => {
            for (k, v) in c {
                line(&format!("- `{k}`: {}", v.as_str().unwrap_or("")));
            }
        }
        _ => line("- none"),
    }
    line("");
    line("Variables (name: type or values; no other variables):");
    let vars = pinned.get("variables").and_then(Value::as_table).ok_or("task.toml has no pinned variables")?;
    for (k, v) in vars {
        line(&format!("- `{k}`: {}", v.as_str().unwrap_or("")));
    }
    line("");
    line("Actions (one operator each, with exactly these parameters; the traces name them):");
    let actions = pinned.get("actions").and_then(Value::as_array).ok_or("task.toml has no pinned actions")?;
    let mut action_heads = Vec::new();
    for a in actions {
        let name = a.get("name").and_then(Value::as_str).ok_or("a pinned action has no name")?;
        let params: Vec<&str> =
            a.get("params").and_then(Value::as_array).map(|v| v.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
        let head = if params.is_empty() { name.to_string() } else { format!("{name}({})", params.join(", ")) };
        line(&format!("- `{head}`: {}", a.get("meaning").and_then(Value::as_str).unwrap_or("")));
        action_heads.push(head);
    }
    line("");

    line("## Expected output");
    line("");
    let var_names: Vec<&str> = vars.keys().map(String::as_str).collect();
    line(&format!("1. `{module}.tla`: one module, `---- MODULE {module} ----`, that defines"));
    if let Some(c) = consts.filter(|c| !c.is_empty()) {
        let names: Vec<&str> = c.keys().map(String::as_str).collect();
        line(&format!("   - `CONSTANT {}` and `VARIABLES {}`;", names.join(", "), var_names.join(", ")));
    } else {
        line(&format!("   - `VARIABLES {}` (no constants);", var_names.join(", ")));
    }
    line(&format!("   - `vars == <<{}>>`;", var_names.join(", ")));
    line("   - `Init`, the initial states;");
    line(&format!("   - the actions {}, each one atomic step of the code;", action_heads.iter().map(|h| format!("`{h}`")).collect::<Vec<_>>().join(", ")));
    line("   - `Next`, the disjunction of the actions, their parameters bound by `\\E` over the values");
    line("     they range over (thread ids from the constants, slice lengths, ...);");
    line("   - `Spec == Init /\\ [][Next]_vars /\\ Fairness`, where `Fairness` gives weak fairness");
    line("     (`WF_vars`) or strong fairness (`SF_vars`) to the steps the system is sure to take, so");
    line("     that the liveness the code guarantees (a thread that can proceed eventually does) holds");
    line("     in the model, and no more than the code guarantees.");
    line("   Helper definitions (such as `TypeOK`) are welcome; use only the standard modules");
    line("   (Naturals, Integers, Sequences, FiniteSets, TLC). A state with no successor is allowed");
    line("   (the runs end); the model is checked with deadlock checking off.");
    line(&format!("2. `{module}.cfg`, the task's configuration:"));
    line("");
    line("```");
    line("SPECIFICATION Spec");
    let check_consts = t.get("check").and_then(|c| c.get("constants")).and_then(Value::as_table);
    if let Some(c) = check_consts {
        for (k, v) in c {
            line(&format!("CONSTANT {k} = {}", cfg_value(v)?));
        }
    }
    line("```");
    if let Some(c) = t.get("check") {
        let states = c.get("max_states").and_then(Value::as_integer);
        let depth = c.get("max_depth").and_then(Value::as_integer);
        if let (Some(s), Some(d)) = (states, depth) {
            line("");
            line(&format!("The model's reachable states are explored up to {s} states and depth {d}: keep its state"));
            line("space within that.");
        }
    }
    line("");
    line("Answer with the two files, each in its own code block headed by its file name.");
    Ok(p)
}

/// Appends code text line by line (a final newline is not doubled).
fn p_push_code(line: &mut impl FnMut(&str), text: &str) {
    for l in text.strip_suffix('\n').unwrap_or(text).split('\n') {
        line(l);
    }
}
