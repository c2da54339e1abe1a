//! `cargo xtask corpus [DIR]`: the differential harness over a corpus of public TLA+ models.
//!
//! For each model of `DIR/index.tsv`: every `.tla` file of its folder must parse and check clean
//! (`sysmo parse --json`), then `sysmo check --json` runs on the model's root module and `.cfg`
//! (from `expected.json`) with a time limit and a `--max-states` safety net, and its answer is
//! compared with TLC's (`tlc_2_15_check` in `expected.json`) by [`compare_check`]: the same
//! result kind; for successes the same distinct states, states generated and depth; for
//! violations the same counterexample length and the same distinct states and states generated
//! when the run stopped. A model whose expected answer is a liveness
//! failure while our run reports its temporal properties as not checked counts as skipped
//! ("liveness not checked"), not as passed.
//!
//! `xtask/corpus-known.tsv` lists the models whose check stage does not give TLC's answer yet,
//! each with the reason. It is a ratchet: a listed model that still differs counts as "known",
//! neither passed nor failed; a listed model that now matches TLC fails the run until it is
//! taken off the list (except one listed only as too slow, which may finish in time on a quiet
//! machine); any unlisted difference fails. The parse stage is never excused.

use crate::runner::{run_jobs, run_process, Done, Job};
use crate::util::{build_sysmo, step};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long one `sysmo parse` process may run on one model before it counts as hung.
const PROCESS_TIMEOUT: Duration = Duration::from_secs(120);
/// How long one `sysmo check` may run on one model. The slowest models take about 90 s
/// (NanoMedium, 530,587 states) of the corpus, and 180 s (PaxosCommit, 1,321,761 states) and
/// 360 s (EWD998PCal) of the examples, with the test build's `sysmo` while the rest of the suite
/// runs beside them: the limit leaves room for a machine three times busier without letting a
/// hung run go on.
const CHECK_TIMEOUT: Duration = Duration::from_secs(1200);
/// Safety net for `sysmo check`: twice the largest distinct-state count of the corpus (~725k).
const MAX_STATES: u64 = 1_500_000;

/// What TLC found, from a model's `expected.json`.
#[derive(Clone, Debug, PartialEq)]
pub struct Expected {
    /// "success", "safety failure", "liveness failure", "deadlock", ...
    pub result: String,
    pub distinct_states: Option<u64>,
    pub states_generated: Option<u64>,
    pub counterexample_length: Option<u64>,
    pub depth: Option<u64>,
    /// The root module and configuration TLC ran.
    pub spec_module: Option<String>,
    pub cfg: Option<String>,
}

impl Expected {
    pub fn from_json(v: &Value) -> Option<Expected> {
        let tlc = v.get("tlc_2_15_check");
        let num = |key: &str, alt: &str| {
            tlc.and_then(|t| t.get(key)).and_then(Value::as_u64).or_else(|| v.get(alt).and_then(Value::as_u64))
        };
        let result = tlc
            .and_then(|t| t.get("result"))
            .or_else(|| v.get("result"))
            .and_then(Value::as_str)?
            .to_string();
        Some(Expected {
            result,
            distinct_states: num("distinct_states", "distinct_states"),
            states_generated: num("states_generated", "total_states_generated"),
            counterexample_length: tlc.and_then(|t| t.get("counterexample_length")).and_then(Value::as_u64),
            depth: num("depth", "depth"),
            spec_module: v.get("spec_module").and_then(Value::as_str).map(str::to_string),
            cfg: v.get("cfg").and_then(Value::as_str).map(str::to_string),
        })
    }

    pub fn short(&self) -> String {
        match (self.result.as_str(), self.distinct_states, self.counterexample_length) {
            ("success", Some(d), _) => format!("success {d} states"),
            (r, _, Some(n)) => format!("{r}, trace {n}"),
            (r, _, _) => r.to_string(),
        }
    }
}

/// The figures a model checker reports for one model, with its result in TLC's words.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckFigures {
    pub result: String,
    pub distinct_states: u64,
    pub states_generated: u64,
    pub counterexample_length: Option<u64>,
    pub depth: Option<u64>,
    /// Temporal properties of the .cfg that the run did not check.
    pub unchecked_properties: Vec<String>,
}

