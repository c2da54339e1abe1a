//! Which named action, with which parameters, takes each step of a counterexample: the step's
//! `#meta.step` in the ITF (`{"action": "Unlock", "params": {"t": 1}}`), found by asking the
//! model for the successors of the pre-state under each named action (see [`crate::actions`])
//! with each combination of its parameters drawn from the sets Next takes them from.

use crate::actions;
use crate::itf;
use serde_json::{json, Map, Value as Json};
use tla_trace::ActionSteps;
use tla_check::model::Model;
use tla_check::Spec;
use tla_eval::{State, Value};

/// At most this many parameter combinations are tried per action and step.
const MAX_COMBINATIONS: usize = 512;

/// One action's parameters: their names and the values each ranges over (`None` when Next does
/// not draw the parameter from a set: the action is then tried with its parameters free and
/// reported without them).
struct Candidate {
    name: String,
    params: Vec<String>,
    domains: Option<Vec<Vec<Value>>>,
}

/// The named actions of `m` and their parameters.
pub struct StepNamer<'m, 'a> {
    model: &'m Model<'a>,
    candidates: Vec<Candidate>,
}

impl<'m, 'a> StepNamer<'m, 'a> {
    pub fn new(model: &'m Model<'a>) -> Self {
        let names = actions::named_actions(model).unwrap_or_default();
        let candidates = names
            .into_iter()
            .map(|name| {
                let params: Vec<String> = model.action_definition(&name).map(|d| d.params.iter().map(|p| p.name.name.clone()).collect()).unwrap_or_default();
                let domains: Option<Vec<Vec<Value>>> = ActionSteps::new(model).parameter_domains(&name).into_iter().collect();
                let combos = domains.as_ref().map_or(0, |d| d.iter().map(Vec::len).product::<usize>());
                let domains = domains.filter(|_| combos <= MAX_COMBINATIONS);
                Candidate { name, params, domains }
            })
            .collect();
        StepNamer { model, candidates }
    }

    /// The action and parameters that take `from` to `to`, as ITF JSON; `None` when no named
    /// action does (or the model names none).
    pub fn name_step(&self, from: &State, to: &State) -> Option<Json> {
        let fp = self.model.fingerprint(to);
        let reaches = |name: &str, args: &[(String, Value)]| match ActionSteps::new(self.model).successors_by_action(from, name, args) {
            Ok(v) => v.iter().any(|s| self.model.fingerprint(s) == fp),
            Err(_) => false,
        };
        for c in &self.candidates {
            if !reaches(&c.name, &[]) {
                continue;
            }
            let mut params = Map::new();
            if let Some(domains) = c.domains.as_ref().filter(|d| !d.is_empty()) {
                let mut idx = vec![0usize; domains.len()];
                'combos: loop {
                    let args: Vec<(String, Value)> = c.params.iter().zip(&idx).zip(domains).map(|((p, &i), d)| (p.clone(), d[i].clone())).collect();
                    if domains.iter().all(|d| !d.is_empty()) && reaches(&c.name, &args) {
                        for (p, v) in &args {
                            params.insert(p.clone(), itf::value(v));
                        }
                        break;
                    }
                    let mut k = idx.len();
                    loop {
                        if k == 0 {
                            break 'combos;
                        }
                        k -= 1;
                        idx[k] += 1;
                        if idx[k] < domains[k].len() {
                            break;
                        }
                        idx[k] = 0;
                    }
                }
            }
            return Some(json!({ "action": c.name, "params": params }));
        }
        None
    }
}

/// Add `#meta.step` to every state after the first of an ITF trace whose states are `states`.
pub fn name_steps(model: &Model<'_>, itf: &mut Json, states: &[&State]) {
    let namer = StepNamer::new(model);
    if namer.candidates.is_empty() {
        return;
    }
    let Some(list) = itf.get_mut("states").and_then(Json::as_array_mut) else { return };
    for (i, st) in list.iter_mut().enumerate().skip(1) {
        let (Some(from), Some(to)) = (states.get(i - 1), states.get(i)) else { break };
        if let Some(step) = namer.name_step(from, to) {
            if let Some(meta) = st.get_mut("#meta").and_then(Json::as_object_mut) {
                meta.insert("step".into(), step);
            }
        }
    }
}
