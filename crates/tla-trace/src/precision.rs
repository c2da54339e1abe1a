//! Precision: does the model forbid what the code never does?
//!
//! Replay checks one direction: every step of the code's traces must be a step of the model. A
//! model that allows far more passes it. Precision checks the other direction against the
//! system's own behaviour graph ([`crate::graph`]): the model is explored breadth first (within
//! a budget of states, and inside its CONSTRAINT and ACTION_CONSTRAINT as the explorer keeps
//! to them), each state is projected through the mapping onto the observed fields,
//! and from every state whose projection the code reaches, each of the code's actions is
//! taken with each combination of its parameters, drawn from the sets Next binds them to
//! (evaluated in the state when they read it: `\E m \in network[self] : Receive(self, m)`), or,
//! where Next binds them out of sight (`Next == I!Next` through an instance), from the arguments
//! the code's own steps give that action. Each distinct projected step (from, action
//! with the arguments the code's steps carry, to) either is a step of the code or is
//! **over-permissive**. Steps of the model's other actions (internal ones, or hidden
//! variables only) are taken while exploring and not judged; steps from states the code never
//! reaches are unknown, never imprecise, and so are steps from the states whose steps the graph
//! may not all hold: the frontier of a search that stopped at its bounds, and the states of a
//! sampled graph that its runs visited too seldom.
//!
//! An action of the code that the graph never shows is judged too when the graph is exhaustive:
//! the caller names the code's actions and their arguments (a task's pinned actions), and from a
//! settled state of an exhaustive graph every step of such an action is one the code cannot
//! take. A sampled graph's missing action may only be rare, so it is judged there only where the
//! graph shows it somewhere.
//!
//! precision = steps that are the code's / all distinct projected steps judged.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use serde_json::{Map, Value as Json};
use tla_check::model::{Model, ModelError};
use tla_check::Spec;
use tla_eval::{Interner, State, Value};
use tla_syntax::SourceMap;

use crate::graph::SystemGraph;
use crate::mapping::Mapping;
use crate::replay::{fp, MappingExprs, Obs, Options, Replayer};
use crate::steps::{ActionSteps, ParameterSites};
use crate::trace::InputError;

/// At most this many parameter combinations of one action are tried from a state.
const MAX_COMBINATIONS: usize = 4096;

#[derive(Clone, Copy, Debug)]
pub struct PrecisionOptions {
    /// Model states explored at most, and the depth explored (states at `max_depth` are
    /// judged but not expanded, as the runtime gate's depth limit does).
    pub max_states: usize,
    pub max_depth: usize,
    /// Over-permissive steps reported with their path (all are counted).
    pub max_examples: usize,
    /// A state of a sampled graph (one whose header does not say exhaustive) that the runs
    /// visited fewer times than this is not judged: a step of the code from it may not have
    /// been sampled yet.
    pub min_visits: u64,
    /// Also list every distinct projected step of the code's actions, from every state
    /// explored, judged or not ([`Precision::projected`]): for comparing two models'
    /// observable steps (mutation analysis), not for grading.
    pub all_steps: bool,
}

impl Default for PrecisionOptions {
    fn default() -> Self {
        PrecisionOptions { max_states: 100_000, max_depth: usize::MAX, max_examples: 10, min_visits: 30, all_steps: false }
    }
}

/// A step the model allows and the code never takes.
#[derive(Clone, Debug)]
pub struct OverStep {
    /// The model's action and the arguments the code's steps of that action carry.
    pub action: String,
    pub args: Vec<(String, Value)>,
    /// The system state it departs from (its id in the graph), as the model's values of the
    /// observed fields.
    pub from: usize,
    pub from_obs: Vec<(String, Value)>,
    /// The observed fields after the step, and those that the step changes.
    pub to_obs: Vec<(String, Value)>,
    pub changed: Vec<String>,
    /// What the code does from `from` (`Action(arg=value)`, from the graph).
    pub code_steps: Vec<String>,
    /// Where the code's own steps by the same action and arguments go from `from`, as the
    /// fields they change (`locked' = TRUE, ...`); empty when the code never takes that action
    /// there.
    pub code_targets: Vec<String>,
    /// A path of the model from an initial state to the step's target: the last two states
    /// are the step.
    pub path: Vec<State>,
}

