//! A task's definition, `task.toml`: its one schema ([`TaskToml`]), read by the grader (the
//! module, actions, constants and budgets it grades with), by the prompt and by the web app's
//! task pages, and the one way its constants become `.cfg` text ([`ConstantValue::cfg_text`]).
//!
//! Reading is strict: a key the schema does not know is an error naming it, so that a typo in
//! a task.toml is found when the task is loaded, not when a default is silently used.
//!
//! A task travels as a folder ([`folder`], read from disk with the feature `folder`) or as one
//! file, a [`pack::Pack`]; several tasks travel as one [`course::Course`].
//!
//! This crate holds no task: the built-in tasks are `sysmo-tasks`, which embeds them.

#![forbid(unsafe_code)]

#[cfg(feature = "folder")]
pub mod folder;
pub mod layout;
pub mod course;
pub mod pack;

use serde::Deserialize;
use std::collections::BTreeMap;

/// A problem with a task folder or pack: the file (its path in the task), the line (from 1)
/// when there is one, and what is wrong.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    pub file: String,
    pub line: Option<usize>,
    pub message: String,
}

impl Problem {
    pub fn new(file: impl Into<String>, line: Option<usize>, message: impl Into<String>) -> Problem {
        Problem { file: file.into(), line, message: message.into() }
    }

    /// `file:line: message`, or `file: message`.
    pub fn text(&self) -> String {
        match self.line {
            Some(l) => format!("{}:{l}: {}", self.file, self.message),
            None => format!("{}: {}", self.file, self.message),
        }
    }
}

/// A `task.toml`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TaskToml {
    pub id: String,
    #[serde(default)]
    pub title: String,
    /// A tutorial task (shown apart in the gallery).
    #[serde(default)]
    pub tutorial: bool,
    /// Folders of the traces the task's code produced, from the repository root.
    #[serde(default)]
    pub traces: Vec<String>,
    /// Folders of the traces its bug switch produced.
    #[serde(default)]
    pub bug_traces: Vec<String>,
    #[serde(default)]
    pub original: Original,
    #[serde(default)]
    pub description: Description,
    pub pinned: Pinned,
    #[serde(default)]
    pub check: Check,
    pub bug: Option<Bug>,
    /// The task's system graph (the code's observed states and steps, `docs/system-graph.md`),
    /// when one ships with it.
    pub graph: Option<Graph>,
    /// Exercises a teacher declares (`[[exercise]]`), each with its expected outcome.
    #[serde(default, rename = "exercise")]
    pub exercises: Vec<Exercise>,
    /// What the web app grades with but does not show.
    #[serde(default)]
    pub hidden: Hidden,
}

/// Parts of a task the web app uses to grade but never shows (`[hidden]`): the formulas of
/// some properties, of which it shows only the sentence above each and whether it holds. (The
/// app never shows a reference model.) A convenience, not a secret: the task's files, and a
/// pack, hold them in full.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hidden {
    #[serde(default)]
    pub properties: Vec<String>,
}

/// An exercise of a task, and what solves it.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Exercise {
    /// A short name, unique in the task (`find-the-bug`).
    pub id: String,
    pub kind: ExerciseKind,
    pub title: String,
    /// What the student is asked, shown with the exercise.
    #[serde(default)]
    pub prompt: String,
    /// `find-bug`: the property that must refute the student's model of the buggy code;
    /// `write-invariant`: the name the student's property is defined under.
    pub property: Option<String>,
    /// `fix-model`: the broken starter model, a path in the task folder (`exercises/…`).
    pub starter: Option<String>,
    /// The teacher's next-step hints, by the first stage that falls short (`syntax`, `runtime`,
    /// `conformance`, `invariants`, `precision`), or `property` for `write-invariant`.
    #[serde(default)]
    pub hints: BTreeMap<String, String>,
    /// `fix-model`: the place to look, the last hint.
    pub place: Option<String>,
}

/// The kinds of exercise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ExerciseKind {
    /// Model the system: solved at 1.0 in every stage that runs.
    Model,
    /// Model the buggy code (its bug traces): solved when the model conforms to them and the
    /// named property refutes it.
    FindBug,
    /// Write a property: solved when it holds on the reference model and every bug model
    /// violates it (a mutation-kill score).
    WriteInvariant,
    /// Fix a broken starter model: solved at 1.0, as `model`.
    FixModel,
}

impl ExerciseKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ExerciseKind::Model => "model",
            ExerciseKind::FindBug => "find-bug",
            ExerciseKind::WriteInvariant => "write-invariant",
            ExerciseKind::FixModel => "fix-model",
        }
    }
}

/// How a task's system graph was made: `exhaustive` when every state within its bounds has
/// all its steps (a search of the system as a state machine), not when it comes from sampled
/// runs. The graph's own header says the same; a test keeps the two in agreement.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Graph {
    pub exhaustive: bool,
}

