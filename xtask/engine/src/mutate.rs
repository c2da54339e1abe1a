//! `cargo xtask mutate --task ID|all [--json] [--limit SECONDS]`: mutation testing of the
//! grader. Each task's reference model is mutated action by action, every mutant is graded in
//! process with `sysmo_grade::grade`, and the report says which stage catches it. A mutant's
//! grade is stopped after `--limit` seconds (60 unless given) and the mutant counted as
//! `timed out`, with the stage that was running: a mutant may make the model's state space
//! explode, and one such must not hold up the others.
//!
//! The mutations, in the body of each `[pinned] actions` definition (its conjuncts, and two
//! levels into the conjuncts that are `IF`, `\/` or `\E` and contain primes):
//! - `guard-drop`: a guard (a conjunct with no `'` and no `UNCHANGED`, directly or through the
//!   module's own operators, like a `Send(n, v) == network' = ...`) becomes `TRUE`;
//! - `guard-flip`: a guard `g`, or the condition of an `IF` that chooses between assignments
//!   (`IF c THEN ... ELSE ...` as a conjunct or as the right side of `x' = ...`), becomes `~(g)`;
//! - `body-flip`: in a primed assignment `x' = e` (`[x EXCEPT ![i] = v]` included), the first
//!   Boolean literal of `e` is negated, or its first string literal is replaced by the next one
//!   (in sorted order, cyclically) of the module's other string literals; one per assignment.
//!
//! The source text is edited at the AST's spans, so a mutant differs from the reference in one
//! place; a mutant whose text equals an earlier one is left out. A mutant is caught by the first
//! stage below 1.0: `syntax/runtime`, `conformance`, `invariants`, `precision`.
//!
//! A mutant that every stage leaves at 1.0 may be **equivalent**: its reachable behaviour is the
//! reference's (a guard implied by another conjunct, or by where the state can be), and no stage
//! can catch it. So both models are explored breadth first from their initial states, with the
//! configuration the grader uses and within the task's `max_states`/`max_depth`, and their state
//! graphs compared (initial states and transitions by fingerprint; see [`crate::equiv`]):
//! - equal graphs, both explored completely: `equivalent`;
//! - equal as far as the budget lets the explorations go: `none`, "equivalent within the
//!   budget";
//! - different: `none`, a real survivor, shown with the first transition (in BFS order) that the
//!   mutant has and the reference lacks, or the other way round, with its action.
//!
//! A survivor that is not equivalent is then compared with the reference by what an observer
//! of the code can see: every step of the code's actions that each model allows within the
//! budget, from every state it reaches, projected onto the observed fields
//! ([`sysmo_grade::projected_steps`]). The mutant is
//! - `same steps` when each of its projected steps is one the reference allows: it differs only
//!   in hidden variables, or past the budget;
//! - `code's steps` when those beyond the reference's all depart from settled states of the
//!   system graph and are the code's own (the reference is stricter than the code there);
//! - `bound only` when it is a guard-drop of a guard that reads a constant the task lists in
//!   `[check].bounds` (`MaxTerm`): its extra steps go past the checking bounds, where the system
//!   has no limit;
//! - else `none`, named with its first projected step that neither the reference allows nor a
//!   settled state of the graph vouches for, and where that step departs from.
//!
//! The summary line counts the guard-drop mutants that the four SysMoBench stages leave at 1.0
//! and that allow a projected step neither the reference nor the code takes (caught by
//! precision, or `none`), and how many of them precision catches; the others are set aside,
//! each kind counted.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::fmt::Write as _;
use std::time::{Duration, Instant};

use crate::equiv::{self, Budget, Verdict};
use sysmo_grade::{grade, ModelInput, StepClass, TaskInput, TaskSpec};
use tla_syntax::ast::{walk, Expr, ExprKind, JunctionKind, QuantKind, Unit};
use tla_syntax::{parse_file, FileId, Span};

/// How far below an action's top-level conjuncts the generator looks (through `IF` branches,
/// disjuncts and `\E` bodies).
const MAX_DEPTH: usize = 2;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    GuardDrop,
    GuardFlip,
    BodyFlip,
}

impl Kind {
    pub const ALL: [Kind; 3] = [Kind::GuardDrop, Kind::GuardFlip, Kind::BodyFlip];
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::GuardDrop => "guard-drop",
            Kind::GuardFlip => "guard-flip",
            Kind::BodyFlip => "body-flip",
        }
    }
}

/// One mutant of a module.
#[derive(Clone, Debug)]
pub struct Mutant {
    pub action: String,
    pub kind: Kind,
    /// What changed: `old` → `new` (whitespace runs shown as one space).
    pub what: String,
    /// Where: the byte offset of the change in the reference text, and its line (from 1).
    pub at: usize,
    pub line: usize,
    pub text: String,
    /// The reference's text that the mutant replaces.
    pub old: String,
}

