//! Breadth-first exploration with several threads, giving the answers of [`Explorer`] exactly.
//!
//! Only built with the `parallel` feature (the command-line front end enables it; the web build
//! does not, so the engine stays free of threads there).
//!
//! Each thread evaluates with its own [`Spec`] (the TLA+ evaluator keeps caches that are not
//! shared between threads); only states, fingerprints and errors cross threads. The run goes in
//! *rounds*: the first states of the queue (all of them already stored, so their indices are
//! final) are cut into chunks, and the threads claim chunks in order and expand them: successors,
//! CONSTRAINT and ACTION_CONSTRAINT, fingerprints, and the invariants of every successor that may
//! be new. "May be new" is judged against the seen set as it was when the round began, read-only
//! during the round, and against the successors the same thread found earlier in the round. Then
//! one thread *merges*: it walks the round's states in queue order and their successors in the
//! order the spec produced them, and does exactly what [`Explorer`] does for each: counts,
//! stores in the seen set, coverage, level starts, the first error, invariant violation,
//! deadlock, and the budgets. So the state indices, the counts, the depth, the coverage and the
//! counterexample (rebuilt by the same replay from the initial states) are those of one worker:
//! the parallel run is the sequential run with the evaluation done ahead of time.
//!
//! A successor judged "seen" needs no state kept; one that "may be new" keeps its state and
//! its invariant result, and the merge decides whether it is new. A round is at most
//! [`ROUND_PER_WORKER`] states a thread, so a budget or an error costs at most one round of
//! extra work and the memory held by a round stays bounded.

use crate::explore::{depth_in, replay_trace, NO_PARENT};
use crate::fpset::{FpSet, Insert};
use crate::{ActionCoverage, ActionId, Budget, Options, Outcome, Spec, Stats, TraceStep};
use std::collections::{HashSet, VecDeque};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex, RwLock};

// The TLA+ evaluator's states and errors cross threads.
const _: () = {
    const fn send_sync<T: Send + Sync>() {}
    send_sync::<tla_eval::State>();
    send_sync::<tla_eval::Value>();
    send_sync::<crate::model::ModelError>();
};

/// States a round takes from the queue, per thread.
pub const ROUND_PER_WORKER: usize = 1024;
/// The most states in a chunk (a thread's unit of work within a round).
const MAX_CHUNK: usize = 64;

/// What a parallel run hands back: the outcome and the figures of [`Explorer`].
///
/// [`Explorer`]: crate::Explorer
pub struct Run<S, E> {
    pub outcome: Outcome<S, E>,
    pub stats: Stats,
    pub coverage: Vec<ActionCoverage>,
}

/// One successor, as a thread found it.
enum Succ<S, E> {
    /// In the model, and its fingerprint was seen (before the round, or earlier in the thread's
    /// part of the round): the merge only counts it.
    Seen { action: ActionId },
    /// In the model and possibly new; `invariant` is the first violated invariant.
    Maybe { action: ActionId, fp: u64, state: S, invariant: Result<Option<usize>, E> },
    /// Outside the model (CONSTRAINT or ACTION_CONSTRAINT false); the state is kept only when
    /// its invariant check failed.
    Outside { action: ActionId, invariant: Result<Option<usize>, E>, state: Option<S> },
    /// CONSTRAINT, ACTION_CONSTRAINT or an action property failed to evaluate.
    Failed { action: ActionId, error: E, state: S },
}

/// A state of the round, expanded: its successors (up to the first that ends the run for
/// certain), or the error computing them.
struct Expanded<S, E> {
    succs: Result<Vec<Succ<S, E>>, E>,
}

/// The work of one round, shared by the threads.
struct Round<S, E> {
    states: Vec<(u32, S)>,
    chunk: usize,
    chunks: usize,
    next: AtomicUsize,
    /// The lowest chunk known to end the run (an error or deadlock that the merge will reach
    /// unless it stops earlier): later chunks need not be expanded.
    stop_at: AtomicUsize,
    results: Mutex<Vec<Option<Vec<Expanded<S, E>>>>>,
}

