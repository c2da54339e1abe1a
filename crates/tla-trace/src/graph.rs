//! The system's own behaviour graph: every observed state a task's code reached and every step
//! it took between them, labelled with the action and its arguments. It is what the code can
//! do, recorded by running the code, not by any model of it; the precision stage
//! ([`crate::precision`]) measures how much more a model allows.
//!
//! The file is NDJSON (docs/system-graph.md): a `graph` header (the task, its constants, how
//! the graph was explored), one `state` line per observed state (`init` marks the states a run
//! starts in), one `edge` line per distinct step. [`GraphBuilder`] folds traces (the format of
//! docs/trace-format.md) into a graph; the order of states and edges is the order in which the
//! traces first show them, so the same runs give the same bytes.

use serde_json::{json, Map, Value as Json};
use std::collections::{BTreeMap, HashMap};

use crate::trace::{codes, parse_trace, InputError, Observation};

/// How the graph was explored, as its header says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exploration {
    /// Every schedule of the runs within their bounds was explored (a model step from a state
    /// of the graph that the graph lacks is then one the code cannot take within those bounds).
    pub exhaustive: bool,
    /// The runs: how many, of which kind, and their bounds, in words.
    pub runs: u64,
    pub bounds: String,
    /// Runs after the last one that added a state or an edge (for a sampled graph: how settled
    /// it is).
    pub settled_runs: u64,
}

/// One step of the code: from a state, by an action with its arguments, to a state.
#[derive(Clone, Debug, PartialEq)]
pub struct Edge {
    pub line: usize,
    pub from: usize,
    pub action: String,
    pub args: Map<String, Json>,
    pub to: usize,
}

/// A parsed system graph.
#[derive(Clone, Debug)]
pub struct SystemGraph {
    pub file: String,
    pub task: String,
    pub constants: Map<String, Json>,
    pub exploration: Exploration,
    /// The observed states, by id (the id is the index).
    pub states: Vec<Observation>,
    /// Ids of the states runs start in.
    pub init: Vec<usize>,
    /// By state id: how many times the runs were in the state and took a step from it, or
    /// ended there with no step left (0 when the file does not say).
    pub visits: Vec<u64>,
    /// By state id: the search stopped at its bounds there, so its steps are not all known.
    pub frontier: Vec<bool>,
    pub edges: Vec<Edge>,
}

impl SystemGraph {
    /// The steps the code takes from state `id`, as `Action(arg=value, ...)`, sorted.
    pub fn steps_from(&self, id: usize) -> Vec<String> {
        let mut out: Vec<String> = self.edges.iter().filter(|e| e.from == id).map(|e| label(&e.action, &e.args)).collect();
        out.sort();
        out.dedup();
        out
    }
}

/// `Action(a=1, t=2)`, or `Action` without arguments.
pub fn label(action: &str, args: &Map<String, Json>) -> String {
    if args.is_empty() {
        return action.to_string();
    }
    let mut keys: Vec<&String> = args.keys().collect();
    keys.sort();
    let parts: Vec<String> = keys.iter().map(|k| format!("{}={}", k, canonical(&args[k.as_str()]))).collect();
    format!("{}({})", action, parts.join(", "))
}

/// A JSON value with object keys sorted (the form states and arguments are compared in):
/// serde_json's map is ordered by key in this workspace (its `preserve_order` feature is off;
/// a test below checks it), so its text is canonical.
pub fn canonical(v: &Json) -> String {
    v.to_string()
}

fn field<'j>(obj: &'j Map<String, Json>, name: &str, file: &str, line: usize) -> Result<&'j Json, InputError> {
    obj.get(name).ok_or_else(|| InputError::new(codes::BAD_GRAPH, file, line, format!("the line has no field \"{}\"", name)))
}

fn index(obj: &Map<String, Json>, name: &str, file: &str, line: usize, states: usize) -> Result<usize, InputError> {
    let v = field(obj, name, file, line)?;
    match v.as_u64() {
        Some(i) if (i as usize) < states => Ok(i as usize),
        _ => Err(InputError::new(codes::BAD_GRAPH, file, line, format!("\"{}\" must be the id of a state declared above, not {}", name, v))),
    }
}