impl Mutant {
    /// Whether the replaced text names one of `constants` (as a whole identifier).
    fn reads_any(&self, constants: &[String]) -> bool {
        self.old.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).any(|w| constants.iter().any(|k| k == w))
    }
}

/// The stage that catches a mutant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Caught {
    Gate,
    Conformance,
    Invariants,
    Precision,
    /// Left at 1.0 by every stage, and its state graph is the reference's.
    Equivalent,
    /// Left at 1.0 by every stage: its state graph differs from the reference's, but every
    /// step it allows, projected onto the observed fields, is one the reference allows (the
    /// difference is in hidden variables, or past the budget).
    SameSteps,
    /// Left at 1.0 by every stage: the projected steps it allows beyond the reference's are
    /// all steps the system graph holds from settled states (the reference is stricter than
    /// the code there).
    CodeSteps,
    /// Left at 1.0 by every stage, allowing steps beyond the reference's: a dropped guard that
    /// reads a constant that only bounds the search (`[check].bounds`), so its extra steps go
    /// past the checking bounds, where the system itself has no limit.
    Bound,
    None,
    /// Its grade was stopped at the time limit before a stage caught it.
    TimedOut,
}

impl Caught {
    const ALL: [Caught; 10] = [
        Caught::Gate,
        Caught::Conformance,
        Caught::Invariants,
        Caught::Precision,
        Caught::Equivalent,
        Caught::SameSteps,
        Caught::CodeSteps,
        Caught::Bound,
        Caught::None,
        Caught::TimedOut,
    ];
    fn as_str(self) -> &'static str {
        match self {
            Caught::Gate => "syntax/runtime",
            Caught::Conformance => "conformance",
            Caught::Invariants => "invariants",
            Caught::Precision => "precision",
            Caught::Equivalent => "equivalent",
            Caught::SameSteps => "same steps",
            Caught::CodeSteps => "code's steps",
            Caught::Bound => "bound only",
            Caught::None => "none",
            Caught::TimedOut => "timed out",
        }
    }
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn is_prime_or_unchanged(e: &Expr) -> bool {
    matches!(&*e.kind, ExprKind::OpApp { op, .. } if op.path.is_empty() && (op.name == "'" || op.name == "UNCHANGED"))
}

/// Whether `e` mentions a prime or UNCHANGED, itself or through one of `action_ops`.
fn is_action(e: &Expr, action_ops: &HashSet<String>) -> bool {
    let mut found = false;
    walk(e, &mut |x| {
        if is_prime_or_unchanged(x) {
            found = true;
        }
        if let ExprKind::OpApp { op, .. } = &*x.kind {
            if op.path.is_empty() && action_ops.contains(&op.name) {
                found = true;
            }
        }
    });
    found
}

/// The conjuncts of `e` (`/\` lists and binary `/\`, flattened; anything else is one).
fn conjuncts(e: &Expr) -> Vec<&Expr> {
    match &*e.kind {
        ExprKind::Junction { kind: JunctionKind::And, items, .. } => items.iter().flat_map(conjuncts).collect(),
        ExprKind::OpApp { op, args } if op.path.is_empty() && op.name == "/\\" && args.len() == 2 => {
            args.iter().flat_map(conjuncts).collect()
        }
        _ => vec![e],
    }
}

fn disjuncts(e: &Expr) -> Option<Vec<&Expr>> {
    match &*e.kind {
        ExprKind::Junction { kind: JunctionKind::Or, items, .. } => Some(items.iter().collect()),
        ExprKind::OpApp { op, args } if op.path.is_empty() && op.name == "\\/" && args.len() == 2 => Some(args.iter().collect()),
        _ => None,
    }
}

/// The (unmutated) edits one action yields: (kind, span, replacement).
struct Gen<'a> {
    text: &'a str,
    action_ops: &'a HashSet<String>,
    /// The module's string literals: value → source text, sorted by value.
    strings: Vec<(String, String)>,
    /// The string literals of each set enumeration of the module that has two or more.
    sets: Vec<BTreeSet<String>>,
    /// (kind, span, replacement, what it is in: `x'` for an assignment, `IF` for a condition).
    edits: Vec<(Kind, Span, String, String)>,
}

