//! The task's invariants against a model that chose its own actions (the prompt's no-hints
//! variant, `sysmo prompt --no-hints`). Some invariants name the pinned actions
//! (`[][\A t \in Threads : TryLock(t) => ...]_vars`); such a model does not define them, but its
//! mapping says which of its actions each trace action is. Each pinned action the model lacks is
//! then defined for the invariants as the model's action it maps to (`TryLock(t) == Attempt(t)`),
//! on the line of the invariants module's EXTENDS, so that every line number stays the same.

use std::collections::BTreeMap;

use tla_syntax::ast::{Module, Unit};
use tla_trace::Mapping;

/// The definitions to add, and why a pinned action could not be defined (the model's action
/// takes a parameter that no argument of the trace action gives).
#[derive(Debug, Default, PartialEq)]
pub struct Adapters {
    pub definitions: Vec<String>,
    pub unmatched: Vec<String>,
}

/// The top-level operators of a module with their parameters' names.
pub fn operators(m: &Module) -> BTreeMap<String, Vec<String>> {
    m.units
        .iter()
        .filter_map(|u| match u {
            Unit::OpDef(d) => Some((d.name.name.clone(), d.params.iter().map(|p| p.name.name.clone()).collect())),
            _ => None,
        })
        .collect()
}

/// For each pinned action (name, parameters) the model does not define and the mapping maps to
/// one of the model's operators, its definition as that operator, the arguments matched by the
/// mapping's `args` (trace argument → the operator's parameter; unlisted ones keep their name).
pub fn adapters(pinned: &[(String, Vec<String>)], model: &BTreeMap<String, Vec<String>>, mapping: &Mapping) -> Adapters {
    let mut out = Adapters::default();
    for (name, params) in pinned {
        if model.contains_key(name) {
            continue;
        }
        let Some(m) = mapping.actions.get(name) else { continue };
        let Some(target) = model.get(&m.action) else { continue };
        let param_of = |arg: &String| -> String { m.args.get(arg).cloned().unwrap_or_else(|| arg.clone()) };
        let args: Option<Vec<&str>> = target.iter().map(|q| params.iter().find(|a| param_of(a) == *q).map(String::as_str)).collect();
        match args {
            Some(args) => {
                let head = if params.is_empty() { name.clone() } else { format!("{name}({})", params.join(", ")) };
                let call = if args.is_empty() { m.action.clone() } else { format!("{}({})", m.action, args.join(", ")) };
                out.definitions.push(format!("{head} == {call}"));
            }
            None => out.unmatched.push(format!(
                "the task's action `{name}` maps to `{}`, whose parameters ({}) are not all arguments of `{name}` ({})",
                m.action,
                target.join(", "),
                params.join(", ")
            )),
        }
    }
    out
}

/// `text` (the invariants module) with `definitions` after its EXTENDS clause, on that line.
pub fn splice(text: &str, invariants: &Module, definitions: &[String]) -> Option<String> {
    let end = invariants.extends.last()?.span.end as usize;
    if definitions.is_empty() || end > text.len() || !text.is_char_boundary(end) {
        return None;
    }
    Some(format!("{} {}{}", &text[..end], definitions.join(" "), &text[end..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pinned_actions_become_the_models_actions() {
        let mapping = Mapping::parse(
            "m.json",
            r#"{"actions": {"TryLock": {"action": "Attempt", "args": {"t": "th"}}, "Unlock": "Release", "Spin": {"action": "Wait"}}}"#,
        )
        .unwrap();
        let pinned = [("TryLock", vec!["t"]), ("Unlock", vec!["t"]), ("Spin", vec!["t"]), ("Init", vec![])]
            .map(|(n, p)| (n.to_string(), p.into_iter().map(str::to_string).collect::<Vec<_>>()));
        let model: BTreeMap<String, Vec<String>> = [("Attempt", vec!["th"]), ("Release", vec!["t"]), ("Wait", vec!["t", "k"]), ("Init", vec![])]
            .into_iter()
            .map(|(n, p)| (n.to_string(), p.into_iter().map(str::to_string).collect()))
            .collect();
        let a = adapters(&pinned, &model, &mapping);
        assert_eq!(a.definitions, ["TryLock(t) == Attempt(t)", "Unlock(t) == Release(t)"]);
        assert_eq!(a.unmatched.len(), 1);
        assert!(a.unmatched[0].contains("`Spin` maps to `Wait`"), "{:?}", a.unmatched);
    }
}