/// The system the task follows.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Original {
    #[serde(default)]
    pub system: String,
    #[serde(default)]
    pub file: String,
    #[serde(default)]
    pub language: String,
    /// Lines of the original file, counted exactly ...
    pub lines: Option<u64>,
    /// ... or rounded.
    pub approx_lines: Option<u64>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Description {
    #[serde(default)]
    pub summary: String,
    #[serde(default)]
    pub must_capture: Vec<String>,
    #[serde(default)]
    pub leave_out: Vec<String>,
}

/// The names a model must use.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pinned {
    pub module: String,
    /// Each constant with what it means.
    #[serde(default)]
    pub constants: BTreeMap<String, String>,
    /// Each variable with its type or values.
    #[serde(default)]
    pub variables: BTreeMap<String, String>,
    /// The observed fields of the traces, where they are not the variables themselves.
    #[serde(default)]
    pub observed: BTreeMap<String, String>,
    #[serde(default)]
    pub actions: Vec<PinnedAction>,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PinnedAction {
    pub name: String,
    #[serde(default)]
    pub params: Vec<String>,
    #[serde(default)]
    pub meaning: String,
}

impl PinnedAction {
    /// `Name(p, q)`, or `Name` without parameters.
    pub fn head(&self) -> String {
        if self.params.is_empty() { self.name.clone() } else { format!("{}({})", self.name, self.params.join(", ")) }
    }
}

/// How models of the task are checked and graded.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Check {
    #[serde(default)]
    pub constants: BTreeMap<String, ConstantValue>,
    #[serde(default = "default_max_states")]
    pub max_states: u64,
    #[serde(default = "default_max_depth")]
    pub max_depth: u32,
    #[serde(default)]
    pub simulation: SimulationSettings,
    /// The constants that only bound the search (`MaxTerm`): the system has no such limit, so
    /// a guard on one is a checking bound written into an action, not a guard of the system.
    #[serde(default)]
    pub bounds: Vec<String>,
    /// The budget in distinct states within which the bug model (`bug/<Module>.tla`) is
    /// refuted, when its violation lies beyond `max_states`.
    #[serde(default)]
    pub bug_max_states: Option<u64>,
    /// The bug model's `.cfg` in `bug/`, when it is not `<Module>.cfg` (a check that starts
    /// from a state of the bug trace, say).
    #[serde(default)]
    pub bug_cfg: Option<String>,
}

fn default_max_states() -> u64 {
    100_000
}

fn default_max_depth() -> u32 {
    100
}

impl Default for Check {
    fn default() -> Check {
        Check {
            constants: BTreeMap::new(),
            max_states: default_max_states(),
            max_depth: default_max_depth(),
            simulation: SimulationSettings::default(),
            bounds: Vec::new(),
            bug_max_states: None,
            bug_cfg: None,
        }
    }
}

impl Check {
    /// Each constant with its value as `.cfg` text, in name order.
    pub fn constants_cfg(&self) -> Vec<(String, String)> {
        self.constants.iter().map(|(k, v)| (k.clone(), v.cfg_text())).collect()
    }
}

/// The seeded simulations of the runtime stage: `count` runs of `behaviours` behaviours of at
/// most `depth` states; run `i` is seeded with `seed + i`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SimulationSettings {
    #[serde(default = "default_count")]
    pub count: u64,
    #[serde(default = "default_behaviours")]
    pub behaviours: u64,
    #[serde(default = "default_depth")]
    pub depth: u32,
    #[serde(default)]
    pub seed: u64,
}

/// SysMoBench's number of behaviours per simulation run, when the task does not say.
pub const DEFAULT_BEHAVIOURS: u64 = 50;

fn default_count() -> u64 {
    20
}

fn default_behaviours() -> u64 {
    DEFAULT_BEHAVIOURS
}

fn default_depth() -> u32 {
    50
}

impl Default for SimulationSettings {
    fn default() -> SimulationSettings {
        SimulationSettings { count: default_count(), behaviours: default_behaviours(), depth: default_depth(), seed: 0 }
    }
}

/// The bug switch of the task's system, and what it does.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bug {
    pub name: String,
    pub switch: String,
    #[serde(default)]
    pub summary: String,
    /// "The bug, found", when the task walks through it: where the code goes wrong, the
    /// counterexample the checker finds in the bug model, and the one-line fix.
    #[serde(default)]
    pub found: Option<BugFound>,
}

/// A walkthrough of a task's bug (`[bug.found]`).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BugFound {
    pub code_path: String,
    pub counterexample: String,
    pub fix: String,
}

/// A constant's value: an integer, a boolean, a string, or a set (a TOML array) of them.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum ConstantValue {
    Int(i64),
    Bool(bool),
    Str(String),
    Set(Vec<ConstantValue>),
}

