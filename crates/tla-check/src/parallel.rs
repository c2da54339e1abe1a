//! Breadth-first exploration with several threads, giving the answers of [`Explorer`] exactly.
//!
//! Only built with the `parallel` feature (the command-line front end enables it; the web build
//! does not, so the engine stays free of threads there).
//!
//! Each thread evaluates with its own [`Spec`] (the TLA+ evaluator keeps caches that are not
//! shared between threads); only states, fingerprints and errors cross threads. A stored state
//! has its final index at once, so it can be expanded as soon as it is stored: the queue is cut
//! into *chunks* (consecutive states, in queue order), which the threads claim as they go. To
//! expand a state, a thread computes its successors, CONSTRAINT and ACTION_CONSTRAINT, the
//! fingerprints, the action properties of every step, and the invariants of every successor
//! that may be new: not in the seen set at that moment, and not found earlier in queue order by
//! any thread. For the latter, threads
//! *claim* fingerprints with their chunk's id in a shared table that keeps the smallest id; a
//! thread that finds its fingerprint claimed by an earlier chunk (or earlier in its own chunk)
//! judges it seen, since the merge will have stored it by then. The seen set only grows, so a
//! successor judged "seen" is seen in the sequential run too.
//! The calling thread *merges* the chunks strictly in queue order, as they complete: for each
//! state and each successor, in the order the spec produced them, it does exactly what
//! [`Explorer`] does: counts, stores in the seen set, coverage, level starts,
//! the first error, invariant or action property violation, deadlock, the budgets (and an action
//! that failed to evaluate, after the successors produced before the failure); the new states join
//! the queue. So the state
//! indices, the counts, the depth, the coverage and the counterexample (rebuilt by the same
//! replay from the initial states) are those of one worker: the parallel run is the sequential
//! run with the evaluation done ahead of time. When the next chunk to merge is not ready, the
//! calling thread expands a chunk itself rather than wait; no thread waits for a whole level.
//!
//! A successor judged "seen" needs no state kept; one that "may be new" keeps its state and
//! its invariant result, and the merge decides whether it is new. At most
//! [`MAX_IN_FLIGHT_PER_WORKER`] chunks a thread are expanded ahead of the merge, so a budget or
//! an error costs little extra work and the memory held by finished chunks stays bounded.

use crate::explore::{depth_in, replay_trace, store_in, NO_PARENT};
use crate::fpset::FpSet;
use crate::{ActionCoverage, ActionId, Budget, Options, Outcome, Spec, Stats, TraceStep};
use std::collections::{BTreeMap, VecDeque};
use std::sync::{Condvar, Mutex, MutexGuard, RwLock};

// The TLA+ evaluator's states and errors cross threads.
const _: () = {
    const fn send_sync<T: Send + Sync>() {}
    send_sync::<tla_eval::State>();
    send_sync::<tla_eval::Value>();
    send_sync::<crate::model::ModelError>();
};

/// Chunks a thread may have expanded ahead of the merge.
pub const MAX_IN_FLIGHT_PER_WORKER: usize = 16;
/// The most states in a chunk.
pub const MAX_CHUNK: usize = 64;
/// Shards of the table of claimed fingerprints.
const CLAIM_SHARDS: usize = 16;
/// A shard of that table is emptied once it holds this many fingerprints (forgetting a claim
/// only costs an invariant check done twice).
const CLAIM_SHARD_LIMIT: usize = 1 << 16;

/// Fingerprints of successors that may be new, each with the smallest chunk id that found it.
struct Claims {
    shards: Vec<Mutex<FpSet>>,
}

impl Claims {
    fn new() -> Claims {
        Claims { shards: (0..CLAIM_SHARDS).map(|_| Mutex::new(FpSet::default())).collect() }
    }

    /// Claim `fp` for `chunk`; whether an earlier chunk (or this one) had claimed it.
    fn earlier(&self, fp: u64, chunk: u32) -> bool {
        let mut shard = self.shards[(fp >> 60) as usize % CLAIM_SHARDS].lock().unwrap_or_else(|p| p.into_inner());
        if shard.len() > CLAIM_SHARD_LIMIT {
            *shard = FpSet::default();
        }
        shard.insert_min(fp, chunk).is_some_and(|prev| prev <= chunk)
    }
}

