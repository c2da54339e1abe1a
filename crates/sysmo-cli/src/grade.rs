//! `sysmo grade --task ID MODEL.tla... [--config C.cfg] [--mapping M.json] [--json]
//! [--feedback] [--time-limit SECS] [--csv FILE]` and `sysmo grade DIR`: SysMoBench's four
//! stages and precision for one model or many (several at once, one per core, each in a child
//! process of its own: see `run_job_in_child`). `--feedback`
//! prints the repair text of one model's grade (`sysmo_grade::feedback`) instead of the table. The grading itself is `sysmo_grade::grade`;
//! this front end reads the files, keeps the clock (a per-model safety net and the `elapsed`
//! field) and prints.

use crate::EXIT_USAGE;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use sysmo_grade::{grade, ModelInput, Report, TaskInput};

#[derive(Debug, Clone, PartialEq)]
pub struct GradeArgs {
    pub task: Option<String>,
    /// Model files (with --task), or one directory of `<task-id>/.../*.tla`.
    pub inputs: Vec<PathBuf>,
    pub config: Option<PathBuf>,
    pub mapping: Option<PathBuf>,
    pub json: bool,
    /// Print the repair text instead of the report.
    pub feedback: bool,
    /// Wall-clock safety net per model, in seconds.
    pub time_limit: f64,
    pub csv: Option<PathBuf>,
}

/// Default wall-clock safety net per model: far above what any task's budget needs.
pub const DEFAULT_TIME_LIMIT: f64 = 600.0;

impl GradeArgs {
    pub fn from_args(args: &[String]) -> Result<GradeArgs, String> {
        let mut a = GradeArgs { task: None, inputs: vec![], config: None, mapping: None, json: false, feedback: false, time_limit: DEFAULT_TIME_LIMIT, csv: None };
        let mut it = args.iter();
        while let Some(s) = it.next() {
            let mut val = |name: &str| it.next().cloned().ok_or_else(|| format!("{name} needs a value"));
            match s.as_str() {
                "--task" => a.task = Some(val("--task")?),
                "--config" => a.config = Some(val("--config")?.into()),
                "--mapping" => a.mapping = Some(val("--mapping")?.into()),
                "--csv" => a.csv = Some(val("--csv")?.into()),
                "--time-limit" => {
                    let v = val("--time-limit")?;
                    a.time_limit = v.parse::<f64>().ok().filter(|x| *x > 0.0).ok_or_else(|| format!("--time-limit needs a positive number of seconds, not `{v}`"))?;
                }
                "--json" => a.json = true,
                "--feedback" => a.feedback = true,
                x if x.starts_with("--") => return Err(format!("unknown option `{x}` for `sysmo grade`")),
                x => a.inputs.push(x.into()),
            }
        }
        if a.inputs.is_empty() {
            return Err("`sysmo grade` needs MODEL.tla (with --task ID) or a directory of <task-id>/ folders".into());
        }
        if a.task.is_none() && (a.inputs.len() != 1 || a.config.is_some() || a.mapping.is_some()) {
            return Err("without --task, `sysmo grade` takes one directory (DIR/<task-id>/.../*.tla)".into());
        }
        if a.feedback && (a.inputs.len() != 1 || a.task.is_none() || a.json) {
            return Err("--feedback prints the repair text of one model graded with --task (not with --json)".into());
        }
        if a.inputs.len() > 1 && (a.config.is_some() || a.mapping.is_some()) {
            return Err("--config and --mapping apply to one model; several models use MODEL.cfg and mapping.json beside each".into());
        }
        Ok(a)
    }
}

/// One model to grade: its task, its files.
struct Job {
    task: &'static sysmo_tasks::TaskFiles,
    model: PathBuf,
    config: Option<PathBuf>,
    mapping: Option<PathBuf>,
}

fn all_tla(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            all_tla(&p, out);
        } else if p.extension().and_then(|e| e.to_str()) == Some("tla") {
            out.push(p);
        }
    }
}

fn find_task(id: &str) -> Result<&'static sysmo_tasks::TaskFiles, String> {
    sysmo_tasks::task(id).ok_or_else(|| {
        let ids: Vec<&str> = sysmo_tasks::tasks().iter().map(|t| t.id).collect();
        format!("no task `{id}` (tasks: {})", ids.join(", "))
    })
}

fn beside(model: &Path, name: &str) -> Option<PathBuf> {
    let p = model.with_file_name(name);
    p.is_file().then_some(p)
}

