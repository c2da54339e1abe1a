//! Liveness checking on the behaviour graph, TLC's way, generic over [`LiveSpec`].
//!
//! `Spec => Prop` is checked by looking for a behaviour of the spec that satisfies
//! `Fairness /\ ~Prop`. `~Prop` is put in negation normal form and split into disjuncts (see
//! [`formula`]); each disjunct has conditions on the initial state, `<>[]` conditions, `[]<>`
//! conditions and a tableau part. The fairness conditions are not expanded into disjuncts: weak
//! fairness is a `[]<>` condition (`~ENABLED \/ taken` somewhere on the cycle) and strong fairness
//! a Streett condition, decided per component by removing the states where the action is enabled
//! and splitting the component again (Emerson–Lei). This keeps the work linear in the number of
//! fairness conditions, where a DNF of the fairness would be exponential.
//!
//! The run has two phases. First a breadth-first search stores the reachable state graph: per
//! state its fingerprint, parent, the truth of every state atom, and its edges in CSR form with
//! the truth of every action atom on each edge. Every state gets a stuttering edge to itself (a
//! real step back to the same state is the same pair of states, so it is stored once). Then, per
//! disjunct, the graph (or its product with the disjunct's tableau) is searched for a reachable
//! component that satisfies every condition; the counterexample is a lasso rebuilt by replaying
//! the spec, as the explorer rebuilds traces.
//!
//! Architecture invariant: nothing here does I/O, reads a clock, starts a thread or recurses
//! over the graph; the graph phase runs in slices of state expansions.
//!
//! One exploration for safety and liveness: the checker is the explorer's
//! [`crate::GraphSink`], storing edges and atom bits while the safety run goes, and then takes
//! over its fingerprint set ([`LivenessChecker::adopt`]) for the analysis of every temporal
//! property on that one graph. Fairness on the whole next-state relation (`WF_vars(Next)`) is
//! read off the successors already computed, not evaluated again. The sink is single-threaded:
//! `sysmo check` with temporal properties explores with one worker.

mod formula;
mod scc;
mod tableau;

pub use formula::{AtomId, FormulaError, Temporal};

use crate::explore::{ActionId, GraphSink, Spec, TraceStep};
use crate::fpset::{FpSet, Insert};
use formula::{Atoms, Disjunct, bit};
use scc::{Layout, Search, View, has, set};
use std::collections::{HashMap, VecDeque};
use tableau::Tableau;

/// What the liveness checker needs beyond [`Spec`]: the truth of atoms.
pub trait LiveSpec: Spec {
    /// The value of a state atom (a state predicate, possibly `ENABLED`) on `state`.
    fn state_atom(&self, state: &Self::State, atom: AtomId) -> Result<bool, Self::Error>;
    /// The value of an action atom on the step `from → to`; `to` equals `from` for a stuttering
    /// step, on which `<<A>>_v` is false and `[A]_v` true.
    fn action_atom(&self, from: &Self::State, to: &Self::State, atom: AtomId) -> Result<bool, Self::Error>;
    /// Whether `atom` can be read off the successors the graph phase computes anyway: it is
    /// `ENABLED <<N>>_v` (a state atom) or `<<N>>_v` (an action atom) where `N` is the whole
    /// next-state relation, the one [`Spec::successors`] enumerates. Then `ENABLED <<N>>_v` holds
    /// in a state exactly when some successor changes `v`, and every edge of the graph is an
    /// `N` step, so `<<N>>_v` holds on it exactly when it changes `v`: no action is evaluated
    /// again. (`WF_vars(Next)` is the common case.)
    /// `on_steps` tells whether `atom` is an action atom (a state atom otherwise).
    fn next_atom(&self, _atom: AtomId, _on_steps: bool) -> bool {
        false
    }
    /// For an atom [`LiveSpec::next_atom`] recognises: whether the step `from → to` changes its
    /// subscript `v`.
    fn changes_subscript(&self, _atom: AtomId, _from: &Self::State, _to: &Self::State) -> Result<bool, Self::Error> {
        Ok(true)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FairnessKind {
    /// `WF_v(A)`: `[]<>~ENABLED <<A>>_v \/ []<><<A>>_v`.
    Weak,
    /// `SF_v(A)`: `<>[]~ENABLED <<A>>_v \/ []<><<A>>_v`.
    Strong,
}

/// One fairness condition of the spec (quantified forms expanded by the caller).
#[derive(Clone, Debug)]
pub struct Fairness {
    pub kind: FairnessKind,
    /// State atom: `ENABLED <<A>>_v`.
    pub enabled: AtomId,
    /// Action atom: `<<A>>_v`.
    pub taken: AtomId,
    pub label: String,
}

#[derive(Clone, Debug)]
pub struct LiveOptions {
    /// Stop with [`LiveOutcome::BudgetExhausted`] once this many distinct states are stored.
    pub max_states: Option<u64>,
    /// Stop once a product with a tableau has this many nodes.
    pub max_product_nodes: Option<u64>,
    /// Most disjuncts `~Prop` may split into.
    pub max_disjuncts: usize,
}

impl Default for LiveOptions {
    fn default() -> Self {
        LiveOptions { max_states: None, max_product_nodes: None, max_disjuncts: 4096 }
    }
}

/// How a state of a lasso was reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Initial,
    Action(ActionId),
    /// A step that changes no variable.
    Stutter,
}

#[derive(Clone, Debug)]
pub struct LassoStep<S> {
    pub step: Step,
    pub state: S,
}

/// How one fairness condition is met on the cycle of a lasso.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FairnessOnCycle {
    pub label: String,
    pub kind: FairnessKind,
    /// The action is enabled in every state of the cycle.
    pub enabled_everywhere: bool,
    /// The action is enabled in some state of the cycle.
    pub enabled_somewhere: bool,
    /// Some step of the cycle takes the action.
    pub taken: bool,
}