/// Parse a system graph's text.
pub fn parse_graph(file: &str, text: &str) -> Result<SystemGraph, InputError> {
    let mut lines = text.split('\n').enumerate().map(|(i, l)| (i + 1, l.strip_suffix('\r').unwrap_or(l))).filter(|(_, l)| !l.trim().is_empty());
    let Some((hl, header)) = lines.next() else {
        return Err(InputError::new(codes::BAD_GRAPH, file, 0, "the system graph is empty (it starts with a graph line)"));
    };
    let obj = |n: usize, l: &str| -> Result<Map<String, Json>, InputError> {
        match serde_json::from_str::<Json>(l) {
            Ok(Json::Object(o)) => Ok(o),
            Ok(_) => Err(InputError::new(codes::BAD_GRAPH, file, n, "a line must be a JSON object")),
            Err(e) => Err(InputError::new(codes::BAD_JSON, file, n, format!("not valid JSON: {}", e))),
        }
    };
    let h = obj(hl, header)?;
    if h.get("kind").and_then(Json::as_str) != Some("graph") {
        return Err(InputError::new(codes::BAD_GRAPH, file, hl, "the first line must have kind \"graph\""));
    }
    if h.get("version").and_then(Json::as_i64) != Some(1) {
        return Err(InputError::new(codes::BAD_GRAPH, file, hl, "unsupported graph version (expected 1)"));
    }
    let task = field(&h, "task", file, hl)?.as_str().unwrap_or_default().to_string();
    let constants = h.get("constants").and_then(Json::as_object).cloned().unwrap_or_default();
    let exploration = Exploration {
        exhaustive: h.get("exhaustive").and_then(Json::as_bool).unwrap_or(false),
        runs: h.get("runs").and_then(Json::as_u64).unwrap_or(0),
        bounds: h.get("bounds").and_then(Json::as_str).unwrap_or_default().to_string(),
        settled_runs: h.get("settled_runs").and_then(Json::as_u64).unwrap_or(0),
    };
    let mut g = SystemGraph { file: file.to_string(), task, constants, exploration, states: vec![], init: vec![], visits: vec![], frontier: vec![], edges: vec![] };
    for (n, l) in lines {
        let o = obj(n, l)?;
        match o.get("kind").and_then(Json::as_str).unwrap_or("") {
            "state" => {
                let id = field(&o, "id", file, n)?.as_u64();
                if id != Some(g.states.len() as u64) {
                    return Err(InputError::new(codes::BAD_GRAPH, file, n, format!("state ids must be 0, 1, 2, ... in order; expected {}", g.states.len())));
                }
                let Some(st) = field(&o, "state", file, n)?.as_object() else {
                    return Err(InputError::new(codes::BAD_GRAPH, file, n, "\"state\" must be a JSON object"));
                };
                if o.get("init").and_then(Json::as_bool) == Some(true) {
                    g.init.push(g.states.len());
                }
                g.visits.push(o.get("visits").and_then(Json::as_u64).unwrap_or(0));
                g.frontier.push(o.get("frontier").and_then(Json::as_bool).unwrap_or(false));
                g.states.push(Observation { line: n, state: st.clone() });
            }
            "edge" => {
                let from = index(&o, "from", file, n, g.states.len())?;
                let to = index(&o, "to", file, n, g.states.len())?;
                let action = field(&o, "action", file, n)?.as_str().filter(|s| !s.is_empty());
                let Some(action) = action else {
                    return Err(InputError::new(codes::BAD_GRAPH, file, n, "\"action\" must be a non-empty string"));
                };
                let args = o.get("args").and_then(Json::as_object).cloned().unwrap_or_default();
                g.edges.push(Edge { line: n, from, action: action.to_string(), args, to });
            }
            other => return Err(InputError::new(codes::BAD_GRAPH, file, n, format!("unknown line kind \"{}\" (expected \"state\" or \"edge\")", other))),
        }
    }
    if g.states.is_empty() {
        return Err(InputError::new(codes::BAD_GRAPH, file, hl, "the system graph has no state"));
    }
    Ok(g)
}

/// Folds the traces of a task's runs into its system graph.
#[derive(Default)]
pub struct GraphBuilder {
    task: String,
    constants: Map<String, Json>,
    states: Vec<String>,
    state_ids: HashMap<String, usize>,
    init: Vec<bool>,
    visits: Vec<u64>,
    frontier: Vec<bool>,
    edges: Vec<(usize, String, String, usize)>,
    edge_ids: HashMap<(usize, String, String, usize), usize>,
    runs: u64,
    last_growth: u64,
}

impl GraphBuilder {
    pub fn new() -> GraphBuilder {
        GraphBuilder::default()
    }

