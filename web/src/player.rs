//! The counterexample player: a trace from the grader (ITF JSON) stepped state by state with
//! buttons, a slider, the keyboard and a play/pause timer. Each state shows its variables as a
//! tree (records, functions, sequences and sets expanded; scalars inline), what changed since
//! the previous state highlighted, the action that took the step with its parameters, the
//! cycle of a liveness lasso, and, for variables that are functions over one set of processes,
//! a lane per process.
//!
//! [`Trace`] and [`TreeNode`] are plain data (tested natively); [`Player`] renders them.

use crate::catalog::tla_text;
use crate::grading::Counterexample;
use gloo_timers::callback::Interval;
use serde_json::Value as Json;
use std::rc::Rc;
use yew::prelude::*;

/// Milliseconds between two states while playing.
const PLAY_INTERVAL_MS: u32 = 800;

/// One state of a trace.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceState {
    pub index: usize,
    /// `Unlock(t = 1)`: the named action that took the step and its parameters (the report's
    /// `#meta.step`), else the checker's action name; `None` for an initial state.
    pub action: Option<String>,
    /// The values of the step's parameters, as TLA+ text (to find the process that acted).
    pub params: Vec<(String, String)>,
    /// Each variable's value, in the trace's order of variables.
    pub values: Vec<(String, Json)>,
}

/// Per-process lanes: variables that are functions over the same set in every state.
#[derive(Clone, Debug, PartialEq)]
pub struct Lanes {
    /// The processes (the functions' domain), as TLA+ text.
    pub processes: Vec<String>,
    /// The variables shown in the lanes.
    pub vars: Vec<String>,
    /// `cells[p][i]`: process `p`'s values in state `i`, one per variable of `vars`.
    pub cells: Vec<Vec<Vec<String>>>,
}

/// A counterexample ready to play.
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    pub description: String,
    pub vars: Vec<String>,
    pub states: Vec<TraceState>,
    /// The state the last one loops back to (a liveness lasso).
    pub loop_to: Option<usize>,
    pub lanes: Option<Lanes>,
}

/// A value as a tree: a scalar is one line, a record, function, sequence or set has children.
#[derive(Clone, Debug, PartialEq)]
pub struct TreeNode {
    /// The field, the function's argument, the sequence's index, or empty for a set element
    /// and the root.
    pub key: String,
    /// `scalar`, `record`, `function`, `sequence`, `set`.
    pub kind: &'static str,
    /// The whole value as TLA+ text.
    pub text: String,
    pub children: Vec<TreeNode>,
    /// Differs from the previous state's value at the same place (new places count as changed).
    pub changed: bool,
}

fn map_pairs(v: &Json) -> Option<Vec<(&Json, &Json)>> {
    let pairs = v.get("#map")?.as_array()?;
    Some(
        pairs
            .iter()
            .filter_map(|p| match p.as_array().map(Vec::as_slice) {
                Some([k, x]) => Some((k, x)),
                _ => None,
            })
            .collect(),
    )
}

/// The children of a value, keyed, and its kind; scalars have none.
fn children(v: &Json) -> (&'static str, Vec<(String, &Json)>) {
    match v {
        Json::Object(m) => {
            if let Some(s) = m.get("#set").and_then(Json::as_array) {
                return ("set", s.iter().map(|x| (String::new(), x)).collect());
            }
            if let Some(t) = m.get("#tup").and_then(Json::as_array) {
                return ("sequence", t.iter().enumerate().map(|(i, x)| ((i + 1).to_string(), x)).collect());
            }
            if let Some(pairs) = map_pairs(v) {
                return ("function", pairs.into_iter().map(|(k, x)| (tla_text(k), x)).collect());
            }
            if m.contains_key("#bigint") || m.contains_key("#unserializable") {
                return ("scalar", vec![]);
            }
            ("record", m.iter().filter(|(k, _)| !k.starts_with('#')).map(|(k, x)| (k.clone(), x)).collect())
        }
        Json::Array(a) => ("sequence", a.iter().enumerate().map(|(i, x)| ((i + 1).to_string(), x)).collect()),
        _ => ("scalar", vec![]),
    }
}

