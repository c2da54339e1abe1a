//! Exercises with an expected outcome (`[[exercise]]` in task.toml,
//! `sysmo_task_format::Exercise`): whether an answer solves one, and why not.
//!
//! - `model` and `fix-model`: the answer is a model, graded as any model ([`crate::grade`]);
//!   solved when every stage that runs scores 1.0 (precision too when the task has a system
//!   graph).
//! - `find-bug`: the answer models the buggy code, so it is graded against the bug traces
//!   ([`exercise_input`]); solved when it conforms to them and the exercise's property is
//!   violated.
//! - `write-invariant`: the answer is TLA+ definitions, one of them the exercise's property;
//!   [`judge_property`] checks it on the reference model, where it must hold, and on the bug
//!   model, which must violate it: a mutation-kill score.

use crate::report::{Report, Status};
use crate::{grade_with_progress, ModelInput, Progress, TaskInput};
use serde::{Deserialize, Serialize};
use sysmo_task_format::{Exercise, ExerciseKind, TaskToml};

/// Whether an answer solves an exercise.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    pub solved: bool,
    /// What decided it, in a sentence.
    pub why: String,
    /// `write-invariant`: bug models the property kills, of all.
    pub killed: Option<(usize, usize)>,
    /// The first stage short of 1.0 (or `property`), for the exercise's hints.
    pub short_stage: Option<String>,
}

/// The task an exercise's answer is graded against: the task itself, or, for `find-bug`, the
/// task with its bug traces in place of its traces (and no system graph: the graph is of the
/// correct code).
pub fn exercise_input<'a>(exercise: &Exercise, task: TaskInput<'a>, bug_traces: &[(&'a str, &'a str)]) -> TaskInput<'a> {
    match exercise.kind {
        ExerciseKind::FindBug => TaskInput { traces: bug_traces.to_vec(), system_graph: None, ..task },
        _ => task,
    }
}

/// The first stage that falls short of 1.0 in a report, skipping a precision stage skipped
/// for want of a system graph.
fn first_short(report: &Report) -> Option<(&'static str, f64, Status)> {
    report.stages.scores().into_iter().find(|(stage, score, status)| {
        *score < 1.0 && !(*stage == "precision" && *status == Status::Skipped && report.combined.is_none())
    })
}

/// Judges a graded answer to a `model`, `fix-model` or `find-bug` exercise (for `find-bug`,
/// graded with [`exercise_input`]).
pub fn judge_report(exercise: &Exercise, report: &Report) -> Outcome {
    let short = first_short(report);
    let short_stage = short.map(|(s, _, _)| s.to_string());
    match exercise.kind {
        ExerciseKind::Model | ExerciseKind::FixModel | ExerciseKind::WriteInvariant => match short {
            None => Outcome { solved: true, why: "the model grades 1.0 in every stage".into(), killed: None, short_stage },
            Some((stage, score, status)) => Outcome {
                solved: false,
                why: format!("the {stage} stage scores {score:.4} ({}): every stage must reach 1.0", status.as_str()),
                killed: None,
                short_stage,
            },
        },
        ExerciseKind::FindBug => {
            let property = exercise.property.as_deref().unwrap_or("");
            let conformance = &report.stages.conformance;
            let verdict = report.stages.invariants.invariants.iter().find(|i| i.name == property).map(|i| i.verdict.as_ref());
            if conformance.status != Status::Ran || conformance.score < 1.0 {
                return Outcome {
                    solved: false,
                    why: format!("the model must conform to the buggy code's traces first: conformance {:.4} ({})", conformance.score, conformance.status.as_str()),
                    killed: None,
                    short_stage: Some("conformance".into()),
                };
            }
            match verdict {
                Some("fail") => Outcome { solved: true, why: format!("{property} refutes the model of the buggy code: the bug is found"), killed: None, short_stage: None },
                Some(v) => Outcome {
                    solved: false,
                    why: format!("{property} does not refute the model ({v}): the model allows less than the buggy code does"),
                    killed: None,
                    short_stage: Some("invariants".into()),
                },
                None => Outcome {
                    solved: false,
                    why: format!("{property} was not checked (invariants stage: {})", report.stages.invariants.status.as_str()),
                    killed: None,
                    short_stage: Some("invariants".into()),
                },
            }
        }
    }
}