/// A behaviour that violates the property: `steps`, then forever the cycle from
/// `steps[cycle_start]` to the last state and back to `steps[cycle_start]` by `back`.
#[derive(Clone, Debug)]
pub struct Lasso<S> {
    pub steps: Vec<LassoStep<S>>,
    pub cycle_start: usize,
    pub back: Step,
    /// Which disjunct of `~Prop` the behaviour satisfies, and that disjunct.
    pub disjunct: usize,
    pub disjunct_formula: Temporal,
    /// Which of the checked properties (by position) the behaviour violates.
    pub property: usize,
    pub fairness: Vec<FairnessOnCycle>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LiveBudget {
    States(u64),
    ProductNodes(u64),
    /// More states than 32-bit indices can name.
    Indices,
}

#[derive(Clone, Debug)]
pub enum LiveOutcome<S, E> {
    /// Every fair behaviour satisfies the property.
    Holds,
    Violated(Box<Lasso<S>>),
    /// Evaluation failed; `trace` leads to the state being evaluated.
    Error { error: E, trace: Vec<TraceStep<S>> },
    BudgetExhausted(LiveBudget),
    /// The spec did not reproduce a state while a counterexample was replayed (its successors
    /// or fingerprints are not deterministic).
    ReplayFailed,
}

pub enum LiveStatus<S, E> {
    Running,
    Done(LiveOutcome<S, E>),
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LiveStats {
    pub states: u64,
    /// Edges of the state graph, stuttering edges included.
    pub edges: u64,
    pub disjuncts: u64,
    pub product_nodes: u64,
    pub product_edges: u64,
    pub components: u64,
}

/// The stored state graph.
struct StateGraph {
    seen: FpSet,
    parent: Vec<u32>,
    offsets: Vec<u32>,
    targets: Vec<u32>,
    /// State atom bits, `sw` words per state.
    sbits: Vec<u64>,
    /// Action atom bits, `aw` words per edge.
    abits: Vec<u64>,
    sw: usize,
    aw: usize,
    initial: Vec<u32>,
    /// The first index of each BFS level (states are stored level by level), for the level
    /// `TLCGet("level")` answers while a state is expanded (see [`Spec::set_level`]).
    level_starts: Vec<u32>,
}

impl StateGraph {
    /// The BFS level of stored state `s` (1 for an initial state).
    fn depth(&self, s: u32) -> u32 {
        crate::explore::depth_in(&self.level_starts, s)
    }
    fn sbits(&self, s: u32) -> &[u64] {
        &self.sbits[s as usize * self.sw..(s as usize + 1) * self.sw]
    }
    fn abits(&self, e: usize) -> &[u64] {
        &self.abits[e * self.aw..(e + 1) * self.aw]
    }
}

const NO_PARENT: u32 = u32::MAX;

enum Phase {
    Start,
    Graph,
    Analyse(usize),
    Done,
}

pub struct LivenessChecker<'a, P: LiveSpec> {
    spec: &'a P,
    opts: LiveOptions,
    fairness: Vec<Fairness>,
    /// (enabled state bit, taken action bit) of each fairness condition.
    fair_bits: Vec<(u32, u32)>,
    state_atoms: Vec<AtomId>,
    action_atoms: Vec<AtomId>,
    /// Per state bit: read off the successors ([`LiveSpec::next_atom`]) rather than evaluated.
    next_state: Vec<bool>,
    /// Per action bit: the same for action atoms.
    next_action: Vec<bool>,
    /// Per action bit: a state bit that is false wherever the action atom is false on every
    /// step: a fairness condition's `<<A>>_v` is taken only from a state where its
    /// `ENABLED <<A>>_v` holds. The state bit is known when the row's edges are built, so
    /// the action is evaluated on the steps of the states where it is enabled only (a spec
    /// with many fairness conditions has most of them disabled in most states).
    action_guard: Vec<Option<usize>>,
    /// While a state is expanded: which of its successor-derived state bits are true so far.
    enabled_now: Vec<bool>,
    /// The first edge of the row being built.
    row_start: usize,
    /// Each disjunct of a negated property, with the property's position.
    disjuncts: Vec<(usize, Disjunct)>,
    g: StateGraph,
    queue: VecDeque<(u32, P::State)>,
    phase: Phase,
    /// After a property is found violated: the first disjunct of the properties after it,
    /// where [`LivenessChecker::check_rest`] goes on.
    rest_from: Option<usize>,
    /// The state budget stopped the graph phase: the graph holds the rows of the states
    /// expanded so far, and the others have none. A lasso found in it is a behaviour of the
    /// spec (its states and steps are real, and fairness is judged on expanded states only), so
    /// a violation stands; finding none proves nothing, and the run ends over budget.
    partial: bool,
    stats: LiveStats,
    succ_buf: Vec<(ActionId, P::State)>,
}

impl<'a, P: LiveSpec> LivenessChecker<'a, P> {
    /// Prepare a check of `property` under `fairness`.
    pub fn new(
        spec: &'a P,
        fairness: &[Fairness],
        property: &Temporal,
        opts: LiveOptions,
    ) -> Result<Self, FormulaError> {
        Self::new_many(spec, fairness, std::slice::from_ref(property), opts)
    }