impl OverStep {
    /// `LockSpin(t=1)`.
    pub fn label(&self) -> String {
        if self.args.is_empty() {
            return self.action.clone();
        }
        let a: Vec<String> = self.args.iter().map(|(n, v)| format!("{}={}", n, v)).collect();
        format!("{}({})", self.action, a.join(", "))
    }

    /// One sentence: what the model allows, from where, and what the code does there.
    pub fn sentence(&self) -> String {
        let from: Vec<String> = self.from_obs.iter().map(|(f, v)| format!("{} = {}", f, v)).collect();
        let to: Vec<String> = self.to_obs.iter().filter(|(f, _)| self.changed.contains(f)).map(|(f, v)| format!("{}' = {}", f, v)).collect();
        let effect = if to.is_empty() { "changing no observed field".to_string() } else { format!("to {}", to.join(", ")) };
        let code = if !self.code_targets.is_empty() {
            format!("the code's {} from there goes to {}", self.label(), self.code_targets.join(" or to "))
        } else if self.code_steps.is_empty() {
            "the code takes no step there".to_string()
        } else {
            format!("the code only takes {}", self.code_steps.join(", "))
        };
        format!("the model allows {} from {}, {}; {}", self.label(), from.join(", "), effect, code)
    }
}

/// What the precision check found.
#[derive(Clone, Debug, Default)]
pub struct Precision {
    /// Distinct projected steps of the code's actions from states the code reaches.
    pub transitions: usize,
    /// Those that are steps of the code.
    pub matched: usize,
    /// Every over-permissive step (distinct), the first `max_examples` with paths.
    pub over_total: usize,
    pub over: Vec<OverStep>,
    /// Model states explored, and whether that is all of them.
    pub states_explored: usize,
    pub complete: bool,
    /// Explored model states whose projection the code never reaches (their steps are not
    /// judged).
    pub unknown_states: usize,
    /// Explored model states whose projection is a state of the graph whose steps are not all
    /// known: a frontier state of a search, or a state of a sampled graph visited fewer than
    /// `min_visits` times (their steps are not judged either).
    pub unsettled_states: usize,
    /// The graph's states, and those no explored model state projects onto.
    pub system_states: usize,
    pub unreached: Vec<usize>,
    /// Actions of the code that could not be judged, with the reason.
    pub skipped_actions: Vec<(String, String)>,
    /// With [`PrecisionOptions::all_steps`]: every distinct projected step, as
    /// `Action(arg=value): [field |-> value, ...] -> [...]`, and where it departs from.
    pub projected: BTreeMap<String, StepClass>,
}

/// Where a projected step departs from, and what the graph says of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum StepClass {
    /// From a settled state of the graph: a step of the code.
    Code,
    /// From a settled state of the graph: a step the code never takes.
    Over,
    /// From a state of the graph whose steps are not all known.
    Unsettled,
    /// From a state the code never reaches (or the graph does not hold).
    Unknown,
}

impl Precision {
    /// matched / transitions; 0 when nothing was judged.
    pub fn score(&self) -> f64 {
        if self.transitions == 0 { 0.0 } else { self.matched as f64 / self.transitions as f64 }
    }
}

/// Why the check could not run.
#[derive(Clone, Debug)]
pub enum PrecisionError {
    /// The graph does not fit the model (its constants, fields, actions or values).
    Input(InputError),
    /// Evaluating the model failed.
    Model(ModelError),
}

impl From<InputError> for PrecisionError {
    fn from(e: InputError) -> Self {
        PrecisionError::Input(e)
    }
}
impl From<ModelError> for PrecisionError {
    fn from(e: ModelError) -> Self {
        PrecisionError::Model(e)
    }
}