/// `cur` as a tree, each node marked changed against `prev` (the previous state's value at the
/// same place; `None` when there was none, or for the initial state: nothing is marked then).
pub fn tree(key: &str, cur: &Json, prev: Option<&Json>, first: bool) -> TreeNode {
    let (kind, kids) = children(cur);
    let changed = !first && prev != Some(cur);
    let prev_kids: Vec<(String, &Json)> = prev.map(|p| children(p).1).unwrap_or_default();
    let children = if kind == "scalar" {
        vec![]
    } else {
        kids.iter()
            .map(|(k, x)| {
                let before = if kind == "set" {
                    // A set element is unchanged when the previous set has it too.
                    prev_kids.iter().find(|(_, y)| y == x).map(|(_, y)| *y)
                } else {
                    prev_kids.iter().find(|(pk, _)| pk == k).map(|(_, y)| *y)
                };
                tree(k, x, before, first)
            })
            .collect()
    };
    TreeNode { key: key.to_string(), kind, text: tla_text(cur), children, changed }
}

fn step_label(meta: Option<&Json>) -> (Option<String>, Vec<(String, String)>) {
    let Some(meta) = meta else { return (None, vec![]) };
    if let Some(step) = meta.get("step").filter(|s| s.get("action").is_some()) {
        let name = step.get("action").and_then(Json::as_str).unwrap_or("").to_string();
        let params: Vec<(String, String)> = step
            .get("params")
            .and_then(Json::as_object)
            .map(|m| m.iter().map(|(k, v)| (k.clone(), tla_text(v))).collect())
            .unwrap_or_default();
        let label = if params.is_empty() {
            name
        } else {
            format!("{name}({})", params.iter().map(|(k, v)| format!("{k} = {v}")).collect::<Vec<_>>().join(", "))
        };
        return (Some(label), params);
    }
    (meta.get("action").and_then(Json::as_str).map(str::to_string), vec![])
}

impl Trace {
    /// Read an ITF trace (`{"#meta", "vars", "states", "loop"?}`).
    pub fn from_itf(itf: &Json) -> Trace {
        let vars: Vec<String> = itf.get("vars").and_then(Json::as_array).map(|a| a.iter().filter_map(|x| x.as_str().map(str::to_string)).collect()).unwrap_or_default();
        let states: Vec<TraceState> = itf
            .get("states")
            .and_then(Json::as_array)
            .map(Vec::as_slice)
            .unwrap_or(&[])
            .iter()
            .enumerate()
            .map(|(i, st)| {
                let meta = st.get("#meta");
                let (action, params) = step_label(meta);
                TraceState {
                    index: meta.and_then(|m| m.get("index")).and_then(Json::as_u64).map(|x| x as usize).unwrap_or(i),
                    action: if i == 0 { None } else { action },
                    params: if i == 0 { vec![] } else { params },
                    values: vars.iter().map(|n| (n.clone(), st.get(n).cloned().unwrap_or(Json::Null))).collect(),
                }
            })
            .collect();
        let description = itf.get("#meta").and_then(|m| m.get("description")).and_then(Json::as_str).unwrap_or("").to_string();
        let loop_to = itf.get("loop").and_then(Json::as_u64).map(|x| x as usize);
        let lanes = lanes(&vars, &states);
        Trace { description, vars, states, loop_to, lanes }
    }

    /// The variables whose value in state `i` differs from state `i - 1` (none for the first).
    pub fn changed(&self, i: usize) -> Vec<String> {
        if i == 0 || i >= self.states.len() {
            return vec![];
        }
        let (a, b) = (&self.states[i - 1], &self.states[i]);
        a.values.iter().zip(&b.values).filter(|(x, y)| x.1 != y.1).map(|(_, y)| y.0.clone()).collect()
    }

    /// State `i`'s variables as trees, changes against state `i - 1` marked.
    pub fn trees(&self, i: usize) -> Vec<TreeNode> {
        let Some(st) = self.states.get(i) else { return vec![] };
        let prev = i.checked_sub(1).and_then(|j| self.states.get(j));
        st.values.iter().enumerate().map(|(k, (n, v))| tree(n, v, prev.and_then(|p| p.values.get(k)).map(|x| &x.1), i == 0)).collect()
    }

    /// What is said about state `i`'s step.
    pub fn action_text(&self, i: usize) -> String {
        match self.states.get(i) {
            Some(s) if i == 0 => if s.action.is_some() { s.action.clone().unwrap_or_default() } else { "initial state".into() },
            Some(s) => s.action.clone().unwrap_or_else(|| "a step of Next".into()),
            None => String::new(),
        }
    }