    /// A builder for states and steps added one by one (a search), of `task` with `constants`.
    pub fn for_task(task: &str, constants: Map<String, Json>) -> GraphBuilder {
        GraphBuilder { task: task.to_string(), constants, ..GraphBuilder::default() }
    }

    fn state(&mut self, o: &Observation, init: bool) -> usize {
        self.add_state(&o.state, init)
    }

    /// Adds an observed state (if new); its id.
    pub fn add_state(&mut self, state: &Map<String, Json>, init: bool) -> usize {
        let text = canonical(&Json::Object(state.clone()));
        let id = match self.state_ids.get(&text) {
            Some(&id) => id,
            None => {
                let id = self.states.len();
                self.state_ids.insert(text.clone(), id);
                self.states.push(text);
                self.init.push(false);
                self.visits.push(0);
                self.frontier.push(false);
                self.last_growth = self.runs;
                id
            }
        };
        if init && !self.init[id] {
            self.init[id] = true;
            self.last_growth = self.runs;
        }
        id
    }

    /// Adds one run's trace. Every trace of a graph is of the same task and constants.
    pub fn add_trace(&mut self, file: &str, text: &str) -> Result<(), InputError> {
        self.add_run(file, text, false)
    }

    /// Adds one run's trace; `ended` says that the run stopped because the code had no step
    /// left to take (every thread finished), so its last state counts as visited too: a
    /// state the code never leaves, seen often, is known to have no step.
    pub fn add_run(&mut self, file: &str, text: &str, ended: bool) -> Result<(), InputError> {
        let t = parse_trace(file, text)?;
        if self.runs == 0 && self.states.is_empty() {
            self.task = t.task.clone();
            self.constants = t.constants.clone();
        } else if t.task != self.task || t.constants != self.constants {
            return Err(InputError::new(codes::OTHER_TASK, file, 1, "every run of a graph must be of the same task and constants"));
        }
        self.runs += 1;
        let Some(init) = t.init.as_ref() else {
            return Err(InputError::new(codes::BAD_LINE, file, 1, "a run for the system graph needs its init line"));
        };
        let mut at = self.state(init, true);
        for s in &t.steps {
            self.visits[at] += 1;
            let to = self.state(&s.post, false);
            let key = (at, s.action.clone(), canonical(&Json::Object(s.args.clone())), to);
            if !self.edge_ids.contains_key(&key) {
                self.edge_ids.insert(key.clone(), self.edges.len());
                self.edges.push(key);
                self.last_growth = self.runs;
            }
            at = to;
        }
        if ended {
            self.visits[at] += 1;
        }
        Ok(())
    }

    /// Adds a step of the code between two states added before (a departure from `from`: see
    /// [`GraphBuilder::visited`]).
    pub fn add_edge(&mut self, from: usize, action: &str, args: &Map<String, Json>, to: usize) {
        let key = (from, action.to_string(), canonical(&Json::Object(args.clone())), to);
        if !self.edge_ids.contains_key(&key) {
            self.edge_ids.insert(key.clone(), self.edges.len());
            self.edges.push(key);
        }
    }

    /// Counts one more time the code was in state `id` and took a step from it (a search
    /// counts each machine state it expands).
    pub fn visited(&mut self, id: usize) {
        if let Some(v) = self.visits.get_mut(id) {
            *v += 1;
        }
    }

    /// Marks a state whose steps were not all explored (a search stopped at its bounds there).
    pub fn mark_frontier(&mut self, id: usize) {
        if let Some(f) = self.frontier.get_mut(id) {
            *f = true;
        }
    }

    /// States and edges so far.
    pub fn size(&self) -> (usize, usize) {
        (self.states.len(), self.edges.len())
    }

    /// Runs added since the last one that added a state or an edge.
    pub fn settled_runs(&self) -> u64 {
        self.runs - self.last_growth
    }

