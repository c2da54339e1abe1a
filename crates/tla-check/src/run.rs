//! One check of a TLA+ model, as TLC's `TLC` runs it: exploration with the invariants, then the
//! temporal properties on the graph of the same exploration. The CLI and the grader run their
//! checks through [`Run`]; it advances in slices, so a caller can report progress and stop
//! between them.
//!
//! Keeping the graph costs more than exploring (each fairness condition is evaluated in each
//! state and on each step), and a budget that runs out leaves no graph to check. So the graph
//! is kept from the start only when the caller expects the whole state space to be explored
//! ([`Liveness::OnGraph`]'s `from_start`); otherwise a first exploration keeps none and, when it
//! ends with no violation, a second one keeps it.

use tla_eval::State;

use crate::explore::{ActionCoverage, Budget, Explorer, Options, Outcome, Spec, Stats, Status, TraceStep};
use crate::liveness::{Lasso, LiveOptions, LiveOutcome, LiveStatus, LivenessChecker};
use crate::model::{Model, ModelError};

/// When and how the temporal properties are checked.
#[derive(Clone, Debug)]
pub enum Liveness {
    /// Not at all (the report lists them unchecked).
    Off,
    /// On the graph of the exploration.
    OnGraph {
        /// Keep the graph from the first exploration (the caller expects it to reach the end).
        from_start: bool,
        /// When a depth or state budget cut the exploration short, check the properties on an
        /// exploration of the liveness checker's own, under its state budget alone (a violation
        /// found in that graph stands even when the budget stops it; see
        /// [`LivenessChecker`]). Otherwise they are left unchecked.
        after_budget_cut: bool,
        opts: LiveOptions,
    },
}

/// What the temporal properties came to.
#[derive(Debug)]
pub enum LiveVerdict {
    /// Not checked: liveness off, no temporal property, or the exploration ended otherwise
    /// than in success (or was stopped by the spec, `TLCSet("exit", TRUE)`).
    NotChecked,
    Holds,
    /// [`Lasso::property`] is the index of the property in [`Model::live_properties`].
    Violated(Box<Lasso<State>>),
    Error { error: ModelError, trace: Vec<TraceStep<State>> },
    BudgetExhausted,
    /// The spec did not reproduce a state while a counterexample was replayed.
    ReplayFailed,
    /// Some property cannot be checked (its formula); the message says why.
    Unsupported(String),
}

/// The end of a run.
#[derive(Debug)]
pub struct Finished {
    pub outcome: Outcome<State, ModelError>,
    pub stats: Stats,
    pub coverage: Vec<ActionCoverage>,
    pub liveness: LiveVerdict,
}

/// Where a run stands after a slice.
#[derive(Debug)]
pub enum RunStatus {
    /// Exploring; the explorer's figures so far.
    Exploring(Stats),
    /// Checking the temporal properties; the exploration's figures.
    CheckingLiveness(Stats),
    Done(Box<Finished>),
}

type LiveChecker<'m, 'a> = LivenessChecker<'m, Model<'a>>;

enum Phase<'m, 'a> {
    Explore { explorer: Box<Explorer<'m, Model<'a>, Option<LiveChecker<'m, 'a>>>>, keeps_graph: bool },
    Live { checker: Box<LiveChecker<'m, 'a>>, safety: Box<Finished> },
    Ended,
}

/// A check of `model` in progress.
pub struct Run<'m, 'a> {
    model: &'m Model<'a>,
    opts: Options,
    liveness: Liveness,
    /// Why the properties cannot be checked, once a liveness checker could not be built.
    unsupported: Option<String>,
    phase: Phase<'m, 'a>,
    /// After a temporal property was found violated: the checker, with its graph, and the
    /// safety run's end, for [`Run::check_remaining_properties`].
    paused: Option<(Box<LiveChecker<'m, 'a>>, Box<Finished>)>,
}

impl<'m, 'a> Run<'m, 'a> {
    pub fn new(model: &'m Model<'a>, opts: Options, liveness: Liveness) -> Run<'m, 'a> {
        let liveness = if model.live_properties().is_empty() { Liveness::Off } else { liveness };
        let from_start = matches!(liveness, Liveness::OnGraph { from_start: true, .. });
        let mut run = Run { model, opts, liveness, unsupported: None, phase: Phase::Ended, paused: None };
        run.phase = run.explore(from_start);
        run
    }

