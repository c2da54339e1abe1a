//! `sysmo exercise TASK ID ANSWER [--json]`: does an answer solve an exercise of a task (a
//! folder or a pack, `[[exercise]]` in its task.toml)? The answer is a model (`model`,
//! `fix-model`, `find-bug`) or TLA+ definitions (`write-invariant`); the judging is
//! `sysmo_grade::exercise`'s. Prints whether it is solved, why, and the next hint.

use serde_json::json;
use std::path::Path;
use std::process::ExitCode;
use sysmo_grade::exercise::{self, Outcome};
use sysmo_task_format::pack::Pack;
use sysmo_task_format::Exercise;

/// Judges `answer` (its text) on the exercise `id` of the task `pack`.
pub fn judge(pack: &Pack, id: &str, answer_name: &str, answer: &str) -> Result<(Exercise, Outcome), String> {
    judge_graded(pack, id, answer_name, answer).map(|j| (j.exercise, j.outcome))
}

/// [`judge`], with the answer's grade when it is a model.
pub fn judge_graded(pack: &Pack, id: &str, answer_name: &str, answer: &str) -> Result<exercise::Judged, String> {
    let toml = pack.task_toml()?;
    let files: Vec<(&str, &str)> = pack.files.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
    let traces = pack.traces_in(&toml.traces);
    let bug_traces = pack.traces_in(&toml.bug_traces);
    let task = exercise::ExerciseTask { toml: &toml, files: &files, traces: &traces, bug_traces: &bug_traces, graph: pack.graph.as_deref() };
    exercise::judge(&task, id, answer_name, answer, &|| false, &mut |_| {})
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