    /// The graph's text. `bounds` says in words what the runs were; `exhaustive`, that every
    /// state not marked as frontier had all its steps explored.
    pub fn text(&self, exhaustive: bool, bounds: &str) -> String {
        let mut out = String::new();
        let header = json!({
            "kind": "graph",
            "version": 1,
            "task": self.task,
            "constants": Json::Object(self.constants.clone()),
            "exhaustive": exhaustive,
            "runs": self.runs,
            "settled_runs": self.settled_runs(),
            "bounds": bounds,
        });
        // The header's keys in a fixed order, the rest canonical.
        let order = ["kind", "version", "task", "constants", "exhaustive", "runs", "settled_runs", "bounds"];
        let parts: Vec<String> = order.iter().map(|k| format!("{}:{}", Json::from(*k), canonical(&header[*k]))).collect();
        out.push('{');
        out.push_str(&parts.join(","));
        out.push_str("}\n");
        for (id, s) in self.states.iter().enumerate() {
            let init = if self.init[id] { ",\"init\":true" } else { "" };
            let visits = self.visits[id];
            let frontier = if self.frontier[id] { ",\"frontier\":true" } else { "" };
            out.push_str(&format!("{{\"kind\":\"state\",\"id\":{id}{init},\"visits\":{visits}{frontier},\"state\":{s}}}\n"));
        }
        let mut by_from: BTreeMap<usize, Vec<&(usize, String, String, usize)>> = BTreeMap::new();
        for e in &self.edges {
            by_from.entry(e.0).or_default().push(e);
        }
        for (from, action, args, to) in by_from.into_values().flatten() {
            out.push_str(&format!("{{\"kind\":\"edge\",\"from\":{from},\"action\":{},\"args\":{args},\"to\":{to}}}\n", Json::from(action.as_str())));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RUN_A: &str = r#"{"kind":"header","task":"t","version":1,"constants":{"N":1}}
{"kind":"init","state":{"x":0}}
{"kind":"step","seq":1,"action":"Inc","args":{"t":0},"state":{"x":1}}
{"kind":"step","seq":2,"action":"Reset","args":{},"state":{"x":0}}
"#;
    const RUN_B: &str = r#"{"kind":"header","task":"t","version":1,"constants":{"N":1}}
{"kind":"init","state":{"x":0}}
{"kind":"step","seq":1,"action":"Inc","args":{"t":0},"state":{"x":1}}
{"kind":"step","seq":2,"action":"Inc","args":{"t":0},"state":{"x":2}}
"#;

    #[test]
    fn traces_fold_into_a_graph_that_reads_back() {
        let mut b = GraphBuilder::new();
        b.add_trace("a", RUN_A).unwrap();
        assert_eq!(b.settled_runs(), 0);
        b.add_trace("a", RUN_A).unwrap();
        assert_eq!(b.settled_runs(), 1);
        b.add_trace("b", RUN_B).unwrap();
        assert_eq!(b.size(), (3, 3));
        let text = b.text(false, "three runs");
        expect_test::expect![[r#"
            {"kind":"graph","version":1,"task":"t","constants":{"N":1},"exhaustive":false,"runs":3,"settled_runs":0,"bounds":"three runs"}
            {"kind":"state","id":0,"init":true,"visits":3,"state":{"x":0}}
            {"kind":"state","id":1,"visits":3,"state":{"x":1}}
            {"kind":"state","id":2,"visits":0,"state":{"x":2}}
            {"kind":"edge","from":0,"action":"Inc","args":{"t":0},"to":1}
            {"kind":"edge","from":1,"action":"Reset","args":{},"to":0}
            {"kind":"edge","from":1,"action":"Inc","args":{"t":0},"to":2}
        "#]]
        .assert_eq(&text);
        let g = parse_graph("g", &text).unwrap();
        assert_eq!(g.init, vec![0]);
        assert_eq!(g.steps_from(1), vec!["Inc(t=0)".to_string(), "Reset".to_string()]);
        assert_eq!(g.exploration.runs, 3);
    }

    #[test]
    fn json_maps_are_sorted_by_key() {
        let v: Json = serde_json::from_str(r#"{"b": 1, "a": {"d": 2, "c": 3}}"#).unwrap();
        assert_eq!(canonical(&v), r#"{"a":{"c":3,"d":2},"b":1}"#);
    }

    #[test]
    fn malformed_graphs_say_where() {
        let e = parse_graph("g", "").unwrap_err();
        assert_eq!((e.code, e.line), (codes::BAD_GRAPH, 0));
        let e = parse_graph("g", "{\"kind\":\"graph\",\"version\":1,\"task\":\"t\"}\n{\"kind\":\"state\",\"id\":1,\"state\":{}}\n").unwrap_err();
        assert_eq!((e.line, e.message.as_str()), (2, "state ids must be 0, 1, 2, ... in order; expected 0"));
        let e = parse_graph("g", "{\"kind\":\"graph\",\"version\":1,\"task\":\"t\"}\n{\"kind\":\"state\",\"id\":0,\"state\":{}}\n{\"kind\":\"edge\",\"from\":0,\"action\":\"A\",\"to\":4}\n").unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.message.contains("\"to\" must be the id of a state"), "{}", e.message);
    }
}
