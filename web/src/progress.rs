//! Per-stage progress while a model is graded: the worker forwards the grader's progress
//! reports (`sysmo_grade::Progress` as JSON) and [`Board`] folds them into one bar per stage —
//! the running stage with its counts, finished stages with their score, gated stages marked.

use serde_json::Value as Json;
use yew::prelude::*;

/// The four stages, in order.
pub const STAGES: [&str; 4] = ["syntax", "runtime", "conformance", "invariants"];

/// One stage's bar.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    pub key: &'static str,
    /// `waiting`, `running`, `ran`, `skipped` or `error`.
    pub state: String,
    /// Share of the stage done, when it can be told.
    pub fraction: Option<f64>,
    /// The counts (running) or the score (done).
    pub text: String,
    pub score: Option<f64>,
}

/// Every stage's bar, and how many reports came in.
#[derive(Clone, Debug, PartialEq)]
pub struct Board {
    pub bars: Vec<Bar>,
    pub reports: u64,
}

impl Default for Board {
    fn default() -> Self {
        Board {
            bars: STAGES.iter().map(|k| Bar { key: k, state: "waiting".into(), fraction: None, text: String::new(), score: None }).collect(),
            reports: 0,
        }
    }
}

fn u(v: &Json, k: &str) -> u64 {
    v.get(k).and_then(Json::as_u64).unwrap_or(0)
}

fn part(a: u64, b: u64) -> Option<f64> {
    (b > 0).then(|| (a as f64 / b as f64).clamp(0.0, 1.0))
}

/// What a running stage's report says, and how far along it is.
fn running_text(stage: &str, p: &Json) -> (String, Option<f64>) {
    let phase = p.get("phase").and_then(Json::as_str).unwrap_or("");
    match (stage, phase) {
        ("runtime", "gate") => (
            format!("gate: {} states explored, {} distinct, depth {} (budget {})", u(p, "states"), u(p, "distinct"), u(p, "depth"), u(p, "max_states")),
            part(u(p, "distinct"), u(p, "max_states")),
        ),
        ("runtime", _) => (
            format!("simulation: {} of {} behaviours", u(p, "behaviours"), u(p, "behaviours_total")),
            part(u(p, "behaviours"), u(p, "behaviours_total")),
        ),
        ("conformance", _) => (
            format!(
                "{} of {} traces, {} windows replayed ({} of {} trace steps){}",
                u(p, "traces"),
                u(p, "traces_total"),
                u(p, "windows"),
                u(p, "steps"),
                u(p, "steps_total"),
                if phase.is_empty() { String::new() } else { format!(" — {phase}") }
            ),
            part(u(p, "steps"), u(p, "steps_total")),
        ),
        ("invariants", _) => {
            let mut text = format!("{} of {} properties checked", u(p, "checked"), u(p, "checks_total"));
            if !phase.is_empty() {
                text += &format!(" — {phase}: {} states explored, {} distinct", u(p, "states"), u(p, "distinct"));
            }
            (text, part(u(p, "checked"), u(p, "checks_total")))
        }
        _ => ("running".into(), None),
    }
}

impl Board {
    /// Take one progress report in.
    pub fn apply(&mut self, p: &Json) {
        let Some(i) = p.get("stage").and_then(Json::as_str).and_then(|s| STAGES.iter().position(|k| *k == s)) else { return };
        self.reports += 1;
        let bar = &mut self.bars[i];
        if p.get("state").and_then(Json::as_str) == Some("done") {
            let score = p.get("score").and_then(Json::as_f64).unwrap_or(0.0);
            let status = p.get("status").and_then(Json::as_str).unwrap_or("ran");
            bar.state = status.to_string();
            bar.score = Some(score);
            bar.fraction = Some(1.0);
            bar.text = match status {
                "skipped" => "skipped (gated)".into(),
                "error" => format!("error — score {score:.4}"),
                _ => format!("score {score:.4}"),
            };
        } else {
            let (text, fraction) = running_text(bar.key, p);
            bar.state = "running".into();
            bar.text = text;
            bar.fraction = fraction;
        }
        // A stage running means the ones before it are over (their end comes first anyway).
        for b in &mut self.bars[..i] {
            if b.state == "waiting" || b.state == "running" {
                b.state = "ran".into();
            }
        }
    }
}

/// What changes a board.
pub enum BoardAction {
    /// A new grade starts.
    Reset,
    Apply(Json),
    /// The run was cancelled: the stage under way stops where it is.
    Cancel,
}