impl Gen<'_> {
    fn src(&self, s: Span) -> &str {
        &self.text[s.start as usize..s.end as usize]
    }

    fn flip(&mut self, g: &Expr, ctx: &str) {
        let new = format!("~({})", self.src(g.span));
        self.edits.push((Kind::GuardFlip, g.span, new, ctx.to_string()));
    }

    fn visit(&mut self, e: &Expr, depth: usize) {
        for c in conjuncts(e) {
            if !is_action(c, self.action_ops) {
                self.edits.push((Kind::GuardDrop, c.span, "TRUE".to_string(), String::new()));
                self.flip(c, "");
                continue;
            }
            match &*c.kind {
                ExprKind::If { cond, then, els } => {
                    self.flip(cond, "IF ");
                    if depth < MAX_DEPTH {
                        self.visit(then, depth + 1);
                        self.visit(els, depth + 1);
                    }
                }
                ExprKind::Quant { kind: QuantKind::Exists, body, .. } if depth < MAX_DEPTH => self.visit(body, depth + 1),
                ExprKind::Let { body, .. } => self.visit(body, depth),
                ExprKind::Label { body, .. } => self.visit(body, depth),
                ExprKind::OpApp { op, args } if op.path.is_empty() && op.name == "=" && args.len() == 2 && is_primed_var(&args[0]) => {
                    let var = format!("{}: ", self.src(args[0].span));
                    self.assignment(&args[1], &var);
                }
                _ => {
                    if let Some(ds) = disjuncts(c) {
                        if depth < MAX_DEPTH {
                            ds.into_iter().for_each(|d| self.visit(d, depth + 1));
                        }
                    }
                }
            }
        }
    }

    /// `x' = rhs`: an IF on the right chooses between values (its condition is flipped), and
    /// the first Boolean or string literal is changed.
    fn assignment(&mut self, rhs: &Expr, var: &str) {
        if let ExprKind::If { cond, .. } = &*rhs.kind {
            if !is_action(cond, self.action_ops) {
                self.flip(cond, &format!("{var}IF "));
            }
        }
        let mut lits: Vec<&Expr> = vec![];
        walk(rhs, &mut |x| {
            if matches!(&*x.kind, ExprKind::Bool(_) | ExprKind::Str(_)) {
                lits.push(x)
            }
        });
        lits.sort_by_key(|x| x.span.start);
        for l in lits {
            let new = match &*l.kind {
                ExprKind::Bool(b) => Some(if *b { "FALSE" } else { "TRUE" }.to_string()),
                ExprKind::Str(s) => self.other_string(s),
                _ => None,
            };
            if let Some(new) = new {
                self.edits.push((Kind::BodyFlip, l.span, new, var.to_string()));
                return;
            }
        }
    }

    /// The next string literal after `s` in sorted order (cyclically), as written: among those
    /// that share a set enumeration with `s` somewhere in the module (`{"idle", "cs"}` in a
    /// TypeOK), else among all of the module's.
    fn other_string(&self, s: &str) -> Option<String> {
        let siblings: BTreeSet<&str> =
            self.sets.iter().filter(|set| set.contains(s)).flat_map(|set| set.iter().map(String::as_str)).collect();
        let others: Vec<&(String, String)> =
            self.strings.iter().filter(|(v, _)| v != s && (siblings.len() < 2 || siblings.contains(v.as_str()))).collect();
        let next = others.iter().find(|(v, _)| v.as_str() > s).or(others.first())?;
        Some(next.1.clone())
    }
}

fn is_primed_var(e: &Expr) -> bool {
    matches!(&*e.kind, ExprKind::OpApp { op, args } if op.path.is_empty() && op.name == "'" && args.len() == 1
        && matches!(&*args[0].kind, ExprKind::OpApp { args: a, .. } if a.is_empty()))
}