/// Our result kind (`sysmo check --json`'s "result") in TLC's words, as expected.json has them.
pub fn tlc_words(result: &str) -> String {
    match result {
        "success" => "success",
        "safety_violation" => "safety failure",
        "liveness_violation" => "liveness failure",
        "deadlock" => "deadlock",
        "assumption_violation" => "assumption failure",
        other => other,
    }
    .to_string()
}

impl CheckFigures {
    /// Read `sysmo check --json`'s report.
    pub fn from_report(v: &Value) -> Option<CheckFigures> {
        Some(CheckFigures {
            result: tlc_words(v.get("result")?.as_str()?),
            distinct_states: v.get("distinct_states")?.as_u64()?,
            states_generated: v.get("states_generated")?.as_u64()?,
            counterexample_length: v.get("counterexample_length").and_then(Value::as_u64),
            depth: v.get("depth").and_then(Value::as_u64),
            unchecked_properties: v
                .get("unchecked_properties")
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(|p| p.as_str().map(str::to_string)).collect())
                .unwrap_or_default(),
        })
    }

    pub fn short(&self) -> String {
        match (self.result.as_str(), self.counterexample_length) {
            ("success", _) => format!("success {} states", self.distinct_states),
            (r, Some(n)) => format!("{r}, trace {n}"),
            (r, None) => r.to_string(),
        }
    }
}

/// Compare a run with TLC's. On success the state counts (and depth) must match exactly. On a
/// violation the kind, the (BFS-minimal) counterexample length and the distinct states and
/// states generated when the run stopped must match: the explorer checks each successor in
/// TLC's order (one worker) and counts it when it looks at it, as TLC does, so it stops at the
/// same state with the same counts.
pub fn compare_check(expected: &Expected, got: &CheckFigures) -> Result<(), String> {
    if expected.result != got.result {
        return Err(format!("result {:?}, TLC: {:?}", got.result, expected.result));
    }
    if expected.result == "success" {
        if let Some(d) = expected.distinct_states.filter(|d| *d != got.distinct_states) {
            return Err(format!("{} distinct states, TLC: {d}", got.distinct_states));
        }
        if let Some(g) = expected.states_generated.filter(|g| *g != got.states_generated) {
            return Err(format!("{} states generated, TLC: {g}", got.states_generated));
        }
        if let (Some(d), Some(ours)) = (expected.depth, got.depth) {
            if d != ours {
                return Err(format!("depth {ours}, TLC: {d}"));
            }
        }
    } else {
        if let Some(n) = expected.counterexample_length {
            if got.counterexample_length != Some(n) {
                return Err(format!("counterexample length {:?}, TLC: {n}", got.counterexample_length));
            }
        }
        if let Some(d) = expected.distinct_states.filter(|d| *d != got.distinct_states) {
            return Err(format!("{} distinct states when stopped, TLC: {d}", got.distinct_states));
        }
        if let Some(g) = expected.states_generated.filter(|g| *g != got.states_generated) {
            return Err(format!("{} states generated when stopped, TLC: {g}", got.states_generated));
        }
    }
    Ok(())
}

/// One stage's outcome for one model.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    Pass,
    Fail(String),
    /// The stage does not exist yet (its command is not in `sysmo help`), or has nothing to
    /// compare with.
    NotRun,
    /// The answer needs a check the run did not do (liveness); counted apart.
    Skipped(String),
    /// Differs from TLC, as recorded in `xtask/corpus-known.tsv`; counted apart.
    Known(String),
}

#[derive(Debug)]
pub struct ModelRow {
    pub model: String,
    pub files: usize,
    pub parse: Outcome,
    pub check: Outcome,
    pub expected: Option<Expected>,
    pub ours: Option<CheckFigures>,
    pub first_diagnostic: String,
    pub check_seconds: f64,
}