/// What a parallel run hands back: the outcome and the figures of [`Explorer`].
///
/// [`Explorer`]: crate::Explorer
pub struct Run<S, E> {
    pub outcome: Outcome<S, E>,
    pub stats: Stats,
    pub coverage: Vec<ActionCoverage>,
}

/// One successor, as a thread found it.
///
/// `step` is the check of the action properties on the step to it; a state is kept whenever a
/// check on it failed, for the counterexample.
enum Succ<S, E> {
    /// In the model, and its fingerprint was seen (before the round, or earlier in the thread's
    /// part of the round): the merge counts it and reports a failed step check.
    Seen { action: ActionId, step: Result<(), E>, state: Option<S> },
    /// In the model and possibly new; `invariant` is the first violated invariant.
    Maybe { action: ActionId, fp: u64, state: S, invariant: Result<Option<usize>, E>, step: Result<(), E> },
    /// Outside the model (CONSTRAINT or ACTION_CONSTRAINT false).
    Outside { action: ActionId, invariant: Result<Option<usize>, E>, step: Result<(), E>, state: Option<S> },
    /// CONSTRAINT or ACTION_CONSTRAINT failed to evaluate.
    Failed { action: ActionId, error: E, state: S },
}

/// A state, expanded: its successors (up to the first that ends the run for certain), and the
/// error of the action that failed to evaluate, if one did (`succs` then holds the successors
/// produced before the failure).
struct Expanded<S, E> {
    succs: Vec<Succ<S, E>>,
    failed: Option<E>,
    /// States generated on the way to the successors (see `Spec::take_intermediate`).
    intermediate: u64,
}

/// Expand one state of chunk `chunk` with `spec`. `seen` is the seen set (it only grows),
/// `claims` the fingerprints found possibly new so far.
fn expand<W: Spec>(
    spec: &W,
    check_deadlock: bool,
    seen: &RwLock<FpSet>,
    claims: &Claims,
    chunk: u32,
    state: &W::State,
    buf: &mut Vec<(ActionId, W::State)>,
) -> (Expanded<W::State, W::Error>, bool) {
    buf.clear();
    let failed = spec.successors(state, buf).err();
    let intermediate = spec.take_intermediate();
    if buf.is_empty() {
        let stop = failed.is_some() || check_deadlock;
        return (Expanded { succs: Vec::new(), failed, intermediate }, stop);
    }
    // First the model's constraints and the fingerprints, then one look at the seen set for
    // all of them, then the invariants of those that may be new.
    enum First<S, E> {
        Done(Succ<S, E>),
        In(ActionId, u64, S, Result<(), E>),
    }
    let mut first = Vec::with_capacity(buf.len());
    let mut stop = false;
    for (action, succ) in buf.drain(..) {
        if stop {
            // The merge stops at the successor before: the rest is never looked at.
            continue;
        }
        let in_model = spec.in_model_after(state, &succ).and_then(|b| if b { spec.step_in_model(state, &succ) } else { Ok(false) });
        match in_model {
            Err(error) => {
                first.push(First::Done(Succ::Failed { action, error, state: succ }));
                stop = true;
            }
            Ok(false) => {
                // The invariants first: when they fail, the step is never checked.
                let invariant = spec.violated_invariant(&succ);
                let step = if matches!(invariant, Ok(None)) { spec.check_step(state, &succ) } else { Ok(()) };
                let keep = !matches!((&invariant, &step), (Ok(None), Ok(())));
                stop = keep;
                first.push(First::Done(Succ::Outside { action, invariant, step, state: keep.then_some(succ) }));
            }
            Ok(true) => {
                // The step is checked whether the successor is new or not: a failure ends the
                // run here for certain (unless an invariant of a new successor fails first).
                let fp = spec.fingerprint(&succ);
                if let Some(error) = spec.take_fingerprint_error() {
                    first.push(First::Done(Succ::Failed { action, error, state: succ }));
                    stop = true;
                    continue;
                }
                let step = spec.check_step(state, &succ);
                stop = step.is_err();
                first.push(First::In(action, fp, succ, step));
            }
        }
    }
    let stop = stop || failed.is_some();
    let known: Vec<bool> = {
        let seen = seen.read().unwrap_or_else(|p| p.into_inner());
        first.iter().map(|f| matches!(f, First::In(_, fp, _, _) if seen.get(*fp).is_some())).collect()
    };
    let out = first
        .into_iter()
        .zip(known)
        .map(|(f, known)| match f {
            First::Done(s) => s,
            First::In(action, fp, state, step) => {
                if known || claims.earlier(fp, chunk) {
                    let state = step.is_err().then_some(state);
                    Succ::Seen { action, step, state }
                } else {
                    let invariant = spec.violated_invariant(&state);
                    Succ::Maybe { action, fp, state, invariant, step }
                }
            }
        })
        .collect();
    (Expanded { succs: out, failed, intermediate }, stop)
}

