//! A task's `task.toml`, as far as the grader needs it: the pinned module, the constants to
//! check with, the budgets and the simulation settings.

use toml::{Table, Value};

/// The seeded simulations of the runtime stage: `count` runs, each of `behaviours` behaviours of
/// at most `depth` states; run `i` is seeded with `seed + i`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Simulation {
    pub count: u64,
    pub behaviours: u64,
    pub depth: u32,
    pub seed: u64,
}

/// SysMoBench's number of behaviours per simulation run, when the task does not say.
pub const DEFAULT_BEHAVIOURS: u64 = 50;

#[derive(Clone, Debug, PartialEq)]
pub struct TaskSpec {
    pub id: String,
    pub title: String,
    /// `[pinned].module`: the name the model's module must have.
    pub module: String,
    /// `[pinned].actions` names.
    pub actions: Vec<String>,
    /// `[check].constants`, each as (name, TLA+ value text for a .cfg).
    pub constants: Vec<(String, String)>,
    pub max_states: u64,
    pub max_depth: u32,
    pub simulation: Simulation,
}

fn cfg_value(v: &Value) -> Result<String, String> {
    Ok(match v {
        Value::Integer(i) => i.to_string(),
        Value::Boolean(b) => if *b { "TRUE" } else { "FALSE" }.to_string(),
        Value::String(s) => format!("{s:?}"),
        Value::Array(items) => {
            let parts = items.iter().map(cfg_value).collect::<Result<Vec<_>, _>>()?;
            format!("{{{}}}", parts.join(", "))
        }
        other => return Err(format!("a constant's value must be an integer, a boolean, a string or a list, not a {}", other.type_str())),
    })
}

fn uint(t: &Table, key: &str, default: u64) -> Result<u64, String> {
    match t.get(key) {
        None => Ok(default),
        Some(Value::Integer(i)) if *i >= 0 => Ok(*i as u64),
        Some(v) => Err(format!("{key} must be a non-negative integer, not a {}", v.type_str())),
    }
}

impl TaskSpec {
    /// Read a task.toml. Errors name the key that is missing or malformed.
    pub fn parse(text: &str) -> Result<TaskSpec, String> {
        let t: Table = toml::from_str(text).map_err(|e| format!("task.toml: {e}"))?;
        let s = |tab: &Table, k: &str| tab.get(k).and_then(Value::as_str).map(str::to_string);
        let empty = Table::new();
        let pinned = t.get("pinned").and_then(Value::as_table).unwrap_or(&empty);
        let check = t.get("check").and_then(Value::as_table).unwrap_or(&empty);
        let module = s(pinned, "module").ok_or("task.toml: [pinned] has no module")?;
        let actions = pinned
            .get("actions")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(|x| x.get("name").and_then(Value::as_str)).map(str::to_string).collect())
            .unwrap_or_default();
        let mut constants = vec![];
        if let Some(c) = check.get("constants").and_then(Value::as_table) {
            for (k, v) in c {
                constants.push((k.clone(), cfg_value(v).map_err(|e| format!("task.toml: [check].constants.{k}: {e}"))?));
            }
        }
        let sim = check.get("simulation").and_then(Value::as_table).unwrap_or(&empty);
        let simulation = Simulation {
            count: uint(sim, "count", 20)?,
            behaviours: uint(sim, "behaviours", DEFAULT_BEHAVIOURS)?,
            depth: u32::try_from(uint(sim, "depth", 50)?).map_err(|_| "simulation depth is too large")?,
            seed: uint(sim, "seed", 0)?,
        };
        Ok(TaskSpec {
            id: s(&t, "id").ok_or("task.toml has no id")?,
            title: s(&t, "title").unwrap_or_default(),
            module,
            actions,
            constants,
            max_states: uint(check, "max_states", 100_000)?,
            max_depth: u32::try_from(uint(check, "max_depth", 100)?).map_err(|_| "max_depth is too large")?,
            simulation,
        })
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
        assert!(TaskSpec::parse("id = \"x\"\n").unwrap_err().contains("module"));
        assert!(TaskSpec::parse("id = \"x\"\n[pinned]\nmodule = \"m\"\n[check]\nconstants = { N = { a = 1 } }\n").is_err());
    }
}