    /// Prepare a check of several properties on one state graph. They are analysed in order
    /// and the run ends at the first one violated ([`Lasso::property`] says which).
    pub fn new_many(
        spec: &'a P,
        fairness: &[Fairness],
        properties: &[Temporal],
        opts: LiveOptions,
    ) -> Result<Self, FormulaError> {
        let mut atoms = Atoms::default();
        let mut disjuncts = Vec::new();
        for (i, property) in properties.iter().enumerate() {
            let negated = formula::nnf(property, true, &mut atoms, 0)?;
            let left = opts.max_disjuncts.saturating_sub(disjuncts.len()).max(1);
            disjuncts.extend(formula::disjuncts(&negated, left)?.into_iter().map(|d| (i, d)));
        }
        let fair_bits =
            fairness.iter().map(|f| (atoms.state_bit(f.enabled), atoms.action_bit(f.taken))).collect();
        let sw = atoms.state.len().div_ceil(64);
        let aw = atoms.action.len().div_ceil(64);
        let state_atoms = atoms.state_list();
        let action_atoms = atoms.action_list();
        let next_state: Vec<bool> = state_atoms.iter().map(|&a| spec.next_atom(a, false)).collect();
        let next_action: Vec<bool> = action_atoms.iter().map(|&a| spec.next_atom(a, true)).collect();
        let mut action_guard = vec![None; action_atoms.len()];
        for &(enabled, taken) in &fair_bits {
            let (enabled, taken) = (enabled as usize, taken as usize);
            if !next_state[enabled] && !next_action[taken] {
                action_guard[taken] = Some(enabled);
            }
        }
        Ok(LivenessChecker {
            spec,
            opts,
            fairness: fairness.to_vec(),
            fair_bits,
            enabled_now: vec![false; next_state.len()],
            next_state,
            next_action,
            action_guard,
            row_start: 0,
            state_atoms,
            action_atoms,
            disjuncts,
            g: StateGraph {
                seen: FpSet::default(),
                parent: Vec::new(),
                level_starts: Vec::new(),
                offsets: Vec::new(),
                targets: Vec::new(),
                sbits: Vec::new(),
                abits: Vec::new(),
                sw,
                aw,
                initial: Vec::new(),
            },
            queue: VecDeque::new(),
            phase: Phase::Start,
            rest_from: None,
            partial: false,
            stats: LiveStats { disjuncts: 0, ..LiveStats::default() },
            succ_buf: Vec::new(),
        })
    }

    pub fn stats(&self) -> LiveStats {
        LiveStats { disjuncts: self.disjuncts.len() as u64, ..self.stats.clone() }
    }

    /// Approximate bytes held by the stored state graph.
    pub fn heap_bytes(&self) -> usize {
        self.g.seen.heap_bytes()
            + (self.g.parent.capacity() + self.g.offsets.capacity() + self.g.targets.capacity()) * 4
            + (self.g.sbits.capacity() + self.g.abits.capacity()) * 8
    }

    /// Run until done, or until `max_expansions` states have been expanded (the graph phase), or
    /// one disjunct has been analysed (the analysis phase).
    pub fn run(&mut self, max_expansions: usize) -> LiveStatus<P::State, P::Error> {
        match self.phase {
            Phase::Done => LiveStatus::Done(LiveOutcome::Holds),
            Phase::Start => {
                self.phase = Phase::Graph;
                match self.start() {
                    Some(o) => self.finish(o),
                    None => LiveStatus::Running,
                }
            }
            Phase::Graph => {
                let mut expanded = 0;
                while expanded < max_expansions {
                    if self.over_budget().is_some() {
                        self.close_partial();
                        return LiveStatus::Running;
                    }
                    let Some((index, state)) = self.queue.pop_front() else {
                        self.g.offsets.push(self.g.targets.len() as u32);
                        self.phase = Phase::Analyse(0);
                        return LiveStatus::Running;
                    };
                    expanded += 1;
                    if let Some(o) = self.expand(index, state) {
                        return self.finish(o);
                    }
                }
                LiveStatus::Running
            }
            Phase::Analyse(d) => {
                if d >= self.disjuncts.len() {
                    if self.partial {
                        let max = self.opts.max_states.unwrap_or(self.stats.states);
                        return self.finish(LiveOutcome::BudgetExhausted(LiveBudget::States(max)));
                    }
                    return self.finish(LiveOutcome::Holds);
                }
                self.phase = Phase::Analyse(d + 1);
                match self.analyse(d) {
                    Some(o) => {
                        if let LiveOutcome::Violated(lasso) = &o {
                            let next = self.disjuncts.iter().position(|(p, _)| *p > lasso.property);
                            self.rest_from = Some(next.unwrap_or(self.disjuncts.len()));
                        }
                        self.finish(o)
                    }
                    None => LiveStatus::Running,
                }
            }
        }
    }

    pub fn run_to_end(&mut self) -> LiveOutcome<P::State, P::Error> {
        loop {
            if let LiveStatus::Done(o) = self.run(usize::MAX) {
                return o;
            }
        }
    }

    /// After a run that ended with a property violated: go on with the properties after it,
    /// on the same graph (the run then ends as a run of those properties alone would). False,
    /// and nothing changes, after any other end.
    pub fn check_rest(&mut self) -> bool {
        match self.rest_from.take() {
            Some(d) => {
                self.phase = Phase::Analyse(d);
                true
            }
            None => false,
        }
    }