/// An expanded chunk: each state's index and expansion, in queue order.
type ChunkOut<S, E> = Vec<(u32, Expanded<S, E>)>;

/// Expand chunk `id`: up to the first state that ends the run for certain.
fn expand_chunk<W: Spec>(
    spec: &W,
    shared: &Shared<W::State, W::Error>,
    id: u64,
    states: Vec<(u32, u32, W::State)>,
    buf: &mut Vec<(ActionId, W::State)>,
) -> ChunkOut<W::State, W::Error> {
    // Chunk ids stay below the number of states, so below 2^32.
    let chunk = id as u32;
    let mut out = Vec::with_capacity(states.len());
    for (index, depth, state) in states {
        spec.set_level(depth);
        let (e, stop) = expand(spec, shared.check_deadlock, &shared.seen, &shared.claims, chunk, &state, buf);
        out.push((index, e));
        if stop {
            break;
        }
    }
    out
}

/// The queue and the chunks, shared by the threads under one lock.
struct Queue<S, E> {
    /// Stored states not claimed yet, in index order, with their depth.
    pending: VecDeque<(u32, u32, S)>,
    /// The id of the next chunk handed out (ids follow queue order).
    next_chunk: u64,
    /// Expanded chunks waiting for the merge, by id.
    done: BTreeMap<u64, ChunkOut<S, E>>,
    /// Chunks handed out and not merged yet.
    in_flight: usize,
    /// The run is over: threads stop claiming.
    finished: bool,
    /// A thread panicked while expanding.
    poisoned: bool,
}

struct Shared<S, E> {
    queue: Mutex<Queue<S, E>>,
    /// Signalled when states join the queue or the run ends.
    work: Condvar,
    /// Signalled when a chunk is expanded.
    merged: Condvar,
    seen: RwLock<FpSet>,
    claims: Claims,
    check_deadlock: bool,
    max_depth: Option<u32>,
    chunk_divisor: usize,
    max_in_flight: usize,
}

impl<S, E> Shared<S, E> {
    fn lock(&self) -> MutexGuard<'_, Queue<S, E>> {
        self.queue.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Hand out the next chunk of the queue: consecutive states whose depth may be expanded.
    fn claim(&self, q: &mut Queue<S, E>) -> Option<(u64, Vec<(u32, u32, S)>)> {
        if q.finished || q.in_flight >= self.max_in_flight {
            return None;
        }
        let n = (q.pending.len() / self.chunk_divisor).clamp(1, MAX_CHUNK);
        let mut states = Vec::with_capacity(n.min(q.pending.len()));
        while states.len() < n {
            match q.pending.front() {
                Some((_, depth, _)) if self.max_depth.is_none_or(|m| *depth < m) => {
                    let (i, depth, s) = q.pending.pop_front().unwrap();
                    states.push((i, depth, s));
                }
                _ => break,
            }
        }
        if states.is_empty() {
            return None;
        }
        let id = q.next_chunk;
        q.next_chunk += 1;
        q.in_flight += 1;
        Some((id, states))
    }
}