impl ModelRow {
    pub fn passed(&self) -> bool {
        self.parse == Outcome::Pass && matches!(self.check, Outcome::Pass | Outcome::NotRun)
    }
    pub fn skipped(&self) -> bool {
        self.parse == Outcome::Pass && matches!(self.check, Outcome::Skipped(_) | Outcome::Known(_))
    }
}

/// Model names listed in `index.tsv` (column `name`).
pub fn read_index(dir: &Path) -> Result<Vec<String>, String> {
    let path = dir.join("index.tsv");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().ok_or("index.tsv is empty")?.split('\t').collect();
    let col = header.iter().position(|h| *h == "name").ok_or("index.tsv has no `name` column")?;
    Ok(lines
        .filter(|l| !l.trim().is_empty())
        .filter_map(|l| l.split('\t').nth(col).map(|s| s.trim().to_string()))
        .filter(|s| !s.is_empty())
        .collect())
}

/// Runs a command with a time limit; returns (exit code or None when killed, stdout, timed out).
fn run_with_timeout(cmd: &mut Command, limit: Duration) -> Result<(Option<i32>, String, bool), String> {
    let end = run_process(cmd, limit).map_err(|e| format!("cannot run sysmo: {e}"))?;
    Ok((end.code, end.stdout, end.timed_out))
}