    /// The state budget is spent: the states stored but not expanded get empty rows (no edge,
    /// not even stuttering: no cycle goes through them), and the analysis looks for lassos
    /// among the expanded ones.
    fn close_partial(&mut self) {
        self.partial = true;
        self.queue.clear();
        while self.g.offsets.len() < self.g.parent.len() {
            self.g.offsets.push(self.g.targets.len() as u32);
        }
        self.g.offsets.push(self.g.targets.len() as u32);
        self.phase = Phase::Analyse(0);
    }

    fn finish(&mut self, o: LiveOutcome<P::State, P::Error>) -> LiveStatus<P::State, P::Error> {
        self.phase = Phase::Done;
        self.queue.clear();
        LiveStatus::Done(o)
    }

    // ---------------------------------------------------------------- the graph phase

    /// Hand over the graph an [`crate::Explorer`] built with this checker as its sink (see
    /// [`crate::Explorer::with_graph`]); the explorer must have expanded every state it stored
    /// (a run that ended in success). The check goes on with the analysis.
    pub fn adopt(&mut self, seen: FpSet, parent: Vec<u32>, level_starts: Vec<u32>) {
        self.g.initial = (0..parent.len() as u32).filter(|&i| parent[i as usize] == NO_PARENT).collect();
        self.stats.states = parent.len() as u64;
        self.g.seen = seen;
        self.g.level_starts = level_starts;
        self.g.parent = parent;
        self.g.offsets.push(self.g.targets.len() as u32);
        self.queue.clear();
        self.phase = Phase::Analyse(0);
    }

    /// Store `state` if new; returns its index and whether it is new.
    fn store(&mut self, state: &P::State, parent: u32) -> Result<(u32, bool), LiveOutcome<P::State, P::Error>> {
        let index = self.g.parent.len();
        if index >= (u32::MAX - 1) as usize {
            return Err(LiveOutcome::BudgetExhausted(LiveBudget::Indices));
        }
        let fp = self.spec.fingerprint(state);
        if let Some(error) = self.spec.take_fingerprint_error() {
            let mut trace = self.trace_to(parent);
            trace.push(TraceStep { action: None, state: state.clone() });
            return Err(LiveOutcome::Error { error, trace });
        }
        match self.g.seen.insert(fp, index as u32) {
            Insert::Seen(i) => Ok((i, false)),
            Insert::New => {
                let depth = if parent == NO_PARENT { 1 } else { self.g.depth(parent) + 1 };
                if depth as usize > self.g.level_starts.len() {
                    self.g.level_starts.push(index as u32);
                }
                self.g.parent.push(parent);
                self.stats.states += 1;
                if let Err(error) = self.state_bits(index as u32, state) {
                    let mut trace = self.trace_to(parent);
                    trace.push(TraceStep { action: None, state: state.clone() });
                    return Err(LiveOutcome::Error { error, trace });
                }
                Ok((index as u32, true))
            }
        }
    }

    /// The state atoms of stored state `index`, but those read off its successors.
    fn state_bits(&mut self, index: u32, state: &P::State) -> Result<(), P::Error> {
        let base = self.g.sbits.len();
        debug_assert_eq!(base, index as usize * self.g.sw);
        self.g.sbits.resize(base + self.g.sw, 0);
        for (b, &atom) in self.state_atoms.iter().enumerate() {
            if !self.next_state[b] && self.spec.state_atom(state, atom)? {
                set(&mut self.g.sbits[base..], b);
            }
        }
        Ok(())
    }

    /// Start the row of edges of state `index`, with its stuttering edge.
    fn begin_row(&mut self, index: u32, state: &P::State) -> Result<(), P::Error> {
        // States are expanded in index order, so the CSR rows are appended in order.
        debug_assert_eq!(self.g.offsets.len(), index as usize);
        self.row_start = self.g.targets.len();
        self.g.offsets.push(self.row_start as u32);
        self.enabled_now.iter_mut().for_each(|b| *b = false);
        self.push_edge(index, state, state, index, true)
    }

    /// A successor of the state whose row is open: the successor-derived state atoms, and the
    /// edge to `target` when the successor is inside the model.
    fn successor_edge(&mut self, index: u32, from: &P::State, succ: &P::State, target: Option<u32>) -> Result<(), P::Error> {
        for (b, &atom) in self.state_atoms.iter().enumerate() {
            if self.next_state[b] && !self.enabled_now[b] && self.spec.changes_subscript(atom, from, succ)? {
                self.enabled_now[b] = true;
            }
        }
        let Some(target) = target else { return Ok(()) };
        // The same pair of states is the same step: store it once.
        let row = &self.g.targets[self.row_start..];
        if target == index || (row.len() <= 16 && row.contains(&target)) {
            return Ok(());
        }
        self.push_edge(index, from, succ, target, false)
    }

    /// Close the row of state `index`: set the state atoms read off its successors.
    fn end_row(&mut self, index: u32) {
        let base = index as usize * self.g.sw;
        for (b, &on) in self.enabled_now.iter().enumerate() {
            if on {
                set(&mut self.g.sbits[base..base + self.g.sw], b);
            }
        }
    }