/// Marks the run poisoned if a thread unwinds while expanding, so the merge does not wait for
/// a chunk that will never come.
struct PanicGuard<'a, S, E>(&'a Shared<S, E>);

impl<S, E> Drop for PanicGuard<'_, S, E> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let mut q = self.0.lock();
            q.poisoned = true;
            q.finished = true;
            drop(q);
            self.0.merged.notify_all();
            self.0.work.notify_all();
        }
    }
}

/// A helper thread: claim chunks, expand them, hand them to the merge, until the run is over.
fn worker<W: Spec>(spec: &W, shared: &Shared<W::State, W::Error>) {
    let _guard = PanicGuard(shared);
    let mut buf = Vec::new();
    loop {
        let (id, states) = {
            let mut q = shared.lock();
            loop {
                if q.finished {
                    return;
                }
                if let Some(c) = shared.claim(&mut q) {
                    break c;
                }
                q = shared.work.wait(q).unwrap_or_else(|p| p.into_inner());
            }
        };
        let out = expand_chunk(spec, shared, id, states, &mut buf);
        shared.lock().done.insert(id, out);
        shared.merged.notify_one();
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
    /// The length one worker's queue would have now: states that joined it, less those whose
    /// expansion was merged (what [`Stats::queued`] reports at the end, as TLC's "states left
    /// on queue").
    one_queue: u64,
    _e: std::marker::PhantomData<E>,
}

impl<S: Clone, E> Tables<S, E> {
    fn store(&mut self, seen: &mut FpSet, fp: u64, parent: u32, action: ActionId) -> (u32, bool) {
        store_in(seen, &mut self.parent, &mut self.action, &mut self.stats, fp, parent, action)
    }

    fn trace_to<P: Spec<State = S, Error = E>>(&self, spec: &P, seen: &FpSet, index: u32) -> Vec<TraceStep<S>> {
        replay_trace(spec, seen, &self.parent, &self.action, index)
    }

    fn trace_plus<P: Spec<State = S, Error = E>>(&self, spec: &P, seen: &FpSet, index: u32, action: ActionId, state: S) -> Vec<TraceStep<S>> {
        let mut t = self.trace_to(spec, seen, index);
        t.push(TraceStep { action: Some(action), state });
        t
    }

    /// A check failed on the step from `index` to a successor (whose state a failed check keeps).
    fn failed_on<P: Spec<State = S, Error = E>>(&self, spec: &P, seen: &FpSet, index: u32, action: ActionId, error: E, state: Option<S>) -> Outcome<S, E> {
        match state {
            Some(state) => Outcome::Error { error, trace: self.trace_plus(spec, seen, index, action, state) },
            None => Outcome::Error { error, trace: self.trace_to(spec, seen, index) },
        }
    }

    /// The initial states, as [`Explorer`] stores them (into `queue`).
    ///
    /// [`Explorer`]: crate::Explorer
    fn start<P: Spec<State = S, Error = E>>(&mut self, spec: &P, seen: &mut FpSet) -> Option<Outcome<S, E>> {
        let mut inits = Vec::new();
        spec.set_level(0);
        if let Err(error) = spec.initial_states(&mut inits) {
            return Some(Outcome::Error { error, trace: vec![] });
        }
        self.stats.depth = 1;
        for s in inits {
            self.stats.generated += 1;
            self.stats.initial += 1;
            let one = |s: S| vec![TraceStep { action: None, state: s }];
            let in_model = match spec.in_model(&s) {
                Ok(b) => b,
                Err(error) => return Some(Outcome::Error { error, trace: one(s) }),
            };
            let mut new = true;
            let mut stored = None;
            if in_model {
                let fp = spec.fingerprint(&s);
                if let Some(error) = spec.take_fingerprint_error() {
                    return Some(Outcome::Error { error, trace: one(s) });
                }
                let (index, is_new) = self.store(seen, fp, NO_PARENT, ActionId::MAX);
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
                self.one_queue += 1;
            }
            if let Some(max) = self.opts.max_states
                && self.stats.distinct >= max
                && !self.queue.is_empty()
            {
                return Some(Outcome::BudgetExhausted(Budget::States(max)));
            }
        }
        if !self.parent.is_empty() {
            self.level_starts.push(0);
        }
        None
    }

    /// Merge one expanded state, as [`Explorer`] would expand it; new states go to `fresh` with
    /// their depth. `Some` ends the run.
    ///
    /// [`Explorer`]: crate::Explorer
    fn merge<P: Spec<State = S, Error = E>>(
        &mut self,
        spec: &P,
        seen: &mut FpSet,
        index: u32,
        ex: Expanded<S, E>,
        fresh: &mut Vec<(u32, u32, S)>,
    ) -> Option<Outcome<S, E>> {
        // One worker takes this state off its queue now.
        self.one_queue -= 1;
        let depth = depth_in(&self.level_starts, index);
        let Expanded { succs, failed, intermediate } = ex;
        self.stats.generated += intermediate;
        if failed.is_none() && succs.is_empty() && self.opts.check_deadlock {
            return Some(Outcome::Deadlock { trace: self.trace_to(spec, seen, index) });
        }
        for succ in succs {
            let action = succ_action(&succ);
            self.stats.generated += 1;
            if let Some(c) = self.coverage.get_mut(action as usize) {
                c.generated += 1;
            }
            match succ {
                Succ::Seen { step, state, .. } => match step {
                    Ok(()) => continue,
                    Err(error) => return Some(self.failed_on(spec, seen, index, action, error, state)),
                },
                Succ::Failed { error, state, .. } => return Some(self.failed_on(spec, seen, index, action, error, Some(state))),
                Succ::Outside { invariant, step, state, .. } => match (invariant, step) {
                    (Ok(None), Ok(())) => {}
                    (Ok(None), Err(error)) | (Err(error), _) => return Some(self.failed_on(spec, seen, index, action, error, state)),
                    (Ok(Some(invariant)), _) => {
                        let mut trace = self.trace_to(spec, seen, index);
                        trace.extend(state.map(|state| TraceStep { action: Some(action), state }));
                        return Some(Outcome::InvariantViolated { invariant, trace });
                    }
                },
                Succ::Maybe { fp, state, invariant, step, .. } => {
                    let (new_index, is_new) = self.store(seen, fp, index, action);
                    if !is_new {
                        // Seen after all: only the step is checked.
                        match step {
                            Ok(()) => continue,
                            Err(error) => return Some(self.failed_on(spec, seen, index, action, error, Some(state))),
                        }
                    }
                    if let Some(c) = self.coverage.get_mut(action as usize) {
                        c.distinct += 1;
                    }
                    match invariant {
                        Ok(None) => {}
                        Ok(Some(invariant)) => {
                            return Some(Outcome::InvariantViolated { invariant, trace: self.trace_plus(spec, seen, index, action, state) });
                        }
                        Err(error) => return Some(self.failed_on(spec, seen, index, action, error, Some(state))),
                    }
                    if let Err(error) = step {
                        return Some(self.failed_on(spec, seen, index, action, error, Some(state)));
                    }
                    if depth as usize == self.level_starts.len() {
                        self.level_starts.push(new_index);
                        self.stats.depth = self.level_starts.len() as u32;
                    }
                    fresh.push((new_index, depth + 1, state));
                    self.one_queue += 1;
                }
            }
            if let Some(max) = self.opts.max_states
                && self.stats.distinct >= max
            {
                return Some(Outcome::BudgetExhausted(Budget::States(max)));
            }
        }
        if let Some(error) = failed {
            return Some(Outcome::Error { error, trace: self.trace_to(spec, seen, index) });
        }
        None
    }
}

/// The action that produced a successor.
fn succ_action<S, E>(succ: &Succ<S, E>) -> ActionId {
    match succ {
        Succ::Seen { action, .. } | Succ::Maybe { action, .. } | Succ::Outside { action, .. } | Succ::Failed { action, .. } => *action,
    }
}

/// Explore `main`'s state space with `workers` threads in all: the calling thread evaluates with
/// `main` (and merges), and each other thread with the spec `make(i)` builds for it (`i` in
/// `1..workers`), which `finish` receives when the run is over (to collect what it printed, say).
/// A thread whose `make` fails takes no part. The answers are those of [`Explorer`] with the
/// same options.
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
        one_queue: 0,
        _e: std::marker::PhantomData,
    };
    let workers = workers.max(1);
    let mut seen = FpSet::default();
    if let Some(outcome) = t.start(main, &mut seen) {
        return Run { outcome, stats: Stats { queued: t.one_queue, ..t.stats }, coverage: t.coverage };
    }
    let shared = Shared {
        queue: Mutex::new(Queue {
            pending: t.queue.drain(..).map(|(i, s)| (i, 1, s)).collect(),
            next_chunk: 0,
            done: BTreeMap::new(),
            in_flight: 0,
            finished: false,
            poisoned: false,
        }),
        work: Condvar::new(),
        merged: Condvar::new(),
        seen: RwLock::new(seen),
        claims: Claims::new(),
        check_deadlock: opts.check_deadlock,
        max_depth: opts.max_depth,
        chunk_divisor: workers * 4,
        max_in_flight: workers * MAX_IN_FLIGHT_PER_WORKER,
    };
    let outcome = std::thread::scope(|scope| {
        for i in 1..workers {
            let (make, finish, shared) = (&make, &finish, &shared);
            scope.spawn(move || {
                if let Some(spec) = make(i) {
                    worker(&spec, shared);
                    finish(spec);
                }
            });
        }
        let outcome = coordinate(main, &mut t, &shared);
        let mut q = shared.lock();
        q.finished = true;
        let poisoned = q.poisoned;
        drop(q);
        shared.work.notify_all();
        assert!(!poisoned, "a checking thread panicked");
        outcome
    });
    // One worker takes every state off its queue before it ends without an error, those at
    // the depth limit included.
    let queued = match outcome {
        Outcome::Success | Outcome::BudgetExhausted(Budget::Depth(_)) => 0,
        _ => t.one_queue,
    };
    Run { outcome, stats: Stats { queued, ..t.stats }, coverage: t.coverage }
}

