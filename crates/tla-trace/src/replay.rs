//! Replaying traces against a model, window by window (SysMoBench 2026) or as whole traces
//! (SysMoBench 2025).

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

use serde_json::{json, Map, Value as Json};
use tla_check::model::{Model, ModelError};
use tla_check::Spec;
use tla_eval::fingerprint::FpHasher;
use tla_eval::value::kind_name;
use tla_eval::{Bindings, Interner, State, Value};
use tla_syntax::ast::{Expr, Module, Unit};
use tla_syntax::{FileId, SourceMap};

use crate::explain::{Conjunct, Explainer};
use crate::steps::ActionSteps;
use crate::mapping::{FieldTarget, Mapping, Target};
use crate::trace::{codes, InputError, Observation, Trace};

/// How a trace is replayed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Every consecutive pair of lines is checked on its own.
    Windows,
    /// The set of model states consistent with the trace so far is kept from Init to the end.
    Whole,
}

impl Mode {
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Windows => "windows",
            Mode::Whole => "whole",
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub mode: Mode,
    /// Budget on model states: reachable states explored for hidden variables (windows), or
    /// the size of the consistent set (whole).
    pub max_states: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options { mode: Mode::Windows, max_states: 200_000 }
    }
}

/// The parsed `{"expr": ...}` fields of a mapping (they must outlive the model's borrow).
pub struct MappingExprs {
    modules: Vec<(String, Module)>,
}

impl MappingExprs {
    pub fn parse(mapping: &Mapping, file: &str) -> Result<MappingExprs, InputError> {
        let mut modules = Vec::new();
        for (i, (field, t)) in mapping.fields.iter().enumerate() {
            if let FieldTarget::Expr(text) = t {
                let src = format!("---- MODULE MappingExpr ----\nObserved == {}\n====\n", text);
                let out = tla_syntax::parse_file(FileId(u32::MAX - i as u32), &src);
                if let Some(d) = out.diagnostics.iter().find(|d| d.is_error()) {
                    return Err(InputError::new(codes::BAD_MAPPING, file, 0, format!("variables.{}: the expression {} does not parse: {}", field, text, d.message)));
                }
                match out.modules.into_iter().next() {
                    Some(m) => modules.push((field.clone(), m)),
                    None => return Err(InputError::new(codes::BAD_MAPPING, file, 0, format!("variables.{}: the expression does not parse", field))),
                }
            }
        }
        Ok(MappingExprs { modules })
    }

    pub fn empty() -> MappingExprs {
        MappingExprs { modules: Vec::new() }
    }

    fn get(&self, field: &str) -> Option<&Expr> {
        let (_, m) = self.modules.iter().find(|(f, _)| f == field)?;
        m.units.iter().find_map(|u| match u {
            Unit::OpDef(d) if d.name.name == "Observed" => Some(&d.body),
            _ => None,
        })
    }
}

#[derive(Clone, Copy)]
pub(crate) enum Obs<'a> {
    Var(usize),
    Expr(&'a Expr),
}

/// A trace checked against the model's vocabulary and converted to values.
struct Prepared<'a> {
    fields: Vec<(String, Obs<'a>)>,
    /// Observations by trace line index: 0 = init (if any), then one per step.
    init: Option<Vec<Value>>,
    posts: Vec<Vec<Value>>,
    /// Per step: model action and bound arguments.
    actions: Vec<(String, Vec<(String, Value)>)>,
    hidden: Vec<String>,
    full: bool,
}

/// A difference between an observed field and a model state.
#[derive(Clone, Debug)]
pub struct FieldDiff {
    pub field: String,
    pub observed: String,
    pub model: String,
}

/// Why a window or line failed.
#[derive(Clone, Debug)]
pub struct Divergence {
    pub file: String,
    pub line: usize,
    pub seq: u64,
    pub trace_action: String,
    pub model_action: String,
    pub args: Vec<(String, String)>,
    /// `no_model_state`, `not_enabled`, `mismatch`, `eval_error`, `budget`.
    pub kind: &'static str,
    pub message: String,
    /// Candidate model states (up to three), variable by variable.
    pub candidates: Vec<Vec<(String, String)>>,
    pub observed: Vec<(String, String)>,
    pub conjunct: Option<Conjunct>,
    pub diffs: Vec<FieldDiff>,
}

impl Divergence {
    pub fn to_json(&self) -> Json {
        let pairs = |v: &[(String, String)]| Json::Object(v.iter().map(|(k, x)| (k.clone(), Json::String(x.clone()))).collect::<Map<_, _>>());
        json!({
            "code": if self.kind == "budget" { codes::BUDGET } else if self.kind == "eval_error" { codes::EVAL } else { codes::DIVERGENCE },
            "file": self.file, "line": self.line, "seq": self.seq,
            "trace_action": self.trace_action, "model_action": self.model_action,
            "args": pairs(&self.args), "kind": self.kind, "message": self.message,
            "candidates": self.candidates.iter().map(|c| pairs(c)).collect::<Vec<_>>(),
            "observed": pairs(&self.observed),
            "first_false_conjunct": self.conjunct.as_ref().map(Conjunct::to_json),
            "differences": self.diffs.iter().map(|d| json!({"field": d.field, "observed": d.observed, "model": d.model})).collect::<Vec<_>>(),
        })
    }