/// Every mutant of `text`'s main module's definitions of `actions`, in the order of `actions`
/// and, within one, of the source; texts that repeat an earlier mutant are left out.
pub fn mutants(text: &str, actions: &[String]) -> Result<Vec<Mutant>, String> {
    let out = parse_file(FileId(0), text);
    let m = out.modules.first().ok_or("no module")?;
    let defs: Vec<_> = m
        .units
        .iter()
        .filter_map(|u| match u {
            Unit::OpDef(d) => Some(d),
            _ => None,
        })
        .collect();
    // The module's operators that are actions (mention a prime or UNCHANGED), to a fixpoint.
    let mut action_ops: HashSet<String> = HashSet::new();
    loop {
        let before = action_ops.len();
        for d in &defs {
            if !action_ops.contains(&d.name.name) && is_action(&d.body, &action_ops) {
                action_ops.insert(d.name.name.clone());
            }
        }
        if action_ops.len() == before {
            break;
        }
    }
    let mut strings: BTreeSet<(String, String)> = BTreeSet::new();
    let mut sets: Vec<BTreeSet<String>> = vec![];
    for u in &m.units {
        let body = match u {
            Unit::OpDef(d) => &d.body,
            Unit::FunDef(d) => &d.body,
            Unit::Assume(a) => &a.expr,
            _ => continue,
        };
        walk(body, &mut |x| {
            if let ExprKind::SetEnum(items) = &*x.kind {
                let set: BTreeSet<String> = items
                    .iter()
                    .filter_map(|i| match &*i.kind {
                        ExprKind::Str(s) => Some(s.clone()),
                        _ => None,
                    })
                    .collect();
                if set.len() >= 2 {
                    sets.push(set);
                }
            }
            if let ExprKind::Str(s) = &*x.kind {
                let src = &text[x.span.start as usize..x.span.end as usize];
                if !strings.iter().any(|(v, _)| v == s) {
                    strings.insert((s.clone(), src.to_string()));
                }
            }
        });
    }
    let mut seen: HashSet<String> = HashSet::from([text.to_string()]);
    let mut result = vec![];
    for a in actions {
        let d = defs.iter().find(|d| &d.name.name == a).ok_or_else(|| format!("no definition of action `{a}`"))?;
        let mut g = Gen { text, action_ops: &action_ops, strings: strings.iter().cloned().collect(), sets: sets.clone(), edits: vec![] };
        g.visit(&d.body, 0);
        let mut edits = g.edits;
        edits.sort_by_key(|(k, s, _, _)| (s.start, *k));
        for (kind, span, new, ctx) in edits {
            let (start, end) = (span.start as usize, span.end as usize);
            let mutant = format!("{}{}{}", &text[..start], new, &text[end..]);
            if !seen.insert(mutant.clone()) {
                continue;
            }
            let what = format!("{ctx}{} → {}", one_line(&text[start..end]), one_line(&new));
            let line = text[..start].matches('\n').count() + 1;
            result.push(Mutant { action: a.clone(), kind, what, at: start, line, text: mutant, old: text[start..end].to_string() });
        }
    }
    Ok(result)
}

/// A graded mutant.
struct Graded {
    mutant: Mutant,
    caught: Caught,
    scores: [f64; 5],
    /// For precision: the first over-permissive step (or, when there is none, why the score
    /// is short).
    first_step: Option<String>,
    /// For a mutant every stage leaves at 1.0: how its state graph compares with the
    /// reference's.
    reason: Option<String>,
}

struct TaskRun {
    id: String,
    model: String,
    graded: Vec<Graded>,
    seconds: f64,
}

/// How long one mutant's grade may run unless `--limit` says otherwise.
const DEFAULT_LIMIT: Duration = Duration::from_secs(60);