/// The task's invariants module with `definitions` added before its end line, so that a
/// student's property can use everything the module defines.
pub fn with_definitions(invariants_tla: &str, definitions: &str) -> Result<String, String> {
    with_definitions_at(invariants_tla, definitions).map(|(module, _)| module)
}

/// [`with_definitions`], and the byte offset in the module where `definitions` start (for
/// the editor, which marks the module's diagnostics in the student's text).
pub fn with_definitions_at(invariants_tla: &str, definitions: &str) -> Result<(String, usize), String> {
    let end = invariants_tla.rfind("\n====").ok_or("the task's invariants module has no end line (====)")?;
    let head = format!("{}\n\\* The student's property.\n", &invariants_tla[..end]);
    Ok((format!("{head}{}\n{}", definitions.trim_end(), &invariants_tla[end..]), head.len()))
}

/// A model to check a property on: its name, text and .cfg, and its budget in distinct states.
pub struct Subject<'a> {
    pub name: &'a str,
    pub text: &'a str,
    pub cfg: Option<&'a str>,
    pub max_states: Option<u64>,
}

/// Judges a `write-invariant` answer: `definitions` must define the exercise's property, which
/// must hold on `reference` and be violated by each of `bugs`.
pub fn judge_property(exercise: &Exercise, task: &TaskInput<'_>, definitions: &str, reference: &Subject<'_>, bugs: &[Subject<'_>]) -> Outcome {
    let Some(name) = exercise.property.as_deref() else {
        return Outcome { solved: false, why: "the exercise names no property".into(), killed: None, short_stage: None };
    };
    let fail = |why: String| Outcome { solved: false, why, killed: None, short_stage: Some("property".into()) };
    if !definitions.lines().any(|l| l.trim_start().starts_with(name) && l[l.find(name).unwrap_or(0) + name.len()..].trim_start().starts_with("==")) {
        return fail(format!("the answer must define {name} == ..."));
    }
    let module = match with_definitions(task.invariants_tla, definitions) {
        Ok(m) => m,
        Err(e) => return fail(e),
    };
    let cfg = format!("INVARIANT {name}\n");
    let verdict = |s: &Subject<'_>| -> Result<String, String> {
        let input = TaskInput { invariants_tla: &module, invariants_cfg: &cfg, violations_cfg: None, system_graph: None, max_states: s.max_states, ..task.clone() };
        let r = crate::grade(&input, &ModelInput { name: s.name, text: s.text, cfg: s.cfg, mapping: None }, &|| false);
        let iv = &r.stages.invariants;
        match iv.invariants.iter().find(|i| i.name == name) {
            Some(i) if i.verdict == "error" => Err(format!("{name} does not evaluate on {}: {}", s.name, i.message.clone().unwrap_or_else(|| i.result.clone()))),
            Some(i) => Ok(i.verdict.to_string()),
            None => Err(format!("{name} was not checked on {} ({})", s.name, iv.reason.clone().unwrap_or_else(|| iv.status.as_str().to_string()))),
        }
    };
    match verdict(reference) {
        Ok(v) if v == "pass" => {}
        Ok(_) => return fail(format!("{name} is violated by the reference model: it must hold on a faithful model")),
        Err(e) => return fail(e),
    }
    let mut killed = 0;
    let mut survivors = vec![];
    for b in bugs {
        match verdict(b) {
            Ok(v) if v == "fail" => killed += 1,
            Ok(_) => survivors.push(b.name.to_string()),
            Err(e) => return fail(e),
        }
    }
    let total = bugs.len();
    Outcome {
        solved: killed == total && total > 0,
        why: if survivors.is_empty() {
            format!("{name} holds on the reference model and every bug model violates it ({killed} of {total})")
        } else {
            format!("{name} holds on the reference model, but {} satisfies it too: it does not catch the bug", survivors.join(", "))
        },
        killed: Some((killed, total)),
        short_stage: (!survivors.is_empty()).then(|| "property".to_string()),
    }
}

