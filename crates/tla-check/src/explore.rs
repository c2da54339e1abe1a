//! Breadth-first exploration of a [`Spec`]'s reachable states, TLC's way.
//!
//! Architecture invariant: per state we store only its fingerprint (in the [`FpSet`]), its parent's
//! index and the action that produced it. Full states live only in the BFS frontier. A trace is
//! rebuilt by replaying: the initial state with the right fingerprint, then at each step the
//! successor by the recorded action with the right fingerprint.
//!
//! Counting and order of checks follow TLC. A state is expanded action by action (the
//! disjuncts of Next in order), and each successor, in order, is handled before the next one
//! is looked at: as with TLC, which hands each successor to its worker as it is generated,
//! *generated* grows by one per successor reached (initial states count one each), so a run
//! that stops at a successor has not counted those after it, even in the same action.
//! For each successor in order: CONSTRAINT and ACTION_CONSTRAINT decide whether it is in
//! the model (a successor found already stored skips CONSTRAINT, which it satisfied when it was
//! stored, when its fingerprint identifies the state: see [`Spec::identity_fingerprint`]); if it
//! is, its fingerprint goes to the seen set (it is stored and counted
//! *distinct*, with its parent link, even if a check below fails); if it was not seen before, or
//! is outside the model, it is checked against the invariants; on *every* successor, seen or
//! not, in the model or not, the step is checked against the action properties (`[][A]_v` of
//! PROPERTY, [`Spec::check_step`]); finally a new state in the model joins the queue. When an
//! action fails to evaluate, the successors produced before the failure are processed first (one
//! of them may violate an invariant, which is then the answer), and then the error is reported.
//! A state with no successor at all, every
//! action evaluated, is a deadlock (a step back to the same state is a successor). States get indices in BFS order, so
//! each BFS level is a contiguous range of indices and the depth of a state needs no storage.
//!
//! # Beside TLC's order
//!
//! - **Memory.** The explorer waits on memory as little as it can: it asks for the seen-set
//!   slots of a state's successors before it looks any up, and brings the states it expands in
//!   the next four steps into the cache a level of their values deeper each step
//!   ([`Spec::warm`], `tla_eval::value::warm`).
//! - **Fingerprints.** A state whose value cannot be fingerprinted (a variable holding `Nat`)
//!   is an evaluation error in that state, as in TLC ([`Spec::take_fingerprint_error`]).
//! - **TLC's run state.** Explorers set the level `TLCGet("level")` answers
//!   ([`Spec::set_level`]): the level of the state being expanded, 0 for the initial states.
//!   TLC's registers (`TLCSet(i, v)`, `TLCGet(i)`) belong to the evaluator and keep their values
//!   from state to state in the order of evaluation, which is TLC's; each worker of
//!   [`crate::parallel`] starts from the registers the ASSUMEs set, and `sysmo check` explores
//!   with one worker when a definition sets a register (`Model::writes_registers`).
//!   `TLCSet("exit", TRUE)` stops a run as TLC does ([`Spec::exit_requested`]): the state being
//!   expanded (or the initial states) is finished, then the run ends with success; temporal
//!   properties are then reported unchecked, the explored part not being the whole graph.
//! - **Work TLC does again, saved without changing an answer.** A successor found already
//!   stored skips CONSTRAINT when its fingerprint is the state itself (no VIEW, no symmetry: it
//!   satisfied CONSTRAINT when stored); an invariant's conjuncts (through definitions without
//!   parameters) are read in a successor only when one of the variables they may read
//!   (`ConstEval::state_reads`, through every definition they call; never for `TLCGet` and the
//!   like) holds another allocation than in the parent, which satisfied them
//!   ([`Spec::violated_invariant_after`]).
//! - **Coverage.** Successors are enumerated by Next's top-level disjuncts, in TLC's order, and
//!   counted under TLC's actions inside them (`ConstEval::split_action`): the disjuncts where an
//!   action begins are marked by address, and entering one, in a plan's disjunction or in the
//!   interpreter's, sets the number of the action the successors found below it come from;
//!   inside an action taken whole, marks are not followed (a definition split where its
//!   argument is constant and applied whole where it reads the state).

use crate::fpset::{FpSet, Insert};