    fn start(&mut self) -> Option<LiveOutcome<P::State, P::Error>> {
        let mut inits = Vec::new();
        self.spec.set_level(0);
        if let Err(error) = self.spec.initial_states(&mut inits) {
            return Some(LiveOutcome::Error { error, trace: vec![] });
        }
        for s in inits {
            match self.spec.in_model(&s) {
                Ok(true) => {}
                Ok(false) => continue,
                Err(error) => {
                    return Some(LiveOutcome::Error { error, trace: vec![TraceStep { action: None, state: s }] });
                }
            }
            match self.store(&s, NO_PARENT) {
                Err(o) => return Some(o),
                Ok((i, true)) => {
                    self.g.initial.push(i);
                    self.queue.push_back((i, s));
                }
                Ok((_, false)) => {}
            }
            if let Some(o) = self.over_budget() {
                return Some(o);
            }
        }
        None
    }

    fn over_budget(&self) -> Option<LiveOutcome<P::State, P::Error>> {
        match self.opts.max_states {
            Some(max) if self.stats.states >= max && !self.queue.is_empty() => {
                Some(LiveOutcome::BudgetExhausted(LiveBudget::States(max)))
            }
            _ => None,
        }
    }

    /// Append an edge `from → to` (`from` is stored state `index`) and the action atoms on it
    /// (`stutter`: `to` is `from`).
    fn push_edge(&mut self, index: u32, from: &P::State, to: &P::State, target: u32, stutter: bool) -> Result<(), P::Error> {
        self.g.targets.push(target);
        self.stats.edges += 1;
        let base = self.g.abits.len();
        self.g.abits.resize(base + self.g.aw, 0);
        let sw = self.g.sw;
        for (b, &atom) in self.action_atoms.iter().enumerate() {
            let on = if self.next_action[b] {
                !stutter && self.spec.changes_subscript(atom, from, to)?
            } else if let Some(g) = self.action_guard[b] {
                let from_bits = &self.g.sbits[index as usize * sw..(index as usize + 1) * sw];
                !stutter && has(from_bits, g) && self.spec.action_atom(from, to, atom)?
            } else {
                self.spec.action_atom(from, to, atom)?
            };
            if on {
                set(&mut self.g.abits[base..], b);
            }
        }
        Ok(())
    }

    fn expand(&mut self, index: u32, state: P::State) -> Option<LiveOutcome<P::State, P::Error>> {
        if self.g.targets.len() >= u32::MAX as usize - 1 {
            return Some(LiveOutcome::BudgetExhausted(LiveBudget::Indices));
        }
        if let Err(error) = self.begin_row(index, &state) {
            return Some(LiveOutcome::Error { error, trace: self.trace_to(index) });
        }
        let mut succs = std::mem::take(&mut self.succ_buf);
        succs.clear();
        // On an error, the successors produced before it come first.
        self.spec.set_level(self.g.depth(index));
        let failed = self.spec.successors(&state, &mut succs).err();
        let mut result = None;
        for (action, succ) in succs.drain(..) {
            let inside = self
                .spec
                .in_model(&succ)
                .and_then(|b| if b { self.spec.step_in_model(&state, &succ) } else { Ok(false) });
            let target = match inside {
                Ok(true) => match self.store(&succ, index) {
                    Ok(x) => Some(x),
                    Err(o) => {
                        result = Some(o);
                        break;
                    }
                },
                Ok(false) => None,
                Err(error) => {
                    let mut trace = self.trace_to(index);
                    trace.push(TraceStep { action: Some(action), state: succ });
                    result = Some(LiveOutcome::Error { error, trace });
                    break;
                }
            };
            // The action properties, on every step (new, seen or outside the model).
            let checked = self
                .successor_edge(index, &state, &succ, target.map(|t| t.0))
                .and_then(|()| self.spec.check_step(&state, &succ));
            if let Err(error) = checked {
                let mut trace = self.trace_to(index);
                trace.push(TraceStep { action: Some(action), state: succ });
                result = Some(LiveOutcome::Error { error, trace });
                break;
            }
            if let Some((t, true)) = target {
                // The state budget is looked at between rows (`run`): a row is whole or absent.
                self.queue.push_back((t, succ));
            }
        }
        succs.clear();
        self.succ_buf = succs;
        if result.is_none() {
            if let Some(error) = failed {
                return Some(LiveOutcome::Error { error, trace: self.trace_to(index) });
            }
            self.end_row(index);
        }
        result
    }

    // ---------------------------------------------------------------- replay

    /// The concrete states along stored indices, replayed from an initial state. The first step is
    /// `Initial`; consecutive equal indices are stuttering steps.
    fn replay(&self, path: &[u32]) -> Option<Vec<LassoStep<P::State>>> {
        let first = *path.first()?;
        let mut inits = Vec::new();
        self.spec.set_level(0);
        self.spec.initial_states(&mut inits).ok()?;
        let s0 = inits.into_iter().find(|s| self.g.seen.get(self.spec.fingerprint(s)) == Some(first))?;
        let mut out = vec![LassoStep { step: Step::Initial, state: s0 }];
        let mut prev = first;
        for &i in &path[1..] {
            let cur = &out.last()?.state;
            if i == prev {
                let state = cur.clone();
                out.push(LassoStep { step: Step::Stutter, state });
                continue;
            }
            let mut succs = Vec::new();
            // When a later action fails, the step may still be one of the earlier actions'.
            self.spec.set_level(self.g.depth(prev));
            let _ = self.spec.successors(cur, &mut succs);
            let (a, s) =
                succs.into_iter().find(|(_, s)| self.g.seen.get(self.spec.fingerprint(s)) == Some(i))?;
            out.push(LassoStep { step: Step::Action(a), state: s });
            prev = i;
        }
        Some(out)
    }

