//! Trace recording for the task systems, and the facade that lets the same system source run on
//! `std` or under `shuttle`'s deterministic schedulers.
//!
//! A system calls [`Probe::step`] at the linearisation point of each observable step: right after
//! the atomic operation that decides the step, before the next synchronisation operation. Under
//! shuttle only one thread runs between two synchronisation operations, so the recorded step and
//! the atomic operation are indivisible, and the recorded state (a shadow of the system's
//! observable variables, updated by the step) is the state right after the step.
//!
//! Output is NDJSON (see `docs/trace-format.md`): a header line, an `init` line, one `step` line
//! per observed step. Keys of nested objects are written sorted, so equal traces are equal bytes.
//! A system that records its run first and writes it after gets the same lines from
//! [`trace_text`]; the distributed tasks' systems on the simulated network share their driver
//! ([`net`]). With the feature `testing`, `testing` holds the checks their tests share.

#![forbid(unsafe_code)]

pub mod net;
#[cfg(feature = "testing")]
pub mod testing;

use serde_json::{Map, Value};
use std::cell::Cell;
use std::sync::{Arc, Mutex};

/// `std` or `shuttle`: the synchronisation primitives and threads the systems use.
pub mod rt {
    #[cfg(feature = "shuttle")]
    pub use shuttle::{hint, sync, thread};
    #[cfg(not(feature = "shuttle"))]
    pub use std::{hint, sync, thread};

    /// Spawns a thread with a name; the name is the thread's identity in traces
    /// (a decimal number for thread `t`, or a role such as `producer`).
    pub fn spawn_named<F, T>(name: &str, f: F) -> thread::JoinHandle<T>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        thread::Builder::new()
            .name(name.to_string())
            .spawn(f)
            .expect("spawning a thread")
    }
}

/// Who performed a step: a numbered thread or a named role.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Actor {
    Thread(usize),
    Role(String),
}

impl Actor {
    /// The actor of the calling thread, from its name (`"2"` is thread 2).
    pub fn current() -> Actor {
        let me = rt::thread::current();
        match me.name() {
            Some(n) => match n.parse::<usize>() {
                Ok(i) => Actor::Thread(i),
                Err(_) => Actor::Role(n.to_string()),
            },
            None => Actor::Role("main".to_string()),
        }
    }

    /// The thread number; `usize::MAX` for a role (systems with roles do not index by thread).
    pub fn index(&self) -> usize {
        match self {
            Actor::Thread(i) => *i,
            Actor::Role(_) => usize::MAX,
        }
    }

    fn to_json(&self) -> Value {
        match self {
            Actor::Thread(i) => Value::from(*i as u64),
            Actor::Role(r) => Value::from(r.clone()),
        }
    }
}

/// The observable variables of a system, as the trace shows them.
pub trait Observed: Clone + Send + 'static {
    /// A JSON object whose keys are the task's pinned variable names.
    fn to_json(&self) -> Value;
}

/// Which shuttle scheduler produced a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scheduler {
    /// Uniformly random choice at every scheduling point.
    Random,
    /// Probabilistic concurrency testing with the given bug depth.
    Pct { depth: usize },
}

impl Scheduler {
    pub fn name(&self) -> &'static str {
        match self {
            Scheduler::Random => "random",
            Scheduler::Pct { .. } => "pct",
        }
    }
}

/// The first line of a trace.
#[derive(Clone, Debug)]
pub struct Header {
    pub task: String,
    /// Constants for the model, e.g. `{"Threads":[0,1,2]}`.
    pub constants: Value,
    pub seed: u64,
    pub scheduler: Scheduler,
    /// Repository-relative path of the system's source file.
    pub source_path: String,
    /// The text of that file (hashed into the header).
    pub source_text: &'static str,
    /// Name of the historical bug switched on, if any.
    pub bug: Option<String>,
}

