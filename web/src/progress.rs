//! Per-stage progress while a model is graded: the worker forwards the grader's progress
//! reports (`sysmo_grade::Progress`, read back from the message's JSON) and [`Board`] folds
//! them into one bar per stage — the running stage with its counts, finished stages with their
//! score, gated stages marked.

use sysmo_grade::report::Status;
use sysmo_grade::{Progress, StageState};
use yew::prelude::*;

/// The five stages, in order.
pub const STAGES: [&str; 5] = ["syntax", "runtime", "conformance", "invariants", "precision"];

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

/// What a running stage's report says, and how far along it is.
fn running_text(stage: &str, p: &Progress) -> (String, Option<f64>) {
    let phase = p.phase.as_str();
    let text = match (stage, phase) {
        ("runtime", "gate") => {
            format!("gate: {} states explored, {} distinct, depth {} (budget {})", p.states, p.distinct, p.depth, p.max_states)
        }
        ("runtime", _) => format!("simulation: {} of {} behaviours", p.behaviours, p.behaviours_total),
        ("conformance", _) => format!(
            "{} of {} traces, {} windows replayed ({} of {} trace steps){}",
            p.traces,
            p.traces_total,
            p.windows,
            p.steps,
            p.steps_total,
            if phase.is_empty() { String::new() } else { format!(" — {phase}") }
        ),
        ("invariants", _) => {
            let mut text = format!("{} of {} properties checked", p.checked, p.checks_total);
            if !phase.is_empty() {
                text += &format!(" — {phase}: {} states explored, {} distinct", p.states, p.distinct);
            }
            text
        }
        ("precision", _) => format!("{} model states explored against the code's graph (budget {})", p.states, p.max_states),
        _ => "running".into(),
    };
    (text, p.fraction())
}

impl Board {
    /// Take one progress report in.
    pub fn apply(&mut self, p: &Progress) {
        let Some(i) = STAGES.iter().position(|k| *k == p.stage) else { return };
        self.reports += 1;
        let bar = &mut self.bars[i];
        match p.state {
            StageState::Done { score, status } => {
                bar.state = status.as_str().to_string();
                bar.score = Some(score);
                bar.fraction = Some(1.0);
                bar.text = match status {
                    Status::Skipped => "skipped (gated)".into(),
                    Status::Error => format!("error — score {score:.4}"),
                    Status::Ran => format!("score {score:.4}"),
                };
            }
            StageState::Running => {
                let (text, fraction) = running_text(bar.key, p);
                bar.state = "running".into();
                bar.text = text;
                bar.fraction = fraction;
            }
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
    Apply(Progress),
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
    use serde_json::{json, Value as Json};

    /// A progress report from the fields that matter to a test (the counts not given are 0),
    /// through its JSON as the worker sends it.
    fn report(fields: Json) -> Progress {
        let mut all = json!({
            "phase": "", "states": 0, "distinct": 0, "depth": 0, "max_states": 0, "behaviours": 0,
            "behaviours_total": 0, "traces": 0, "traces_total": 0, "windows": 0, "steps": 0,
            "steps_total": 0, "checked": 0, "checks_total": 0,
        });
        for (k, v) in fields.as_object().expect("an object") {
            all[k] = v.clone();
        }
        serde_json::from_value(all).expect("a progress report")
    }

    #[test]
    fn reports_fill_the_bars_in_order() {
        let mut b = Board::default();
        assert!(b.bars.iter().all(|x| x.state == "waiting"));
        b.apply(&report(json!({"stage": "syntax", "state": "done", "score": 1.0, "status": "ran"})));
        b.apply(&report(json!({"stage": "runtime", "phase": "gate", "state": "running", "states": 4000, "distinct": 2500, "depth": 7, "max_states": 100000})));
        assert_eq!(b.bars[0].text, "score 1.0000");
        assert_eq!(b.bars[1].state, "running");
        assert_eq!(b.bars[1].text, "gate: 4000 states explored, 2500 distinct, depth 7 (budget 100000)");
        assert_eq!(b.bars[1].fraction, Some(0.025));
        b.apply(&report(json!({"stage": "runtime", "phase": "simulation", "state": "running", "behaviours": 250, "behaviours_total": 1000})));
        assert_eq!(b.bars[1].fraction, Some(0.25));
        b.apply(&report(json!({"stage": "runtime", "state": "done", "score": 0.75, "status": "ran"})));
        b.apply(&report(json!({"stage": "conformance", "state": "running", "phase": "a.ndjson", "traces": 1, "traces_total": 4, "windows": 9, "steps": 10, "steps_total": 40})));
        assert_eq!(b.bars[2].text, "1 of 4 traces, 9 windows replayed (10 of 40 trace steps) — a.ndjson");
        assert_eq!(b.bars[2].fraction, Some(0.25));
        b.apply(&report(json!({"stage": "invariants", "state": "running", "phase": "Inv", "checked": 2, "checks_total": 8, "states": 5, "distinct": 3})));
        assert_eq!(b.bars[2].state, "ran", "a later stage running ends the earlier ones");
        assert_eq!(b.bars[3].text, "2 of 8 properties checked — Inv: 5 states explored, 3 distinct");
        assert_eq!(b.reports, 6);
        b.apply(&report(json!({"stage": "bogus", "state": "running"})));
        assert_eq!(b.reports, 6);
    }

    #[test]
    fn gated_stages_are_marked() {
        let mut b = Board::default();
        b.apply(&report(json!({"stage": "syntax", "state": "done", "score": 0.4375, "status": "ran"})));
        for s in ["runtime", "conformance", "invariants", "precision"] {
            b.apply(&report(json!({"stage": s, "state": "done", "score": 0.0, "status": "skipped"})));
        }
        assert_eq!(b.bars.iter().map(|x| x.state.as_str()).collect::<Vec<_>>(), ["ran", "skipped", "skipped", "skipped", "skipped"]);
        assert_eq!(b.bars[3].text, "skipped (gated)");
        assert_eq!(b.bars[0].score, Some(0.4375));
    }
}