/// Index of an action (a disjunct of Next) in the spec's own numbering.
pub type ActionId = u32;

/// What the explorer needs from a specification. Implemented by the TLA+ evaluator, and by
/// small hand-written systems in tests.
pub trait Spec {
    type State: Clone;
    type Error: Clone + std::fmt::Debug;

    /// The fingerprint identifying a state (after VIEW and symmetry, if any).
    fn fingerprint(&self, state: &Self::State) -> u64;
    /// Why the state last given to `fingerprint` has no fingerprint (a variable holds an
    /// infinite set, VIEW fails), taken once: explorers ask after each fingerprint of a state
    /// they store and report it as an evaluation error in that state, as TLC does.
    fn take_fingerprint_error(&self) -> Option<Self::Error> {
        None
    }
    /// Every initial state, in the order TLC would generate them.
    fn initial_states(&self, out: &mut Vec<Self::State>) -> Result<(), Self::Error>;
    /// Every successor of `state` with the action that produced it, in TLC's order: action by
    /// action, each action's successors consecutive. On `Err`, `out` holds the successors
    /// produced before the failure, in order (TLC has generated and handled them by then).
    fn successors(&self, state: &Self::State, out: &mut Vec<(ActionId, Self::State)>) -> Result<(), Self::Error>;
    /// How many states were generated on the way to the successors since the last call that
    /// are not successors themselves: the intermediate states of an action composition
    /// (`A \cdot B`), which TLC counts as states generated. Explorers ask after each
    /// `successors`. By default none.
    fn take_intermediate(&self) -> u64 {
        0
    }
    /// The index of the first invariant that `state` violates, if any.
    fn violated_invariant(&self, state: &Self::State) -> Result<Option<usize>, Self::Error>;
    /// The same answer for a successor of `parent`, a state that satisfies every invariant
    /// (it was checked before it was expanded): a spec may skip the parts of an invariant
    /// whose value cannot differ from theirs in `parent`. By default, `violated_invariant`.
    fn violated_invariant_after(&self, _parent: &Self::State, state: &Self::State) -> Result<Option<usize>, Self::Error> {
        self.violated_invariant(state)
    }
    /// The fingerprint of `state` when it identifies the state itself (no VIEW, no symmetry)
    /// and is computed without error; None otherwise (the default). With it, the explorer
    /// looks a successor up before evaluating CONSTRAINT: a state already stored satisfied
    /// CONSTRAINT when it was stored, and CONSTRAINT reads only the state, so the answer would be
    /// the same (a step's ACTION_CONSTRAINT is still evaluated on every step).
    fn identity_fingerprint(&self, _state: &Self::State) -> Option<u64> {
        None
    }
    /// A hint that `state` is expanded soon: level `depth` of its parts (0: the state itself)
    /// may be brought into the cache, the levels above having been brought in before.
    fn warm(&self, _state: &Self::State, _depth: u32) {}
    /// CONSTRAINT: whether `state` is inside the model.
    fn in_model(&self, _state: &Self::State) -> Result<bool, Self::Error> {
        Ok(true)
    }
    /// `in_model` for a successor of `parent`, a state inside the model: a spec may skip the
    /// constraints whose value cannot differ from theirs in `parent`. By default, `in_model`.
    fn in_model_after(&self, _parent: &Self::State, state: &Self::State) -> Result<bool, Self::Error> {
        self.in_model(state)
    }
    /// ACTION_CONSTRAINT: whether the step `from → to` is inside the model.
    fn step_in_model(&self, _from: &Self::State, _to: &Self::State) -> Result<bool, Self::Error> {
        Ok(true)
    }
    /// The action properties (`[][A]_v` of PROPERTY) on the step `from → to`: checked on every
    /// successor, whether new, seen or outside the model; an `Err` is the violation.
    fn check_step(&self, _from: &Self::State, _to: &Self::State) -> Result<(), Self::Error> {
        Ok(())
    }
    /// Number of actions, for coverage.
    fn action_count(&self) -> usize;
    /// The level of the state whose successors are computed and checked next (an initial
    /// state is at level 1), or 0 before the initial states are: what `TLCGet("level")`
    /// answers, as in TLC. Explorers call it before `initial_states` and before `successors`.
    fn set_level(&self, _level: u32) {}
    /// Whether the spec reads the behaviour that leads to the state it evaluates in (TLCExt's
    /// `Trace`). Then the explorer gives it with [`Spec::set_behaviour`], rebuilding it for
    /// every state it expands, as TLC reads it back from its trace file.
    fn reads_behaviour(&self) -> bool {
        false
    }
    /// The behaviour from an initial state to the state evaluated next (its last state), for
    /// the spec to read; `None`: none.
    fn set_behaviour(&self, _states: Option<Vec<Self::State>>) {}
    /// Whether the spec asked the explorer to stop (`TLCSet("exit", TRUE)`): as TLC, the
    /// explorer finishes the state it is expanding (or the initial states), then stops with
    /// success, the states left on the queue unexplored.
    fn exit_requested(&self) -> bool {
        false
    }
}