    fn trace_to(&self, index: u32) -> Vec<TraceStep<P::State>> {
        if index == NO_PARENT {
            return vec![];
        }
        let mut path = vec![index];
        let mut i = index;
        while let Some(&p) = self.g.parent.get(i as usize) {
            if p == NO_PARENT {
                break;
            }
            path.push(p);
            i = p;
        }
        path.reverse();
        self.replay(&path)
            .unwrap_or_default()
            .into_iter()
            .map(|s| TraceStep {
                action: match s.step {
                    Step::Action(a) => Some(a),
                    _ => None,
                },
                state: s.state,
            })
            .collect()
    }

    // ---------------------------------------------------------------- the analysis phase

    fn analyse(&mut self, d: usize) -> Option<LiveOutcome<P::State, P::Error>> {
        let disjunct = self.disjuncts[d].1.clone();
        let g = &self.g;
        let roots: Vec<u32> =
            g.initial.iter().copied().filter(|&s| disjunct.init.iter().all(|f| f.eval(g.sbits(s), &[]))).collect();
        if roots.is_empty() {
            return None;
        }
        let nwf = self.fairness.iter().filter(|f| f.kind == FairnessKind::Weak).count();
        let nsf = self.fairness.len() - nwf;
        if disjunct.tableau.is_empty() {
            let layout = Layout::new(disjunct.ae.len(), nwf, nsf, 0);
            let view = View { offsets: &g.offsets, targets: &g.targets };
            let mut bits = vec![0u64; g.targets.len() * layout.words];
            for s in 0..view.nodes() as u32 {
                for e in view.edges(s) {
                    self.edge_bits(&disjunct, &layout, s, e, None, &mut bits[e * layout.words..(e + 1) * layout.words]);
                }
            }
            let (out, components) = self.search(d, &disjunct, view, &bits, &layout, &roots, roots.len() == g.initial.len(), |n| n);
            self.stats.components += components;
            return out;
        }
        let tableau = match Tableau::build(&disjunct.tableau) {
            Ok(t) => t,
            // Over-large tableaux are reported as a budget: the property is too big to check here.
            Err(_) => return Some(LiveOutcome::BudgetExhausted(LiveBudget::ProductNodes(0))),
        };
        let product = match self.product(&tableau, &roots) {
            Ok(p) => p,
            Err(o) => return Some(o),
        };
        self.stats.product_nodes += product.state.len() as u64;
        self.stats.product_edges += product.targets.len() as u64;
        let layout = Layout::new(disjunct.ae.len(), nwf, nsf, tableau.eventualities);
        let view = View { offsets: &product.offsets, targets: &product.targets };
        let mut bits = vec![0u64; product.targets.len() * layout.words];
        for n in 0..view.nodes() as u32 {
            let s = product.state[n as usize];
            let particle = &tableau.particles[product.particle[n as usize] as usize];
            for e in view.edges(n) {
                let se = product.sedge[e] as usize;
                self.edge_bits(
                    &disjunct,
                    &layout,
                    s,
                    se,
                    Some(&particle.postponed),
                    &mut bits[e * layout.words..(e + 1) * layout.words],
                );
            }
        }
        let (out, components) =
            self.search(d, &disjunct, view, &bits, &layout, &product.roots, true, |n| product.state[n as usize]);
        self.stats.components += components;
        out
    }

    /// The condition bits of the edge whose source is state `s` and whose state-graph edge is `e`.
    fn edge_bits(&self, d: &Disjunct, l: &Layout, s: u32, e: usize, postponed: Option<&[u32]>, out: &mut [u64]) {
        let sb = self.g.sbits(s);
        let ab = self.g.abits(e);
        if d.ea.iter().all(|f| f.eval(sb, ab)) {
            set(out, Layout::ALLOWED);
        }
        for (i, f) in d.ae.iter().enumerate() {
            if f.eval(sb, ab) {
                set(out, l.ae_bit(i));
            }
        }
        let (mut w, mut k) = (0, 0);
        for (f, &(en, tk)) in self.fairness.iter().zip(&self.fair_bits) {
            let enabled = bit(sb, en);
            let taken = bit(ab, tk);
            match f.kind {
                FairnessKind::Weak => {
                    if !enabled || taken {
                        set(out, l.wf_bit(w));
                    }
                    w += 1;
                }
                FairnessKind::Strong => {
                    if taken {
                        set(out, l.sf_taken_bit(k));
                    }
                    if enabled {
                        set(out, l.sf_enabled_bit(k));
                    }
                    k += 1;
                }
            }
        }
        if let Some(p) = postponed {
            for i in 0..l.accept {
                if !p.contains(&(i as u32)) {
                    set(out, l.accept_bit(i));
                }
            }
        }
    }