    pub fn render(&self) -> String {
        let mut out = format!(
            "{}:{}: {}: step {} {}{} ({}): {}\n",
            self.file,
            self.line,
            if self.kind == "budget" { codes::BUDGET } else if self.kind == "eval_error" { codes::EVAL } else { codes::DIVERGENCE },
            self.seq,
            self.trace_action,
            if self.args.is_empty() { String::new() } else { format!("({})", self.args.iter().map(|(k, v)| format!("{k} = {v}")).collect::<Vec<_>>().join(", ")) },
            if self.model_action == self.trace_action { "model action of the same name".to_string() } else { format!("model action {}", self.model_action) },
            self.message
        );
        for (i, c) in self.candidates.iter().enumerate() {
            out.push_str(&format!("  candidate model state {}:\n", i + 1));
            for (k, v) in c {
                out.push_str(&format!("    {} = {}\n", k, v));
            }
        }
        if !self.observed.is_empty() {
            out.push_str("  observed after the step:\n");
            for (k, v) in &self.observed {
                out.push_str(&format!("    {} = {}\n", k, v));
            }
        }
        if let Some(c) = &self.conjunct {
            c.render(2, &mut out);
        }
        if !self.diffs.is_empty() {
            out.push_str("  the closest successor differs in:\n");
            for d in &self.diffs {
                out.push_str(&format!("    {}: observed {}, model {}\n", d.field, d.observed, d.model));
            }
        }
        out
    }
}

/// The result of replaying one trace.
#[derive(Clone, Debug)]
pub struct TraceReport {
    pub file: String,
    pub task: String,
    pub mode: Mode,
    /// `pass`, `fail`, `budget_exhausted`.
    pub result: &'static str,
    pub steps: usize,
    pub windows: usize,
    pub windows_passed: usize,
    /// Model action → (windows, passed).
    pub per_action: BTreeMap<String, (usize, usize)>,
    pub first_failure: Option<Divergence>,
    pub hidden: Vec<String>,
    /// Largest set of candidate states kept (whole); in windows mode the larger of that and
    /// the reachable states explored (only when a window needed them).
    pub states: usize,
    pub notes: Vec<String>,
    /// In windows mode, the result a whole-trace replay gives, when this replay tells it: as
    /// long as every window passes on the states carried from the one before, the carried
    /// states are exactly the whole-trace replay's states. `None` when it cannot tell (every
    /// variable observed, so nothing is carried) and in whole mode.
    pub whole: Option<&'static str>,
}

impl TraceReport {
    pub fn to_json(&self) -> Json {
        json!({
            "file": self.file, "task": self.task, "mode": self.mode.as_str(), "result": self.result,
            "steps": self.steps, "windows": self.windows, "windows_passed": self.windows_passed,
            "actions": self.per_action.iter().map(|(a, (n, p))| json!({"action": a, "windows": n, "passed": p})).collect::<Vec<_>>(),
            "first_failure": self.first_failure.as_ref().map(Divergence::to_json),
            "hidden_variables": self.hidden, "states": self.states, "notes": self.notes,
        })
    }
}

/// Per-action verdicts over several traces (windows mode's score).
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub traces: usize,
    pub traces_passed: usize,
    pub windows: usize,
    pub windows_passed: usize,
    pub per_action: BTreeMap<String, (usize, usize)>,
}

impl Summary {
    pub fn add(&mut self, r: &TraceReport) {
        self.traces += 1;
        self.traces_passed += usize::from(r.result == "pass");
        self.windows += r.windows;
        self.windows_passed += r.windows_passed;
        for (a, (n, p)) in &r.per_action {
            let e = self.per_action.entry(a.clone()).or_default();
            e.0 += n;
            e.1 += p;
        }
    }
    /// Action → 1 if all its windows pass, else 0.
    pub fn verdicts(&self) -> Vec<(String, u8)> {
        self.per_action.iter().map(|(a, (n, p))| (a.clone(), u8::from(n == p))).collect()
    }
    pub fn action_score(&self) -> f64 {
        let v = self.verdicts();
        if v.is_empty() { 0.0 } else { v.iter().map(|(_, x)| *x as f64).sum::<f64>() / v.len() as f64 }
    }
    pub fn window_pass_rate(&self) -> f64 {
        if self.windows == 0 { 0.0 } else { self.windows_passed as f64 / self.windows as f64 }
    }
    pub fn to_json(&self) -> Json {
        json!({
            "traces": self.traces, "traces_passed": self.traces_passed,
            "windows": self.windows, "windows_passed": self.windows_passed,
            "window_pass_rate": self.window_pass_rate(),
            "action_verdicts": self.verdicts().iter().map(|(a, v)| json!({"action": a, "verdict": v, "windows": self.per_action[a].0, "passed": self.per_action[a].1})).collect::<Vec<_>>(),
            "action_score": self.action_score(),
        })
    }
}