impl Reducible for Board {
    type Action = BoardAction;
    fn reduce(self: std::rc::Rc<Self>, a: BoardAction) -> std::rc::Rc<Self> {
        let mut b = (*self).clone();
        match a {
            BoardAction::Reset => b = Board::default(),
            BoardAction::Apply(p) => b.apply(&p),
            BoardAction::Cancel => {
                for bar in b.bars.iter_mut().filter(|x| x.state == "running" || x.state == "waiting") {
                    bar.state = "cancelled".into();
                }
            }
        }
        std::rc::Rc::new(b)
    }
}

#[derive(Properties, PartialEq)]
pub struct BoardProps {
    pub board: Board,
}

/// The bars.
#[function_component(ProgressBoard)]
pub fn progress_board(props: &BoardProps) -> Html {
    html! {
        <ol id="progress" data-reports={props.board.reports.to_string()}>
            { for props.board.bars.iter().map(|b| {
                let width = b.fraction.map(|f| format!("width: {:.1}%", 100.0 * f)).unwrap_or_else(|| "width: 100%".into());
                html! {
                    <li class={classes!("bar", b.state.clone(), (b.state == "running" && b.fraction.is_none()).then_some("indeterminate"))}
                        data-stage={b.key} data-state={b.state.clone()}>
                        <span class="name">{ b.key }</span>
                        <span class="track" role="progressbar" aria-valuemin="0" aria-valuemax="100"
                            aria-valuenow={b.fraction.map(|f| format!("{:.0}", 100.0 * f)).unwrap_or_default()}>
                            <span class="fill" style={width}></span>
                        </span>
                        <span class="counts">{ &b.text }</span>
                    </li>
                }
            }) }
        </ol>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reports_fill_the_bars_in_order() {
        let mut b = Board::default();
        assert!(b.bars.iter().all(|x| x.state == "waiting"));
        b.apply(&json!({"stage": "syntax", "state": "done", "score": 1.0, "status": "ran"}));
        b.apply(&json!({"stage": "runtime", "phase": "gate", "state": "running", "states": 4000, "distinct": 2500, "depth": 7, "max_states": 100000}));
        assert_eq!(b.bars[0].text, "score 1.0000");
        assert_eq!(b.bars[1].state, "running");
        assert_eq!(b.bars[1].text, "gate: 4000 states explored, 2500 distinct, depth 7 (budget 100000)");
        assert_eq!(b.bars[1].fraction, Some(0.025));
        b.apply(&json!({"stage": "runtime", "phase": "simulation", "state": "running", "behaviours": 250, "behaviours_total": 1000}));
        assert_eq!(b.bars[1].fraction, Some(0.25));
        b.apply(&json!({"stage": "runtime", "state": "done", "score": 0.75, "status": "ran"}));
        b.apply(&json!({"stage": "conformance", "state": "running", "phase": "a.ndjson", "traces": 1, "traces_total": 4, "windows": 9, "steps": 10, "steps_total": 40}));
        assert_eq!(b.bars[2].text, "1 of 4 traces, 9 windows replayed (10 of 40 trace steps) — a.ndjson");
        assert_eq!(b.bars[2].fraction, Some(0.25));
        b.apply(&json!({"stage": "invariants", "state": "running", "phase": "Inv", "checked": 2, "checks_total": 8, "states": 5, "distinct": 3}));
        assert_eq!(b.bars[2].state, "ran", "a later stage running ends the earlier ones");
        assert_eq!(b.bars[3].text, "2 of 8 properties checked — Inv: 5 states explored, 3 distinct");
        assert_eq!(b.reports, 6);
        b.apply(&json!({"stage": "bogus"}));
        assert_eq!(b.reports, 6);
    }

    #[test]
    fn gated_stages_are_marked() {
        let mut b = Board::default();
        b.apply(&json!({"stage": "syntax", "state": "done", "score": 0.4375, "status": "ran"}));
        for s in ["runtime", "conformance", "invariants"] {
            b.apply(&json!({"stage": s, "state": "done", "score": 0.0, "status": "skipped"}));
        }
        assert_eq!(b.bars.iter().map(|x| x.state.as_str()).collect::<Vec<_>>(), ["ran", "skipped", "skipped", "skipped"]);
        assert_eq!(b.bars[3].text, "skipped (gated)");
        assert_eq!(b.bars[0].score, Some(0.4375));
    }
}