fn jobs(a: &GradeArgs) -> Result<Vec<Job>, String> {
    let mut out = vec![];
    if let Some(id) = &a.task {
        let task = find_task(id)?;
        for m in &a.inputs {
            if !m.is_file() {
                return Err(format!("cannot read {}", m.display()));
            }
            let config = a.config.clone().or_else(|| beside(m, &format!("{}.cfg", m.file_stem()?.to_str()?)));
            let mapping = a.mapping.clone().or_else(|| beside(m, "mapping.json"));
            out.push(Job { task, model: m.clone(), config, mapping });
        }
        return Ok(out);
    }
    let dir = &a.inputs[0];
    let rd = std::fs::read_dir(dir).map_err(|e| format!("cannot read the directory {}: {e}", dir.display()))?;
    let mut subs: Vec<PathBuf> = rd.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_dir()).collect();
    subs.sort();
    for sub in subs {
        let id = sub.file_name().and_then(|n| n.to_str()).unwrap_or("").to_string();
        let Some(task) = sysmo_tasks::task(&id) else {
            eprintln!("note: {} is not a task id; skipped", sub.display());
            continue;
        };
        let mut models = vec![];
        all_tla(&sub, &mut models);
        for m in models {
            let config = m.file_stem().and_then(|s| s.to_str()).and_then(|s| beside(&m, &format!("{s}.cfg")));
            let mapping = beside(&m, "mapping.json");
            out.push(Job { task, model: m, config, mapping });
        }
    }
    if out.is_empty() {
        return Err(format!("no <task-id>/.../*.tla model under {}", dir.display()));
    }
    Ok(out)
}

fn run_job(job: &Job, limit: Duration) -> Result<Report, String> {
    let read = |p: &Path| std::fs::read_to_string(p).map_err(|e| format!("cannot read {}: {e}", p.display()));
    let text = read(&job.model)?;
    let cfg = job.config.as_deref().map(read).transpose()?;
    let mapping = job.mapping.as_deref().map(read).transpose()?;
    let task = TaskInput::from_folder(job.task.files, job.task.traces).with_system_graph(job.task.system_graph());
    let name = job.model.display().to_string();
    let started = Instant::now();
    let should_stop = || started.elapsed() > limit;
    let mut r = grade(&task, &ModelInput { name: &name, text: &text, cfg: cfg.as_deref(), mapping: mapping.as_deref() }, &should_stop);
    r.elapsed = Some(BTreeMap::from([("total_seconds".to_string(), started.elapsed().as_secs_f64())]));
    Ok(r)
}

/// How long past its own time limit a child grading one model may run before it is killed:
/// the limit is checked between slices of work, so a child finishes soon after it.
const CHILD_GRACE: Duration = Duration::from_secs(60);

/// `run_job` in a child process (this binary, `grade --task ID MODEL --json`), so that whatever
/// ends one model's grading abnormally (a crash, a stack overflow, running out of memory)
/// becomes that model's error and the other models are graded: a release build aborts on a
/// panic, and a stack overflow ends any process. A child still running `CHILD_GRACE` after the
/// time limit is killed.
fn run_job_in_child(job: &Job, limit: Duration) -> Result<Report, String> {
    use std::process::{Command, Stdio};
    let exe = std::env::current_exe().map_err(|e| format!("cannot find the sysmo binary to grade with: {e}"))?;
    let mut cmd = Command::new(exe);
    cmd.args(["grade", "--json", "--time-limit", &limit.as_secs_f64().to_string(), "--task", job.task.id]).arg(&job.model);
    if let Some(c) = &job.config {
        cmd.arg("--config").arg(c);
    }
    if let Some(m) = &job.mapping {
        cmd.arg("--mapping").arg(m);
    }
    let mut child = cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().map_err(|e| format!("cannot start a grading process: {e}"))?;
    let out = drain(child.stdout.take());
    let err = drain(child.stderr.take());
    let started = Instant::now();
    let mut killed = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(st)) => break st,
            Ok(None) if started.elapsed() > limit + CHILD_GRACE && !killed => {
                let _ = child.kill();
                killed = true;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(format!("cannot wait for the grading process: {e}")),
        }
    };
    let stdout = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    if killed {
        return Err(format!("no report {} s after the time limit of {} s; the grading process was stopped", CHILD_GRACE.as_secs(), limit.as_secs_f64()));
    }
    if status.success() {
        return serde_json::from_str::<Report>(stdout.trim()).map_err(|e| format!("the grading process printed no report ({e})"));
    }
    // The child's own message: `error: ...` for a model it could not read, the panic message
    // of a crash.
    let said: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty() && !l.starts_with("note: run with")).collect();
    let said = said.iter().rev().take(3).rev().copied().collect::<Vec<_>>().join(" | ");
    if status.code() == Some(i32::from(EXIT_USAGE)) && !said.is_empty() {
        return Err(said.trim_start_matches("error: ").to_string());
    }
    let how = match status.code() {
        Some(c) => format!("exit code {c}"),
        None => {
            #[cfg(unix)]
            {
                use std::os::unix::process::ExitStatusExt;
                format!("signal {}", status.signal().unwrap_or(0))
            }
            #[cfg(not(unix))]
            {
                "no exit code".to_string()
            }
        }
    };
    Err(format!("the grader stopped unexpectedly ({how}){}", if said.is_empty() { String::new() } else { format!(": {said}") }))
}

/// A thread reading `pipe` to its end (so that a child never blocks on a full pipe).
fn drain<R: std::io::Read + Send + 'static>(pipe: Option<R>) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(mut p) = pipe {
            let _ = p.read_to_string(&mut s);
        }
        s
    })
}

