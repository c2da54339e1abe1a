//! Running many jobs on both cores: a queue of jobs (one test of a test binary, one corpus
//! model, ...) taken by a few workers. Each job returns whether it passed and a line that says
//! why; its wall time is recorded for the time table, and its output kept for the logs.

use std::collections::VecDeque;
use std::io::Read;
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// What a job found.
pub struct Done {
    pub ok: bool,
    /// One line: why it failed, or what it counted.
    pub line: String,
    /// Everything it printed (written to the suite's log; shown in full when it failed).
    pub output: String,
}

/// A job to run: its suite, its name, and the work.
pub struct Job {
    pub suite: &'static str,
    pub name: String,
    pub work: Box<dyn FnOnce() -> Done + Send>,
}

/// A job that ran, with its wall time.
pub struct Finished {
    pub suite: &'static str,
    pub name: String,
    pub done: Done,
    pub started: Instant,
    pub secs: f64,
}

/// Runs `jobs` in their order on `workers` threads; `on_done` sees each finished job as it ends
/// (from the worker's thread). Returns them all, in the order they finished.
pub fn run_jobs(jobs: Vec<Job>, workers: usize, on_done: &(dyn Fn(&Finished) + Sync)) -> Vec<Finished> {
    let queue = Mutex::new(jobs.into_iter().collect::<VecDeque<Job>>());
    let finished = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..workers.max(1) {
            s.spawn(|| loop {
                let Some(job) = queue.lock().unwrap_or_else(|e| e.into_inner()).pop_front() else { break };
                let started = Instant::now();
                let done = (job.work)();
                let f = Finished { suite: job.suite, name: job.name, done, started, secs: started.elapsed().as_secs_f64() };
                on_done(&f);
                finished.lock().unwrap_or_else(|e| e.into_inner()).push(f);
            });
        }
    });
    finished.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// How a process ended.
pub struct ProcessEnd {
    /// The exit code; None when it was killed (time limit) or died of a signal.
    pub code: Option<i32>,
    pub timed_out: bool,
    pub stdout: String,
    pub stderr: String,
}

impl ProcessEnd {
    pub fn success(&self) -> bool {
        self.code == Some(0)
    }
    /// stdout then stderr, as one text.
    pub fn output(&self) -> String {
        let mut s = self.stdout.clone();
        if !self.stderr.is_empty() {
            if !s.is_empty() && !s.ends_with('\n') {
                s.push('\n');
            }
            s.push_str(&self.stderr);
        }
        s
    }
}

/// Runs `cmd` to its end or until `limit` has passed (then kills it), keeping its output.
pub fn run_process(cmd: &mut Command, limit: Duration) -> Result<ProcessEnd, String> {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {:?}: {e}", cmd.get_program()))?;
    fn reader<R: Read + Send + 'static>(mut r: R) -> std::thread::JoinHandle<String> {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = r.read_to_end(&mut bytes);
            String::from_utf8_lossy(&bytes).into_owned()
        })
    }
    let out = reader(child.stdout.take().ok_or("no stdout")?);
    let err = reader(child.stderr.take().ok_or("no stderr")?);
    let start = Instant::now();
    let (code, timed_out) = loop {
        match child.try_wait().map_err(|e| e.to_string())? {
            Some(status) => break (status.code(), false),
            None if start.elapsed() > limit => {
                let _ = child.kill();
                let _ = child.wait();
                break (None, true);
            }
            None => std::thread::sleep(Duration::from_millis(5)),
        }
    };
    Ok(ProcessEnd { code, timed_out, stdout: out.join().unwrap_or_default(), stderr: err.join().unwrap_or_default() })
}

/// "12.3 s" under a minute, "4 min 05 s" above.
pub fn duration_text(secs: f64) -> String {
    if secs < 60.0 {
        format!("{secs:.1} s")
    } else {
        let s = secs.round() as u64;
        format!("{} min {:02} s", s / 60, s % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn every_job_runs_once_on_the_workers() {
        let calls = std::sync::Arc::new(AtomicUsize::new(0));
        let jobs: Vec<Job> = (0..20)
            .map(|i| {
                let calls = calls.clone();
                Job {
                    suite: "s",
                    name: format!("job {i}"),
                    work: Box::new(move || {
                        calls.fetch_add(1, Ordering::SeqCst);
                        Done { ok: i != 7, line: String::new(), output: String::new() }
                    }),
                }
            })
            .collect();
        let seen = AtomicUsize::new(0);
        let done = run_jobs(jobs, 3, &|_| {
            seen.fetch_add(1, Ordering::SeqCst);
        });
        assert_eq!(calls.load(Ordering::SeqCst), 20);
        assert_eq!(seen.load(Ordering::SeqCst), 20);
        let mut names: Vec<&str> = done.iter().map(|f| f.name.as_str()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), 20);
        assert_eq!(done.iter().filter(|f| !f.done.ok).map(|f| f.name.as_str()).collect::<Vec<_>>(), ["job 7"]);
    }

    #[test]
    fn a_process_past_its_limit_is_killed() {
        let end = run_process(Command::new("sleep").arg("5"), Duration::from_millis(100)).unwrap();
        assert!(end.timed_out && end.code.is_none() && !end.success());
        let end = run_process(Command::new("sh").args(["-c", "echo out; echo err >&2; exit 3"]), Duration::from_secs(10))
            .unwrap();
        assert_eq!((end.code, end.timed_out), (Some(3), false));
        assert_eq!(end.output(), "out\nerr\n");
    }

    #[test]
    fn durations_read_as_seconds_or_minutes() {
        assert_eq!(duration_text(12.34), "12.3 s");
        assert_eq!(duration_text(245.0), "4 min 05 s");
    }
}
