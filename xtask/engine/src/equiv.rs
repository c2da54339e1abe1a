//! Equivalent mutants: does a mutant allow exactly its reference's behaviours?
//!
//! Both models are explored breadth first from their initial states, with the same
//! configuration and within the same budget (`max_states` distinct states stored, states at
//! level `max_depth` not expanded, an initial state being at level 1, as the precision stage
//! explores), and their **state graphs** are compared: the initial states' fingerprints and the
//! transitions (fingerprint of a state, fingerprint of its successor). As the checker does,
//! successors outside CONSTRAINT or ACTION_CONSTRAINT are not part of the graph. Both models
//! declare the same variables in the same order (a mutant differs from its reference in one
//! expression), so equal states have equal fingerprints.
//!
//! Only the states both explorations expanded are compared: a transition of one model from a
//! state the other reached but did not expand (it was over the budget) is not a difference.
//! When the graphs agree and both explorations are complete, the mutant is equivalent.

use std::collections::HashSet;

use tla_check::load::Inputs;
use tla_check::model::Model;
use tla_check::{ActionId, Spec};
use tla_eval::State;
use tla_sema::Library;

/// The budget of one exploration.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    pub max_states: usize,
    pub max_depth: usize,
}

/// One transition as it was found.
#[derive(Clone, Debug)]
struct Edge {
    from: u64,
    to: u64,
    action: ActionId,
    /// The source and target states' indices in the exploration's BFS order.
    from_ix: usize,
    to_state: State,
}

/// A model's state graph as far as the budget lets it go.
pub struct Graph {
    /// Initial states (fingerprint, state), in the order generated, without repeats.
    inits: Vec<(u64, State)>,
    /// Whether the budget let every initial state in.
    all_inits: bool,
    /// Every state stored, in BFS order, and its depth (1 for initial states).
    states: Vec<State>,
    depth: Vec<usize>,
    /// The fingerprints of the states whose successors were all taken.
    expanded: HashSet<u64>,
    /// The transitions from expanded states, in BFS order, without repeats.
    edges: Vec<Edge>,
    keys: HashSet<(u64, u64)>,
    complete: bool,
    actions: Vec<String>,
}

/// How the mutant's state graph compares with its reference's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Equal graphs, both explored completely.
    Equivalent { states: usize },
    /// Equal over the states both expanded; at least one exploration hit the budget.
    WithinBudget { states: usize },
    /// The first difference, in a sentence.
    Different(String),
}

/// Explores `model` breadth first within `budget`.
pub fn explore(model: &Model<'_>, budget: Budget) -> Result<Graph, String> {
    let err = |e: tla_check::model::ModelError| format!("{e:?}");
    let mut g = Graph {
        inits: vec![],
        all_inits: true,
        states: vec![],
        depth: vec![],
        expanded: HashSet::new(),
        edges: vec![],
        keys: HashSet::new(),
        complete: true,
        actions: model.action_names(),
    };
    let mut seen: HashSet<u64> = HashSet::new();
    model.set_level(0);
    let mut inits = Vec::new();
    model.initial_states(&mut inits).map_err(err)?;
    for s in inits {
        if !model.in_model(&s).map_err(err)? {
            continue;
        }
        let f = model.fingerprint(&s);
        if seen.insert(f) {
            if g.states.len() >= budget.max_states {
                g.complete = false;
                g.all_inits = false;
                continue;
            }
            g.inits.push((f, s.clone()));
            g.states.push(s);
            g.depth.push(1);
        }
    }
    let mut succ = Vec::new();
    let mut i = 0;
    while i < g.states.len() {
        let level = g.depth[i];
        if level >= budget.max_depth {
            g.complete = false;
            i += 1;
            continue;
        }
        let s = g.states[i].clone();
        let from = model.fingerprint(&s);
        succ.clear();
        model.set_level(level as u32);
        model.successors(&s, &mut succ).map_err(err)?;
        let mut full = true;
        for (action, t) in succ.drain(..) {
            if !(model.in_model(&t).map_err(err)? && model.step_in_model(&s, &t).map_err(err)?) {
                continue;
            }
            let to = model.fingerprint(&t);
            if !seen.contains(&to) {
                if g.states.len() >= budget.max_states {
                    // The target cannot be stored: this state's successors are not all known.
                    full = false;
                    g.complete = false;
                    continue;
                }
                seen.insert(to);
                g.states.push(t.clone());
                g.depth.push(level + 1);
            }
            if g.keys.insert((from, to)) {
                g.edges.push(Edge { from, to, action, from_ix: i, to_state: t });
            }
        }
        if full {
            g.expanded.insert(from);
        }
        i += 1;
    }
    Ok(g)
}

/// `x' = v` for each variable the step changes (by its printed value).
fn change(model: &Model<'_>, from: &State, to: &State) -> String {
    let (a, b) = (model.format_state(from), model.format_state(to));
    let ch: Vec<String> = a.iter().zip(&b).filter(|(x, y)| x.1 != y.1).map(|(_, (n, v))| format!("{n}' = {v}")).collect();
    if ch.is_empty() { "changing no variable".into() } else { ch.join(", ") }
}

fn show_state(model: &Model<'_>, s: &State) -> String {
    model.format_state(s).iter().map(|(n, v)| format!("{n} = {v}")).collect::<Vec<_>>().join(", ")
}

/// The first transition of `a` (in its BFS order) from a state `b` expanded that `b` lacks.
fn first_extra<'g>(a: &'g Graph, b: &Graph) -> Option<&'g Edge> {
    a.edges.iter().find(|e| b.expanded.contains(&e.from) && !b.keys.contains(&(e.from, e.to)))
}