    /// An exploration, keeping the graph or not (not when the properties cannot be checked).
    fn explore(&mut self, keep_graph: bool) -> Phase<'m, 'a> {
        let sink = match (&self.liveness, keep_graph) {
            (Liveness::OnGraph { opts, .. }, true) => self.checker(opts.clone()),
            _ => None,
        };
        let keeps_graph = sink.is_some();
        let explorer = Explorer::with_graph(self.model, self.opts.clone(), sink);
        Phase::Explore { explorer: Box::new(explorer), keeps_graph }
    }

    /// A liveness checker of every temporal property; `None` (and `unsupported` set) when
    /// some property cannot be checked.
    fn checker(&mut self, opts: LiveOptions) -> Option<LiveChecker<'m, 'a>> {
        let model = self.model;
        let formulas: Vec<_> = model.live_properties().iter().map(|p| p.formula.clone()).collect();
        match LivenessChecker::new_many(model, model.fairness(), &formulas, opts) {
            Ok(c) => Some(c),
            Err(e) => {
                self.unsupported = Some(format!("{e:?}"));
                None
            }
        }
    }

    /// Run at most `slice` expansions (of the explorer or of the liveness checker). A run
    /// that ends with no error ends with the .cfg's POSTCONDITION checked.
    pub fn run(&mut self, slice: usize) -> RunStatus {
        // A run already done answers again without checking anything.
        let ended = matches!(self.phase, Phase::Ended);
        match self.step(slice) {
            RunStatus::Done(mut f) if !ended => {
                check_postcondition(self.model, &mut f);
                RunStatus::Done(f)
            }
            other => other,
        }
    }

    fn step(&mut self, slice: usize) -> RunStatus {
        match std::mem::replace(&mut self.phase, Phase::Ended) {
            Phase::Ended => RunStatus::Done(Box::new(Finished {
                outcome: Outcome::Success,
                stats: Stats::default(),
                coverage: vec![],
                liveness: LiveVerdict::NotChecked,
            })),
            Phase::Explore { mut explorer, keeps_graph } => match explorer.run(slice) {
                Status::Running => {
                    let stats = explorer.stats();
                    self.phase = Phase::Explore { explorer, keeps_graph };
                    RunStatus::Exploring(stats)
                }
                Status::Done(outcome) => self.explored(*explorer, keeps_graph, outcome),
            },
            Phase::Live { mut checker, mut safety } => match checker.run(slice) {
                LiveStatus::Running => {
                    let stats = safety.stats.clone();
                    self.phase = Phase::Live { checker, safety };
                    RunStatus::CheckingLiveness(stats)
                }
                LiveStatus::Done(out) => {
                    if matches!(out, LiveOutcome::Violated(_)) {
                        let kept = Finished {
                            outcome: safety.outcome.clone(),
                            stats: safety.stats.clone(),
                            coverage: safety.coverage.clone(),
                            liveness: LiveVerdict::NotChecked,
                        };
                        self.paused = Some((checker, Box::new(kept)));
                    }
                    safety.liveness = verdict(out);
                    RunStatus::Done(safety)
                }
            },
        }
    }

    /// An exploration ended: go on to the liveness phase, explore again keeping the graph, or
    /// end.
    fn explored(
        &mut self,
        explorer: Explorer<'m, Model<'a>, Option<LiveChecker<'m, 'a>>>,
        keeps_graph: bool,
        outcome: Outcome<State, ModelError>,
    ) -> RunStatus {
        let stats = explorer.stats();
        let coverage = explorer.coverage().to_vec();
        let Liveness::OnGraph { after_budget_cut, opts, .. } = self.liveness.clone() else {
            return done(outcome, stats, coverage, LiveVerdict::NotChecked);
        };
        let budget_cut = matches!(outcome, Outcome::BudgetExhausted(Budget::Depth(_) | Budget::States(_)));
        let success = matches!(outcome, Outcome::Success);
        if !(success || budget_cut && after_budget_cut) || self.model.exit_requested() {
            return done(outcome, stats, coverage, LiveVerdict::NotChecked);
        }
        if let Some(why) = &self.unsupported {
            let why = why.clone();
            return done(outcome, stats, coverage, LiveVerdict::Unsupported(why));
        }
        let checker = if success && keeps_graph {
            let graph = explorer.into_graph();
            let Some(mut checker) = graph.sink else { unreachable!("an explorer that keeps the graph has a checker") };
            checker.adopt(graph.seen, graph.parent, graph.level_starts);
            checker
        } else if success {
            // Explored without the graph: again, keeping it. What the first exploration printed
            // is printed again: keep one copy.
            drop(explorer);
            let _ = self.model.take_output();
            self.phase = self.explore(true);
            return RunStatus::Exploring(Stats::default());
        } else {
            // A budget left the graph unfinished: the checker explores on its own.
            match self.checker(opts) {
                Some(c) => c,
                None => {
                    let why = self.unsupported.clone().unwrap_or_default();
                    return done(outcome, stats, coverage, LiveVerdict::Unsupported(why));
                }
            }
        };
        let safety = Box::new(Finished { outcome, stats: stats.clone(), coverage, liveness: LiveVerdict::NotChecked });
        self.phase = Phase::Live { checker: Box::new(checker), safety };
        RunStatus::CheckingLiveness(stats)
    }