#[derive(Clone, Debug)]
pub struct Options {
    pub check_deadlock: bool,
    /// Stop with [`Outcome::BudgetExhausted`] once this many distinct states are stored.
    pub max_states: Option<u64>,
    /// Do not expand states at this depth (initial states are at depth 1).
    pub max_depth: Option<u32>,
}

impl Default for Options {
    fn default() -> Self {
        Options { check_deadlock: true, max_states: None, max_depth: None }
    }
}

/// Receives the state graph while the explorer builds it, so that temporal properties can be
/// checked on the graph of the same run instead of a second exploration. States are announced in
/// index order; each expanded state gets `begin`, then `successor` for every successor the spec
/// produced (in order, `target` its stored index, or `None` when it is outside the model), then
/// `end`. An error stops the exploration as an evaluation error would.
pub trait GraphSink<S, E> {
    /// A state was stored under `index`.
    fn state(&mut self, index: u32, state: &S) -> Result<(), E>;
    /// Stored state `index` is being expanded.
    fn begin(&mut self, index: u32, state: &S) -> Result<(), E>;
    fn successor(&mut self, from_index: u32, from: &S, succ: &S, target: Option<u32>) -> Result<(), E>;
    fn end(&mut self, index: u32, state: &S) -> Result<(), E>;
}

/// The sink of an explorer that keeps no graph.
pub struct NoGraph;

impl<S, E> GraphSink<S, E> for NoGraph {
    #[inline]
    fn state(&mut self, _: u32, _: &S) -> Result<(), E> {
        Ok(())
    }
    #[inline]
    fn begin(&mut self, _: u32, _: &S) -> Result<(), E> {
        Ok(())
    }
    #[inline]
    fn successor(&mut self, _: u32, _: &S, _: &S, _: Option<u32>) -> Result<(), E> {
        Ok(())
    }
    #[inline]
    fn end(&mut self, _: u32, _: &S) -> Result<(), E> {
        Ok(())
    }
}

/// A sink that may be absent (a model without temporal properties keeps no graph).
impl<S, E, G: GraphSink<S, E>> GraphSink<S, E> for Option<G> {
    fn state(&mut self, index: u32, state: &S) -> Result<(), E> {
        self.as_mut().map_or(Ok(()), |g| g.state(index, state))
    }
    fn begin(&mut self, index: u32, state: &S) -> Result<(), E> {
        self.as_mut().map_or(Ok(()), |g| g.begin(index, state))
    }
    fn successor(&mut self, from_index: u32, from: &S, succ: &S, target: Option<u32>) -> Result<(), E> {
        self.as_mut().map_or(Ok(()), |g| g.successor(from_index, from, succ, target))
    }
    fn end(&mut self, index: u32, state: &S) -> Result<(), E> {
        self.as_mut().map_or(Ok(()), |g| g.end(index, state))
    }
}

/// What an explorer that kept a graph hands over when it is done: the sink, the fingerprint set
/// (fingerprint → index), the parent of each state (`u32::MAX` for initial states).
pub struct ExploredGraph<G> {
    pub sink: G,
    pub seen: FpSet,
    pub parent: Vec<u32>,
    /// The first index of each BFS level (states are stored level by level).
    pub level_starts: Vec<u32>,
}