impl<S, E> Round<S, E> {
    fn range(&self, c: usize) -> std::ops::Range<usize> {
        c * self.chunk..((c + 1) * self.chunk).min(self.states.len())
    }
}

/// Expand one state with `spec`. `seen` is the seen set as the round began, `local` the
/// fingerprints this thread already judged possibly new in this round. Returns whether the
/// expansion ends the run for certain.
fn expand<W: Spec>(
    spec: &W,
    check_deadlock: bool,
    seen: &FpSet,
    local: &mut HashSet<u64>,
    state: &W::State,
    buf: &mut Vec<(ActionId, W::State)>,
) -> (Expanded<W::State, W::Error>, bool) {
    buf.clear();
    if let Err(e) = spec.successors(state, buf) {
        return (Expanded { succs: Err(e) }, true);
    }
    if buf.is_empty() {
        return (Expanded { succs: Ok(Vec::new()) }, check_deadlock);
    }
    let mut out = Vec::with_capacity(buf.len());
    let mut stop = false;
    for (action, succ) in buf.drain(..) {
        if stop {
            // The merge stops at the successor before: the rest is never looked at.
            continue;
        }
        let in_model = spec.in_model(&succ).and_then(|b| if b { spec.step_in_model(state, &succ) } else { Ok(false) });
        match in_model {
            Err(error) => {
                out.push(Succ::Failed { action, error, state: succ });
                stop = true;
            }
            Ok(false) => {
                let invariant = spec.violated_invariant(&succ);
                let keep = !matches!(invariant, Ok(None));
                stop = keep;
                out.push(Succ::Outside { action, invariant, state: keep.then_some(succ) });
            }
            Ok(true) => {
                let fp = spec.fingerprint(&succ);
                if seen.get(fp).is_some() || !local.insert(fp) {
                    out.push(Succ::Seen { action });
                } else {
                    let invariant = spec.violated_invariant(&succ);
                    out.push(Succ::Maybe { action, fp, state: succ, invariant });
                }
            }
        }
    }
    (Expanded { succs: Ok(out) }, stop)
}

/// Expand chunk `c` of the round.
fn expand_chunk<W: Spec>(
    spec: &W,
    check_deadlock: bool,
    seen: &FpSet,
    local: &mut HashSet<u64>,
    round: &Round<W::State, W::Error>,
    c: usize,
    buf: &mut Vec<(ActionId, W::State)>,
) -> Vec<Expanded<W::State, W::Error>> {
    let mut out = Vec::with_capacity(round.chunk);
    for (_, state) in &round.states[round.range(c)] {
        let (e, stop) = expand(spec, check_deadlock, seen, local, state, buf);
        out.push(e);
        if stop {
            round.stop_at.fetch_min(c, Ordering::Relaxed);
            break;
        }
    }
    out
}

/// Claim and expand chunks of the round until none is left.
fn work<W: Spec>(spec: &W, check_deadlock: bool, seen: &RwLock<FpSet>, round: &Round<W::State, W::Error>, buf: &mut Vec<(ActionId, W::State)>) {
    let seen = seen.read().unwrap_or_else(|p| p.into_inner());
    let mut local = HashSet::new();
    loop {
        let c = round.next.fetch_add(1, Ordering::Relaxed);
        if c >= round.chunks {
            return;
        }
        if c > round.stop_at.load(Ordering::Relaxed) {
            continue;
        }
        let out = expand_chunk(spec, check_deadlock, &seen, &mut local, round, c, buf);
        round.results.lock().unwrap_or_else(|p| p.into_inner())[c] = Some(out);
    }
}

/// Tells the coordinating thread that a worker is through with a round, even if it panicked.
struct Done<'a>(&'a mpsc::Sender<()>);