    /// After a run that ended with a temporal property violated ([`LiveVerdict::Violated`]):
    /// go on checking the temporal properties after it in [`Model::live_properties`], on the
    /// graph already built. `run` then ends as a run without the violated property would
    /// (each further violation can be passed over the same way). False after any other end.
    pub fn check_remaining_properties(&mut self) -> bool {
        let Some((mut checker, safety)) = self.paused.take() else { return false };
        if !checker.check_rest() {
            return false;
        }
        self.phase = Phase::Live { checker, safety };
        true
    }

    /// Run to the end.
    pub fn run_to_end(mut self) -> Finished {
        loop {
            if let RunStatus::Done(f) = self.run(usize::MAX) {
                return *f;
            }
        }
    }
}

fn done(outcome: Outcome<State, ModelError>, stats: Stats, coverage: Vec<ActionCoverage>, liveness: LiveVerdict) -> RunStatus {
    RunStatus::Done(Box::new(Finished { outcome, stats, coverage, liveness }))
}

/// A check of the safety properties with `workers` threads (TLC's `-workers N`), ending as a
/// [`Run`] with no temporal properties ends (POSTCONDITION checked). `model` is the main
/// worker's; each other worker evaluates with a model of its own over `model`'s program
/// (shared, not built again: [`Model::seed`]), which answers `TLCGet("config")` for `workers`
/// and holds the registers the ASSUMEs set, as in TLC. The answers are one worker's ([`crate::parallel`]). Also returned: what the other
/// workers printed (`Print`). With one worker, or temporal properties to check on the graph,
/// use [`Run`].
///
/// A caller that made values' counts plain (`tla_eval::single_thread(true)`) must make them
/// atomic again before calling this.
#[cfg(feature = "parallel")]
pub fn explore_parallel(model: &Model<'_>, opts: Options, workers: usize) -> (Finished, Vec<String>) {
    let printed = std::sync::Mutex::new(Vec::new());
    let registers = model.registers();
    let seed = model.seed();
    let run = crate::parallel::explore(
        model,
        opts,
        workers,
        |_| {
            let m = seed.model().ok()?;
            m.evaluator().set_check_config(m.check_deadlock(), workers);
            m.set_registers(&registers);
            Some(m)
        },
        |m: Model<'_>| printed.lock().unwrap_or_else(|p| p.into_inner()).extend(m.take_output()),
    );
    let mut finished = Finished { outcome: run.outcome, stats: run.stats, coverage: run.coverage, liveness: LiveVerdict::NotChecked };
    check_postcondition(model, &mut finished);
    (finished, printed.into_inner().unwrap_or_else(|p| p.into_inner()))
}

/// TLC's last check of a run that ended with no error: the .cfg's POSTCONDITION, evaluated
/// with the run's figures (see [`Model::check_postcondition`]). A false or failing one becomes
/// the run's outcome.
pub fn check_postcondition(model: &Model<'_>, finished: &mut Finished) {
    let clean = matches!(finished.outcome, Outcome::Success)
        && matches!(finished.liveness, LiveVerdict::Holds | LiveVerdict::NotChecked)
        && !model.exit_requested();
    if clean && let Err(error) = model.check_postcondition(&finished.stats) {
        finished.outcome = Outcome::Error { error, trace: vec![] };
    }
}

fn verdict(out: LiveOutcome<State, ModelError>) -> LiveVerdict {
    match out {
        LiveOutcome::Holds => LiveVerdict::Holds,
        LiveOutcome::Violated(lasso) => LiveVerdict::Violated(lasso),
        LiveOutcome::Error { error, trace } => LiveVerdict::Error { error, trace },
        LiveOutcome::BudgetExhausted(_) => LiveVerdict::BudgetExhausted,
        LiveOutcome::ReplayFailed => LiveVerdict::ReplayFailed,
    }
}