/// One state of a trace and the action that led to it (`None` for the initial state).
#[derive(Clone, Debug)]
pub struct TraceStep<S> {
    pub action: Option<ActionId>,
    pub state: S,
}

#[derive(Clone, Debug)]
pub enum Budget {
    States(u64),
    Depth(u32),
}

#[derive(Clone, Debug)]
pub enum Outcome<S, E> {
    /// Every reachable state was explored with no error.
    Success,
    InvariantViolated { invariant: usize, trace: Vec<TraceStep<S>> },
    Deadlock { trace: Vec<TraceStep<S>> },
    /// Evaluation failed; `trace` leads to the state being evaluated (empty if it failed while
    /// computing initial states) and `action` is set when it failed computing successors.
    Error { error: E, trace: Vec<TraceStep<S>> },
    /// The budget ran out before the state space was exhausted; no error was found so far.
    BudgetExhausted(Budget),
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub distinct: u64,
    pub generated: u64,
    /// Number of BFS levels reached (initial states are level 1), as TLC's "depth".
    pub depth: u32,
    /// States waiting in the queue.
    pub queued: u64,
    /// Initial states generated (TLC's "initial" statistic).
    pub initial: u64,
}

/// Per-action coverage: successors generated by the action and new distinct states it found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ActionCoverage {
    pub generated: u64,
    pub distinct: u64,
}

pub enum Status<S, E> {
    /// The slice ended; call [`Explorer::run`] again to continue.
    Running,
    Done(Outcome<S, E>),
}

pub struct Explorer<'a, P: Spec, G: GraphSink<P::State, P::Error> = NoGraph> {
    spec: &'a P,
    sink: G,
    opts: Options,
    seen: FpSet,
    /// Parent index of each stored state (`u32::MAX` for initial states).
    parent: Vec<u32>,
    /// Action that produced each stored state (`ActionId::MAX` for initial states).
    action: Vec<ActionId>,
    /// First index of each BFS level.
    level_starts: Vec<u32>,
    queue: std::collections::VecDeque<(u32, P::State)>,
    stats: Stats,
    coverage: Vec<ActionCoverage>,
    started: bool,
    depth_cut: bool,
    done: bool,
    succ_buf: Vec<(ActionId, P::State)>,
    key_buf: Vec<Option<u64>>,
}

pub(crate) const NO_PARENT: u32 = u32::MAX;

/// How many states ahead of the one expanded are brought into the cache, one level of their
/// values per step (see `Spec::warm`).
const WARM_AHEAD: u32 = 4;

impl<'a, P: Spec> Explorer<'a, P, NoGraph> {
    pub fn new(spec: &'a P, opts: Options) -> Self {
        Explorer::with_graph(spec, opts, NoGraph)
    }
}

impl<'a, P: Spec, G: GraphSink<P::State, P::Error>> Explorer<'a, P, G> {
    /// An explorer that also hands the state graph to `sink` as it goes.
    pub fn with_graph(spec: &'a P, opts: Options, sink: G) -> Self {
        Explorer {
            spec,
            sink,
            opts,
            seen: FpSet::default(),
            parent: Vec::new(),
            action: Vec::new(),
            level_starts: Vec::new(),
            queue: Default::default(),
            stats: Stats::default(),
            coverage: vec![ActionCoverage::default(); spec.action_count()],
            started: false,
            depth_cut: false,
            done: false,
            succ_buf: Vec::new(),
            key_buf: Vec::new(),
        }
    }

    /// The sink, the fingerprint set and the parent links, once the run is over.
    pub fn into_graph(self) -> ExploredGraph<G> {
        ExploredGraph { sink: self.sink, seen: self.seen, parent: self.parent, level_starts: self.level_starts }
    }

    pub fn stats(&self) -> Stats {
        Stats { queued: self.queue.len() as u64, ..self.stats.clone() }
    }

    pub fn coverage(&self) -> &[ActionCoverage] {
        &self.coverage
    }

    /// Approximate bytes held per stored state by the explorer's own tables.
    pub fn heap_bytes(&self) -> usize {
        self.seen.heap_bytes() + self.parent.capacity() * 4 + self.action.capacity() * 4
    }

    /// Depth (1-based BFS level) of a stored state.
    pub fn depth_of(&self, index: u32) -> u32 {
        depth_in(&self.level_starts, index)
    }