/// `Action(a=1): [x |-> 0, ...] -> [x |-> 1, ...]`, the observed fields in the graph's order.
fn projected_key(fields: &[(String, Obs<'_>)], action: &str, args: &[(String, Value)], from: &[Value], to: &[Value]) -> String {
    let rec = |vals: &[Value]| fields.iter().zip(vals).map(|((f, _), v)| format!("{f} |-> {v}")).collect::<Vec<_>>().join(", ");
    format!("{action}({}): [{}] -> [{}]", args_key(args), rec(from), rec(to))
}

fn args_key(args: &[(String, Value)]) -> String {
    let mut a: Vec<String> = args.iter().map(|(n, v)| format!("{}={}", n, v)).collect();
    a.sort();
    a.join(",")
}

/// Where the parameters `params` of `action` are drawn from when Next's sets cannot be found
/// (Next reached through an instance, `Next == I!Next`; a parameter bound by a CHOOSE): the
/// values the code's steps give each one. Such an action is judged on the arguments the code
/// uses, so a step with an argument the code never takes goes unjudged (never counted as the
/// code's, nor as over-permissive). `None` when a parameter is not among them.
fn code_domains(code: &CodeSteps, action: &str, params: &[String]) -> Option<Vec<Vec<Value>>> {
    let values = code.values.get(action)?;
    params.iter().map(|p| values.get(p).cloned()).collect()
}

/// The code's steps, keyed as the model's are.
struct CodeSteps {
    /// (from, action, arguments, fingerprint of the target's observation).
    steps: HashSet<(usize, String, String, u64)>,
    /// The same, with the target's id, in the graph's order.
    edges: Vec<(usize, String, String, usize)>,
    /// Per action of the model, the parameters the code's steps give.
    given: BTreeMap<String, BTreeSet<String>>,
    /// Per action of the model and parameter, the values the code's steps give it, each once,
    /// in the graph's order: where the parameters are drawn from when Next's sets cannot be
    /// found (see `code_domains`).
    values: BTreeMap<String, BTreeMap<String, Vec<Value>>>,
}

/// Checks `model` against the system graph `graph`. `code_actions` are the code's actions in the
/// traces' vocabulary, each with its arguments' names (before the mapping): on an exhaustive
/// graph those that no edge shows are judged as well (see the module's comment).
#[allow(clippy::too_many_arguments)]
pub fn check_precision<'a>(
    model: &Model<'a>,
    interner: Interner,
    mapping: &Mapping,
    exprs: &'a MappingExprs,
    sources: Option<&SourceMap>,
    graph: &SystemGraph,
    code_actions: &[(String, Vec<String>)],
    opts: PrecisionOptions,
    should_stop: &mut dyn FnMut(usize) -> bool,
) -> Result<Precision, PrecisionError> {
    let r = Replayer::new(model, interner, mapping, exprs, sources, Options::default());
    let file = graph.file.as_str();
    r.check_constants(file, &graph.task, &graph.constants)?;
    let fields: Vec<(String, Obs<'a>)> = r.observed_fields(file, &graph.states[0])?;
    let obs: Vec<Vec<Value>> = graph.states.iter().map(|o| r.observe(&fields, file, o)).collect::<Result<_, _>>()?;
    let mut by_fp: HashMap<u64, Vec<usize>> = HashMap::new();
    for (id, o) in obs.iter().enumerate() {
        by_fp.entry(fp(o)).or_default().push(id);
    }
    let lookup = |o: &[Value]| by_fp.get(&fp(o)).and_then(|ids| ids.iter().copied().find(|&id| obs[id].iter().zip(o).all(|(a, b)| a.tlc_eq(b).unwrap_or(false))));
    let mut code = CodeSteps { steps: HashSet::new(), edges: Vec::new(), given: BTreeMap::new(), values: BTreeMap::new() };
    for e in &graph.edges {
        let (action, args) = r.model_action(file, e.line, &e.action, &e.args)?;
        let given = code.given.entry(action.clone()).or_default();
        given.extend(args.iter().map(|(n, _)| n.clone()));
        let values = code.values.entry(action.clone()).or_default();
        for (n, v) in &args {
            let seen = values.entry(n.clone()).or_default();
            if !seen.iter().any(|w| w.tlc_eq(v).unwrap_or(false)) {
                seen.push(v.clone());
            }
        }
        code.steps.insert((e.from, action.clone(), args_key(&args), fp(&obs[e.to])));
        code.edges.push((e.from, action, args_key(&args), e.to));
    }
    let mut skipped: BTreeMap<String, String> = BTreeMap::new();
    if graph.exploration.exhaustive {
        for (trace_action, arg_names) in code_actions {
            let am = mapping.action(trace_action);
            let Some(def) = model.action_definition(&am.action) else {
                skipped.insert(am.action.clone(), "the model has no such action".into());
                continue;
            };
            if !code.given.contains_key(&am.action) {
                let names = arg_names.iter().map(|a| am.args.get(a).cloned().unwrap_or_else(|| a.clone())).filter(|p| def.params.iter().any(|x| x.name.name == *p));
                code.given.insert(am.action.clone(), names.collect());
            }
        }
    }
    let steps = ActionSteps::new(model);
    let mut out = Precision { system_states: graph.states.len(), ..Precision::default() };
    // Each action with its parameters and the values Next draws them from: once when the sets
    // are constant, else where Next draws them from, evaluated in each state
    // (`\E m \in network[self] : Receive(self, m)`).
    let mut judged: Vec<(String, Vec<String>, Result<Vec<Vec<Value>>, ParameterSites<'_>>)> = Vec::new();
    for action in code.given.keys() {
        let params: Vec<String> = model.action_definition(action).map(|d| d.params.iter().map(|p| p.name.name.clone()).collect()).unwrap_or_default();
        let sites = steps.parameter_sites(action);
        let domains: Option<Vec<Vec<Value>>> = steps.domains_at(&sites, None).into_iter().collect();
        judged.push((action.clone(), params, domains.ok_or(sites)));
    }

    // Breadth first over the model, each state with its parent.
    let mut states: Vec<State> = Vec::new();
    let mut parent: Vec<usize> = Vec::new();
    let mut seen: HashSet<u64> = HashSet::new();
    model.set_level(0);
    let mut inits = Vec::new();
    model.initial_states(&mut inits)?;
    for s in inits {
        // The model's CONSTRAINT bounds the search as the explorer's: a state outside it is
        // neither stored nor expanded.
        if Spec::in_model(model, &s)? && seen.insert(model.fingerprint(&s)) {
            states.push(s);
            parent.push(usize::MAX);
        }
    }
    let mut reached = vec![false; graph.states.len()];
    let mut judged_steps: HashSet<(usize, String, String, u64)> = HashSet::new();
    let (mut level, mut level_end) = (1, states.len());
    let mut succ = Vec::new();
    let mut i = 0;
    out.complete = true;
    while i < states.len() {
        if i % 256 == 0 && should_stop(i) {
            out.complete = false;
            break;
        }
        if i == level_end {
            level += 1;
            level_end = states.len();
        }
        let s = states[i].clone();
        let o = r.project(&fields, &s)?;
        // The state's graph id, and whether its steps are judged.
        let (from, settled) = match lookup(&o) {
            None => {
                out.unknown_states += 1;
                (usize::MAX, false)
            }
            Some(from)
                if graph.frontier.get(from) == Some(&true)
                    || (!graph.exploration.exhaustive && graph.visits.get(from).is_some_and(|&v| v < opts.min_visits)) =>
            {
                reached[from] = true;
                out.unsettled_states += 1;
                (from, false)
            }
            Some(from) => {
                reached[from] = true;
                (from, true)
            }
        };
        {
            if settled || opts.all_steps {
                model.set_level(level);
                for (action, params, constant_domains) in &judged {
                    let given = &code.given[action];
                    let here: Option<Vec<Vec<Value>>>;
                    let domains = match constant_domains {
                        Ok(d) => d,
                        Err(sites) => {
                            here = steps.domains_at(sites, Some(&s)).into_iter().collect::<Option<Vec<_>>>().or_else(|| code_domains(&code, action, params));
                            match &here {
                                Some(d) => d,
                                None => {
                                    skipped.entry(action.clone()).or_insert_with(|| "Next does not draw its parameters from sets it can enumerate, and the code's steps do not give them all".into());
                                    continue;
                                }
                            }
                        }
                    };
                    if domains.iter().map(Vec::len).product::<usize>() > MAX_COMBINATIONS {
                        skipped.entry(action.clone()).or_insert_with(|| format!("more than {MAX_COMBINATIONS} combinations of its parameters"));
                        continue;
                    }
                    let mut idx = vec![0usize; domains.len()];
                    if domains.iter().any(Vec::is_empty) {
                        continue;
                    }
                    loop {
                        let args: Vec<(String, Value)> = params.iter().zip(&idx).zip(domains).map(|((p, &k), d)| (p.clone(), d[k].clone())).collect();
                        let shown: Vec<(String, Value)> = args.iter().filter(|(n, _)| given.contains(n)).cloned().collect();
                        for t in steps.successors_by_action(&s, action, &args)? {
                            let to = r.project(&fields, &t)?;
                            let key = (from, action.clone(), args_key(&shown), fp(&to));
                            if opts.all_steps {
                                let class = match (from == usize::MAX, settled) {
                                    (true, _) => StepClass::Unknown,
                                    (false, false) => StepClass::Unsettled,
                                    (false, true) if code.steps.contains(&key) => StepClass::Code,
                                    (false, true) => StepClass::Over,
                                };
                                out.projected.entry(projected_key(&fields, action, &shown, &o, &to)).or_insert(class);
                            }
                            if !settled || !judged_steps.insert(key.clone()) {
                                continue;
                            }
                            out.transitions += 1;
                            if code.steps.contains(&key) {
                                out.matched += 1;
                                continue;
                            }
                            out.over_total += 1;
                            if out.over.len() < opts.max_examples {
                                let mut path = vec![t.clone()];
                                let mut k = i;
                                while k != usize::MAX {
                                    path.push(states[k].clone());
                                    k = parent[k];
                                }
                                path.reverse();
                                let named = |vals: &[Value]| fields.iter().zip(vals).map(|((f, _), v)| (f.clone(), v.clone())).collect::<Vec<_>>();
                                let changed = fields.iter().zip(o.iter().zip(&to)).filter(|(_, (a, b))| !a.tlc_eq(b).unwrap_or(false)).map(|((f, _), _)| f.clone()).collect();
                                let code_targets = code
                                    .edges
                                    .iter()
                                    .filter(|(f, a, k, _)| *f == from && a == action && *k == args_key(&shown))
                                    .map(|(_, _, _, t)| {
                                        let d: Vec<String> = fields
                                            .iter()
                                            .zip(o.iter().zip(&obs[*t]))
                                            .filter(|(_, (a, b))| !a.tlc_eq(b).unwrap_or(false))
                                            .map(|((f, _), (_, b))| format!("{f}' = {b}"))
                                            .collect();
                                        if d.is_empty() { "the same state".to_string() } else { d.join(", ") }
                                    })
                                    .collect();
                                out.over.push(OverStep {
                                    action: action.clone(),
                                    args: shown.clone(),
                                    from,
                                    from_obs: named(&o),
                                    to_obs: named(&to),
                                    changed,
                                    code_steps: graph.steps_from(from),
                                    code_targets,
                                    path,
                                });
                            }
                        }
                        // Next combination (the last parameter turns fastest).
                        let mut k = idx.len();
                        loop {
                            if k == 0 {
                                break;
                            }
                            k -= 1;
                            idx[k] += 1;
                            if idx[k] < domains[k].len() {
                                break;
                            }
                            idx[k] = 0;
                        }
                        if idx.iter().all(|&x| x == 0) {
                            break;
                        }
                    }
                }
            }
        }
        if level as usize >= opts.max_depth {
            out.complete = false;
        } else if states.len() < opts.max_states {
            succ.clear();
            model.set_level(level);
            model.successors(&s, &mut succ)?;
            for (_, t) in succ.drain(..) {
                if states.len() >= opts.max_states {
                    out.complete = false;
                    break;
                }
                let key = model.fingerprint(&t);
                if seen.contains(&key) || !(model.in_model_after(&s, &t)? && model.step_in_model(&s, &t)?) {
                    continue;
                }
                if seen.insert(key) {
                    states.push(t);
                    parent.push(i);
                }
            }
        } else {
            out.complete = false;
        }
        i += 1;
    }
    out.states_explored = i;
    out.skipped_actions = skipped.into_iter().collect();
    out.unreached = reached.iter().enumerate().filter(|(_, r)| !**r).map(|(id, _)| id).collect();
    Ok(out)
}

/// The graph state `id`'s observation as JSON, for reports.
pub fn observation(graph: &SystemGraph, id: usize) -> Json {
    graph.states.get(id).map(|o| Json::Object(o.state.clone())).unwrap_or(Json::Object(Map::new()))
}