impl Drop for Done<'_> {
    fn drop(&mut self) {
        let _ = self.0.send(());
    }
}

/// The tables of the run, owned by the coordinating thread.
struct Tables<S, E> {
    opts: Options,
    parent: Vec<u32>,
    action: Vec<ActionId>,
    level_starts: Vec<u32>,
    queue: VecDeque<(u32, S)>,
    stats: Stats,
    coverage: Vec<ActionCoverage>,
    _e: std::marker::PhantomData<E>,
}

impl<S: Clone, E> Tables<S, E> {
    fn store(&mut self, seen: &mut FpSet, fp: u64, parent: u32, action: ActionId) -> (u32, bool) {
        let index = self.parent.len() as u32;
        match seen.insert(fp, index) {
            Insert::New => {
                self.parent.push(parent);
                self.action.push(action);
                self.stats.distinct += 1;
                (index, true)
            }
            Insert::Seen(i) => (i, false),
        }
    }

    fn trace_to<P: Spec<State = S, Error = E>>(&self, spec: &P, seen: &FpSet, index: u32) -> Vec<TraceStep<S>> {
        replay_trace(spec, seen, &self.parent, &self.action, index)
    }

    fn trace_plus<P: Spec<State = S, Error = E>>(&self, spec: &P, seen: &FpSet, index: u32, action: ActionId, state: S) -> Vec<TraceStep<S>> {
        let mut t = self.trace_to(spec, seen, index);
        t.push(TraceStep { action: Some(action), state });
        t
    }

    /// The initial states, as [`Explorer`] stores them.
    ///
    /// [`Explorer`]: crate::Explorer
    fn start<P: Spec<State = S, Error = E>>(&mut self, spec: &P, seen: &mut FpSet) -> Option<Outcome<S, E>> {
        let mut inits = Vec::new();
        if let Err(error) = spec.initial_states(&mut inits) {
            return Some(Outcome::Error { error, trace: vec![] });
        }
        self.stats.depth = 1;
        for s in inits {
            self.stats.generated += 1;
            let one = |s: S| vec![TraceStep { action: None, state: s }];
            let in_model = match spec.in_model(&s) {
                Ok(b) => b,
                Err(error) => return Some(Outcome::Error { error, trace: one(s) }),
            };
            let mut new = true;
            let mut stored = None;
            if in_model {
                let (index, is_new) = self.store(seen, spec.fingerprint(&s), NO_PARENT, ActionId::MAX);
                new = is_new;
                stored = is_new.then_some(index);
            }
            if new {
                match spec.violated_invariant(&s) {
                    Ok(None) => {}
                    Ok(Some(invariant)) => return Some(Outcome::InvariantViolated { invariant, trace: one(s) }),
                    Err(error) => return Some(Outcome::Error { error, trace: one(s) }),
                }
            }
            if let Some(index) = stored {
                self.queue.push_back((index, s));
            }
            if let Some(max) = self.opts.max_states {
                if self.stats.distinct >= max && !self.queue.is_empty() {
                    return Some(Outcome::BudgetExhausted(Budget::States(max)));
                }
            }
        }
        if !self.parent.is_empty() {
            self.level_starts.push(0);
        }
        None
    }

    /// Take the round's states from the queue: those whose depth may be expanded. `None` when
    /// the run is over (queue empty, or only states at the depth limit left).
    fn take_round(&mut self, max: usize) -> Option<Result<Vec<(u32, S)>, Outcome<S, E>>> {
        let (first, _) = self.queue.front()?;
        let depth_ok = |t: &Self, i: u32| t.opts.max_depth.is_none_or(|m| depth_in(&t.level_starts, i) < m);
        if !depth_ok(self, *first) {
            // Every state left is at the depth limit or deeper (BFS order).
            self.queue.clear();
            return Some(Err(Outcome::BudgetExhausted(Budget::Depth(self.opts.max_depth.unwrap_or(0)))));
        }
        let mut states = Vec::with_capacity(max.min(self.queue.len()));
        while states.len() < max {
            match self.queue.front() {
                Some((i, _)) if depth_ok(self, *i) => states.push(self.queue.pop_front().unwrap()),
                _ => break,
            }
        }
        Some(Ok(states))
    }