    /// The product of the state graph with a tableau, from the initial states in `roots`.
    fn product(&self, t: &Tableau, roots: &[u32]) -> Result<Product, LiveOutcome<P::State, P::Error>> {
        let g = &self.g;
        let mut p = Product::default();
        let mut ids = ProductIds::new(g.parent.len(), t.particles.len());
        let mut queue = VecDeque::new();
        let budget = self.opts.max_product_nodes;
        let add = |p: &mut Product, ids: &mut ProductIds, queue: &mut VecDeque<u32>, s: u32, q: u32| {
            if let Some(n) = ids.get(s, q) {
                return Ok(n);
            }
            let n = p.state.len() as u32;
            if budget.is_some_and(|b| n as u64 >= b) {
                return Err(LiveOutcome::BudgetExhausted(LiveBudget::ProductNodes(budget.unwrap_or(0))));
            }
            if n >= u32::MAX - 1 {
                return Err(LiveOutcome::BudgetExhausted(LiveBudget::Indices));
            }
            ids.insert(s, q, n);
            p.state.push(s);
            p.particle.push(q);
            queue.push_back(n);
            Ok(n)
        };
        for &s in roots {
            for &q in &t.particles_of[t.root as usize] {
                if t.particles[q as usize].state_ok(g.sbits(s)) {
                    let n = add(&mut p, &mut ids, &mut queue, s, q)?;
                    p.roots.push(n);
                }
            }
        }
        let sview = View { offsets: &g.offsets, targets: &g.targets };
        while let Some(n) = queue.pop_front() {
            p.offsets.push(p.targets.len() as u32);
            let s = p.state[n as usize];
            let particle = &t.particles[p.particle[n as usize] as usize];
            for e in sview.edges(s) {
                if !particle.action_ok(g.abits(e)) {
                    continue;
                }
                let succ = g.targets[e];
                for &q in &t.particles_of[particle.next as usize] {
                    if t.particles[q as usize].state_ok(g.sbits(succ)) {
                        let m = add(&mut p, &mut ids, &mut queue, succ, q)?;
                        p.targets.push(m);
                        p.sedge.push(e as u32);
                    }
                }
            }
        }
        p.offsets.push(p.targets.len() as u32);
        Ok(p)
    }

    /// Search `view` for an accepting component and turn it into a lasso.
    #[allow(clippy::too_many_arguments)]
    fn search(
        &self,
        d: usize,
        disjunct: &Disjunct,
        view: View<'_>,
        bits: &[u64],
        layout: &Layout,
        roots: &[u32],
        all_reachable: bool,
        state_of: impl Fn(u32) -> u32,
    ) -> (Option<LiveOutcome<P::State, P::Error>>, u64) {
        let mut search = Search::new(view, bits, layout);
        // The cycle may lie anywhere reachable, through edges the cycle itself may not use.
        let found = if all_reachable {
            let all: Vec<u32> = (0..view.nodes() as u32).collect();
            search.find(&all)
        } else {
            search.find(&reachable(view, roots))
        };
        let components = search.components;
        (found.and_then(|acc| self.lasso(d, disjunct, view, layout, roots, &search, acc, state_of)), components)
    }

    /// The lasso through an accepting component.
    #[allow(clippy::too_many_arguments)]
    fn lasso(
        &self,
        d: usize,
        disjunct: &Disjunct,
        view: View<'_>,
        layout: &Layout,
        roots: &[u32],
        search: &Search<'_>,
        acc: scc::Accepting,
        state_of: impl Fn(u32) -> u32,
    ) -> Option<LiveOutcome<P::State, P::Error>> {
        let cid = acc.comp;
        let comp = &search.comp;
        let in_c = |n: u32| comp[n as usize] == cid;
        let usable = |e: usize| in_c(view.targets[e]) && search.usable(e, &acc.removed);
        // Prefix: a shortest path from a root to the component, over every edge.
        let mut parent: Vec<u32> = Vec::new();
        let mut prefix_nodes: Vec<u32> = Vec::new();
        if let Some(&r) = roots.iter().find(|&&r| in_c(r)) {
            prefix_nodes.push(r);
        } else {
            let mut best: Option<Vec<usize>> = None;
            for &r in roots {
                if let Some(p) = scc::bfs_to_edge(view, r, |_| true, |e| in_c(view.targets[e]), &mut parent) {
                    if best.as_ref().is_none_or(|b| p.len() < b.len()) {
                        best = Some(p);
                        prefix_nodes = vec![r];
                    }
                }
            }
            let best = best?;
            prefix_nodes.extend(best.iter().map(|&e| view.targets[e]));
        }
        let entry = *prefix_nodes.last()?;
        // Cycle: visit a witness of every condition that needs one, then return to the entry.
        let mut needed = layout.required();
        let mut acc_bits = vec![0u64; layout.words];
        for &u in &acc.nodes {
            for e in view.edges(u) {
                if usable(e) {
                    for (a, b) in acc_bits.iter_mut().zip(search.edge_bits(e)) {
                        *a |= b;
                    }
                }
            }
        }
        needed.extend((0..layout.sf).map(|k| layout.sf_taken_bit(k)).filter(|&b| has(&acc_bits, b)));
        let mut cycle: Vec<usize> = Vec::new();
        let mut cur = entry;
        while !needed.is_empty() {
            let path = scc::bfs_to_edge(
                view,
                cur,
                usable,
                |e| needed.iter().any(|&b| has(search.edge_bits(e), b)),
                &mut parent,
            )?;
            for &e in &path {
                needed.retain(|&b| !has(search.edge_bits(e), b));
            }
            cur = view.targets[*path.last()?];
            cycle.extend(path);
        }
        if cur != entry || cycle.is_empty() {
            let back = scc::bfs_to_edge(view, cur, usable, |e| view.targets[e] == entry, &mut parent)?;
            cycle.extend(back);
        }
        // Down to states.
        let mut idx: Vec<u32> = prefix_nodes.iter().map(|&n| state_of(n)).collect();
        let cycle_start = idx.len() - 1;
        for &e in &cycle[..cycle.len() - 1] {
            idx.push(state_of(view.targets[e]));
        }
        // The fairness conditions, read on the cycle's states and steps.
        let cycle_states = &idx[cycle_start..];
        let mut cycle_idx: Vec<u32> = cycle_states.to_vec();
        cycle_idx.push(idx[cycle_start]);
        let fairness = self
            .fairness
            .iter()
            .zip(&self.fair_bits)
            .map(|(f, &(en, tk))| {
                let enabled: Vec<bool> = cycle_states.iter().map(|&s| bit(self.g.sbits(s), en)).collect();
                let taken = cycle_idx.windows(2).any(|w| {
                    self.state_edge(w[0], w[1]).is_some_and(|e| bit(self.g.abits(e), tk))
                });
                FairnessOnCycle {
                    label: f.label.clone(),
                    kind: f.kind,
                    enabled_everywhere: enabled.iter().all(|&b| b),
                    enabled_somewhere: enabled.iter().any(|&b| b),
                    taken,
                }
            })
            .collect();
        let mut full = idx.clone();
        full.push(idx[cycle_start]);
        let Some(mut steps) = self.replay(&full) else {
            return Some(LiveOutcome::ReplayFailed);
        };
        let back = steps.pop().map(|s| s.step).unwrap_or(Step::Stutter);
        Some(LiveOutcome::Violated(Box::new(Lasso {
            steps,
            cycle_start,
            back,
            disjunct: d - self.disjuncts.iter().position(|x| x.0 == self.disjuncts[d].0).unwrap_or(d),
            property: self.disjuncts[d].0,
            disjunct_formula: disjunct.to_temporal(&self.state_atoms, &self.action_atoms),
            fairness,
        })))
    }