/// FNV-1a, 64 bits: a stable fingerprint of a source text.
pub fn source_hash(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.as_bytes() {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// Writes a JSON value with object keys sorted, whatever map type serde_json was built with.
pub fn write_canonical(v: &Value, out: &mut String) {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            out.push('{');
            for (i, k) in keys.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::from(k.as_str()).to_string());
                out.push(':');
                write_canonical(&m[k.as_str()], out);
            }
            out.push('}');
        }
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(x, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// A line whose top-level keys come in the given order.
fn line(fields: &[(&str, &Value)]) -> String {
    let mut out = String::from("{");
    for (i, (k, v)) in fields.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&Value::from(*k).to_string());
        out.push(':');
        write_canonical(v, &mut out);
    }
    out.push('}');
    out
}

/// A trace's header line: its fields in the documented order, the optional `bug` last.
fn header_line(header: &Header) -> String {
    let hdr = line(&[
        ("kind", &Value::from("header")),
        ("task", &Value::from(header.task.clone())),
        ("version", &Value::from(1u64)),
        ("constants", &header.constants),
        ("seed", &Value::from(header.seed)),
        ("scheduler", &Value::from(header.scheduler.name())),
        ("source", &Value::from(format!("{}@{}", header.source_path, source_hash(header.source_text)))),
    ]);
    match &header.bug {
        // The optional `bug` field goes last, before the closing brace.
        Some(b) => format!("{},\"bug\":{}}}", &hdr[..hdr.len() - 1], Value::from(b.clone())),
        None => hdr,
    }
}

/// A trace's `step` line.
fn step_line(seq: u64, action: &str, actor: &Value, args: &Value, state: &Value) -> String {
    line(&[
        ("kind", &Value::from("step")),
        ("seq", &Value::from(seq)),
        ("action", &Value::from(action)),
        ("actor", actor),
        ("args", args),
        ("state", state),
    ])
}

/// One step of a trace written at once ([`trace_text`]): its action, actor, arguments and the
/// observed state after it.
#[derive(Clone, Debug)]
pub struct StepLine<'a> {
    pub action: &'a str,
    pub actor: Value,
    pub args: Value,
    pub state: Value,
}

/// A whole trace's text, for a system that records its run first and writes it after (the
/// distributed tasks): the header, the `init` line with the initial state, one line per step
/// (numbered from 1), each ending in a newline; the same lines a [`Recorder`] writes.
pub fn trace_text<'a>(header: &Header, init: &Value, steps: impl IntoIterator<Item = StepLine<'a>>) -> String {
    let mut s = header_line(header);
    s.push('\n');
    s.push_str(&line(&[("kind", &Value::from("init")), ("state", init)]));
    s.push('\n');
    for (n, st) in steps.into_iter().enumerate() {
        s.push_str(&step_line(n as u64 + 1, st.action, &st.actor, &st.args, &st.state));
        s.push('\n');
    }
    s
}

/// An integer constant of the `[check]` table of a task's task.toml (read with the one
/// task.toml schema): the constants a distributed task's runs use.
pub fn check_constant(task_toml: &str, name: &str) -> u64 {
    let task = sysmo_task_format::TaskToml::parse(task_toml).unwrap_or_else(|e| panic!("{e}"));
    let n = task.check_int(name).unwrap_or_else(|e| panic!("{e}"));
    u64::try_from(n).unwrap_or_else(|_| panic!("task.toml: [check].constants.{name} is negative"))
}

struct Inner<S> {
    state: S,
    seq: u64,
    lines: Vec<String>,
    last: Option<(String, usize)>,
}

/// Collects one run's trace.
pub struct Recorder<S> {
    inner: Arc<Mutex<Inner<S>>>,
}

impl<S> Clone for Recorder<S> {
    fn clone(&self) -> Self {
        Recorder { inner: Arc::clone(&self.inner) }
    }
}