    /// Whether state `i` is in the lasso's cycle.
    pub fn in_cycle(&self, i: usize) -> bool {
        self.loop_to.is_some_and(|l| i >= l)
    }
}

/// The lanes: among the variables that are functions (not records) with one domain in every
/// state, those of the domain most of them share (ties: the first variable's).
fn lanes(vars: &[String], states: &[TraceState]) -> Option<Lanes> {
    if states.is_empty() {
        return None;
    }
    let domain_of = |v: &Json| -> Option<Vec<String>> { map_pairs(v).map(|ps| ps.into_iter().map(|(k, _)| tla_text(k)).collect()) };
    let mut by_domain: Vec<(Vec<String>, Vec<usize>)> = vec![];
    for (k, _) in vars.iter().enumerate() {
        let Some(d) = domain_of(&states[0].values[k].1) else { continue };
        if d.len() < 2 || !states.iter().all(|s| domain_of(&s.values[k].1).as_ref() == Some(&d)) {
            continue;
        }
        match by_domain.iter_mut().find(|(x, _)| *x == d) {
            Some((_, ks)) => ks.push(k),
            None => by_domain.push((d, vec![k])),
        }
    }
    let (processes, ks) = by_domain.into_iter().fold(None::<(Vec<String>, Vec<usize>)>, |best, c| match best {
        Some(b) if b.1.len() >= c.1.len() => Some(b),
        _ => Some(c),
    })?;
    let cells = processes
        .iter()
        .map(|p| {
            states
                .iter()
                .map(|s| {
                    ks.iter()
                        .map(|&k| {
                            map_pairs(&s.values[k].1)
                                .and_then(|ps| ps.into_iter().find(|(key, _)| tla_text(key) == *p).map(|(_, x)| tla_text(x)))
                                .unwrap_or_default()
                        })
                        .collect()
                })
                .collect()
        })
        .collect();
    Some(Lanes { processes, vars: ks.iter().map(|&k| vars[k].clone()).collect(), cells })
}

/// A `data:` address holding `itf` as pretty JSON, for the download link.
pub fn export_href(itf: &Json) -> String {
    let text = serde_json::to_string_pretty(itf).unwrap_or_default();
    let mut out = String::from("data:application/json;charset=utf-8,");
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.!~*'()".contains(&b) {
            out.push(b as char);
        } else {
            out += &format!("%{b:02X}");
        }
    }
    out
}

/// Where the player stands.
#[derive(Clone, Debug, PartialEq)]
struct Cursor {
    pos: usize,
    len: usize,
    playing: bool,
}

enum Move {
    First,
    Prev,
    Next,
    Last,
    To(usize),
    /// The timer: the next state, or stop at the last one.
    Tick,
    Toggle,
}

impl Reducible for Cursor {
    type Action = Move;
    fn reduce(self: Rc<Self>, m: Move) -> Rc<Self> {
        let last = self.len.saturating_sub(1);
        let (pos, playing) = match m {
            Move::First => (0, false),
            Move::Prev => (self.pos.saturating_sub(1), false),
            Move::Next => ((self.pos + 1).min(last), false),
            Move::Last => (last, false),
            Move::To(i) => (i.min(last), false),
            Move::Tick if self.pos >= last => (last, false),
            Move::Tick => (self.pos + 1, self.playing),
            // Play from the start when at the end.
            Move::Toggle if !self.playing && self.pos >= last => (0, true),
            Move::Toggle => (self.pos, !self.playing),
        };
        Rc::new(Cursor { pos, playing, len: self.len })
    }
}

#[derive(Properties, PartialEq)]
pub struct PlayerProps {
    pub cex: Rc<Counterexample>,
    /// A name for the exported file (`<name>.itf.json`).
    pub name: String,
}

fn tree_view(n: &TreeNode) -> Html {
    let class = classes!("node", n.kind, n.changed.then_some("changed"));
    let key = if n.key.is_empty() { html! {} } else { html! { <span class="key">{ &n.key }</span> } };
    if n.children.is_empty() {
        html! { <li class={class} data-key={n.key.clone()}>{ key }<code class="val">{ &n.text }</code></li> }
    } else {
        html! {
            <li class={class} data-key={n.key.clone()}>
                { key }<span class="kind">{ format!("{} of {}", n.kind, n.children.len()) }</span>
                <ul>{ for n.children.iter().map(tree_view) }</ul>
            </li>
        }
    }
}