fn run_task(id: &str, limit: Duration) -> Result<TaskRun, String> {
    let t = sysmo_tasks::task(id).ok_or_else(|| format!("no task `{id}`"))?;
    let spec = TaskSpec::parse(t.task_toml()).map_err(|e| format!("{id}: task.toml: {e}"))?;
    let input = TaskInput::from_folder(t.files, t.traces).with_system_graph(t.system_graph());
    let path = format!("reference/{}.tla", spec.module);
    let tla = t.file(&path).ok_or_else(|| format!("{id}: no {path}"))?;
    let cfg = t.file(&format!("reference/{}.cfg", spec.module));
    let name = format!("tasks/{id}/{path}");
    let started = Instant::now();
    // The reference's state graph, explored when a first mutant survives every stage.
    let has_spec = tla_check::load::Analyzed::new(format!("{}.tla", spec.module), tla, &tla_sema::Library::new()).analysis.symbol("Spec").is_some_and(|s| s.arity == 0);
    let cfg_text = cfg.map(str::to_string).unwrap_or_else(|| spec.default_cfg(has_spec));
    let budget = Budget { max_states: usize::try_from(spec.max_states).unwrap_or(usize::MAX), max_depth: spec.max_depth as usize };
    let ref_inputs = equiv::load(&spec.module, tla, &cfg_text).map_err(|e| format!("{id}: the reference: {e}"))?;
    let ref_model = ref_inputs.model().map_err(|e| format!("{id}: the reference: {}", e.first_line(&ref_inputs.sources)))?;
    let mut ref_graph: Option<equiv::Graph> = None;
    // The reference's projected steps, found when a first mutant survives and is not equivalent.
    let mut ref_steps: Option<BTreeMap<String, StepClass>> = None;
    let mut graded = vec![];
    for m in mutants(tla, &spec.actions).map_err(|e| format!("{id}: {e}"))? {
        let deadline = Instant::now() + limit;
        let r = grade(&input, &ModelInput { name: &name, text: &m.text, cfg, mapping: None }, &|| Instant::now() >= deadline);
        let st = &r.stages;
        let scores = [st.syntax.score, st.runtime.score, st.conformance.score, st.invariants.score, st.precision.score];
        // A stopped stage scores what it had judged, so no verdict stands past the stop.
        let caught = if r.stopped.is_some() {
            Caught::TimedOut
        } else if scores[0] < 1.0 || scores[1] < 1.0 {
            Caught::Gate
        } else if scores[2] < 1.0 {
            Caught::Conformance
        } else if scores[3] < 1.0 {
            Caught::Invariants
        } else if scores[4] < 1.0 {
            Caught::Precision
        } else {
            Caught::None
        };
        let first_step = (caught == Caught::Precision).then(|| {
            st.precision.steps.first().map(|s| s.step.clone()).or_else(|| {
                Some(format!("none; precision {}: {}", st.precision.status.as_str(), st.precision.reason.clone().unwrap_or_default()))
            })
        });
        let first_step = first_step.flatten();
        let (mut caught, mut reason) = (caught, r.stopped.as_ref().map(|st| format!("stopped after {} s during the {st} stage", limit.as_secs())));
        if caught == Caught::None {
            if ref_graph.is_none() {
                ref_graph = Some(equiv::explore(&ref_model, budget).map_err(|e| format!("{id}: exploring the reference: {e}"))?);
            }
            let verdict = equiv::load(&spec.module, &m.text, &cfg_text).and_then(|inputs| {
                let model = inputs.model().map_err(|e| e.first_line(&inputs.sources))?;
                let g = equiv::explore(&model, budget)?;
                Ok(equiv::compare_graphs(&ref_model, ref_graph.as_ref().unwrap(), &model, &g))
            });
            reason = Some(match verdict {
                Ok(Verdict::Equivalent { states }) => {
                    caught = Caught::Equivalent;
                    format!("the same state graph as the reference ({states} states, explored completely)")
                }
                Ok(Verdict::WithinBudget { states }) => {
                    format!("equivalent within the budget: the same state graph as the reference over {states} states, not explored completely")
                }
                Ok(Verdict::Different(d)) => d,
                Err(e) => format!("not compared: {e}"),
            });
            // Not equivalent: do its observable steps differ from the reference's?
            if caught == Caught::None && input.system_graph.is_some() {
                if ref_steps.is_none() {
                    let model = ModelInput { name: &name, text: tla, cfg, mapping: None };
                    ref_steps = Some(sysmo_grade::projected_steps(&input, &model).map_err(|e| format!("{id}: the reference's projected steps: {e}"))?);
                }
                let model = ModelInput { name: &name, text: &m.text, cfg, mapping: None };
                let (c, why) = match sysmo_grade::projected_steps(&input, &model) {
                    Ok(steps) => compare_steps(ref_steps.as_ref().unwrap(), &steps),
                    Err(e) => (Caught::None, format!("projected steps not compared: {e}")),
                };
                caught = if c == Caught::None && m.kind == Kind::GuardDrop && m.reads_any(&spec.bounds) { Caught::Bound } else { c };
                reason = Some(format!("{}; {why}", reason.unwrap_or_default()));
            }
        }
        graded.push(Graded { mutant: m, caught, scores, first_step, reason });
    }
    Ok(TaskRun { id: id.to_string(), model: path, graded, seconds: started.elapsed().as_secs_f64() })
}

/// A surviving mutant's projected steps (`steps`) against the reference's: the same (or
/// fewer), more but only the code's, or some that neither the reference nor a settled state of
/// the graph vouches for (the first of those, in sorted order, is named).
fn compare_steps(reference: &BTreeMap<String, StepClass>, steps: &BTreeMap<String, StepClass>) -> (Caught, String) {
    let extra: Vec<(&String, &StepClass)> = steps.iter().filter(|(k, _)| !reference.contains_key(*k)).collect();
    if extra.is_empty() {
        return (Caught::SameSteps, format!("each of its {} projected steps is one the reference allows", steps.len()));
    }
    let code = extra.iter().filter(|(_, c)| **c == StepClass::Code).count();
    match extra.iter().find(|(_, c)| **c != StepClass::Code) {
        None => (Caught::CodeSteps, format!("{code} projected steps beyond the reference's, all of them the code's, from settled states of the graph")),
        Some((k, c)) => {
            let whence = match c {
                StepClass::Unknown => "from a state the graph does not hold",
                StepClass::Unsettled => "from a state of the graph whose steps are not all known",
                _ => "that the graph does not hold",
            };
            (Caught::None, format!("{} projected steps beyond the reference's ({code} of them the code's); the first other is {whence}: {k}", extra.len()))
        }
    }
}