    /// Store a state; returns its index and whether it is new.
    fn store(&mut self, fp: u64, parent: u32, action: ActionId) -> (u32, bool) {
        store_in(&mut self.seen, &mut self.parent, &mut self.action, &mut self.stats, fp, parent, action)
    }

    /// Run until done or until `max_expansions` states have been expanded. Never inlined: the
    /// exploration loop stays one compact function instead of growing into its caller
    /// (`run::Run::step`, with the liveness checker's loop), which costs instruction-cache misses.
    #[inline(never)]
    pub fn run(&mut self, max_expansions: usize) -> Status<P::State, P::Error> {
        if self.done {
            // A finished explorer keeps answering Done with Success; callers keep the outcome.
            return Status::Done(Outcome::Success);
        }
        if !self.started {
            self.started = true;
            if let Some(out) = self.start() {
                self.done = true;
                return Status::Done(out);
            }
        }
        let mut expanded = 0;
        while expanded < max_expansions {
            if self.spec.exit_requested() {
                self.done = true;
                return Status::Done(Outcome::Success);
            }
            let Some((index, state)) = self.queue.pop_front() else {
                self.done = true;
                return Status::Done(if self.depth_cut {
                    Outcome::BudgetExhausted(Budget::Depth(self.opts.max_depth.unwrap_or(0)))
                } else {
                    Outcome::Success
                });
            };
            expanded += 1;
            // The states expanded in the next steps, each a level deeper the nearer it is.
            for (k, (_, next)) in self.queue.iter().take(WARM_AHEAD as usize).enumerate() {
                self.spec.warm(next, WARM_AHEAD - 1 - k as u32);
            }
            if let Some(out) = self.expand(index, state) {
                self.done = true;
                return Status::Done(out);
            }
        }
        Status::Running
    }

    /// Run to the end.
    pub fn run_to_end(&mut self) -> Outcome<P::State, P::Error> {
        loop {
            if let Status::Done(o) = self.run(usize::MAX) {
                return o;
            }
        }
    }