/// The exercise `id` of a task, or why there is none.
pub fn exercise<'t>(task: &'t TaskToml, id: &str) -> Result<&'t Exercise, String> {
    task.exercises.iter().find(|e| e.id == id).ok_or_else(|| {
        let ids: Vec<&str> = task.exercises.iter().map(|e| e.id.as_str()).collect();
        if ids.is_empty() { format!("the task `{}` has no exercise", task.id) } else { format!("no exercise `{id}` (exercises: {})", ids.join(", ")) }
    })
}

/// The next hint for an outcome: the teacher's for the stage that fell short, else the
/// exercise's place to look.
pub fn hint(exercise: &Exercise, outcome: &Outcome) -> Option<String> {
    let stage = outcome.short_stage.as_deref()?;
    exercise.hints.get(stage).cloned().or_else(|| exercise.place.clone())
}

/// A task's files as an exercise needs them.
pub struct ExerciseTask<'a> {
    pub toml: &'a TaskToml,
    /// The task folder's files, by path (`task.toml`, `reference/<Module>.tla`, ...).
    pub files: &'a [(&'a str, &'a str)],
    pub traces: &'a [(&'a str, &'a str)],
    pub bug_traces: &'a [(&'a str, &'a str)],
    pub graph: Option<&'a str>,
}

/// An answer judged: the exercise, the outcome, and the grade report when the answer is a model.
pub struct Judged {
    pub exercise: Exercise,
    pub outcome: Outcome,
    pub report: Option<Report>,
}

/// An outcome with the id of the exercise it is of, as a front end shows it (the web worker
/// sends it to the page as this JSON: the outcome's fields and `exercise`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    pub exercise: String,
    #[serde(flatten)]
    pub outcome: Outcome,
}

impl Judged {
    /// The verdict: the exercise's id and the outcome.
    pub fn verdict(&self) -> Verdict {
        Verdict { exercise: self.exercise.id.clone(), outcome: self.outcome.clone() }
    }
}

/// Judges `answer` (named `answer_name`) on the exercise `id` of `task` (see the module's
/// docs); `should_stop` and `progress` as [`crate::grade_with_progress`]'s, for a model answer.
pub fn judge(
    task: &ExerciseTask<'_>,
    id: &str,
    answer_name: &str,
    answer: &str,
    should_stop: &dyn Fn() -> bool,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Judged, String> {
    let ex = exercise(task.toml, id)?.clone();
    let input = TaskInput::from_folder(task.files, task.traces).with_system_graph(task.graph);
    let file = |p: &str| task.files.iter().find(|(n, _)| *n == p).map(|(_, t)| *t);
    if ex.kind == ExerciseKind::WriteInvariant {
        let module = &task.toml.pinned.module;
        let reference_path = format!("reference/{module}.tla");
        let reference = file(&reference_path).ok_or("the task has no reference model")?;
        let bug_path = task.toml.bug_model_path();
        let cfg_path = task.toml.bug_cfg_path();
        let bugs: Vec<Subject<'_>> =
            file(&bug_path).map(|text| Subject { name: &bug_path, text, cfg: file(&cfg_path), max_states: task.toml.check.bug_max_states }).into_iter().collect();
        if bugs.is_empty() {
            return Err("a write-invariant exercise needs the task's bug model (bug/<Module>.tla)".into());
        }
        let subject = Subject { name: &reference_path, text: reference, cfg: file(&format!("reference/{module}.cfg")), max_states: None };
        let outcome = judge_property(&ex, &input, answer, &subject, &bugs);
        return Ok(Judged { exercise: ex, outcome, report: None });
    }
    if ex.kind == ExerciseKind::FindBug && task.bug_traces.is_empty() {
        return Err("a find-bug exercise needs the task's bug traces (bug_traces in task.toml)".into());
    }
    let input = exercise_input(&ex, input, task.bug_traces);
    let report = grade_with_progress(&input, &ModelInput { name: answer_name, text: answer, cfg: None, mapping: None }, should_stop, progress);
    let outcome = judge_report(&ex, &report);
    Ok(Judged { exercise: ex, outcome, report: Some(report) })
}