fn tla_files(model_dir: &Path) -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(model_dir)
        .map(|rd| {
            rd.flatten()
                .filter_map(|e| e.file_name().to_str().map(str::to_string))
                .filter(|n| n.ends_with(".tla"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

fn truncate(s: &str, n: usize) -> String {
    let one_line = s.replace('\n', " ");
    if one_line.chars().count() <= n {
        one_line
    } else {
        format!("{}…", one_line.chars().take(n - 1).collect::<String>())
    }
}

/// The parse stage: `sysmo parse --json` on every .tla file of the folder, run in the folder.
fn parse_stage(sysmo: &Path, model_dir: &Path, files: &[String]) -> (Outcome, String) {
    if files.is_empty() {
        return (Outcome::Fail("no .tla files".into()), String::new());
    }
    let mut cmd = Command::new(sysmo);
    cmd.arg("parse").arg("--json").args(files).current_dir(model_dir);
    let (code, out, timed_out) = match run_with_timeout(&mut cmd, PROCESS_TIMEOUT) {
        Ok(r) => r,
        Err(e) => return (Outcome::Fail(e), String::new()),
    };
    if timed_out {
        return (Outcome::Fail(format!("timed out after {} s", PROCESS_TIMEOUT.as_secs())), String::new());
    }
    let reports: Vec<Value> = out.lines().filter_map(|l| serde_json::from_str(l).ok()).collect();
    if reports.len() != files.len() {
        return (
            Outcome::Fail(format!("{} reports for {} files (exit {code:?})", reports.len(), files.len())),
            String::new(),
        );
    }
    let all_ok = reports.iter().all(|r| r.get("ok").and_then(Value::as_bool) == Some(true));
    let first = reports
        .iter()
        .flat_map(|r| r.get("diagnostics").and_then(Value::as_array).cloned().unwrap_or_default())
        .find(|d| d.get("severity").and_then(Value::as_str) == Some("error"))
        .map(|d| {
            let g = |k: &str| d.get(k).map(|v| v.as_str().map(str::to_string).unwrap_or(v.to_string())).unwrap_or_default();
            format!("{}:{}:{} {} {}", g("file"), g("line"), g("column"), g("code"), g("message"))
        })
        .unwrap_or_default();
    match (code, all_ok) {
        (Some(0), true) => (Outcome::Pass, first),
        (Some(150), false) => (Outcome::Fail("errors".into()), first),
        (c, ok) => (Outcome::Fail(format!("exit {c:?} with ok={ok}")), first),
    }
}

/// The check stage: `sysmo check --json` on the model's root module and .cfg, run in its folder,
/// compared with TLC's figures.
fn check_stage(
    sysmo: &Path,
    sysmo_commands: &[String],
    model_dir: &Path,
    expected: Option<&Expected>,
) -> (Outcome, Option<CheckFigures>) {
    if !sysmo_commands.iter().any(|c| c == "check") {
        return (Outcome::NotRun, None);
    }
    let Some(expected) = expected else {
        return (Outcome::Fail("no expected.json with TLC's result".into()), None);
    };
    let (Some(module), Some(cfg)) = (&expected.spec_module, &expected.cfg) else {
        return (Outcome::Fail("expected.json names no spec_module or cfg".into()), None);
    };
    let mut cmd = Command::new(sysmo);
    cmd.arg("check")
        .arg(format!("{module}.tla"))
        .args(["--config", cfg, "--json", "--max-states", &MAX_STATES.to_string()])
        .current_dir(model_dir);
    let (code, out, timed_out) = match run_with_timeout(&mut cmd, CHECK_TIMEOUT) {
        Ok(r) => r,
        Err(e) => return (Outcome::Fail(e), None),
    };
    if timed_out {
        return (Outcome::Fail(format!("timed out after {} s", CHECK_TIMEOUT.as_secs())), None);
    }
    let report = out.lines().rev().find_map(|l| serde_json::from_str::<Value>(l).ok());
    let Some(report) = report else {
        return (Outcome::Fail(format!("no JSON report (exit {code:?})")), None);
    };
    let Some(got) = CheckFigures::from_report(&report) else {
        return (Outcome::Fail(format!("unreadable report (exit {code:?})")), None);
    };
    (verdict(expected, &got, &report), Some(got))
}

/// Pass, fail, or skipped when the answer needs liveness and the run did not check it.
fn verdict(expected: &Expected, got: &CheckFigures, report: &Value) -> Outcome {
    match compare_check(expected, got) {
        Ok(()) => Outcome::Pass,
        Err(_) if expected.result == "liveness failure" && got.result == "success" && !got.unchecked_properties.is_empty() => {
            Outcome::Skipped("liveness not checked".into())
        }
        Err(why) => {
            let msg = report.get("message").and_then(Value::as_str).filter(|_| got.result != expected.result);
            Outcome::Fail(match msg {
                Some(m) => format!("{why}: {m}"),
                None => why,
            })
        }
    }
}

/// Commands `sysmo help` lists (lines of the form `  sysmo <command> ...`).
fn sysmo_commands(sysmo: &Path) -> Vec<String> {
    let out = Command::new(sysmo).arg("help").stdin(Stdio::null()).output();
    let text = out.map(|o| String::from_utf8_lossy(&o.stdout).into_owned()).unwrap_or_default();
    text.lines()
        .filter_map(|l| l.trim().strip_prefix("sysmo "))
        .filter_map(|rest| rest.split_whitespace().next())
        .filter(|c| !c.starts_with('-'))
        .map(str::to_string)
        .collect()
}

/// The file of known differences, relative to the repository root.
pub const KNOWN_FILE: &str = "xtask/corpus-known.tsv";

/// The file of known differences of the models folder `dir`: [`KNOWN_FILE`] for the corpus,
/// `xtask/NAME-known.tsv` for a folder named NAME (`../shared/examples`: examples-known.tsv).
pub fn known_file(dir: &Path) -> String {
    match dir.file_name().and_then(|n| n.to_str()) {
        Some(name) if name != "corpus" => format!("xtask/{name}-known.tsv"),
        _ => KNOWN_FILE.to_string(),
    }
}

/// `model<TAB>reason` lines; `#` starts a comment.
pub fn read_known(text: &str) -> Vec<(String, String)> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| match l.split_once('\t') {
            Some((m, r)) => (m.trim().to_string(), r.trim().to_string()),
            None => (l.to_string(), String::new()),
        })
        .collect()
}

/// Apply the list of known differences to a check-stage outcome.
pub fn apply_known(check: Outcome, known: Option<&str>) -> Outcome {
    match (check, known) {
        (Outcome::Fail(why), Some(reason)) => Outcome::Known(format!("{reason}; now: {why}")),
        (Outcome::Skipped(why), Some(reason)) => Outcome::Known(format!("{reason}; now: {why}")),
        // A model listed only as too slow may finish in time on a quiet machine: a pass is a
        // pass then (a timing must not decide the run). Any other listed model that matches
        // fails the run until it is taken off the list.
        (Outcome::Pass, Some(reason)) if reason.starts_with("too slow") => Outcome::Pass,
        (Outcome::Pass, Some(_)) => {
            Outcome::Fail("matches TLC now: take it off the list of known differences".to_string())
        }
        (o, _) => o,
    }
}

/// The rows of a corpus run, filled in by its jobs as they end (with their place in the index).
pub type Rows = Arc<Mutex<Vec<(usize, ModelRow)>>>;

/// A corpus run ready to go: the models, the `sysmo` that checks them, the known differences.
pub struct Plan {
    /// The suite its jobs belong to: "corpus" or "examples".
    suite: &'static str,
    known_file: String,
    dir: PathBuf,
    models: Vec<String>,
    known: Vec<(String, String)>,
    /// Models whose check stage is left out (by `cargo xtask test`: see [`SLOW_SUFFIX`]), with
    /// the reason.
    slow: Vec<(String, String)>,
    sysmo: PathBuf,
    commands: Vec<String>,
}

/// `xtask/NAME-slow.tsv` (`corpus-slow.tsv`, `examples-slow.tsv`) lists the models of a folder
/// whose check takes minutes of the suite's 25: `cargo xtask test` parses them and reports
/// their check as skipped, with the reason; `cargo xtask corpus` checks them. Format:
/// model<TAB>reason, as the known differences.
pub const SLOW_SUFFIX: &str = "-slow.tsv";

/// The corpus run's verdict: its table (as printed) and its counts.
pub struct Report {
    pub table: String,
    pub passed: usize,
    pub failed: usize,
}

/// Reads the corpus index and the known differences, and asks `sysmo` what it can do.
pub fn plan(root: &Path, dir: &Path, sysmo: &Path, skip_slow: bool) -> Result<Plan, String> {
    let models = read_index(dir)?;
    let known_file = known_file(dir);
    let known = read_known(&std::fs::read_to_string(root.join(&known_file)).unwrap_or_default());
    let slow_file = known_file.replace("-known.tsv", SLOW_SUFFIX);
    let slow = read_known(&std::fs::read_to_string(root.join(&slow_file)).unwrap_or_default());
    for (file, list) in [(&known_file, &known), (&slow_file, &slow)] {
        for (m, _) in list {
            if !models.contains(m) {
                return Err(format!("{file} names `{m}`, which is not in the index of {}", dir.display()));
            }
        }
    }
    let slow = if skip_slow { slow } else { vec![] };
    let suite = if known_file == KNOWN_FILE { "corpus" } else { "examples" };
    Ok(Plan { suite, known_file, dir: dir.to_path_buf(), models, known, slow, sysmo: sysmo.to_path_buf(), commands: sysmo_commands(sysmo) })
}

impl Plan {
    /// One job per model: its parse stage, then its check stage compared with TLC's. The
    /// largest models (TLC's states generated) come first, so that two workers end together.
    pub fn jobs(&self, rows: &Rows) -> Vec<Job> {
        self.sized_jobs(rows).into_iter().map(|(_, j)| j).collect()
    }

    /// [`Plan::jobs`], each with its size (TLC's states generated), largest first: jobs of
    /// several plans are merged by it.
    pub fn sized_jobs(&self, rows: &Rows) -> Vec<(u64, Job)> {
        let mut jobs = vec![];
        let mut order: Vec<(usize, &String, Option<Expected>)> = self
            .models
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let expected = std::fs::read_to_string(self.dir.join(m).join("expected.json"))
                    .ok()
                    .and_then(|t| serde_json::from_str::<Value>(&t).ok())
                    .and_then(|v| Expected::from_json(&v));
                (i, m, expected)
            })
            .collect();
        order.sort_by_key(|(_, _, e)| std::cmp::Reverse(e.as_ref().and_then(|e| e.states_generated).unwrap_or(0)));
        for (i, model, expected) in order {
            let slow = self.slow.iter().find(|(m, _)| m == model).map(|(_, r)| r.clone());
            // A model whose check is skipped is only parsed: quick.
            let size = if slow.is_some() { 0 } else { expected.as_ref().and_then(|e| e.states_generated).unwrap_or(0) };
            let (model, rows) = (model.clone(), rows.clone());
            let (sysmo, commands, model_dir) = (self.sysmo.clone(), self.commands.clone(), self.dir.join(&model));
            let known = self.known.iter().find(|(m, _)| *m == model).map(|(_, r)| r.clone());
            jobs.push((size, Job {
                suite: self.suite,
                name: format!("{} {model}", self.suite),
                work: Box::new(move || {
                    let files = tla_files(&model_dir);
                    let (parse, first_diagnostic) = parse_stage(&sysmo, &model_dir, &files);
                    let t = Instant::now();
                    let (check, ours) = if let (Outcome::Pass, Some(why)) = (&parse, &slow) {
                        (Outcome::Skipped(format!("not checked by `cargo xtask test` ({why}); `cargo xtask corpus` checks it")), None)
                    } else if parse == Outcome::Pass {
                        check_stage(&sysmo, &commands, &model_dir, expected.as_ref())
                    } else {
                        (Outcome::NotRun, None)
                    };
                    let check_seconds = t.elapsed().as_secs_f64();
                    let check = apply_known(check, known.as_deref());
                    let row = ModelRow { model, files: files.len(), parse, check, expected, ours, first_diagnostic, check_seconds };
                    let done = Done {
                        ok: row.passed() || row.skipped(),
                        line: if row.parse == Outcome::Pass { outcome_text(&row.check) } else { format!("parse {}", outcome_text(&row.parse)) },
                        output: String::new(),
                    };
                    rows.lock().unwrap_or_else(|e| e.into_inner()).push((i, row));
                    done
                }),
            }));
        }
        jobs
    }

    /// The table of the rows, in the index's order, with the counts.
    pub fn report(&self, rows: &Rows) -> Report {
        let mut rows = std::mem::take(&mut *rows.lock().unwrap_or_else(|e| e.into_inner()));
        rows.sort_by_key(|(i, _)| *i);
        let rows: Vec<ModelRow> = rows.into_iter().map(|(_, r)| r).collect();
        let mut table = table_text(&rows);
        let passed = rows.iter().filter(|r| r.passed()).count();
        let skipped = rows.iter().filter(|r| r.skipped()).count();
        let failed = self.models.len() - passed - skipped;
        let total: f64 = rows.iter().map(|r| r.check_seconds).sum();
        table.push_str(&format!("corpus: model checking took {total:.1} s in all ({} models)\n", rows.len()));
        let known_count = rows.iter().filter(|r| r.parse == Outcome::Pass && matches!(r.check, Outcome::Known(_))).count();
        if known_count > 0 {
            table.push_str(&format!("{known_count} model(s) differ from TLC as recorded in {} (counted as skipped)\n", self.known_file));
        }
        if skipped > known_count {
            table.push_str(&format!(
                "{} model(s) skipped: their expected answer needs liveness, which this run did not check\n",
                skipped - known_count
            ));
        }
        table.push_str(&format!("corpus: {passed} passed, {failed} failed, {skipped} skipped\n"));
        Report { table, passed, failed }
    }
}