    fn start(&mut self) -> Option<Outcome<P::State, P::Error>> {
        let mut inits = Vec::new();
        self.spec.set_level(0);
        if let Err(error) = self.spec.initial_states(&mut inits) {
            return Some(Outcome::Error { error, trace: vec![] });
        }
        self.stats.depth = 1;
        let behaviour = self.spec.reads_behaviour();
        for s in inits {
            self.stats.generated += 1;
            self.stats.initial += 1;
            if behaviour {
                self.spec.set_behaviour(Some(vec![s.clone()]));
            }
            let in_model = match self.spec.in_model(&s) {
                Ok(b) => b,
                Err(error) => return Some(Outcome::Error { error, trace: vec![TraceStep { action: None, state: s }] }),
            };
            let mut new = true;
            let mut stored = None;
            if in_model {
                let fp = self.spec.fingerprint(&s);
                if let Some(error) = self.spec.take_fingerprint_error() {
                    return Some(Outcome::Error { error, trace: vec![TraceStep { action: None, state: s }] });
                }
                let (index, is_new) = self.store(fp, NO_PARENT, ActionId::MAX);
                new = is_new;
                if is_new {
                    stored = Some(index);
                    if let Err(error) = self.sink.state(index, &s) {
                        return Some(Outcome::Error { error, trace: vec![TraceStep { action: None, state: s }] });
                    }
                }
            }
            if new {
                match self.spec.violated_invariant(&s) {
                    Ok(None) => {}
                    Ok(Some(invariant)) => {
                        return Some(Outcome::InvariantViolated {
                            invariant,
                            trace: vec![TraceStep { action: None, state: s }],
                        });
                    }
                    Err(error) => {
                        return Some(Outcome::Error { error, trace: vec![TraceStep { action: None, state: s }] })
                    }
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

    fn expand(&mut self, index: u32, state: P::State) -> Option<Outcome<P::State, P::Error>> {
        let depth = self.depth_of(index);
        if let Some(maxd) = self.opts.max_depth {
            if depth >= maxd {
                self.depth_cut = true;
                return None;
            }
        }
        let mut succs = std::mem::take(&mut self.succ_buf);
        succs.clear();
        // On an error, `succs` holds the successors produced before it: they are processed
        // first, as TLC does, and the error is reported after them.
        self.spec.set_level(depth);
        // The behaviour to `state`, when the spec reads it: for the successors, then with each
        // successor last for its checks.
        let behaviour: Option<Vec<P::State>> =
            self.spec.reads_behaviour().then(|| self.trace_to(index).into_iter().map(|t| t.state).collect());
        if let Some(b) = &behaviour {
            self.spec.set_behaviour(Some(b.clone()));
        }
        let failed = self.spec.successors(&state, &mut succs).err();
        self.stats.generated += self.spec.take_intermediate();
        if failed.is_none() && succs.is_empty() && self.opts.check_deadlock {
            self.succ_buf = succs;
            return Some(Outcome::Deadlock { trace: self.trace_to(index) });
        }
        if let Err(error) = self.sink.begin(index, &state) {
            self.succ_buf = succs;
            return Some(Outcome::Error { error, trace: self.trace_to(index) });
        }
        let mut result = None;
        // The successors' fingerprints first, each slot of the seen set asked of memory before
        // the first is looked up: the table is larger than the caches, and the lookups below
        // then wait for one miss at a time no longer.
        let mut keys = std::mem::take(&mut self.key_buf);
        keys.clear();
        for (_, succ) in succs.iter() {
            let key = self.spec.identity_fingerprint(succ);
            if let Some(fp) = key {
                self.seen.prefetch(fp);
            }
            keys.push(key);
        }
        for ((action, succ), key) in succs.drain(..).zip(keys.drain(..)) {
            self.stats.generated += 1;
            if let Some(c) = self.coverage.get_mut(action as usize) {
                c.generated += 1;
            }
            if let Some(b) = &behaviour {
                let mut to_succ = b.clone();
                to_succ.push(succ.clone());
                self.spec.set_behaviour(Some(to_succ));
            }
            // A successor already stored is inside CONSTRAINT: only the step is checked.
            let known = key.and_then(|fp| self.seen.get(fp));
            let in_model = match if known.is_some() { Ok(true) } else { self.spec.in_model_after(&state, &succ) }.and_then(|b| {
                if b { self.spec.step_in_model(&state, &succ) } else { Ok(false) }
            }) {
                Ok(b) => b,
                Err(error) => {
                    result = Some(self.error_at(index, action, succ, error));
                    break;
                }
            };
            let mut new = true;
            let mut stored = None;
            let mut target = None;
            if in_model {
                let (i, is_new) = match known {
                    Some(i) => (i, false),
                    None => {
                        let fp = key.unwrap_or_else(|| self.spec.fingerprint(&succ));
                        if let Some(error) = self.spec.take_fingerprint_error() {
                            result = Some(self.error_at(index, action, succ, error));
                            break;
                        }
                        self.store(fp, index, action)
                    }
                };
                new = is_new;
                target = Some(i);
                if is_new {
                    stored = Some(i);
                }
            }
            let sunk = match stored {
                Some(i) => self.sink.state(i, &succ),
                None => Ok(()),
            }
            .and_then(|()| self.sink.successor(index, &state, &succ, target));
            if let Err(error) = sunk {
                result = Some(self.error_at(index, action, succ, error));
                break;
            }
            if new {
                if let Some(c) = self.coverage.get_mut(action as usize) {
                    if stored.is_some() {
                        c.distinct += 1;
                    }
                }
                match self.spec.violated_invariant_after(&state, &succ) {
                    Ok(None) => {}
                    Ok(Some(invariant)) => {
                        let mut trace = self.trace_to(index);
                        trace.push(TraceStep { action: Some(action), state: succ });
                        result = Some(Outcome::InvariantViolated { invariant, trace });
                        break;
                    }
                    Err(error) => {
                        result = Some(self.error_at(index, action, succ, error));
                        break;
                    }
                }
            }
            // The action properties, on every step (new, seen or outside the model).
            if let Err(error) = self.spec.check_step(&state, &succ) {
                result = Some(self.error_at(index, action, succ, error));
                break;
            }
            if !new {
                continue;
            }
            if let Some(new_index) = stored {
                if depth as usize == self.level_starts.len() {
                    // The first state of a new BFS level.
                    self.level_starts.push(new_index);
                    self.stats.depth = self.level_starts.len() as u32;
                }
                self.queue.push_back((new_index, succ));
            }
            if let Some(max) = self.opts.max_states {
                if self.stats.distinct >= max {
                    result = Some(Outcome::BudgetExhausted(Budget::States(max)));
                    break;
                }
            }
        }
        succs.clear();
        self.succ_buf = succs;
        keys.clear();
        self.key_buf = keys;
        if result.is_none() {
            if let Some(error) = failed {
                return Some(Outcome::Error { error, trace: self.trace_to(index) });
            }
            if let Err(error) = self.sink.end(index, &state) {
                return Some(Outcome::Error { error, trace: self.trace_to(index) });
            }
        }
        result
    }

    /// An error on the step from stored state `index` to `succ`: the trace to `index`, then `succ`.
    fn error_at(&self, index: u32, action: ActionId, succ: P::State, error: P::Error) -> Outcome<P::State, P::Error> {
        let mut trace = self.trace_to(index);
        trace.push(TraceStep { action: Some(action), state: succ });
        Outcome::Error { error, trace }
    }

    /// Rebuild the states leading to stored state `index` by replaying the recorded actions.
    pub fn trace_to(&self, index: u32) -> Vec<TraceStep<P::State>> {
        replay_trace(self.spec, &self.seen, &self.parent, &self.action, index)
    }
}

/// Store a state's fingerprint with its parent and action (the next index), unless seen;
/// returns its index and whether it is new. Both explorers store this way.
#[inline]
pub(crate) fn store_in(seen: &mut FpSet, parents: &mut Vec<u32>, actions: &mut Vec<ActionId>, stats: &mut Stats, fp: u64, parent: u32, action: ActionId) -> (u32, bool) {
    let index = parents.len() as u32;
    match seen.insert(fp, index) {
        Insert::New => {
            parents.push(parent);
            actions.push(action);
            stats.distinct += 1;
            (index, true)
        }
        Insert::Seen(i) => (i, false),
    }
}

/// Depth (1-based BFS level) of state `index`, given the first index of each level.
pub(crate) fn depth_in(level_starts: &[u32], index: u32) -> u32 {
    level_starts.partition_point(|&start| start <= index) as u32
}

/// Rebuild the states leading to stored state `index` by replaying the recorded actions: the
/// initial state with the right fingerprint, then the successor by the recorded action with the
/// right fingerprint at each step.
pub(crate) fn replay_trace<P: Spec>(
    spec: &P,
    seen: &FpSet,
    parent: &[u32],
    action: &[ActionId],
    index: u32,
) -> Vec<TraceStep<P::State>> {
    let mut path = vec![index];
    let mut i = index;
    while parent[i as usize] != NO_PARENT {
        i = parent[i as usize];
        path.push(i);
    }
    path.reverse();
    let mut trace: Vec<TraceStep<P::State>> = Vec::with_capacity(path.len());
    let mut inits = Vec::new();
    spec.set_level(0);
    if spec.reads_behaviour() {
        spec.set_behaviour(None);
    }
    if spec.initial_states(&mut inits).is_err() {
        return trace;
    }
    let first = path[0];
    let Some(s0) = inits.into_iter().find(|s| seen.get(spec.fingerprint(s)) == Some(first)) else {
        return trace;
    };
    trace.push(TraceStep { action: None, state: s0 });
    for &i in &path[1..] {
        let want_action = action[i as usize];
        let mut succs = Vec::new();
        // When a later action fails, the step may still be one of the earlier actions'.
        spec.set_level(trace.len() as u32);
        if spec.reads_behaviour() {
            // The successors of a state read the behaviour to it, as when it was expanded.
            spec.set_behaviour(Some(trace.iter().map(|t| t.state.clone()).collect()));
        }
        let _ = spec.successors(&trace.last().unwrap().state, &mut succs);
        let Some((a, s)) =
            succs.into_iter().find(|(a, s)| *a == want_action && seen.get(spec.fingerprint(s)) == Some(i))
        else {
            return trace;
        };
        trace.push(TraceStep { action: Some(a), state: s });
    }
    trace
}
