//! `sysmo exercise TASK ID ANSWER [--json]`: does an answer solve an exercise of a task (a
//! folder or a pack, `[[exercise]]` in its task.toml)? The answer is a model (`model`,
//! `fix-model`, `find-bug`) or TLA+ definitions (`write-invariant`); the judging is
//! `sysmo_grade::exercise`'s. Prints whether it is solved, why, and the next hint.

use serde_json::json;
use std::path::Path;
use std::process::ExitCode;
use sysmo_grade::exercise::{self, Outcome, Subject};
use sysmo_grade::{grade, ModelInput, TaskInput};
use sysmo_task_format::pack::Pack;
use sysmo_task_format::{Exercise, ExerciseKind};

/// Judges `answer` (its text) on the exercise `id` of the task `pack`.
pub fn judge(pack: &Pack, id: &str, answer_name: &str, answer: &str) -> Result<(Exercise, Outcome), String> {
    let task = pack.task_toml()?;
    let ex = exercise::exercise(&task, id)?.clone();
    let files: Vec<(&str, &str)> = pack.files.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
    let traces = pack.traces_in(&task.traces);
    let bug_traces = pack.traces_in(&task.bug_traces);
    let input = TaskInput::from_folder(&files, &traces).with_system_graph(pack.graph.as_deref());
    let file = |p: &str| pack.files.get(p).map(String::as_str);
    let outcome = match ex.kind {
        ExerciseKind::WriteInvariant => {
            let module = &task.pinned.module;
            let reference_path = format!("reference/{module}.tla");
            let reference = file(&reference_path).ok_or("the task has no reference model")?;
            let reference_cfg = file(&format!("reference/{module}.cfg"));
            let bug_path = task.bug_model_path();
            let bugs: Vec<Subject<'_>> = file(&bug_path)
                .map(|text| Subject { name: &bug_path, text, cfg: file(&task.bug_cfg_path()), max_states: task.check.bug_max_states })
                .into_iter()
                .collect();
            if bugs.is_empty() {
                return Err("a write-invariant exercise needs the task's bug model (bug/<Module>.tla)".into());
            }
            let subject = Subject { name: &reference_path, text: reference, cfg: reference_cfg, max_states: None };
            exercise::judge_property(&ex, &input, answer, &subject, &bugs)
        }
        _ => {
            if ex.kind == ExerciseKind::FindBug && bug_traces.is_empty() {
                return Err("a find-bug exercise needs the task's bug traces (bug_traces in task.toml)".into());
            }
            let input = exercise::exercise_input(&ex, input, &bug_traces);
            let report = grade(&input, &ModelInput { name: answer_name, text: answer, cfg: None, mapping: None }, &|| false);
            exercise::judge_report(&ex, &report)
        }
    };
    Ok((ex, outcome))
}

pub fn run(args: &[String]) -> Result<ExitCode, String> {
    let mut json_out = false;
    let mut rest = vec![];
    for a in args {
        match a.as_str() {
            "--json" => json_out = true,
            x if x.starts_with("--") => return Err(format!("unknown option `{x}` for `sysmo exercise`")),
            x => rest.push(x.to_string()),
        }
    }
    let [task, id, answer] = rest.as_slice() else {
        return Err("`sysmo exercise` takes the task (folder or pack), the exercise's id and the answer's file".into());
    };
    let (pack, problems) = crate::task_check::open(Path::new(task)).map_err(|p| p.text())?;
    if let Some(p) = problems.first() {
        return Err(format!("the task does not read: {}", p.text()));
    }
    let text = std::fs::read_to_string(answer).map_err(|e| format!("cannot read {answer}: {e}"))?;
    let (ex, outcome) = judge(&pack, id, answer, &text)?;
    let hint = exercise::hint(&ex, &outcome);
    if json_out {
        println!(
            "{}",
            json!({ "exercise": ex.id, "kind": ex.kind.as_str(), "solved": outcome.solved, "why": outcome.why,
                    "killed": outcome.killed.map(|(k, t)| json!({ "killed": k, "of": t })), "short_stage": outcome.short_stage, "hint": hint })
        );
    } else {
        println!("{} ({}): {} — {}", ex.id, ex.kind.as_str(), if outcome.solved { "solved" } else { "not solved" }, outcome.why);
        if let Some(h) = hint {
            println!("hint: {h}");
        }
    }
    Ok(if outcome.solved { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