/// Per kind, the count caught by each stage.
fn tally<'a>(graded: impl Iterator<Item = &'a Graded>) -> [[usize; 10]; 3] {
    let mut t = [[0usize; 10]; 3];
    for g in graded {
        let k = Kind::ALL.iter().position(|k| *k == g.mutant.kind).unwrap();
        let c = Caught::ALL.iter().position(|c| *c == g.caught).unwrap();
        t[k][c] += 1;
    }
    t
}

fn table(t: &[[usize; 10]; 3]) -> String {
    let mut s = format!("  {:<11} {:>7}", "kind", "mutants");
    for c in Caught::ALL {
        let _ = write!(s, " {:>14}", c.as_str());
    }
    s.push('\n');
    let mut total = [0usize; 10];
    let mut rows: Vec<(&str, [usize; 10])> = Kind::ALL.iter().enumerate().map(|(i, k)| (k.as_str(), t[i])).collect();
    for (_, r) in &rows {
        for (i, n) in r.iter().enumerate() {
            total[i] += n;
        }
    }
    rows.push(("all", total));
    for (name, r) in rows {
        let _ = write!(s, "  {:<11} {:>7}", name, r.iter().sum::<usize>());
        for n in r {
            let _ = write!(s, " {:>14}", n);
        }
        s.push('\n');
    }
    s
}

/// Among guard-drop mutants that the four other stages leave at 1.0: how many precision
/// catches, of how many that allow a projected step the reference does not (and that is not
/// the code's); and the ones set aside: equivalent, with the reference's projected steps only,
/// with only more of the code's steps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Share {
    caught: usize,
    of: usize,
    equivalent: usize,
    same_steps: usize,
    code_steps: usize,
    bound: usize,
}

fn precision_share<'a>(graded: impl Iterator<Item = &'a Graded>) -> Share {
    let drops: Vec<&Graded> = graded
        .filter(|g| {
            g.mutant.kind == Kind::GuardDrop
                && matches!(g.caught, Caught::Precision | Caught::Equivalent | Caught::SameSteps | Caught::CodeSteps | Caught::Bound | Caught::None)
        })
        .collect();
    let count = |c: Caught| drops.iter().filter(|g| g.caught == c).count();
    Share {
        caught: count(Caught::Precision),
        of: count(Caught::Precision) + count(Caught::None),
        equivalent: count(Caught::Equivalent),
        same_steps: count(Caught::SameSteps),
        code_steps: count(Caught::CodeSteps),
        bound: count(Caught::Bound),
    }
}

fn precision_line(s: Share) -> String {
    let pct = if s.of == 0 { 0.0 } else { 100.0 * s.caught as f64 / s.of as f64 };
    format!(
        "precision catches {} of {} guard-drop mutants that the four other stages leave at 1.0 and that allow a projected step neither the reference nor the code takes ({pct:.0}%); set aside: {} equivalent, {} with the reference's projected steps only, {} adding only the code's steps, {} dropping a checking bound",
        s.caught, s.of, s.equivalent, s.same_steps, s.code_steps, s.bound
    )
}

impl Share {
    fn json(self) -> serde_json::Value {
        serde_json::json!({ "caught": self.caught, "of": self.of, "equivalent": self.equivalent, "same_steps": self.same_steps, "code_steps": self.code_steps, "bound": self.bound })
    }
}

const USAGE: &str = "cargo xtask mutate --task ID|all [--json] [--limit SECONDS]";