    /// The state-graph edge `from → to`.
    fn state_edge(&self, from: u32, to: u32) -> Option<usize> {
        let view = View { offsets: &self.g.offsets, targets: &self.g.targets };
        view.edges(from).find(|&e| self.g.targets[e] == to)
    }
}

/// The checker as the sink of an [`crate::Explorer`]: the graph is built during the safety run,
/// then [`LivenessChecker::adopt`] takes the explorer's fingerprint set and parent links.
impl<'a, P: LiveSpec> GraphSink<P::State, P::Error> for LivenessChecker<'a, P> {
    fn state(&mut self, index: u32, state: &P::State) -> Result<(), P::Error> {
        self.state_bits(index, state)
    }
    fn begin(&mut self, index: u32, state: &P::State) -> Result<(), P::Error> {
        self.begin_row(index, state)
    }
    fn successor(&mut self, from_index: u32, from: &P::State, succ: &P::State, target: Option<u32>) -> Result<(), P::Error> {
        self.successor_edge(from_index, from, succ, target)
    }
    fn end(&mut self, index: u32, _state: &P::State) -> Result<(), P::Error> {
        self.end_row(index);
        Ok(())
    }
}

/// Product node ids by (state, particle): a dense table when it is small enough, else a map.
enum ProductIds {
    Dense { particles: usize, ids: Vec<u32> },
    Sparse(HashMap<u64, u32>),
}

impl ProductIds {
    fn new(states: usize, particles: usize) -> Self {
        match states.checked_mul(particles) {
            Some(n) if n <= 1 << 26 => ProductIds::Dense { particles, ids: vec![u32::MAX; n] },
            _ => ProductIds::Sparse(HashMap::new()),
        }
    }
    fn get(&self, s: u32, q: u32) -> Option<u32> {
        match self {
            ProductIds::Dense { particles, ids } => {
                ids.get(s as usize * particles + q as usize).copied().filter(|&n| n != u32::MAX)
            }
            ProductIds::Sparse(m) => m.get(&((s as u64) << 32 | q as u64)).copied(),
        }
    }
    fn insert(&mut self, s: u32, q: u32, n: u32) {
        match self {
            ProductIds::Dense { particles, ids } => {
                if let Some(x) = ids.get_mut(s as usize * *particles + q as usize) {
                    *x = n;
                }
            }
            ProductIds::Sparse(m) => {
                m.insert((s as u64) << 32 | q as u64, n);
            }
        }
    }
}

/// The nodes reachable from `roots`.
fn reachable(view: View<'_>, roots: &[u32]) -> Vec<u32> {
    let mut seen = vec![false; view.nodes()];
    let mut out: Vec<u32> = Vec::new();
    for &r in roots {
        if !seen[r as usize] {
            seen[r as usize] = true;
            out.push(r);
        }
    }
    let mut i = 0;
    while i < out.len() {
        let u = out[i];
        i += 1;
        for e in view.edges(u) {
            let w = view.targets[e];
            if !seen[w as usize] {
                seen[w as usize] = true;
                out.push(w);
            }
        }
    }
    out
}

#[derive(Default)]
struct Product {
    offsets: Vec<u32>,
    targets: Vec<u32>,
    /// The state-graph edge under each product edge.
    sedge: Vec<u32>,
    /// The state and the particle of each product node.
    state: Vec<u32>,
    particle: Vec<u32>,
    roots: Vec<u32>,
}

/// Check `property` under `fairness` on `spec` to the end.
pub fn check<P: LiveSpec>(
    spec: &P,
    fairness: &[Fairness],
    property: &Temporal,
    opts: LiveOptions,
) -> Result<LiveOutcome<P::State, P::Error>, FormulaError> {
    Ok(LivenessChecker::new(spec, fairness, property, opts)?.run_to_end())
}