/// Every model of `dir` with `sysmo` (the one the test build makes), on two workers.
pub fn run_corpus(root: &Path, dir: &Path) -> Result<(usize, usize), String> {
    let sysmo = build_sysmo(root)?;
    let plan = plan(root, dir, &sysmo, false)?;
    step(&format!("corpus {}: {} models", dir.display(), plan.models.len()));
    let rows = Rows::default();
    run_jobs(plan.jobs(&rows), 2, &|f| step(&format!("{}: {} in {:.1} s", f.name, f.done.line, f.secs)));
    let report = plan.report(&rows);
    print!("{}", report.table);
    Ok((report.passed, report.failed))
}

fn outcome_text(o: &Outcome) -> String {
    match o {
        Outcome::Pass => "ok".into(),
        Outcome::Fail(why) => format!("FAIL ({})", truncate(why, 30)),
        Outcome::NotRun => "not run".into(),
        Outcome::Skipped(why) => format!("skipped ({why})"),
        Outcome::Known(why) => format!("known ({why})"),
    }
}

fn table_text(rows: &[ModelRow]) -> String {
    let w = rows.iter().map(|r| r.model.len()).max().unwrap_or(5).max(5);
    let mut out = format!(
        "{:<w$}  {:>5}  {:<28}  {:<28}  {:<44}  {:>7}  first diagnostic\n",
        "model", "files", "expected (TLC)", "ours", "verdict", "time s"
    );
    for r in rows {
        let verdict = if r.parse != Outcome::Pass {
            format!("parse {}", outcome_text(&r.parse))
        } else {
            outcome_text(&r.check)
        };
        out.push_str(&format!(
            "{:<w$}  {:>5}  {:<28}  {:<28}  {:<44}  {:>7.1}  {}\n",
            r.model,
            r.files,
            r.expected.as_ref().map(Expected::short).unwrap_or_else(|| "-".into()),
            r.ours.as_ref().map(CheckFigures::short).unwrap_or_else(|| "-".into()),
            truncate(&verdict, 44),
            r.check_seconds,
            truncate(&r.first_diagnostic, 90),
        ));
    }
    out
}