struct Reach {
    states: Vec<State>,
    complete: bool,
    /// Fingerprint of the observed projection → indices into `states`.
    index: BTreeMap<u64, Vec<usize>>,
}

/// Replays traces against one model with one mapping.
pub struct Replayer<'m, 'a> {
    model: &'m Model<'a>,
    sources: Option<&'m SourceMap>,
    mapping: &'m Mapping,
    exprs: &'a MappingExprs,
    interner: Interner,
    vars: Vec<String>,
    opts: Options,
    reach: RefCell<Option<(Vec<String>, Reach)>>,
}

/// The fingerprint of a list of values (an observation, a state).
pub(crate) fn fp(values: &[Value]) -> u64 {
    let mut h = FpHasher::new();
    for v in values {
        if h.write_value(v).is_err() {
            h.write_u64(0xdead);
        }
    }
    h.finish()
}

fn eq(a: &Value, b: &Value) -> bool {
    a.tlc_eq(b).unwrap_or(false)
}

impl<'m, 'a> Replayer<'m, 'a> {
    /// `interner` is the model's string table ([`Model::interner`]).
    pub fn new(model: &'m Model<'a>, interner: Interner, mapping: &'m Mapping, exprs: &'a MappingExprs, sources: Option<&'m SourceMap>, opts: Options) -> Replayer<'m, 'a> {
        Replayer { model, sources, mapping, exprs, interner, vars: model.variables(), opts, reach: RefCell::new(None) }
    }

    fn scalar(&self, v: &Json, scope: &str) -> Result<Value, String> {
        if let Some(t) = self.mapping.translate(scope, &v.to_string()) {
            return match t {
                Target::ModelValue(n) => Ok(Value::model(self.interner.get(n))),
                Target::Json(j) => self.plain(j),
            };
        }
        self.plain(v)
    }

    fn plain(&self, v: &Json) -> Result<Value, String> {
        match v {
            Json::Bool(b) => Ok(Value::Bool(*b)),
            Json::Number(n) => match n.as_i64() {
                Some(i) if i >= i32::MIN as i64 && i <= i32::MAX as i64 => Ok(Value::Int(i as i32)),
                _ => Err(format!("the number {} is not a TLA+ integer (32-bit, as TLC)", n)),
            },
            Json::String(s) => Ok(Value::Str(self.interner.get(s))),
            Json::Null => Err("null has no TLA+ value (map the field to null in the mapping to ignore it)".into()),
            Json::Array(_) | Json::Object(_) => self.convert(v, "*"),
        }
    }

    /// JSON → TLA+ value: arrays are sequences, objects functions (decimal keys are integers).
    pub fn convert(&self, v: &Json, scope: &str) -> Result<Value, String> {
        match v {
            Json::Array(items) => {
                let vs = items.iter().map(|x| self.convert(x, scope)).collect::<Result<Vec<_>, _>>()?;
                Value::tuple(vs).map_err(|e| e.to_string())
            }
            Json::Object(o) => {
                let mut pairs = Vec::with_capacity(o.len());
                for (k, x) in o {
                    let key = match k.parse::<i64>() {
                        Ok(i) if i.to_string() == *k => self.scalar(&Json::from(i), scope)?,
                        _ => self.scalar(&Json::String(k.clone()), scope)?,
                    };
                    pairs.push((key, self.convert(x, scope)?));
                }
                Value::fcn(pairs).map_err(|e| e.to_string())
            }
            _ => self.scalar(v, scope),
        }
    }