#[function_component(Player)]
pub fn player(props: &PlayerProps) -> Html {
    let trace = use_memo(props.cex.clone(), |c| Trace::from_itf(&c.itf));
    let href = use_memo(props.cex.clone(), |c| export_href(&c.itf));
    let cursor = use_reducer(|| Cursor { pos: 0, len: trace.states.len(), playing: false });
    {
        // The timer runs while playing.
        let cursor = cursor.clone();
        use_effect_with(cursor.playing, move |playing| {
            let timer = playing.then(|| {
                let c = cursor.clone();
                Interval::new(PLAY_INTERVAL_MS, move || c.dispatch(Move::Tick))
            });
            move || drop(timer)
        });
    }
    if trace.states.is_empty() {
        return html! { <p class="player empty">{ "The counterexample has no state." }</p> };
    }
    let pos = cursor.pos.min(trace.states.len() - 1);
    let last = trace.states.len() - 1;
    let go = |m: fn() -> Move| {
        let c = cursor.clone();
        Callback::from(move |_: MouseEvent| c.dispatch(m()))
    };
    let onkeydown = {
        let c = cursor.clone();
        Callback::from(move |e: KeyboardEvent| {
            let m = match e.key().as_str() {
                "ArrowLeft" => Move::Prev,
                "ArrowRight" => Move::Next,
                "Home" => Move::First,
                "End" => Move::Last,
                " " => Move::Toggle,
                _ => return,
            };
            e.prevent_default();
            c.dispatch(m);
        })
    };
    let oninput = {
        let c = cursor.clone();
        Callback::from(move |e: InputEvent| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            c.dispatch(Move::To(input.value().parse().unwrap_or(0)));
        })
    };
    let changed = trace.changed(pos);
    let st = &trace.states[pos];
    let acted: Vec<&String> = st.params.iter().map(|(_, v)| v).collect();
    let file = format!("{}.itf.json", props.name);
    html! {
        <div class="player" tabindex="0" {onkeydown} data-pos={pos.to_string()} data-len={trace.states.len().to_string()}
            aria-label="Counterexample player: arrow keys step, Home and End jump, space plays">
            { if trace.description.is_empty() { html! {} } else { html! { <p class="cex-what">{ &trace.description }</p> } } }
            <div class="controls">
                <button class="first" title="First state (Home)" onclick={go(|| Move::First)} disabled={pos == 0}>{ "« first" }</button>
                <button class="prev" title="Previous state (←)" onclick={go(|| Move::Prev)} disabled={pos == 0}>{ "‹ prev" }</button>
                <button class="play" title="Play / pause (space)" onclick={go(|| Move::Toggle)} data-playing={cursor.playing.to_string()}>
                    { if cursor.playing { "pause" } else { "play" } }
                </button>
                <button class="next" title="Next state (→)" onclick={go(|| Move::Next)} disabled={pos == last}>{ "next ›" }</button>
                <button class="last" title="Last state (End)" onclick={go(|| Move::Last)} disabled={pos == last}>{ "last »" }</button>
                <input class="slider" type="range" min="0" max={last.to_string()} value={pos.to_string()} {oninput} aria-label="state" />
                <span class="position">{ format!("state {} of {}", pos + 1, trace.states.len()) }</span>
                <a class="export" href={(*href).clone()} download={file}>{ "Export ITF JSON" }</a>
            </div>
            <ol class="strip">
                { for trace.states.iter().enumerate().map(|(i, s)| {
                    let c = cursor.clone();
                    let onclick = Callback::from(move |_: MouseEvent| c.dispatch(Move::To(i)));
                    html! {
                        <li class={classes!("step", (i == pos).then_some("current"), trace.in_cycle(i).then_some("cycle"), (trace.loop_to == Some(i)).then_some("loop-start"))}
                            data-index={s.index.to_string()}>
                            <button {onclick} title={trace.action_text(i)}>{ i }</button>
                        </li>
                    }
                }) }
                { trace.loop_to.map(|l| html! { <li class="loop-back">{ format!("↺ back to {l}") }</li> }).unwrap_or_default() }
            </ol>
            <p class="step-action">
                <span class="index">{ format!("{}: ", st.index) }</span>
                <code class="action">{ trace.action_text(pos) }</code>
                { if trace.in_cycle(pos) { html! { <span class="badge cycle">{ if trace.loop_to == Some(pos) { "the cycle starts here" } else { "in the cycle" } }</span> } } else { html! {} } }
                { if pos == last && trace.loop_to.is_some() { html! { <span class="badge cycle">{ format!("then back to state {}", trace.loop_to.unwrap_or(0)) }</span> } } else { html! {} } }
                { if pos > 0 { html! { <span class="changed-list">{ if changed.is_empty() { "nothing changed (stuttering)".to_string() } else { format!("changed: {}", changed.join(", ")) } }</span> } } else { html! {} } }
            </p>
            <ul class="state-tree">
                { for trace.trees(pos).iter().map(|n| html! {
                    <li class={classes!("var", n.changed.then_some("changed"))} data-var={n.key.clone()}>
                        <ul class="tree">{ tree_view(n) }</ul>
                    </li>
                }) }
            </ul>
            { trace.lanes.as_ref().map(|l| lanes_view(&trace, l, pos, &acted)).unwrap_or_default() }
        </div>
    }
}