pub fn corpus_command(root: &Path, dir: Option<&str>) -> Result<bool, String> {
    let dir: PathBuf = match dir {
        Some(d) => PathBuf::from(d),
        None => default_corpus_dir(root),
    };
    if !dir.join("index.tsv").exists() {
        return Err(format!("{} has no index.tsv", dir.display()));
    }
    let (_, failed) = run_corpus(root, &dir)?;
    Ok(failed == 0)
}

/// `../shared/corpus` relative to the repository root.
pub fn default_corpus_dir(root: &Path) -> PathBuf {
    root.join("../shared/corpus")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exp(result: &str, d: Option<u64>, g: Option<u64>, n: Option<u64>) -> Expected {
        Expected {
            result: result.into(),
            distinct_states: d,
            states_generated: g,
            counterexample_length: n,
            depth: None,
            spec_module: None,
            cfg: None,
        }
    }

    #[test]
    fn expected_prefers_tlc_check_figures() {
        let v: Value = serde_json::from_str(
            r#"{"result":"safety failure","distinct_states":null,
                "tlc_2_15_check":{"result":"safety failure","distinct_states":14,
                "states_generated":73,"counterexample_length":7}}"#,
        )
        .unwrap();
        assert_eq!(Expected::from_json(&v), Some(exp("safety failure", Some(14), Some(73), Some(7))));
        let v: Value = serde_json::from_str(r#"{"result":"success","distinct_states":12,"total_states_generated":24}"#).unwrap();
        assert_eq!(Expected::from_json(&v), Some(exp("success", Some(12), Some(24), None)));
        assert_eq!(Expected::from_json(&serde_json::json!({})), None);
    }

    #[test]
    fn compare_counts_on_success_and_length_and_counts_on_violation() {
        let ok = exp("success", Some(12), Some(24), None);
        let f = |r: &str, d, g, n| CheckFigures {
            result: r.into(),
            distinct_states: d,
            states_generated: g,
            counterexample_length: n,
            depth: None,
            unchecked_properties: vec![],
        };
        assert!(compare_check(&ok, &f("success", 12, 24, None)).is_ok());
        assert!(compare_check(&ok, &f("success", 12, 25, None)).unwrap_err().contains("generated"));
        assert!(compare_check(&ok, &f("deadlock", 12, 24, Some(3))).is_err());
        let bad = exp("safety failure", Some(14), Some(73), Some(7));
        assert!(compare_check(&bad, &f("safety failure", 14, 73, Some(7))).is_ok());
        // At a stop, the states generated by then must be TLC's too.
        assert!(compare_check(&bad, &f("safety failure", 14, 75, Some(7))).unwrap_err().contains("generated"));
        assert!(compare_check(&bad, &f("safety failure", 20, 73, Some(7))).unwrap_err().contains("distinct"));
        assert!(compare_check(&bad, &f("safety failure", 14, 73, Some(8))).is_err());
        // Without TLC's figure for the stop, the length alone decides.
        assert!(compare_check(&exp("safety failure", None, None, Some(7)), &f("safety failure", 20, 99, Some(7))).is_ok());
    }

    #[test]
    fn index_reads_the_name_column() {
        let dir = std::env::temp_dir().join(format!("xtask-corpus-index-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("index.tsv"), "split\tname\tresult\ndev\tA\tsuccess\n\ntest\tB\tdeadlock\n").unwrap();
        assert_eq!(read_index(&dir).unwrap(), vec!["A".to_string(), "B".to_string()]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn row_passes_only_when_parse_passes_and_check_does_not_fail() {
        let row = |parse, check| ModelRow {
            model: "M".into(),
            files: 1,
            parse,
            check,
            expected: None,
            ours: None,
            first_diagnostic: String::new(),
            check_seconds: 0.0,
        };
        assert!(row(Outcome::Pass, Outcome::NotRun).passed());
        assert!(row(Outcome::Pass, Outcome::Pass).passed());
        assert!(!row(Outcome::Pass, Outcome::Fail("x".into())).passed());
        assert!(!row(Outcome::Fail("x".into()), Outcome::NotRun).passed());
        let skipped = row(Outcome::Pass, Outcome::Skipped("liveness not checked".into()));
        assert!(!skipped.passed() && skipped.skipped());
    }

    #[test]
    fn reads_our_report_in_tlc_words_and_compares_depth() {
        let v = serde_json::json!({"result": "safety_violation", "distinct_states": 14, "states_generated": 73,
            "depth": 7, "counterexample_length": 7});
        let got = CheckFigures::from_report(&v).unwrap();
        assert_eq!(got.result, "safety failure");
        assert!(compare_check(&exp("safety failure", None, None, Some(7)), &got).is_ok());
        let v = serde_json::json!({"result": "success", "distinct_states": 12, "states_generated": 24, "depth": 2});
        let got = CheckFigures::from_report(&v).unwrap();
        let mut e = exp("success", Some(12), Some(24), None);
        e.depth = Some(1);
        assert!(compare_check(&e, &got).unwrap_err().contains("depth"));
        assert!(CheckFigures::from_report(&serde_json::json!({"result": "success"})).is_none());
    }

    #[test]
    fn known_differences_ratchet() {
        let known = read_known("# comment\nA\tslow\nB\n");
        assert_eq!(known, vec![("A".to_string(), "slow".to_string()), ("B".to_string(), String::new())]);
        assert!(matches!(apply_known(Outcome::Fail("x".into()), Some("slow")), Outcome::Known(_)));
        assert!(matches!(apply_known(Outcome::Pass, Some("slow")), Outcome::Fail(_)));
        assert_eq!(apply_known(Outcome::Pass, Some("too slow (over 120 s)")), Outcome::Pass);
        assert!(matches!(apply_known(Outcome::Fail("timed out".into()), Some("too slow")), Outcome::Known(_)));
        assert!(matches!(apply_known(Outcome::Fail("x".into()), None), Outcome::Fail(_)));
        assert_eq!(apply_known(Outcome::Pass, None), Outcome::Pass);
    }

    #[test]
    fn liveness_failure_unchecked_is_skipped_not_passed() {
        let e = exp("liveness failure", Some(216), Some(696), Some(4));
        let report = serde_json::json!({"result": "success", "distinct_states": 216, "states_generated": 696,
            "unchecked_properties": ["Live"]});
        let got = CheckFigures::from_report(&report).unwrap();
        assert_eq!(verdict(&e, &got, &report), Outcome::Skipped("liveness not checked".into()));
        let report = serde_json::json!({"result": "success", "distinct_states": 216, "states_generated": 696});
        let got = CheckFigures::from_report(&report).unwrap();
        assert!(matches!(verdict(&e, &got, &report), Outcome::Fail(_)));
    }
}