/// Compares the state graphs `r` of `reference` and `m` of `mutant` (explored within the same
/// budget).
pub fn compare_graphs(reference: &Model<'_>, r: &Graph, mutant: &Model<'_>, m: &Graph) -> Verdict {
    let (ri, mi): (HashSet<u64>, HashSet<u64>) = (r.inits.iter().map(|x| x.0).collect(), m.inits.iter().map(|x| x.0).collect());
    // Initial states count only when both explorations stored all of theirs.
    if r.all_inits && m.all_inits {
        if let Some((_, s)) = m.inits.iter().find(|(f, _)| !ri.contains(f)) {
            return Verdict::Different(format!("the mutant has an initial state the reference lacks: {}", show_state(mutant, s)));
        }
        if let Some((_, s)) = r.inits.iter().find(|(f, _)| !mi.contains(f)) {
            return Verdict::Different(format!("the reference has an initial state the mutant lacks: {}", show_state(reference, s)));
        }
    }
    let tell = |who: &str, other: &str, g: &Graph, model: &Model<'_>, e: &Edge| {
        let name = g.actions.get(e.action as usize).cloned().unwrap_or_else(|| format!("action {}", e.action));
        let from = &g.states[e.from_ix];
        format!(
            "the {who} allows {name} from a state at depth {} ({}) to {}; the {other} does not",
            g.depth[e.from_ix],
            show_state(model, from),
            change(model, from, &e.to_state)
        )
    };
    if let Some(e) = first_extra(m, r) {
        return Verdict::Different(tell("mutant", "reference", m, mutant, e));
    }
    if let Some(e) = first_extra(r, m) {
        return Verdict::Different(tell("reference", "mutant", r, reference, e));
    }
    let states = r.states.len();
    if r.complete && m.complete {
        // The same initial states, and the same transitions from every state both reach: by
        // induction the same reachable states, so the same graphs.
        if r.keys != m.keys {
            return Verdict::Different(format!("the transitions differ ({} in the reference, {} in the mutant)", r.keys.len(), m.keys.len()));
        }
        Verdict::Equivalent { states }
    } else {
        Verdict::WithinBudget { states }
    }
}

/// Loads module `name` from `text` with the configuration `cfg`.
pub fn load(name: &str, text: &str, cfg: &str) -> Result<Inputs, String> {
    Inputs::read(format!("{name}.tla"), text.to_string(), &Library::new(), format!("{name}.cfg"), cfg).map_err(|(e, sources)| {
        let lines: Vec<String> = e.diagnostics.iter().map(|d| tla_syntax::diag::one_line(&sources, d)).collect();
        format!("{name}: {}", lines.join("; "))
    })
}

/// Loads `reference` and `mutant` (texts of module `name`) with the configuration `cfg` and
/// compares their state graphs within `budget`.
#[cfg(test)]
pub fn compare(name: &str, reference: &str, mutant: &str, cfg: &str, budget: Budget) -> Result<Verdict, String> {
    let ri = load(name, reference, cfg)?;
    let mi = load(name, mutant, cfg)?;
    let r = ri.model().map_err(|e| e.first_line(&ri.sources))?;
    let m = mi.model().map_err(|e| e.first_line(&mi.sources))?;
    let rg = explore(&r, budget).map_err(|e| format!("exploring the reference: {e}"))?;
    let mg = explore(&m, budget).map_err(|e| format!("exploring the mutant: {e}"))?;
    Ok(compare_graphs(&r, &rg, &m, &mg))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two counters that count to 2; `a` may not overtake `b`.
    const BASE: &str = r#"---- MODULE eq ----
EXTENDS Naturals
VARIABLES a, b
Init == a = 0 /\ b = 0
IncA ==
    /\ a < 2
    /\ a <= b
    /\ a' = a + 1
    /\ UNCHANGED b
IncB ==
    /\ b < 2
    /\ b' = b + 1
    /\ UNCHANGED a
Spec == Init /\ [][IncA \/ IncB]_<<a, b>>
====
"#;
    const CFG: &str = "SPECIFICATION Spec\n";
    const BIG: Budget = Budget { max_states: 1000, max_depth: 100 };

    /// A guard implied by another conjunct: `a < 3` by `a < 2`.
    #[test]
    fn implied_guard_is_equivalent() {
        let reference = BASE.replace("/\\ a <= b", "/\\ a < 3");
        let mutant = BASE.replace("/\\ a <= b", "/\\ TRUE");
        assert_eq!(compare("eq", &reference, &mutant, CFG, BIG).unwrap(), Verdict::Equivalent { states: 9 });
        // With too small a budget it is only equivalent within it.
        let small = Budget { max_states: 1000, max_depth: 2 };
        assert_eq!(compare("eq", &reference, &mutant, CFG, small).unwrap(), Verdict::WithinBudget { states: 3 });
    }

    /// Dropping `a <= b` lets `a` move first: a transition the reference lacks.
    #[test]
    fn guard_whose_drop_adds_a_transition_is_not() {
        let mutant = BASE.replace("/\\ a <= b", "/\\ TRUE");
        let v = compare("eq", BASE, &mutant, CFG, BIG).unwrap();
        assert_eq!(
            v,
            Verdict::Different("the mutant allows IncA from a state at depth 2 (a = 1, b = 0) to a' = 2; the reference does not".into())
        );
        // And the other way round: the reference's extra transition.
        let v = compare("eq", &mutant, BASE, CFG, BIG).unwrap();
        assert_eq!(
            v,
            Verdict::Different("the reference allows IncA from a state at depth 2 (a = 1, b = 0) to a' = 2; the mutant does not".into())
        );
    }
}