/// The calling thread's part: merge the chunks in order as they are expanded, and expand
/// chunks itself while the next one to merge is not ready.
fn coordinate<P: Spec>(main: &P, t: &mut Tables<P::State, P::Error>, shared: &Shared<P::State, P::Error>) -> Outcome<P::State, P::Error> {
    let _guard = PanicGuard(shared);
    let mut next_merge = 0u64;
    let mut buf = Vec::new();
    let mut fresh = Vec::new();
    loop {
        let mut q = shared.lock();
        if q.poisoned {
            return Outcome::Success;
        }
        if let Some(chunk) = q.done.remove(&next_merge) {
            drop(q);
            next_merge += 1;
            let mut end = None;
            {
                let mut seen = shared.seen.write().unwrap_or_else(|p| p.into_inner());
                for (index, ex) in chunk {
                    if let Some(out) = t.merge(main, &mut seen, index, ex, &mut fresh) {
                        end = Some(out);
                        break;
                    }
                }
            }
            let mut q = shared.lock();
            q.in_flight -= 1;
            if let Some(out) = end {
                return out;
            }
            q.pending.extend(fresh.drain(..));
            // New states, or room for a thread held back by the limit on chunks in flight.
            let wake = !q.pending.is_empty();
            drop(q);
            if wake {
                shared.work.notify_all();
            }
            continue;
        }
        if let Some((id, states)) = shared.claim(&mut q) {
            drop(q);
            let out = expand_chunk(main, shared, id, states, &mut buf);
            shared.lock().done.insert(id, out);
            continue;
        }
        if q.in_flight == 0 {
            // Nothing to merge, nothing being expanded, nothing that may be: the queue is
            // empty, or holds only states at the depth limit.
            return if q.pending.is_empty() {
                Outcome::Success
            } else {
                Outcome::BudgetExhausted(Budget::Depth(t.opts.max_depth.unwrap_or(0)))
            };
        }
        drop(shared.merged.wait(q).unwrap_or_else(|p| p.into_inner()));
    }
}