fn lanes_view(trace: &Trace, l: &Lanes, pos: usize, acted: &[&String]) -> Html {
    html! {
        <table class="lanes">
            <caption>{ format!("{} per process", l.vars.join(", ")) }</caption>
            <thead><tr><th>{ "process" }</th>{ for (0..trace.states.len()).map(|i| html! {
                <th class={classes!((i == pos).then_some("current"), trace.in_cycle(i).then_some("cycle"))} title={trace.action_text(i)}>{ i }</th>
            }) }</tr></thead>
            <tbody>
                { for l.processes.iter().enumerate().map(|(p, name)| html! {
                    <tr class={classes!("lane", acted.contains(&name).then_some("acted"))} data-process={name.clone()}>
                        <th>{ name }</th>
                        { for l.cells[p].iter().enumerate().map(|(i, vals)| {
                            let changed = i > 0 && l.cells[p][i - 1] != *vals;
                            let text = if l.vars.len() == 1 { vals[0].clone() } else {
                                l.vars.iter().zip(vals).map(|(v, x)| format!("{v}: {x}")).collect::<Vec<_>>().join(" · ")
                            };
                            html! { <td class={classes!((i == pos).then_some("current"), changed.then_some("changed"))}>{ text }</td> }
                        }) }
                    </tr>
                }) }
            </tbody>
        </table>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Two threads enter the critical section one after the other (`pc` a function over 0..2).
    fn itf() -> Json {
        let pc = |a: &str, b: &str, c: &str| json!({"#map": [[0, a], [1, b], [2, c]]});
        json!({
            "#meta": {"description": "property MutualExclusion is violated"},
            "vars": ["locked", "pc", "log"],
            "states": [
                {"#meta": {"index": 0}, "locked": false, "pc": pc("idle", "idle", "idle"), "log": {"#tup": []}},
                {"#meta": {"index": 1, "action": "Next", "step": {"action": "TryLock", "params": {"t": 0}}}, "locked": true, "pc": pc("cs", "idle", "idle"), "log": {"#tup": [{"who": 0, "ok": true}]}},
                {"#meta": {"index": 2, "action": "Next", "step": {"action": "Unlock", "params": {"t": 1}}}, "locked": false, "pc": pc("cs", "idle", "idle"), "log": {"#tup": [{"who": 0, "ok": true}]}},
                {"#meta": {"index": 3, "action": "Next"}, "locked": true, "pc": pc("cs", "cs", "idle"), "log": {"#tup": [{"who": 0, "ok": true}, {"who": 1, "ok": true}]}}
            ],
            "loop": 2
        })
    }

    #[test]
    fn actions_read_the_step_and_its_parameters() {
        let t = Trace::from_itf(&itf());
        assert_eq!(t.states.len(), 4);
        assert_eq!(t.action_text(0), "initial state");
        assert_eq!(t.action_text(1), "TryLock(t = 0)");
        assert_eq!(t.states[2].params, vec![("t".to_string(), "1".to_string())]);
        // No step recorded: the checker's name.
        assert_eq!(t.action_text(3), "Next");
        assert_eq!(t.description, "property MutualExclusion is violated");
    }

    #[test]
    fn changes_are_marked_per_variable_and_inside_values() {
        let t = Trace::from_itf(&itf());
        assert!(t.changed(0).is_empty());
        assert_eq!(t.changed(1), ["locked", "pc", "log"]);
        assert_eq!(t.changed(2), ["locked"]);
        let trees = t.trees(3);
        let pc = &trees[1];
        assert!(pc.changed && pc.kind == "function");
        let marks: Vec<(String, bool)> = pc.children.iter().map(|c| (c.key.clone(), c.changed)).collect();
        assert_eq!(marks, [("0".into(), false), ("1".into(), true), ("2".into(), false)]);
        assert_eq!(pc.children[1].text, "\"cs\"");
        // A sequence grew by one record: the old element is unchanged, the new one is marked.
        let log = &trees[2];
        assert_eq!(log.kind, "sequence");
        assert_eq!(log.children.iter().map(|c| c.changed).collect::<Vec<_>>(), [false, true]);
        assert_eq!(log.children[1].kind, "record");
        assert_eq!(log.children[1].children.iter().map(|c| c.key.as_str()).collect::<Vec<_>>(), ["ok", "who"]);
        // Nothing is marked in the initial state.
        assert!(t.trees(0).iter().all(|n| !n.changed));
        assert!(!t.trees(2)[1].changed);
    }

    #[test]
    fn sets_compare_elements_not_positions() {
        let prev = json!({"#set": [1, 3]});
        let cur = json!({"#set": [0, 1, 3]});
        let n = tree("s", &cur, Some(&prev), false);
        assert_eq!(n.children.iter().map(|c| c.changed).collect::<Vec<_>>(), [true, false, false]);
        assert_eq!(n.text, "{0, 1, 3}");
    }

    #[test]
    fn functions_over_processes_become_lanes() {
        let t = Trace::from_itf(&itf());
        let l = t.lanes.as_ref().expect("pc is a function over the threads");
        assert_eq!(l.processes, ["0", "1", "2"]);
        assert_eq!(l.vars, ["pc"]);
        assert_eq!(l.cells[1].iter().map(|c| c[0].as_str()).collect::<Vec<_>>(), ["\"idle\"", "\"idle\"", "\"idle\"", "\"cs\""]);
        // No function: no lanes.
        let flat = json!({"vars": ["x"], "states": [{"x": 1}, {"x": 2}]});
        assert!(Trace::from_itf(&flat).lanes.is_none());
    }

    #[test]
    fn the_export_address_decodes_to_the_trace() {
        let itf = itf();
        let href = export_href(&itf);
        let body = href.strip_prefix("data:application/json;charset=utf-8,").unwrap();
        assert!(!body.contains(' ') && !body.contains('"') && !body.contains('#'));
        let mut bytes = vec![];
        let mut it = body.bytes();
        while let Some(b) = it.next() {
            if b == b'%' {
                let hex: String = [it.next().unwrap() as char, it.next().unwrap() as char].iter().collect();
                bytes.push(u8::from_str_radix(&hex, 16).unwrap());
            } else {
                bytes.push(b);
            }
        }
        let back: Json = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(back, itf);
    }

    #[test]
    fn a_lasso_marks_its_cycle() {
        let t = Trace::from_itf(&itf());
        assert_eq!(t.loop_to, Some(2));
        assert_eq!((0..4).map(|i| t.in_cycle(i)).collect::<Vec<_>>(), [false, false, true, true]);
    }

    #[test]
    fn the_cursor_stays_within_the_trace_and_the_timer_stops_at_the_end() {
        let c = Rc::new(Cursor { pos: 0, len: 3, playing: false });
        let c = c.reduce(Move::Prev);
        assert_eq!(c.pos, 0);
        let c = c.reduce(Move::Toggle);
        assert!(c.playing);
        let c = c.reduce(Move::Tick).reduce(Move::Tick);
        assert_eq!((c.pos, c.playing), (2, true));
        let c = c.reduce(Move::Tick);
        assert_eq!((c.pos, c.playing), (2, false));
        let c = c.reduce(Move::Toggle);
        assert_eq!((c.pos, c.playing), (0, true), "play again from the start");
        let c = c.reduce(Move::To(9));
        assert_eq!((c.pos, c.playing), (2, false));
    }
}