pub fn mutate_command(args: &[String]) -> Result<bool, String> {
    let mut task: Option<String> = None;
    let mut json = false;
    let mut limit = DEFAULT_LIMIT;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--task" => task = Some(it.next().cloned().ok_or("--task needs an id or `all`")?),
            "--json" => json = true,
            "--limit" => {
                let v = it.next().ok_or("--limit needs a number of seconds")?;
                limit = Duration::from_secs(v.parse::<u64>().map_err(|_| format!("--limit: `{v}` is not a number of seconds"))?);
            }
            other => return Err(format!("unknown option `{other}` for mutate (usage: {USAGE})")),
        }
    }
    let task = task.ok_or(format!("usage: {USAGE}"))?;
    let mut ids: Vec<&str> = if task == "all" {
        sysmo_tasks::tasks().iter().filter(|t| t.system_graph().is_some()).map(|t| t.id).collect()
    } else {
        vec![task.as_str()]
    };
    ids.sort();
    let started = Instant::now();
    let mut runs = vec![];
    for id in ids {
        if !json {
            eprintln!("[xtask] mutate {id}");
        }
        runs.push(run_task(id, limit)?);
    }
    let all = || runs.iter().flat_map(|r| r.graded.iter());
    let share = precision_share(all());
    if json {
        let tasks: Vec<serde_json::Value> = runs
            .iter()
            .map(|r| {
                let t = tally(r.graded.iter());
                serde_json::json!({
                    "task": r.id,
                    "model": r.model,
                    "seconds": r.seconds,
                    "mutants": r.graded.iter().map(|g| serde_json::json!({
                        "action": g.mutant.action,
                        "kind": g.mutant.kind.as_str(),
                        "at": g.mutant.at,
                        "line": g.mutant.line,
                        "change": g.mutant.what,
                        "caught_by": g.caught.as_str(),
                        "scores": {
                            "syntax": g.scores[0], "runtime": g.scores[1], "conformance": g.scores[2],
                            "invariants": g.scores[3], "precision": g.scores[4],
                        },
                        "first_over_permissive_step": g.first_step,
                        "reason": g.reason,
                    })).collect::<Vec<_>>(),
                    "kills": kills_json(&t),
                    "precision_only_guard_drops": precision_share(r.graded.iter()).json(),
                })
            })
            .collect();
        let v = serde_json::json!({
            "tasks": tasks,
            "kills": kills_json(&tally(all())),
            "precision_only_guard_drops": share.json(),
            "summary": precision_line(share),
        });
        println!("{}", serde_json::to_string_pretty(&v).map_err(|e| e.to_string())?);
        return Ok(true);
    }
    let mut s = String::new();
    for r in &runs {
        let _ = writeln!(s, "task {} ({}): {} mutants, {:.1} s", r.id, r.model, r.graded.len(), r.seconds);
        let width = r.graded.iter().map(|g| g.mutant.action.len()).max().unwrap_or(0);
        for g in &r.graded {
            let _ = write!(
                s,
                "  {:<width$}  {:<10}  {:<14}  line {:<3}  {}",
                g.mutant.action,
                g.mutant.kind.as_str(),
                g.caught.as_str(),
                g.mutant.line,
                g.mutant.what
            );
            if let Some(step) = &g.first_step {
                let _ = write!(s, "  [first over-permissive step: {step}]");
            }
            if let Some(reason) = &g.reason {
                let _ = write!(s, "  [{reason}]");
            }
            s.push('\n');
        }
        s += &table(&tally(r.graded.iter()));
        s.push('\n');
    }
    if runs.len() > 1 {
        let _ = writeln!(s, "all tasks: {} mutants", all().count());
        s += &table(&tally(all()));
        s.push('\n');
    }
    let _ = writeln!(s, "{}", precision_line(share));
    print!("{s}");
    eprintln!("[xtask] mutate: {:.1} s", started.elapsed().as_secs_f64());
    Ok(true)
}