impl<S: Observed> Recorder<S> {
    /// Starts a trace with its header and the `init` line.
    pub fn new(header: &Header, init: S) -> Self {
        let hdr = header_line(header);
        let init_line = line(&[("kind", &Value::from("init")), ("state", &init.to_json())]);
        Recorder {
            inner: Arc::new(Mutex::new(Inner { state: init, seq: 0, lines: vec![hdr, init_line], last: None })),
        }
    }

    fn record(&self, action: &str, actor: &Actor, extra: &[(&str, Value)], f: impl FnOnce(&mut S)) {
        let mut g = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        f(&mut g.state);
        g.seq += 1;
        g.last = Some((action.to_string(), actor.index()));
        let mut args = Map::new();
        if let Actor::Thread(i) = actor {
            args.insert("t".to_string(), Value::from(*i as u64));
        }
        for (k, v) in extra {
            args.insert((*k).to_string(), v.clone());
        }
        let l = step_line(g.seq, action, &actor.to_json(), &Value::Object(args), &g.state.to_json());
        g.lines.push(l);
    }

    /// The shadow state now.
    pub fn state(&self) -> S {
        self.inner.lock().unwrap_or_else(|p| p.into_inner()).state.clone()
    }

    /// Number of steps recorded so far.
    pub fn steps(&self) -> u64 {
        self.inner.lock().unwrap_or_else(|p| p.into_inner()).seq
    }

    /// The last step recorded: its action and its actor's thread number (see [`Actor::index`]).
    pub fn last_step(&self) -> Option<(String, usize)> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner()).last.clone()
    }

    /// The trace text: one line per record, each ending in a newline.
    pub fn text(&self) -> String {
        let g = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        let mut s = String::new();
        for l in &g.lines {
            s.push_str(l);
            s.push('\n');
        }
        s
    }
}

/// What a system holds to report its steps: nothing (plain use) or a recorder.
pub struct Probe<S> {
    rec: Option<Recorder<S>>,
}

impl<S> Clone for Probe<S> {
    fn clone(&self) -> Self {
        Probe { rec: self.rec.clone() }
    }
}

impl<S: Observed> Probe<S> {
    /// A probe that records nothing.
    pub const fn off() -> Self {
        Probe { rec: None }
    }

    /// A probe that records into `rec`.
    pub fn on(rec: &Recorder<S>) -> Self {
        Probe { rec: Some(rec.clone()) }
    }

    /// Records a step by the calling thread: `update` turns the shadow state into the state after
    /// the step; it receives the actor's thread number (see [`Actor::index`]).
    #[inline]
    pub fn step(&self, action: &str, update: impl FnOnce(&mut S, usize)) {
        self.step_with(action, &[], update)
    }

    /// Like [`Probe::step`], with arguments besides the thread (`{"n": 3}`).
    pub fn step_with(&self, action: &str, extra: &[(&str, Value)], update: impl FnOnce(&mut S, usize)) {
        if let Some(rec) = &self.rec {
            let actor = Actor::current();
            let t = actor.index();
            rec.record(action, &actor, extra, |s| update(s, t));
            if STEP_YIELDS.with(Cell::get) {
                rt::thread::yield_now();
            }
        }
    }
}