/// `run_job` on a thread with room for deep evaluations (more stack than the main thread's).
fn run_job_on_big_stack(job: &Job, limit: Duration) -> Result<Report, String> {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(64 << 20)
            .spawn_scoped(s, || run_job(job, limit))
            .map_err(|e| e.to_string())
            .and_then(|h| h.join().map_err(|_| "the grader stopped unexpectedly".to_string())?)
    })
}

/// Mean scores per task and stage, as CSV (SysMoBench's leaderboard layout).
fn summary_csv(reports: &[Report]) -> String {
    let mut by_task: BTreeMap<&str, Vec<&Report>> = BTreeMap::new();
    for r in reports {
        by_task.entry(r.task.as_str()).or_default().push(r);
    }
    let mut s = String::from("task,models,syntax,runtime,conformance,invariants,precision,overall,combined\n");
    for (task, rs) in by_task {
        let n = rs.len() as f64;
        let mean = |f: &dyn Fn(&Report) -> f64| rs.iter().map(|r| f(r)).sum::<f64>() / n;
        // `combined` only when every report of the task has one (the task has a system graph).
        let combined = rs.iter().map(|r| r.combined).collect::<Option<Vec<f64>>>().map(|c| format!("{:.4}", c.iter().sum::<f64>() / n));
        s += &format!(
            "{task},{},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4},{}\n",
            rs.len(),
            mean(&|r| r.stages.syntax.score),
            mean(&|r| r.stages.runtime.score),
            mean(&|r| r.stages.conformance.score),
            mean(&|r| r.stages.invariants.score),
            mean(&|r| r.stages.precision.score),
            mean(&|r| r.overall),
            combined.unwrap_or_default()
        );
    }
    s
}

pub fn run(a: &GradeArgs) -> ExitCode {
    let jobs = match jobs(a) {
        Ok(j) => j,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let limit = Duration::from_secs_f64(a.time_limit);
    if jobs.len() == 1 {
        // One model, graded here: a child of a run over many models grades its model this way.
        return match run_job_on_big_stack(&jobs[0], limit) {
            Ok(r) => {
                if a.json {
                    println!("{}", r.to_json());
                } else if a.feedback {
                    let text = std::fs::read_to_string(&jobs[0].model).unwrap_or_default();
                    print!("{}", sysmo_grade::feedback(&r, &text, sysmo_grade::feedback::DEFAULT_LIMIT));
                } else {
                    print!("{}", r.to_text());
                }
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(EXIT_USAGE)
            }
        };
    }
    // Many models: one per core, results in input order.
    let workers = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1).min(jobs.len());
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Result<Report, String>>>> = Mutex::new((0..jobs.len()).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(job) = jobs.get(i) else { break };
                let r = run_job_in_child(job, limit);
                if let Ok(mut v) = results.lock() {
                    v[i] = Some(r);
                }
            });
        }
    });
    let results = results.into_inner().unwrap_or_default();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut reports = vec![];
    for (job, r) in jobs.iter().zip(results) {
        match r {
            Some(Ok(r)) => {
                let _ = writeln!(out, "{}", r.to_json());
                reports.push(r);
            }
            Some(Err(e)) => eprintln!("error: {}: {e}", job.model.display()),
            None => eprintln!("error: {}: not graded", job.model.display()),
        }
    }
    let csv = summary_csv(&reports);
    match &a.csv {
        Some(p) => {
            if let Err(e) = std::fs::write(p, &csv) {
                eprintln!("error: cannot write {}: {e}", p.display());
                return ExitCode::from(EXIT_USAGE);
            }
        }
        None => eprint!("{csv}"),
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn args() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let a = GradeArgs::from_args(&s(&["--task", "spin", "a.tla", "b.tla", "--json"])).unwrap();
        assert_eq!((a.task.as_deref(), a.inputs.len(), a.json), (Some("spin"), 2, true));
        assert!(GradeArgs::from_args(&s(&["--task", "spin"])).is_err());
        assert!(GradeArgs::from_args(&s(&["a", "b"])).is_err());
        assert!(GradeArgs::from_args(&s(&["--task", "spin", "a.tla", "b.tla", "--config", "c.cfg"])).is_err());
        assert!(GradeArgs::from_args(&s(&["--task", "spin", "a.tla", "--time-limit", "0"])).is_err());
        // --feedback: one model, with --task, not with --json.
        assert!(GradeArgs::from_args(&s(&["--task", "spin", "a.tla", "--feedback"])).unwrap().feedback);
        for bad in [&["--task", "spin", "a.tla", "b.tla", "--feedback"][..], &["--task", "spin", "a.tla", "--feedback", "--json"], &["dir", "--feedback"]] {
            assert!(GradeArgs::from_args(&s(bad)).unwrap_err().contains("--feedback"), "{bad:?}");
        }
        assert!(GradeArgs::from_args(&s(&["--task", "spin", "a.tla", "--bogus"])).is_err());
    }
}
