//! The bug model, checked on request: on a task whose folder has a model of its code with the
//! bug switch on (`bug/<Module>.tla`, [`BugModel`]), the description tab offers to grade it in
//! a worker of its own, as `sysmo task check` does, and plays each property it violates in the
//! counterexample player. This is how a reader sees the historical bug found, state by state.

use crate::app::{start_worker, WorkerSlot};
use crate::grading::{BugModel, Counterexample, GradeRequest, Scorecard, WorkerMessage};
use crate::player::Player;
use std::rc::Rc;
use yew::prelude::*;

/// Where the bug model's check stands.
#[derive(Clone, Debug, PartialEq)]
enum BugRunState {
    Idle,
    /// Running: what the grader last said it was doing.
    Running(String),
    Done(Rc<Scorecard>),
    Failed(String),
}

/// A line saying what the grader is doing, from its progress report.
pub fn progress_line(p: &sysmo_grade::Progress) -> String {
    let mut line = p.stage.to_string();
    if !p.phase.is_empty() {
        line += &format!(" ({})", p.phase);
    }
    if p.distinct > 0 {
        line += &format!(": {} distinct states, depth {}", p.distinct, p.depth);
    }
    line
}

/// What refutes the bug model: a property of the task's invariants that does not pass, or,
/// when the bug model's own `.cfg` states the property, the runtime gate's violation.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// The property's name, or `runtime gate`.
    pub name: String,
    /// What the checker says: `invariant: fail — violated`, or the gate's line.
    pub summary: String,
    pub message: Option<String>,
    pub counterexample: Option<Counterexample>,
}

/// The findings of the bug model's grade, in the scorecard's order: the gate first.
pub fn findings(card: &Scorecard) -> Vec<Finding> {
    let gate = card.gate.as_ref().filter(|g| g.starts_with("gate failed")).map(|g| Finding {
        name: "runtime gate".into(),
        summary: g.clone(),
        message: None,
        counterexample: card.gate_counterexample.clone(),
    });
    let properties = card.invariants.iter().filter(|i| i.verdict != "pass").map(|i| Finding {
        name: i.name.clone(),
        summary: format!("{}: {} — {}", i.kind, i.verdict, i.result),
        message: i.message.clone(),
        counterexample: i.counterexample.clone(),
    });
    gate.into_iter().chain(properties).collect()
}

#[derive(Properties, PartialEq)]
pub struct BugRunProps {
    /// The task's id.
    pub id: String,
}