thread_local! {
    static STEP_YIELDS: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` with a scheduling point after every recorded step. Under shuttle a thread runs
/// from one synchronisation operation to the next, so a step with none after it (a thread's
/// local `tmp += 1`) is always followed at once by that thread's next step; on a machine,
/// another thread may run in between. The system graphs are built this way, so they hold
/// every interleaving of the observed steps, not only those at synchronisation points; the
/// traces are not (their bytes stay what they are). Shuttle runs a test's threads as
/// coroutines on the calling thread, so the setting is per calling thread.
pub fn with_step_yields<R>(f: impl FnOnce() -> R) -> R {
    STEP_YIELDS.with(|c| c.set(true));
    let r = f();
    STEP_YIELDS.with(|c| c.set(false));
    r
}

/// A trace cut after its first `steps` steps (the header and init lines kept).
pub fn truncate_steps(text: &str, steps: u64) -> String {
    let keep = 2 + usize::try_from(steps).unwrap_or(usize::MAX);
    let mut out = String::new();
    for l in text.lines().take(keep) {
        out.push_str(l);
        out.push('\n');
    }
    out
}

/// The step count at which the first thread of a run ran out of calls, for a system graph's
/// run: from then on an idle thread in the recorded state might still have calls to make in
/// another run but not in this one, so the run's steps after it are cut
/// ([`truncate_steps`]) and every state the graph counts as left had every thread able to act.
#[derive(Clone, Default)]
pub struct FirstDone(Arc<std::sync::atomic::AtomicU64>);

impl FirstDone {
    pub fn new() -> FirstDone {
        FirstDone(Arc::new(std::sync::atomic::AtomicU64::new(u64::MAX)))
    }

    /// The calling thread has made its last call; `steps` were recorded so far.
    pub fn done<S: Observed>(&self, rec: &Recorder<S>) {
        self.0.fetch_min(rec.steps(), std::sync::atomic::Ordering::SeqCst);
    }

    /// The run's trace up to the first thread's last step.
    pub fn cut(&self, text: &str) -> String {
        truncate_steps(text, self.0.load(std::sync::atomic::Ordering::SeqCst))
    }
}

/// The project's seeded generator, for the workloads that draw their calls at random: the same
/// seed, the same calls, on every machine.
pub use simnet::Rng;


/// Runs `f` once under the given shuttle scheduler and seed. Same scheduler, seed and code: same
/// interleaving.
#[cfg(feature = "shuttle")]
pub fn run_once<F>(scheduler: Scheduler, seed: u64, f: F)
where
    F: Fn() + Send + Sync + 'static,
{
    use shuttle::scheduler::{PctScheduler, RandomScheduler};
    let mut config = shuttle::Config::new();
    config.max_steps = shuttle::MaxSteps::FailAfter(200_000);
    match scheduler {
        Scheduler::Random => {
            let s = RandomScheduler::new_from_seed(seed, 1);
            shuttle::Runner::new(s, config).run(f);
        }
        Scheduler::Pct { depth } => {
            let s = PctScheduler::new_from_seed(seed, depth, 1);
            shuttle::Runner::new(s, config).run(f);
        }
    }
}

/// A map from thread number to a value, shown as a JSON object with decimal keys.
pub fn per_thread<T: Into<Value> + Clone>(v: &[T]) -> Value {
    let mut m = Map::new();
    for (i, x) in v.iter().enumerate() {
        m.insert(i.to_string(), x.clone().into());
    }
    Value::Object(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone)]
    struct S {
        x: u64,
    }
    impl Observed for S {
        fn to_json(&self) -> Value {
            serde_json::json!({"x": self.x, "a": [1, {"z": 1, "b": 2}]})
        }
    }

    #[test]
    fn canonical_json_sorts_nested_keys() {
        let mut out = String::new();
        write_canonical(&serde_json::json!({"b": 1, "a": {"d": 2, "c": 3}}), &mut out);
        assert_eq!(out, r#"{"a":{"c":3,"d":2},"b":1}"#);
    }

    #[test]
    fn hash_is_fnv1a() {
        // Published FNV-1a test vectors.
        assert_eq!(source_hash(""), "cbf29ce484222325");
        assert_eq!(source_hash("a"), "af63dc4c8601ec8c");
    }

    #[test]
    fn recorder_writes_header_init_and_steps() {
        let h = Header {
            task: "t".into(),
            constants: serde_json::json!({"N": 2}),
            seed: 7,
            scheduler: Scheduler::Pct { depth: 3 },
            source_path: "tasks/t/src/lib.rs".into(),
            source_text: "",
            bug: Some("b".into()),
        };
        let r = Recorder::new(&h, S { x: 0 });
        r.record("Inc", &Actor::Thread(1), &[("n", Value::from(2))], |s| s.x += 2);
        let text = r.text();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            r#"{"kind":"header","task":"t","version":1,"constants":{"N":2},"seed":7,"scheduler":"pct","source":"tasks/t/src/lib.rs@cbf29ce484222325","bug":"b"}"#
        );
        assert_eq!(lines[1], r#"{"kind":"init","state":{"a":[1,{"b":2,"z":1}],"x":0}}"#);
        assert_eq!(
            lines[2],
            r#"{"kind":"step","seq":1,"action":"Inc","actor":1,"args":{"n":2,"t":1},"state":{"a":[1,{"b":2,"z":1}],"x":2}}"#
        );
    }
}

/// One generated trace: `traces/<dir>/<name>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceFile {
    pub dir: String,
    pub name: String,
    pub text: String,
}

/// The runs of a task: `n` random-scheduler seeds, then `n` PCT seeds (depth 3), seeds from 1.
pub fn schedules(n: u64) -> Vec<(Scheduler, u64)> {
    let mut v: Vec<(Scheduler, u64)> = (1..=n).map(|s| (Scheduler::Random, s)).collect();
    v.extend((1..=n).map(|s| (Scheduler::Pct { depth: 3 }, s)));
    v
}

/// The file name of a run: `random-007.ndjson`, `pct-012.ndjson`.
pub fn trace_name(scheduler: Scheduler, seed: u64) -> String {
    run_name(scheduler.name(), seed)
}

/// The file name of a run of the schedule (or scenario) named `schedule`:
/// `contending-007.ndjson`.
pub fn run_name(schedule: &str, seed: u64) -> String {
    format!("{schedule}-{seed:03}.ndjson")
}

/// The runs of a task that has its own schedules (or scenarios) `all`: `seeds` runs of each,
/// the `k`-th (from 1) of the `i`-th (from 0) with the seed `i * seeds + k`, so that seeds are
/// distinct across them.
pub fn named_runs<S: Copy>(all: &[S], seeds: u64) -> Vec<(S, u64)> {
    let mut v = vec![];
    for (i, s) in (0u64..).zip(all) {
        v.extend((1..=seeds).map(|k| (*s, i * seeds + k)));
    }
    v
}

/// The item a seeded, weighted schedule takes next among `items`: one draw of `rng` below the
/// total weight, each item taking a share of its weight (0 leaves it out). None when the total
/// is 0. The distributed tasks' drivers pick their next step with it.
pub fn pick_weighted<T>(rng: &mut Rng, items: Vec<T>, weight: impl Fn(&T) -> u64) -> Option<T> {
    let total: u64 = items.iter().map(&weight).sum();
    if total == 0 {
        return None;
    }
    let mut pick = rng.below(total);
    items.into_iter().find(|x| {
        let w = weight(x);
        if pick < w {
            return true;
        }
        pick -= w;
        false
    })
}

/// [`Machine::successors`] of a state machine that lists its enabled `steps` and takes one in
/// place: `take` applies a step to a copy of `m` and returns the action and arguments a trace
/// records for it.
pub fn successors_by<M: Clone, S>(m: &M, steps: Vec<S>, take: impl Fn(&mut M, &S) -> (String, Map<String, Value>)) -> Vec<(String, Map<String, Value>, M)> {
    steps
        .into_iter()
        .map(|s| {
            let mut next = m.clone();
            let (action, args) = take(&mut next, &s);
            (action, args, next)
        })
        .collect()
}

/// A system as a state machine, for a system graph built by search rather than by sampled
/// runs: its whole state (so that two equal values have the same future), what the traces
/// observe of it, and its steps as the traces record them.
pub trait Machine: Clone + Eq + std::hash::Hash {
    /// The observed state, as a trace's `state` (a JSON object).
    fn observe(&self) -> Map<String, Value>;
    /// Every step enabled now: (action, arguments as a trace records them, the state after).
    fn successors(&self) -> Vec<(String, Map<String, Value>, Self)>;
}