    /// Merge one expanded state, as [`Explorer`] would expand it. `Some` ends the run.
    ///
    /// [`Explorer`]: crate::Explorer
    fn merge<P: Spec<State = S, Error = E>>(&mut self, spec: &P, seen: &mut FpSet, index: u32, ex: Expanded<S, E>) -> Option<Outcome<S, E>> {
        let depth = depth_in(&self.level_starts, index);
        let succs = match ex.succs {
            Ok(s) => s,
            Err(error) => return Some(Outcome::Error { error, trace: self.trace_to(spec, seen, index) }),
        };
        if succs.is_empty() && self.opts.check_deadlock {
            return Some(Outcome::Deadlock { trace: self.trace_to(spec, seen, index) });
        }
        for succ in succs {
            self.stats.generated += 1;
            let action = match &succ {
                Succ::Seen { action } | Succ::Maybe { action, .. } | Succ::Outside { action, .. } | Succ::Failed { action, .. } => *action,
            };
            if let Some(c) = self.coverage.get_mut(action as usize) {
                c.generated += 1;
            }
            match succ {
                Succ::Seen { .. } => continue,
                Succ::Failed { error, state, .. } => {
                    return Some(Outcome::Error { error, trace: self.trace_plus(spec, seen, index, action, state) });
                }
                Succ::Outside { invariant, state, .. } => match (invariant, state) {
                    (Ok(None), _) => {}
                    (Ok(Some(invariant)), Some(state)) => {
                        return Some(Outcome::InvariantViolated { invariant, trace: self.trace_plus(spec, seen, index, action, state) });
                    }
                    (Err(error), Some(state)) => {
                        return Some(Outcome::Error { error, trace: self.trace_plus(spec, seen, index, action, state) });
                    }
                    // A failed check always keeps its state.
                    (_, None) => unreachable!("a failed invariant check keeps its state"),
                },
                Succ::Maybe { fp, state, invariant, .. } => {
                    let (new_index, is_new) = self.store(seen, fp, index, action);
                    if !is_new {
                        continue;
                    }
                    if let Some(c) = self.coverage.get_mut(action as usize) {
                        c.distinct += 1;
                    }
                    match invariant {
                        Ok(None) => {}
                        Ok(Some(invariant)) => {
                            return Some(Outcome::InvariantViolated { invariant, trace: self.trace_plus(spec, seen, index, action, state) });
                        }
                        Err(error) => return Some(Outcome::Error { error, trace: self.trace_plus(spec, seen, index, action, state) }),
                    }
                    if depth as usize == self.level_starts.len() {
                        self.level_starts.push(new_index);
                        self.stats.depth = self.level_starts.len() as u32;
                    }
                    self.queue.push_back((new_index, state));
                }
            }
            if let Some(max) = self.opts.max_states {
                if self.stats.distinct >= max {
                    return Some(Outcome::BudgetExhausted(Budget::States(max)));
                }
            }
        }
        None
    }
}