    pub(crate) fn project(&self, fields: &[(String, Obs<'a>)], s: &State) -> Result<Vec<Value>, ModelError> {
        let mut out = Vec::with_capacity(fields.len());
        for (_, o) in fields {
            out.push(match o {
                Obs::Var(i) => s[*i].clone(),
                Obs::Expr(e) => self.model.evaluator().eval_with(e, &Bindings::default(), s, None)?.canonical()?,
            });
        }
        Ok(out)
    }

    fn matches(&self, fields: &[(String, Obs<'a>)], s: &State, obs: &[Value]) -> Result<bool, ModelError> {
        for ((_, o), want) in fields.iter().zip(obs) {
            let have = match o {
                Obs::Var(i) => s[*i].clone(),
                Obs::Expr(e) => self.model.evaluator().eval_with(e, &Bindings::default(), s, None)?,
            };
            if !eq(&have, want) {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn check_header(&self, t: &Trace) -> Result<(), InputError> {
        self.check_constants(&t.file, &t.task, &t.constants)
    }

    /// A trace's (or system graph's) task and constants against the mapping and the model.
    pub(crate) fn check_constants(&self, file: &str, task: &str, constants: &Map<String, Json>) -> Result<(), InputError> {
        if let Some(mine) = &self.mapping.task
            && mine != task {
                return Err(InputError::new(codes::OTHER_TASK, file, 1, format!("the trace is of the task \"{}\", the mapping is for \"{}\"", task, mine)));
            }
        for (name, v) in constants {
            let model_name = match self.mapping.constants.get(name) {
                Some(None) => continue,
                Some(Some(n)) => n.as_str(),
                None => name.as_str(),
            };
            let Ok(model_v) = self.model.evaluator().eval_def(model_name) else {
                if model_name != name {
                    let msg = format!("constants.{}: {} is not a constant or definition of the model", name, model_name);
                    return Err(InputError::new(codes::BAD_MAPPING, file, 0, msg));
                }
                let msg = format!(
                    "the trace's constant {} is not a constant or definition of the model; give the model's name for it, or null to leave it unchecked, under \"constants\" in the mapping",
                    name
                );
                return Err(InputError::new(codes::UNKNOWN_CONSTANT, file, 1, msg));
            };
            let mine = match (v, model_v.is_set()) {
                (Json::Array(items), true) => {
                    let vs = items.iter().map(|x| self.convert(x, name)).collect::<Result<Vec<_>, _>>();
                    vs.and_then(|vs| Value::set(vs).map_err(|e| e.to_string()))
                }
                _ => self.convert(v, name),
            };
            match mine {
                Ok(m) if eq(&m, &model_v) => {}
                Ok(m) => {
                    return Err(InputError::new(codes::OTHER_TASK, file, 1, format!("the trace ran with {} = {}, the model has {} = {}", name, m, model_name, model_v)));
                }
                Err(e) => return Err(InputError::new(codes::BAD_VALUE, file, 1, format!("constant {}: {}", name, e))),
            }
        }
        Ok(())
    }

    /// The observed fields of `first` and what each is in the model (a variable or an
    /// expression); fields mapped to null are left out.
    pub(crate) fn observed_fields(&self, file: &str, first: &Observation) -> Result<Vec<(String, Obs<'a>)>, InputError> {
        let mut fields: Vec<(String, Obs<'a>)> = Vec::new();
        for name in first.state.keys() {
            let target = self.mapping.fields.get(name).cloned().unwrap_or_else(|| FieldTarget::Var(name.clone()));
            match target {
                FieldTarget::Ignore => {}
                FieldTarget::Var(v) => match self.model.variable_index(&v) {
                    Some(i) => fields.push((name.clone(), Obs::Var(i))),
                    None => {
                        return Err(InputError::new(
                            codes::UNKNOWN_FIELD,
                            file,
                            first.line,
                            format!("the observed field {} is not a variable of the model (variables: {}); map or ignore it in the mapping", name, self.vars.join(", ")),
                        ))
                    }
                },
                FieldTarget::Expr(_) => match self.exprs.get(name) {
                    Some(e) => fields.push((name.clone(), Obs::Expr(e))),
                    None => return Err(InputError::new(codes::BAD_MAPPING, file, 0, format!("variables.{}: the expression was not parsed", name))),
                },
            }
        }
        Ok(fields)
    }

    /// An observation as the model's values of `fields`.
    pub(crate) fn observe(&self, fields: &[(String, Obs<'a>)], file: &str, o: &Observation) -> Result<Vec<Value>, InputError> {
        for k in o.state.keys() {
            if !fields.iter().any(|(f, _)| f == k) && self.mapping.fields.get(k) != Some(&FieldTarget::Ignore) {
                return Err(InputError::new(codes::UNKNOWN_FIELD, file, o.line, format!("the field {} is not in the first observation", k)));
            }
        }
        fields
            .iter()
            .map(|(f, _)| {
                let v = o.state.get(f).ok_or_else(|| InputError::new(codes::BAD_LINE, file, o.line, format!("the state has no field {}", f)))?;
                self.convert(v, f).map_err(|e| InputError::new(codes::BAD_VALUE, file, o.line, format!("{}: {}", f, e)))
            })
            .collect()
    }

    /// A step's action and arguments as the model's action and its bound parameters (the
    /// arguments that are no parameter of the action are left out).
    pub(crate) fn model_action(&self, file: &str, line: usize, action: &str, step_args: &Map<String, Json>) -> Result<(String, Vec<(String, Value)>), InputError> {
        let am = self.mapping.action(action);
        let Some(def) = self.model.action_definition(&am.action) else {
            return Err(InputError::new(
                codes::UNKNOWN_ACTION,
                file,
                line,
                format!("the action {} is not an action of the model{}", am.action, if am.action != action { format!(" (mapped from {})", action) } else { String::new() }),
            ));
        };
        let mut args = Vec::new();
        for (an, av) in step_args {
            let p = am.args.get(an).cloned().unwrap_or_else(|| an.clone());
            if def.params.iter().any(|x| x.name.name == p) {
                let v = self.convert(av, &format!("args.{}", an)).map_err(|e| InputError::new(codes::BAD_VALUE, file, line, format!("argument {}: {}", an, e)))?;
                args.push((p, v));
            }
        }
        Ok((am.action.clone(), args))
    }

    fn prepare(&self, t: &Trace) -> Result<Prepared<'a>, InputError> {
        self.check_header(t)?;
        let first = t.init.as_ref().or(t.steps.first().map(|s| &s.post));
        let Some(first) = first else {
            return Err(InputError::new(codes::BAD_LINE, &t.file, 1, "the trace has no observation (no init line and no step)"));
        };
        let fields = self.observed_fields(&t.file, first)?;
        let observed: BTreeSet<usize> = fields.iter().filter_map(|(_, o)| if let Obs::Var(i) = o { Some(*i) } else { None }).collect();
        let hidden: Vec<String> = self.vars.iter().enumerate().filter(|(i, _)| !observed.contains(i)).map(|(_, v)| v.clone()).collect();
        for h in &self.mapping.hidden {
            if self.model.variable_index(h).is_none() {
                return Err(InputError::new(codes::BAD_MAPPING, &t.file, 0, format!("hidden: {} is not a variable of the model", h)));
            }
        }
        let full = hidden.is_empty();
        let conv = |o: &Observation| self.observe(&fields, &t.file, o);
        let init = t.init.as_ref().map(&conv).transpose()?;
        let mut posts = Vec::with_capacity(t.steps.len());
        let mut actions = Vec::with_capacity(t.steps.len());
        for s in &t.steps {
            posts.push(conv(&s.post)?);
            actions.push(self.model_action(&t.file, s.line, &s.action, &s.args)?);
        }
        // Types: each observed variable against the model's initial states.
        let mut inits = Vec::new();
        let _ = self.model.initial_states(&mut inits);
        if let Some(s0) = inits.first() {
            let all = t.init.iter().map(|o| o.line).zip(init.iter()).chain(t.steps.iter().map(|s| s.line).zip(posts.iter()));
            for (line, obs) in all {
            for ((f, o), v) in fields.iter().zip(obs.iter()) {
                if let Obs::Var(i) = o
                    && !same_shape(v, &s0[*i]) {
                        return Err(InputError::new(
                            codes::BAD_VALUE,
                            &t.file,
                            line,
                            format!(
                                "{} is observed as the {} {} but the model's {} holds the {} {}; a value translation is missing from the mapping",
                                f, kind_name(v), v, self.vars[*i], kind_name(&s0[*i]), s0[*i]
                            ),
                        ));
                    }
            }
            }
        }
        Ok(Prepared { fields, init, posts, actions, hidden, full })
    }

    fn ensure_reach(&self, p: &Prepared<'a>) -> Result<(), ModelError> {
        let key: Vec<String> = p.fields.iter().map(|(f, _)| f.clone()).collect();
        if self.reach.borrow().as_ref().is_some_and(|(k, _)| *k == key) {
            return Ok(());
        }
        let mut states = Vec::new();
        self.model.set_level(0);
        self.model.initial_states(&mut states)?;
        let mut seen: BTreeSet<u64> = BTreeSet::new();
        states.retain(|s| seen.insert(self.model.fingerprint(s)));
        // Breadth first: the states of `level` end before `level_end`.
        let (mut level, mut level_end) = (1, states.len());
        let mut i = 0;
        let mut complete = true;
        let mut succ = Vec::new();
        while i < states.len() {
            if states.len() >= self.opts.max_states {
                complete = false;
                break;
            }
            if i == level_end {
                level += 1;
                level_end = states.len();
            }
            succ.clear();
            self.model.set_level(level);
            self.model.successors(&states[i], &mut succ)?;
            for (_, s) in succ.drain(..) {
                if seen.insert(self.model.fingerprint(&s)) {
                    states.push(s);
                }
            }
            i += 1;
        }
        let mut index: BTreeMap<u64, Vec<usize>> = BTreeMap::new();
        for (k, s) in states.iter().enumerate() {
            index.entry(fp(&self.project(&p.fields, s)?)).or_default().push(k);
        }
        *self.reach.borrow_mut() = Some((key, Reach { states, complete, index }));
        Ok(())
    }

    /// States after up to `max_silent` internal steps from `from` (including `from`).
    fn silent_closure(&self, from: Vec<State>) -> Result<Vec<State>, ModelError> {
        if self.mapping.internal.is_empty() {
            return Ok(from);
        }
        let mut seen: BTreeSet<u64> = from.iter().map(|s| fp(s)).collect();
        let mut all = from.clone();
        let mut frontier = from;
        for _ in 0..self.mapping.max_silent {
            let mut next = Vec::new();
            for s in &frontier {
                for a in &self.mapping.internal {
                    for t in ActionSteps::new(self.model).successors_by_action(s, a, &[])? {
                        if seen.insert(fp(&t)) {
                            next.push(t.clone());
                            all.push(t);
                        }
                    }
                }
            }
            if next.is_empty() || all.len() > self.opts.max_states {
                break;
            }
            frontier = next;
        }
        Ok(all)
    }

    /// Successors of `pres` by the step's action that agree with `post`.
    fn advance(&self, p: &Prepared<'a>, pres: &[State], i: usize) -> Result<(Vec<State>, usize), ModelError> {
        let (act, args) = &p.actions[i];
        let pres = self.silent_closure(pres.to_vec())?;
        let mut out = Vec::new();
        let mut seen = BTreeSet::new();
        let mut total = 0;
        // The states before step i are at level i + 1 (the first observed state at level 1).
        self.model.set_level(i as u32 + 1);
        for s in &pres {
            for t in ActionSteps::new(self.model).successors_by_action(s, act, args)? {
                total += 1;
                if self.matches(&p.fields, &t, &p.posts[i])? && seen.insert(fp(&t)) {
                    out.push(t);
                }
            }
        }
        Ok((out, total))
    }

    fn format(&self, s: &State) -> Vec<(String, String)> {
        self.model.format_state(s)
    }

    fn divergence(&self, t: &Trace, p: &Prepared<'a>, i: usize, pres: &[State], kind: &'static str, message: String) -> Divergence {
        let step = &t.steps[i];
        let (act, args) = &p.actions[i];
        let observed: Vec<(String, String)> = p.fields.iter().zip(p.posts[i].iter()).map(|((f, _), v)| (f.clone(), v.to_string())).collect();
        let mut d = Divergence {
            file: t.file.clone(),
            line: step.line,
            seq: step.seq,
            trace_action: step.action.clone(),
            model_action: act.clone(),
            args: args.iter().map(|(k, v)| (k.clone(), v.to_string())).collect(),
            kind,
            message,
            candidates: pres.iter().take(3).map(|s| self.format(s)).collect(),
            observed,
            conjunct: None,
            diffs: vec![],
        };
        let Some(pre) = pres.first() else { return d };
        // The observed post-state over the candidate (hidden variables as in the candidate).
        let mut post: Vec<Value> = pre.to_vec();
        for ((_, o), v) in p.fields.iter().zip(p.posts[i].iter()) {
            if let Obs::Var(k) = o {
                post[*k] = v.clone();
            }
        }
        let post: State = post.into();
        if let Some(def) = self.model.action_definition(act) {
            let mut b = Bindings::default();
            let mut ok = true;
            for prm in &def.params {
                match args.iter().find(|(n, _)| *n == prm.name.name) {
                    Some((_, v)) => b = b.bind(&prm.name.name, v.clone()),
                    None => ok = false,
                }
            }
            if ok {
                let ex = Explainer { model: self.model, sources: self.sources };
                d.conjunct = ex.first_false(&def.body, &b, pre, &post, 0);
            }
        }
        if kind == "mismatch" {
            let succs = ActionSteps::new(self.model).successors_by_action(pre, act, args).unwrap_or_default();
            let mut best: Option<Vec<FieldDiff>> = None;
            for s in &succs {
                let Ok(proj) = self.project(&p.fields, s) else { continue };
                let diffs: Vec<FieldDiff> = p
                    .fields
                    .iter()
                    .zip(proj.iter().zip(p.posts[i].iter()))
                    .filter(|(_, (m, o))| !eq(m, o))
                    .map(|((f, _), (m, o))| FieldDiff { field: f.clone(), observed: o.to_string(), model: m.to_string() })
                    .collect();
                if best.as_ref().is_none_or(|b| diffs.len() < b.len()) {
                    best = Some(diffs);
                }
            }
            d.diffs = best.unwrap_or_default();
        }
        d
    }

    fn initial(&self, p: &Prepared<'a>) -> Result<Vec<State>, ModelError> {
        let mut inits = Vec::new();
        self.model.set_level(0);
        self.model.initial_states(&mut inits)?;
        let mut seen = BTreeSet::new();
        let mut out = Vec::new();
        for s in inits {
            let ok = match &p.init {
                Some(o) => self.matches(&p.fields, &s, o)?,
                None => true,
            };
            if ok && seen.insert(fp(&s)) {
                out.push(s);
            }
        }
        Ok(out)
    }

    /// Replay one parsed trace.
    pub fn replay(&self, t: &Trace) -> Result<TraceReport, InputError> {
        let p = self.prepare(t)?;
        let mut r = TraceReport {
            file: t.file.clone(),
            task: t.task.clone(),
            mode: self.opts.mode,
            result: "pass",
            steps: t.steps.len(),
            windows: 0,
            windows_passed: 0,
            per_action: BTreeMap::new(),
            first_failure: None,
            hidden: p.hidden.clone(),
            states: 0,
            notes: vec![],
            whole: None,
        };
        let eval_fail = |r: &mut TraceReport, i: usize, e: ModelError, pres: &[State]| {
            r.result = "fail";
            if r.first_failure.is_none() {
                r.first_failure = Some(self.divergence(t, &p, i, pres, "eval_error", format!("evaluating the model failed: {}", e)));
            }
        };
        match self.opts.mode {
            Mode::Whole => {
                let mut set = match self.initial(&p) {
                    Ok(s) => s,
                    Err(e) => {
                        r.result = "fail";
                        r.notes.push(format!("Init cannot be evaluated: {}", e));
                        return Ok(r);
                    }
                };
                if set.is_empty() {
                    r.result = "fail";
                    r.notes.push(format!("no initial state of the model agrees with the init line ({}:{})", t.file, t.init.as_ref().map_or(0, |o| o.line)));
                    return Ok(r);
                }
                r.states = set.len();
                for i in 0..t.steps.len() {
                    let act = p.actions[i].0.clone();
                    match self.advance(&p, &set, i) {
                        Err(e) => {
                            eval_fail(&mut r, i, e, &set);
                            r.per_action.entry(act).or_default().0 += 1;
                            r.windows += 1;
                            return Ok(r);
                        }
                        Ok((next, total)) => {
                            let e = r.per_action.entry(act).or_default();
                            e.0 += 1;
                            r.windows += 1;
                            if next.is_empty() {
                                r.result = "fail";
                                let (kind, msg) = if total == 0 {
                                    ("not_enabled", format!("the action is not enabled in any of the {} model state(s) consistent with the trace so far", set.len()))
                                } else {
                                    ("mismatch", format!("none of the action's {} successor(s) agrees with the observed state", total))
                                };
                                r.first_failure = Some(self.divergence(t, &p, i, &set, kind, msg));
                                return Ok(r);
                            }
                            if next.len() > self.opts.max_states {
                                r.result = "budget_exhausted";
                                r.first_failure = Some(self.divergence(
                                    t,
                                    &p,
                                    i,
                                    &[],
                                    "budget",
                                    format!("{} model states agree with the trace so far, more than the budget of {}: the replay stops here, inconclusive", next.len(), self.opts.max_states),
                                ));
                                return Ok(r);
                            }
                            e.1 += 1;
                            r.windows_passed += 1;
                            r.states = r.states.max(next.len());
                            set = next;
                        }
                    }
                }
                Ok(r)
            }
            Mode::Windows => {
                let mut carried: Vec<State> = Vec::new();
                // The whole-trace result, once known (see `TraceReport::whole`).
                let mut whole: Option<&'static str> = None;
                // The reachable states are explored when a window first needs them.
                let mut reach_ready = false;
                let mut need_reach = |r: &mut TraceReport| {
                    if reach_ready {
                        return;
                    }
                    reach_ready = true;
                    if let Err(e) = self.ensure_reach(&p) {
                        r.notes.push(format!("the reachable states cannot be explored: {}", e));
                    }
                    if let Some((_, reach)) = self.reach.borrow().as_ref() {
                        r.states = r.states.max(reach.states.len());
                        if !reach.complete {
                            r.notes.push(format!(
                                "the reachable states exceed the budget of {}: hidden variables are drawn from the {} states explored and from the states consistent with the trace so far",
                                self.opts.max_states,
                                reach.states.len()
                            ));
                        }
                    }
                };
                if !p.full {
                    if let Ok(s) = self.initial(&p) {
                        carried = s;
                    }
                    if carried.is_empty() {
                        whole = Some("fail");
                    }
                }
                for i in 0..t.steps.len() {
                    let act = p.actions[i].0.clone();
                    r.windows += 1;
                    r.per_action.entry(act.clone()).or_default().0 += 1;
                    // The states carried from the previous window agree with the trace since the
                    // last window that failed (with the whole trace when none did): when one of
                    // them can take the step, the window passes on them alone, as in a whole-trace
                    // replay. Only otherwise are the reachable states that agree with the observed
                    // state drawn in, so that one failure does not fail the windows after it.
                    // What the carried states gave when none of their successors agreed: their
                    // number of successors, so that the fallback below need not advance them
                    // again (only without internal actions, whose closure is taken over all the
                    // candidates at once).
                    let mut carried_total: Option<usize> = None;
                    if !p.full && !carried.is_empty() {
                        match self.advance(&p, &carried, i) {
                            Ok((next, _)) if !next.is_empty() => {
                                r.windows_passed += 1;
                                if let Some(e) = r.per_action.get_mut(&act) {
                                    e.1 += 1;
                                }
                                if whole.is_none() && next.len() > self.opts.max_states {
                                    whole = Some("budget_exhausted");
                                }
                                r.states = r.states.max(next.len().min(self.opts.max_states));
                                carried = next;
                                carried.truncate(self.opts.max_states);
                                continue;
                            }
                            // No successor agrees, or evaluating failed on one of them: decide the
                            // window on every candidate below.
                            Ok((_, total)) => {
                                whole.get_or_insert("fail");
                                if self.mapping.internal.is_empty() {
                                    carried_total = Some(total);
                                }
                            }
                            Err(_) => {
                                whole.get_or_insert("fail");
                            }
                        }
                    } else {
                        whole.get_or_insert("fail");
                    }
                    // Candidate pre-states.
                    let pres: Vec<State> = if p.full {
                        let obs = if i == 0 { p.init.as_ref() } else { Some(&p.posts[i - 1]) };
                        match obs {
                            Some(o) => {
                                let mut v: Vec<Value> = vec![Value::Bool(false); self.vars.len()];
                                for ((_, f), x) in p.fields.iter().zip(o.iter()) {
                                    if let Obs::Var(k) = f {
                                        v[*k] = x.clone();
                                    }
                                }
                                vec![v.into()]
                            }
                            None => self.initial(&p).unwrap_or_default(),
                        }
                    } else {
                        need_reach(&mut r);
                        let mut c: Vec<State> = Vec::new();
                        let mut seen = BTreeSet::new();
                        let obs = if i == 0 { p.init.as_ref() } else { Some(&p.posts[i - 1]) };
                        if let (Some(o), Some((_, reach))) = (obs, self.reach.borrow().as_ref()) {
                            for k in reach.index.get(&fp(o)).map(|v| v.as_slice()).unwrap_or(&[]) {
                                let s = &reach.states[*k];
                                if self.matches(&p.fields, s, o).unwrap_or(false) && seen.insert(fp(s)) {
                                    c.push(s.clone());
                                }
                            }
                        }
                        for s in &carried {
                            if seen.insert(fp(s)) {
                                c.push(s.clone());
                            }
                        }
                        c
                    };
                    if pres.is_empty() {
                        r.result = "fail";
                        if r.first_failure.is_none() {
                            r.first_failure = Some(self.divergence(t, &p, i, &[], "no_model_state", "no reachable model state agrees with the state observed before the step".into()));
                        }
                        carried.clear();
                        continue;
                    }
                    // When the carried states were advanced above with no agreeing successor,
                    // only the other candidates are advanced now: the carried ones would add
                    // their successors to the count and nothing to the states that agree.
                    let advanced = match carried_total {
                        Some(t0) => {
                            let old: BTreeSet<u64> = carried.iter().map(|s| fp(s)).collect();
                            let fresh: Vec<State> = pres.iter().filter(|s| !old.contains(&fp(s))).cloned().collect();
                            self.advance(&p, &fresh, i).map(|(next, total)| (next, total + t0))
                        }
                        None => self.advance(&p, &pres, i),
                    };
                    match advanced {
                        Err(e) => {
                            eval_fail(&mut r, i, e, &pres);
                            carried.clear();
                        }
                        Ok((next, total)) => {
                            if next.is_empty() {
                                r.result = "fail";
                                if r.first_failure.is_none() {
                                    let (kind, msg) = if total == 0 {
                                        ("not_enabled", format!("the action is not enabled in the {} model state(s) that agree with the state before the step", pres.len()))
                                    } else {
                                        ("mismatch", format!("none of the action's {} successor(s) agrees with the observed state", total))
                                    };
                                    r.first_failure = Some(self.divergence(t, &p, i, &pres, kind, msg));
                                }
                            } else {
                                r.windows_passed += 1;
                                if let Some(e) = r.per_action.get_mut(&act) {
                                    e.1 += 1;
                                }
                            }
                            if !p.full {
                                carried = next;
                                carried.truncate(self.opts.max_states);
                            }
                        }
                    }
                }
                if !p.full {
                    r.whole = Some(whole.unwrap_or("pass"));
                }
                Ok(r)
            }
        }
    }
}

/// Whether an observed value has the kind of the model's value (functions: their values too).
fn same_shape(obs: &Value, model: &Value) -> bool {
    let k = |v: &Value| match v {
        Value::Seq(s) if s.is_empty() => "empty",
        Value::Seq(_) | Value::Fcn(_) => "fcn",
        Value::Set(_) | Value::Lazy(_) => "set",
        other => kind_name(other),
    };
    let (a, b) = (k(obs), k(model));
    if a == "empty" || b == "empty" {
        return matches!(a, "empty" | "fcn") && matches!(b, "empty" | "fcn");
    }
    if a == "set" && obs_is_seq(obs) {
        return true;
    }
    if a != b {
        // A JSON array stands for a sequence; a set in the model is compared as is.
        return a == "fcn" && b == "set";
    }
    if a == "fcn" {
        let first = |v: &Value| -> Option<Value> {
            match v {
                Value::Seq(s) => s.first().cloned(),
                Value::Fcn(f) => f.values().first().cloned(),
                _ => None,
            }
        };
        if let (Some(x), Some(y)) = (first(obs), first(model)) {
            return same_shape(&x, &y);
        }
    }
    true
}

fn obs_is_seq(v: &Value) -> bool {
    matches!(v, Value::Seq(_))
}