/// The "check the bug model" panel; renders nothing for a task without a bug model.
#[function_component(BugRun)]
pub fn bug_run(props: &BugRunProps) -> Html {
    let bug = use_memo(props.id.clone(), |id| sysmo_tasks::task(id).map(BugModel::of));
    let state = use_state(|| BugRunState::Idle);
    let run = use_mut_ref(|| 0u64);
    let slot = use_mut_ref(|| None::<WorkerSlot>);
    let on_message = {
        let (state, run) = (state.clone(), run.clone());
        Callback::from(move |m: WorkerMessage| {
            let current = *run.borrow();
            match m {
                WorkerMessage::Stage { run, progress } if run == current => state.set(BugRunState::Running(progress_line(&progress))),
                WorkerMessage::Report { run, report } if run == current => {
                    state.set(BugRunState::Done(Rc::new(Scorecard::from_report(&report))))
                }
                WorkerMessage::Failed { run, message } if run == current || run == 0 => state.set(BugRunState::Failed(message)),
                _ => {}
            }
        })
    };
    let on_check = {
        let (state, run, slot, id) = (state.clone(), run.clone(), slot.clone(), props.id.clone());
        Callback::from(move |_: MouseEvent| {
            if slot.borrow().is_none() {
                match start_worker(on_message.clone()) {
                    Ok(s) => *slot.borrow_mut() = Some(s),
                    Err(e) => return state.set(BugRunState::Failed(e)),
                }
            }
            *run.borrow_mut() += 1;
            let req = GradeRequest { run: *run.borrow(), task: id.clone(), bug_model: true, pack: GradeRequest::pack_of(&id), ..GradeRequest::default() };
            let sent = slot.borrow().as_ref().map(|s| s.send(req.to_json()));
            match sent {
                Some(Err(e)) => state.set(BugRunState::Failed(e)),
                _ => state.set(BugRunState::Running("starting".into())),
            }
        })
    };
    let on_cancel = {
        let (state, run, slot) = (state.clone(), run.clone(), slot.clone());
        Callback::from(move |_: MouseEvent| {
            // Stop the engine where it is; the next check starts a fresh worker.
            if let Some(s) = slot.borrow_mut().take() {
                s.worker.terminate();
            }
            *run.borrow_mut() += 1;
            state.set(BugRunState::Idle);
        })
    };
    {
        let slot = slot.clone();
        use_effect_with((), move |_| {
            move || {
                if let Some(s) = slot.borrow_mut().take() {
                    s.worker.terminate();
                }
            }
        });
    }
    let bug = match &*bug {
        Some(Ok(Some(b))) => b.clone(),
        Some(Err(e)) => return html! { <section id="bug-run"><p class="error">{ e }</p></section> },
        _ => return html! {},
    };
    let (status, text) = match &*state {
        BugRunState::Idle => ("idle", String::new()),
        BugRunState::Running(what) => ("running", format!("checking the bug model… {what}")),
        BugRunState::Done(card) => {
            let found = findings(card);
            match found.is_empty() {
                true => ("done", "checked: the bug model violates no property within its budget".to_string()),
                false => ("done", format!("checked: refuted by {}", found.iter().map(|f| f.name.as_str()).collect::<Vec<_>>().join(", "))),
            }
        }
        BugRunState::Failed(m) => ("failed", format!("the check failed: {m}")),
    };
    let running = matches!(*state, BugRunState::Running(_));
    let budget = bug.max_states.map(|n| format!(" within {n} distinct states")).unwrap_or_default();
    html! {
        <section id="bug-run" data-state={status}>
            <h3>{ "The bug model, checked" }</h3>
            <p>
                <code>{ &bug.path }</code>{ " models the code with the bug switch on. Check it with " }
                <code>{ &bug.cfg_path }</code>{ format!("{budget}, as the grader checks a model: every property the checker finds violated plays below, state by state.") }
            </p>
            <details class="bug-source">
                <summary>{ format!("{} and {}", bug.path, bug.cfg_path) }</summary>
                <pre class="bug-model">{ bug.text }</pre>
                <pre class="bug-cfg">{ bug.cfg }</pre>
            </details>
            <div class="grade-bar">
                <button id="check-bug" onclick={on_check} disabled={running}>{ "Check the bug model" }</button>
                <button id="cancel-bug" onclick={on_cancel} disabled={!running}>{ "Cancel" }</button>
                <span id="bug-status" data-state={status}>{ text }</span>
            </div>
            { match &*state {
                BugRunState::Done(card) => result_view(card),
                _ => html! {},
            } }
        </section>
    }
}

fn result_view(card: &Scorecard) -> Html {
    // The other stages judge the bug model against the correct code's traces, with the task's
    // constants: they say nothing of the bug, and are not shown.
    let held = card.invariants.iter().filter(|i| i.verdict == "pass").count();
    let checked = match card.invariants.len() {
        0 => "The task's properties were not checked: the bug model's own configuration refutes it first.".to_string(),
        n => format!("Of the task's {n} properties, {held} hold on the bug model."),
    };
    html! {
        <div class="bug-result">
            <p class="bug-stages">{ checked }</p>
            <ul class="bug-violations">
                { for findings(card).into_iter().map(|f| html! {
                    <li data-name={f.name.clone()}>
                        <p><code>{ &f.name }</code>{ format!(" {}", f.summary) }</p>
                        { f.message.as_ref().map(|m| html! { <p class="message">{ m }</p> }).unwrap_or_default() }
                        { f.counterexample.map(|c| html! {
                            <Player cex={Rc::new(c)} name={format!("{}-bug-{}", card.task, f.name.replace(' ', "-"))} />
                        }).unwrap_or_default() }
                    </li>
                }) }
            </ul>
        </div>
    }
}