/// Explore `main`'s state space with `workers` threads in all: the calling thread evaluates with
/// `main`, and each other thread with the spec `make(i)` builds for it (`i` in `1..workers`),
/// which `finish` receives when the run is over (to collect what it printed, say). A thread
/// whose `make` fails takes no part. The answers are those of [`Explorer`] with the same options.
///
/// [`Explorer`]: crate::Explorer
pub fn explore<P, W, M, F>(main: &P, opts: Options, workers: usize, make: M, finish: F) -> Run<P::State, P::Error>
where
    P: Spec,
    P::State: Send + Sync,
    P::Error: Send + Sync,
    W: Spec<State = P::State, Error = P::Error>,
    M: Fn(usize) -> Option<W> + Sync,
    F: Fn(W) + Sync,
{
    let mut t: Tables<P::State, P::Error> = Tables {
        opts: opts.clone(),
        parent: Vec::new(),
        action: Vec::new(),
        level_starts: Vec::new(),
        queue: VecDeque::new(),
        stats: Stats::default(),
        coverage: vec![ActionCoverage::default(); main.action_count()],
        _e: std::marker::PhantomData,
    };
    // The threads read the seen set while a round is expanded; the merge writes it between
    // expansions. Each thread drops its read guard before it reports the round done.
    let seen = RwLock::new(FpSet::default());
    let write = || seen.write().unwrap_or_else(|p| p.into_inner());
    let workers = workers.max(1);
    let done = |t: Tables<P::State, P::Error>, outcome| Run { outcome, stats: t.stats, coverage: t.coverage };
    if let Some(out) = t.start(main, &mut write()) {
        return done(t, out);
    }
    let check_deadlock = opts.check_deadlock;
    let outcome = std::thread::scope(|scope| {
        let (done_tx, done_rx) = mpsc::channel::<()>();
        let mut senders = Vec::new();
        for i in 1..workers {
            let (tx, rx) = mpsc::channel::<Arc<Round<P::State, P::Error>>>();
            senders.push(tx);
            let done_tx = done_tx.clone();
            let (make, finish, seen) = (&make, &finish, &seen);
            scope.spawn(move || {
                let spec = make(i);
                let mut buf = Vec::new();
                while let Ok(round) = rx.recv() {
                    let _done = Done(&done_tx);
                    if let Some(spec) = &spec {
                        work(spec, check_deadlock, seen, &round, &mut buf);
                    }
                }
                if let Some(spec) = spec {
                    finish(spec);
                }
            });
        }
        drop(done_tx);
        let mut buf = Vec::new();
        let per_round = ROUND_PER_WORKER * workers;
        let outcome = loop {
            let states = match t.take_round(per_round) {
                None => break Outcome::Success,
                Some(Err(out)) => break out,
                Some(Ok(s)) => s,
            };
            let chunk = (states.len() / (workers * 8)).clamp(1, MAX_CHUNK);
            let chunks = states.len().div_ceil(chunk);
            let round = Arc::new(Round {
                states,
                chunk,
                chunks,
                next: AtomicUsize::new(0),
                stop_at: AtomicUsize::new(usize::MAX),
                results: Mutex::new((0..chunks).map(|_| None).collect()),
            });
            let mut helping = 0;
            for tx in &senders {
                if tx.send(round.clone()).is_ok() {
                    helping += 1;
                }
            }
            work(main, check_deadlock, &seen, &round, &mut buf);
            for _ in 0..helping {
                if done_rx.recv().is_err() {
                    break;
                }
            }
            let mut results = std::mem::take(&mut *round.results.lock().unwrap_or_else(|p| p.into_inner()));
            let mut guard = write();
            let mut end = None;
            'chunks: for c in 0..chunks {
                let expanded = match results[c].take() {
                    Some(e) => e,
                    // Skipped after a sure stop (so never reached), or lost with a thread. The
                    // seen set now is the one the sequential run has at this chunk.
                    None => expand_chunk(main, check_deadlock, &guard, &mut HashSet::new(), &round, c, &mut buf),
                };
                for (k, ex) in expanded.into_iter().enumerate() {
                    let index = round.states[round.range(c).start + k].0;
                    if let Some(out) = t.merge(main, &mut guard, index, ex) {
                        end = Some(out);
                        break 'chunks;
                    }
                }
            }
            if let Some(out) = end {
                break out;
            }
        };
        drop(senders);
        outcome
    });
    done(t, outcome)
}
