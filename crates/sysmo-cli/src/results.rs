//! `sysmo grade --results FILE... [--pack PACK.sysmo]... [--csv OUT]`: grades again the
//! results files students export from the web app ("Export results": each task's best attempt
//! per exercise, `sysmo-results/1`), and writes one CSV row per attempt. Nothing a file claims
//! is trusted: each model is graded (or judged on its exercise) here, and the row says whether
//! the claim holds. A task opened from a pack is found in the packs given with `--pack` (packs
//! or courses, by the pack's content hash), else among the built-in tasks.

use serde_json::Value;
use std::path::PathBuf;
use std::process::ExitCode;
use sysmo_grade::{grade, ModelInput, TaskInput};
use sysmo_task_format::pack::Pack;

/// One row of the CSV: what the file claims and what grading gives.
struct Row {
    file: String,
    task: String,
    exercise: String,
    hints: u64,
    claimed_overall: Option<f64>,
    claimed_solved: Option<bool>,
    overall: Option<f64>,
    combined: Option<f64>,
    solved: Option<bool>,
    error: String,
}

fn opt<T: ToString>(x: Option<T>) -> String {
    x.map(|v| v.to_string()).unwrap_or_default()
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.to_string() }
}

impl Row {
    fn matches(&self) -> bool {
        self.error.is_empty()
            && self.claimed_solved == self.solved
            && match (self.claimed_overall, self.overall) {
                (Some(a), Some(b)) => (a - b).abs() < 1e-9,
                (a, b) => a.is_none() == b.is_none(),
            }
    }

    fn csv(&self) -> String {
        [
            csv_field(&self.file),
            csv_field(&self.task),
            csv_field(&self.exercise),
            self.hints.to_string(),
            opt(self.claimed_overall),
            opt(self.claimed_solved),
            opt(self.overall),
            opt(self.combined),
            opt(self.solved),
            self.matches().to_string(),
            csv_field(&self.error),
        ]
        .join(",")
    }
}

const HEADER: &str = "file,task,exercise,hints,claimed_overall,claimed_solved,overall,combined,solved,claim_holds,error";

/// A pack given with `--pack` (alone or in a course), with its content hash.
struct Given {
    hash: String,
    pack: Pack,
}

/// The task of an attempt: a pack given (by hash), or a built-in task.
fn task_pack(task: &str, hash: Option<&str>, packs: &[Given]) -> Result<Pack, String> {
    if let Some(h) = hash {
        // A course carries built-in tasks as they are; their attempts name no pack.
        return packs.iter().find(|g| g.hash == h).map(|g| g.pack.clone()).ok_or_else(|| format!("the attempt is on the task pack {h}: give it with --pack"));
    }
    sysmo_tasks::task(task).map(|t| t.to_pack()).ok_or_else(|| format!("no task `{task}`"))
}

fn regrade(file: &str, a: &Value, packs: &[Given]) -> Row {
    let mut row = Row {
        file: file.to_string(),
        task: a["task"].as_str().unwrap_or("").to_string(),
        exercise: a["exercise"].as_str().unwrap_or("").to_string(),
        hints: a["hints"].as_u64().unwrap_or(0),
        claimed_overall: a["overall"].as_f64(),
        claimed_solved: a["solved"].as_bool(),
        overall: None,
        combined: None,
        solved: None,
        error: String::new(),
    };
    let Some(model) = a["model"].as_str() else {
        row.error = "the attempt has no model".into();
        return row;
    };
    let pack = match task_pack(&row.task, a["pack"].as_str(), packs) {
        Ok(p) => p,
        Err(e) => {
            row.error = e;
            return row;
        }
    };
    if row.exercise.is_empty() {
        let toml = match pack.task_toml() {
            Ok(t) => t,
            Err(e) => {
                row.error = e;
                return row;
            }
        };
        let files: Vec<(&str, &str)> = pack.files.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
        let traces = pack.traces_in(&toml.traces);
        let input = TaskInput::from_folder(&files, &traces).with_system_graph(pack.graph.as_deref());
        let r = grade(&input, &ModelInput { name: "attempt.tla", text: model, cfg: None, mapping: None }, &|| false);
        row.overall = Some(r.overall);
        row.combined = r.combined;
        return row;
    }
    match judge_exercise(&pack, &row.exercise, model) {
        Ok((solved, overall, combined)) => {
            row.solved = Some(solved);
            row.overall = overall;
            row.combined = combined;
        }
        Err(e) => row.error = e,
    }
    row
}

/// An answer to an exercise judged once: whether it solves it, and its grade's scores (a
/// property answer has none), as the page records them.
fn judge_exercise(pack: &Pack, id: &str, model: &str) -> Result<(bool, Option<f64>, Option<f64>), String> {
    let j = crate::exercise::judge_graded(pack, id, "attempt.tla", model)?;
    Ok((j.outcome.solved, j.report.as_ref().map(|r| r.overall), j.report.as_ref().and_then(|r| r.combined)))
}

pub fn run(args: &[String]) -> Result<ExitCode, String> {
    let (mut files, mut packs, mut csv) = (vec![], vec![], None::<PathBuf>);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--results" => {}
            "--pack" => {
                let p = it.next().ok_or("--pack needs a .sysmo file")?;
                let bytes = std::fs::read(p).map_err(|e| format!("cannot read {p}: {e}"))?;
                let course = sysmo_task_format::course::Course::from_bytes(&bytes).map_err(|e| format!("{p}: {e}"))?;
                packs.extend(course.packs.into_iter().map(|pack| Given { hash: pack.content_hash(), pack }));
            }
            "--csv" => csv = Some(it.next().ok_or("--csv needs a file")?.into()),
            x if x.starts_with("--") => return Err(format!("unknown option `{x}` for `sysmo grade --results`")),
            x => files.push(x.to_string()),
        }
    }
    if files.is_empty() {
        return Err("`sysmo grade --results` needs the results files students exported".into());
    }
    let mut rows = vec![];
    for f in &files {
        let text = std::fs::read_to_string(f).map_err(|e| format!("cannot read {f}: {e}"))?;
        let v: Value = serde_json::from_str(&text).map_err(|e| format!("{f}: not a results file: {e}"))?;
        if v["format"] != "sysmo-results/1" {
            return Err(format!("{f}: not a results file (format {}, expected sysmo-results/1)", v["format"]));
        }
        for a in v["attempts"].as_array().map(Vec::as_slice).unwrap_or(&[]) {
            rows.push(regrade(f, a, &packs));
        }
    }
    let text = std::iter::once(HEADER.to_string()).chain(rows.iter().map(Row::csv)).collect::<Vec<_>>().join("\n") + "\n";
    match csv {
        Some(p) => std::fs::write(&p, &text).map_err(|e| format!("cannot write {}: {e}", p.display()))?,
        None => print!("{text}"),
    }
    let held = rows.iter().filter(|r| r.matches()).count();
    eprintln!("{} attempt(s) graded again; {held} claim(s) hold", rows.len());
    Ok(ExitCode::SUCCESS)
}