impl ConstantValue {
    /// The value as a `.cfg` writes it: `3`, `TRUE`, `"a"`, `{0, 1, 2}`.
    pub fn cfg_text(&self) -> String {
        match self {
            ConstantValue::Int(i) => i.to_string(),
            ConstantValue::Bool(b) => if *b { "TRUE" } else { "FALSE" }.to_string(),
            ConstantValue::Str(s) => format!("{s:?}"),
            ConstantValue::Set(items) => format!("{{{}}}", items.iter().map(ConstantValue::cfg_text).collect::<Vec<_>>().join(", ")),
        }
    }
}

impl TaskToml {
    /// Reads a task.toml; an error says where and what (TOML's own message, with the key).
    pub fn parse(text: &str) -> Result<TaskToml, String> {
        toml::from_str(text).map_err(|e| format!("task.toml: {}", e.to_string().trim_end()))
    }

    /// The integer constant `name` of `[check]` (what the task's system runs with, so that its
    /// traces and the checked model agree); an error names what is missing.
    pub fn check_int(&self, name: &str) -> Result<i64, String> {
        match self.check.constants.get(name) {
            Some(ConstantValue::Int(n)) => Ok(*n),
            Some(v) => Err(format!("task.toml: [check].constants.{name} is {}, not an integer", v.cfg_text())),
            None => Err(format!("task.toml: [check].constants has no {name}")),
        }
    }

    /// The bug model's path in the task folder: `bug/<Module>.tla`.
    pub fn bug_model_path(&self) -> String {
        format!("bug/{}.tla", self.pinned.module)
    }

    /// The bug model's `.cfg` in the task folder: `bug/` and `[check] bug_cfg`, else
    /// `bug/<Module>.cfg`.
    pub fn bug_cfg_path(&self) -> String {
        format!("bug/{}", self.check.bug_cfg.clone().unwrap_or_else(|| format!("{}.cfg", self.pinned.module)))
    }

    /// The original file's size as the task page writes it: (lines, whether rounded).
    pub fn original_lines(&self) -> Option<(u64, bool)> {
        match (self.original.lines, self.original.approx_lines) {
            (Some(n), _) => Some((n, false)),
            (None, Some(n)) => Some((n, true)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_task_with_defaults_for_what_it_leaves_out() {
        let t = TaskToml::parse(
            "id = \"x\"\n[pinned]\nmodule = \"m\"\nactions = [{ name = \"A\", params = [\"t\"] }, { name = \"B\" }]\n\
             [check]\nconstants = { N = [0, 1], S = \"a\", B = true, K = 3 }\nmax_states = 10\n\
             simulation = { count = 3, depth = 7, seed = 9 }\n",
        )
        .unwrap();
        assert_eq!(t.pinned.module, "m");
        assert_eq!(t.check_int("K"), Ok(3));
        assert_eq!(t.check_int("S"), Err("task.toml: [check].constants.S is \"a\", not an integer".to_string()));
        assert_eq!(t.check_int("M"), Err("task.toml: [check].constants has no M".to_string()));
        assert_eq!(t.pinned.actions.iter().map(PinnedAction::head).collect::<Vec<_>>(), ["A(t)", "B"]);
        assert_eq!(
            t.check.constants_cfg(),
            [("B", "TRUE"), ("K", "3"), ("N", "{0, 1}"), ("S", "\"a\"")].map(|(k, v)| (k.to_string(), v.to_string()))
        );
        assert_eq!((t.check.max_states, t.check.max_depth), (10, 100));
        assert_eq!(t.check.simulation, SimulationSettings { count: 3, behaviours: DEFAULT_BEHAVIOURS, depth: 7, seed: 9 });
        assert_eq!((t.title.as_str(), t.tutorial, t.original_lines()), ("", false, None));
        assert_eq!(t.graph, None);
    }

    #[test]
    fn errors_name_the_key() {
        let no_module = TaskToml::parse("id = \"x\"\n[pinned]\n").unwrap_err();
        assert!(no_module.contains("module"), "{no_module}");
        let typo = TaskToml::parse("id = \"x\"\n[pinned]\nmodule = \"m\"\n[check]\nmax_state = 5\n").unwrap_err();
        assert!(typo.contains("max_state"), "{typo}");
        let table = TaskToml::parse("id = \"x\"\n[pinned]\nmodule = \"m\"\n[check]\nconstants = { N = { a = 1 } }\n").unwrap_err();
        assert!(table.contains("constants"), "{table}");
        assert!(TaskToml::parse("id = \"x\"\n[pinned]\nmodule = \"m\"\n[check]\nmax_depth = -1\n").is_err());
    }

    #[test]
    fn reads_the_graph_table() {
        let t = TaskToml::parse("id = \"x\"\n[pinned]\nmodule = \"m\"\n[graph]\nexhaustive = true\n").unwrap();
        assert_eq!(t.graph, Some(Graph { exhaustive: true }));
        assert_eq!(TaskToml::parse("id = \"x\"\n[pinned]\nmodule = \"m\"\n").unwrap().graph, None);
        assert!(TaskToml::parse("id = \"x\"\n[pinned]\nmodule = \"m\"\n[graph]\nexhaustiv = true\n").is_err());
    }
}
