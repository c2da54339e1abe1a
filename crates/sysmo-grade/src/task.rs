//! A task's `task.toml`, as far as the grader needs it: the pinned module, the constants to
//! check with, the budgets and the simulation settings.

use sysmo_task_format::TaskToml;

pub use sysmo_task_format::{SimulationSettings as Simulation, DEFAULT_BEHAVIOURS};

/// What the grader reads of a task.toml ([`TaskToml`], the one schema).
#[derive(Clone, Debug, PartialEq)]
pub struct TaskSpec {
    pub id: String,
    pub title: String,
    /// `[pinned].module`: the name the model's module must have.
    pub module: String,
    /// `[pinned].actions` names.
    pub actions: Vec<String>,
    /// `[pinned].actions` with their parameters' names.
    pub action_params: Vec<(String, Vec<String>)>,
    /// `[check].constants`, each as (name, TLA+ value text for a .cfg).
    pub constants: Vec<(String, String)>,
    pub max_states: u64,
    pub max_depth: u32,
    pub simulation: Simulation,
    /// `[check].bounds`: the constants that only bound the search.
    pub bounds: Vec<String>,
}

impl From<TaskToml> for TaskSpec {
    fn from(t: TaskToml) -> TaskSpec {
        TaskSpec {
            constants: t.check.constants_cfg(),
            action_params: t.pinned.actions.iter().map(|a| (a.name.clone(), a.params.clone())).collect(),
            actions: t.pinned.actions.into_iter().map(|a| a.name).collect(),
            id: t.id,
            title: t.title,
            module: t.pinned.module,
            max_states: t.check.max_states,
            max_depth: t.check.max_depth,
            simulation: t.check.simulation,
            bounds: t.check.bounds,
        }
    }
}

impl TaskSpec {
    /// Read a task.toml. Errors name the key that is missing or malformed.
    pub fn parse(text: &str) -> Result<TaskSpec, String> {
        TaskToml::parse(text).map(TaskSpec::from)
    }

    /// The .cfg a model without one is checked with: the task's constants, and
    /// `SPECIFICATION Spec` when the model defines `Spec`, else `INIT Init` / `NEXT Next`.
    pub fn default_cfg(&self, has_spec: bool) -> String {
        let mut out = String::new();
        if !self.constants.is_empty() {
            out.push_str("CONSTANTS\n");
            for (k, v) in &self.constants {
                out.push_str(&format!("    {k} = {v}\n"));
            }
        }
        if has_spec {
            out.push_str("SPECIFICATION Spec\n");
        } else {
            out.push_str("INIT Init\nNEXT Next\n");
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_pinned_check_and_simulation() {
        let t = TaskSpec::parse(
            "id = \"x\"\n[pinned]\nmodule = \"m\"\nactions = [{ name = \"A\" }, { name = \"B\" }]\n\
             [check]\nconstants = { N = [0, 1], S = \"a\" }\nmax_states = 10\nmax_depth = 5\n\
             simulation = { count = 3, depth = 7, seed = 9 }\n",
        )
        .unwrap();
        assert_eq!(t.module, "m");
        assert_eq!(t.actions, vec!["A", "B"]);
        assert_eq!(t.constants, vec![("N".to_string(), "{0, 1}".to_string()), ("S".to_string(), "\"a\"".to_string())]);
        assert_eq!((t.max_states, t.max_depth), (10, 5));
        assert_eq!(t.simulation, Simulation { count: 3, behaviours: DEFAULT_BEHAVIOURS, depth: 7, seed: 9 });
        assert_eq!(t.default_cfg(true), "CONSTANTS\n    N = {0, 1}\n    S = \"a\"\nSPECIFICATION Spec\n");
        assert_eq!(t.default_cfg(false), "CONSTANTS\n    N = {0, 1}\n    S = \"a\"\nINIT Init\nNEXT Next\n");
        assert!(TaskSpec::parse("id = \"x\"\n").unwrap_err().contains("pinned"));
        assert!(TaskSpec::parse("id = \"x\"\n[pinned]\n").unwrap_err().contains("module"));
        assert!(TaskSpec::parse("id = \"x\"\n[pinned]\nmodule = \"m\"\n[check]\nconstants = { N = { a = 1 } }\n").is_err());
    }
}