fn kills_json(t: &[[usize; 10]; 3]) -> serde_json::Value {
    let mut o = serde_json::Map::new();
    for (i, k) in Kind::ALL.iter().enumerate() {
        let mut row = serde_json::Map::new();
        for (j, c) in Caught::ALL.iter().enumerate() {
            row.insert(c.as_str().to_string(), t[i][j].into());
        }
        o.insert(k.as_str().to_string(), row.into());
    }
    o.into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::expect;

    const MODULE: &str = r#"---- MODULE m ----
VARIABLES x, pc, net
TypeOK == pc \in [{1, 2} -> {"idle", "wait", "cs"}]
Send(v) == net' = Append(net, v)
A(t) ==
    /\ pc[t] = "idle"
    /\ x < 3
    /\ x' = TRUE
    /\ pc' = [pc EXCEPT ![t] = "cs"]
    /\ UNCHANGED net
B ==
    /\ IF x THEN Send("go") ELSE UNCHANGED net
    /\ pc' = [pc EXCEPT ![1] = IF x THEN "cs" ELSE "idle"]
    /\ x' = x
C == x' = IF x THEN FALSE ELSE TRUE
D == \/ /\ TRUE
        /\ x' = FALSE
     \/ \E v \in {1, 2} : v > 1 /\ pc' = [pc EXCEPT ![v] = "wait"]
E == UNCHANGED x
====
"#;

    fn show(ms: &[Mutant]) -> String {
        let mut s = String::new();
        for m in ms {
            // The lines of the mutant that differ from the module.
            let changed: Vec<&str> = m.text.lines().filter(|l| !MODULE.lines().any(|o| o == *l)).collect();
            let _ = writeln!(s, "{} {} line {}: {}\n    {}", m.action, m.kind.as_str(), m.line, m.what, changed.join("\n    "));
        }
        s
    }

    /// Guards of `/\` lists and of a binary `/\`, inside a disjunct and an `\E`; `Send` is not
    /// a guard (it assigns); the drop of `TRUE` is the module itself, left out; `E` has none.
    #[test]
    fn mutants_of_a_small_module() {
        let actions = ["A", "B", "C", "D", "E"].map(String::from);
        let ms = mutants(MODULE, &actions).unwrap();
        expect![[r#"
            A guard-drop line 6: pc[t] = "idle" → TRUE
                    /\ TRUE
            A guard-flip line 6: pc[t] = "idle" → ~(pc[t] = "idle")
                    /\ ~(pc[t] = "idle")
            A guard-drop line 7: x < 3 → TRUE
                    /\ TRUE
            A guard-flip line 7: x < 3 → ~(x < 3)
                    /\ ~(x < 3)
            A body-flip line 8: x': TRUE → FALSE
                    /\ x' = FALSE
            A body-flip line 9: pc': "cs" → "idle"
                    /\ pc' = [pc EXCEPT ![t] = "idle"]
            B guard-flip line 12: IF x → ~(x)
                    /\ IF ~(x) THEN Send("go") ELSE UNCHANGED net
            B body-flip line 13: pc': "cs" → "idle"
                    /\ pc' = [pc EXCEPT ![1] = IF x THEN "idle" ELSE "idle"]
            C guard-flip line 15: x': IF x → ~(x)
                C == x' = IF ~(x) THEN FALSE ELSE TRUE
            C body-flip line 15: x': FALSE → TRUE
                C == x' = IF x THEN TRUE ELSE TRUE
            D guard-flip line 16: TRUE → ~(TRUE)
                D == \/ /\ ~(TRUE)
            D body-flip line 17: x': FALSE → TRUE
                        /\ x' = TRUE
            D guard-drop line 18: v > 1 → TRUE
                     \/ \E v \in {1, 2} : TRUE /\ pc' = [pc EXCEPT ![v] = "wait"]
            D guard-flip line 18: v > 1 → ~(v > 1)
                     \/ \E v \in {1, 2} : ~(v > 1) /\ pc' = [pc EXCEPT ![v] = "wait"]
            D body-flip line 18: pc': "wait" → "cs"
                     \/ \E v \in {1, 2} : v > 1 /\ pc' = [pc EXCEPT ![v] = "cs"]
        "#]].assert_eq(&show(&ms));
    }

    /// A survivor's projected steps against the reference's: none beyond, only the code's
    /// beyond, or one the graph does not vouch for (named, with where it departs from).
    #[test]
    fn a_survivors_steps_are_compared_with_the_references() {
        let map = |xs: &[(&str, StepClass)]| xs.iter().map(|(k, c)| (k.to_string(), *c)).collect::<BTreeMap<_, _>>();
        let reference = map(&[("A(t=0): [x |-> 0] -> [x |-> 1]", StepClass::Code), ("B: [x |-> 1] -> [x |-> 0]", StepClass::Unknown)]);
        let fewer = map(&[("A(t=0): [x |-> 0] -> [x |-> 1]", StepClass::Code)]);
        assert_eq!(compare_steps(&reference, &fewer).0, Caught::SameSteps);
        let more_code = map(&[("A(t=0): [x |-> 0] -> [x |-> 1]", StepClass::Code), ("A(t=1): [x |-> 0] -> [x |-> 1]", StepClass::Code)]);
        assert_eq!(compare_steps(&reference, &more_code).0, Caught::CodeSteps);
        let beyond = map(&[("A(t=1): [x |-> 0] -> [x |-> 1]", StepClass::Code), ("B: [x |-> 2] -> [x |-> 3]", StepClass::Unknown), ("C: [x |-> 1] -> [x |-> 1]", StepClass::Unsettled)]);
        let (c, why) = compare_steps(&reference, &beyond);
        assert_eq!(c, Caught::None);
        assert_eq!(why, "3 projected steps beyond the reference's (1 of them the code's); the first other is from a state the graph does not hold: B: [x |-> 2] -> [x |-> 3]");
    }

    /// A guard reads a checking bound when it names the constant as a whole identifier.
    #[test]
    fn a_guard_on_a_checking_bound_is_told_apart() {
        let actions = ["A".to_string()];
        let ms = mutants(MODULE.replace("x < 3", "x < MaxX").as_str(), &actions).unwrap();
        let drop = |old: &str| ms.iter().find(|m| m.kind == Kind::GuardDrop && m.old == old).unwrap();
        let bounds = ["MaxX".to_string()];
        assert!(drop("x < MaxX").reads_any(&bounds));
        assert!(!drop("pc[t] = \"idle\"").reads_any(&bounds));
        assert!(!drop("x < MaxX").reads_any(&["Max".to_string()]));
    }
}
