//! Exercises in the page: a task's `[[exercise]]`s (task.toml), the next-step hints of a
//! judged answer, and the attempts kept in this browser with the results a student exports.
//!
//! - Hints come one at a time, on request: the teacher's hint for the first stage that fell
//!   short, then the grader's own explanation (the repair text of `sysmo grade --feedback`, or
//!   the verdict for a property), then, for `fix-model`, the place to look ([`hints`]).
//! - Every grade of a task is an [`Attempt`], kept in localStorage (`sysmo.attempts.<task>`):
//!   the model, the scores, the exercise and whether it was solved, the hints used and the
//!   time. [`results`] keeps each task's best attempt per exercise: the file "Export results"
//!   writes, which `sysmo grade --results` grades again (nothing a student claims is trusted).
//!
//! Plain data, tested natively.

use crate::grading::{ExerciseVerdict, Scorecard};
use serde_json::{json, Value as Json};
pub use sysmo_task_format::{Exercise, ExerciseKind};
use sysmo_task_format::TaskToml;

/// The `format` of an exported results file.
pub const RESULTS_FORMAT: &str = "sysmo-results/1";

/// The exercises of a task (none when its task.toml does not read).
pub fn exercises_of(task_toml: &str) -> Vec<Exercise> {
    TaskToml::parse(task_toml).map(|t| t.exercises).unwrap_or_default()
}

/// The hints for a judged answer, in the order they are shown: the teacher's for the stage
/// that fell short, the grader's explanation, and for `fix-model` the place to look. None
/// for a solved exercise.
pub fn hints(exercise: &Exercise, verdict: &ExerciseVerdict, explanation: &str) -> Vec<String> {
    if verdict.outcome.solved {
        return vec![];
    }
    let mut out = vec![];
    if let Some(h) = verdict.outcome.short_stage.as_ref().and_then(|s| exercise.hints.get(s)) {
        out.push(h.clone());
    }
    let explanation = explanation.trim();
    out.push(if explanation.is_empty() { verdict.outcome.why.clone() } else { explanation.to_string() });
    if exercise.kind == ExerciseKind::FixModel {
        if let Some(p) = &exercise.place {
            out.push(format!("Where to look: {p}"));
        }
    }
    out
}

/// One grade of a task, as kept in this browser.
#[derive(Clone, Debug, PartialEq)]
pub struct Attempt {
    pub task: String,
    /// The pack the task came from, by content hash.
    pub pack: Option<String>,
    pub exercise: Option<String>,
    pub model: String,
    /// The overall score (and the combined one with precision, when the task has a graph).
    pub overall: Option<f64>,
    pub combined: Option<f64>,
    /// Whether it solved its exercise.
    pub solved: Option<bool>,
    /// Hints the student had asked for on this exercise when grading it.
    pub hints: u32,
    /// When, as milliseconds since 1970 (the browser's clock).
    pub time: f64,
}

impl Attempt {
    pub fn of(task: &str, pack: Option<String>, exercise: Option<String>, model: &str, card: Option<&Scorecard>, verdict: Option<&ExerciseVerdict>, hints: u32, time: f64) -> Attempt {
        Attempt {
            task: task.to_string(),
            pack,
            exercise,
            model: model.to_string(),
            overall: card.map(|c| c.overall),
            combined: card.and_then(|c| c.combined),
            solved: verdict.map(|v| v.outcome.solved),
            hints,
            time,
        }
    }

    pub fn to_json(&self) -> Json {
        json!({
            "task": self.task, "pack": self.pack, "exercise": self.exercise, "model": self.model,
            "overall": self.overall, "combined": self.combined, "solved": self.solved, "hints": self.hints, "time": self.time,
        })
    }

    pub fn from_json(v: &Json) -> Option<Attempt> {
        Some(Attempt {
            task: v.get("task")?.as_str()?.to_string(),
            pack: v.get("pack").and_then(Json::as_str).map(str::to_string),
            exercise: v.get("exercise").and_then(Json::as_str).map(str::to_string),
            model: v.get("model")?.as_str()?.to_string(),
            overall: v.get("overall").and_then(Json::as_f64),
            combined: v.get("combined").and_then(Json::as_f64),
            solved: v.get("solved").and_then(Json::as_bool),
            hints: v.get("hints").and_then(Json::as_u64).unwrap_or(0) as u32,
            time: v.get("time").and_then(Json::as_f64).unwrap_or(0.0),
        })
    }

    /// How good it is: solved first, then the score (combined, else overall), then fewer
    /// hints, then the later one.
    fn rank(&self) -> (bool, f64, i64, f64) {
        (self.solved.unwrap_or(false), self.combined.or(self.overall).unwrap_or(0.0), -i64::from(self.hints), self.time)
    }
}

/// Attempts read back from their JSON list (a damaged list reads as none).
pub fn read_attempts(text: &str) -> Vec<Attempt> {
    serde_json::from_str::<Json>(text).ok().and_then(|v| v.as_array().map(|a| a.iter().filter_map(Attempt::from_json).collect())).unwrap_or_default()
}

/// The attempts as a JSON list.
pub fn write_attempts(attempts: &[Attempt]) -> String {
    Json::Array(attempts.iter().map(Attempt::to_json).collect()).to_string()
}

/// The results file: each task's best attempt per exercise (and without one), sorted.
pub fn results(attempts: &[Attempt]) -> String {
    let mut best: Vec<&Attempt> = vec![];
    for a in attempts {
        match best.iter_mut().find(|b| b.task == a.task && b.exercise == a.exercise) {
            Some(b) if a.rank() > b.rank() => *b = a,
            Some(_) => {}
            None => best.push(a),
        }
    }
    best.sort_by(|a, b| (&a.task, &a.exercise).cmp(&(&b.task, &b.exercise)));
    serde_json::to_string_pretty(&json!({ "format": RESULTS_FORMAT, "attempts": best.iter().map(|a| a.to_json()).collect::<Vec<_>>() }))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use sysmo_grade::exercise::Outcome;

    fn attempt(task: &str, exercise: Option<&str>, overall: f64, solved: Option<bool>, hints: u32, time: f64) -> Attempt {
        Attempt { task: task.into(), pack: None, exercise: exercise.map(str::to_string), model: format!("m{time}"), overall: Some(overall), combined: None, solved, hints, time }
    }

    #[test]
    fn results_keep_the_best_attempt_per_task_and_exercise() {
        let all = vec![
            attempt("spin", None, 0.5, None, 0, 1.0),
            attempt("spin", None, 1.0, None, 0, 2.0),
            attempt("spin", None, 0.75, None, 0, 3.0),
            attempt("buffer", Some("find-the-bug"), 1.0, Some(false), 0, 4.0),
            attempt("buffer", Some("find-the-bug"), 0.9, Some(true), 2, 5.0),
            attempt("buffer", Some("find-the-bug"), 0.9, Some(true), 1, 6.0),
        ];
        assert_eq!(read_attempts(&write_attempts(&all)), all);
        let v: Json = serde_json::from_str(&results(&all)).unwrap();
        assert_eq!(v["format"], RESULTS_FORMAT);
        let kept: Vec<(String, f64)> = v["attempts"].as_array().unwrap().iter().map(|a| (a["task"].as_str().unwrap().to_string(), a["time"].as_f64().unwrap())).collect();
        assert_eq!(kept, [("buffer".to_string(), 6.0), ("spin".to_string(), 2.0)]);
        assert!(read_attempts("not json").is_empty());
    }

    #[test]
    fn hints_come_teacher_first_then_the_grader_then_the_place() {
        let toml = r#"
id = "b"
[pinned]
module = "b"
[[exercise]]
id = "fix"
kind = "fix-model"
title = "Fix"
starter = "exercises/b.tla"
hints = { conformance = "look at the wakes" }
place = "Get"
"#;
        let ex = &exercises_of(toml)[0];
        let outcome = Outcome { solved: false, why: "conformance 0.75".into(), killed: None, short_stage: Some("conformance".into()) };
        let verdict = ExerciseVerdict { exercise: "fix".into(), outcome: outcome.clone() };
        assert_eq!(hints(ex, &verdict, "the step 3 of trace a fails"), ["look at the wakes", "the step 3 of trace a fails", "Where to look: Get"]);
        assert_eq!(hints(ex, &verdict, ""), ["look at the wakes", "conformance 0.75", "Where to look: Get"]);
        let other = ExerciseVerdict { exercise: "fix".into(), outcome: Outcome { short_stage: Some("syntax".into()), ..outcome.clone() } };
        assert_eq!(hints(ex, &other, "x").len(), 2);
        assert!(hints(ex, &ExerciseVerdict { exercise: "fix".into(), outcome: Outcome { solved: true, ..outcome } }, "x").is_empty());
        assert!(exercises_of("not toml").is_empty());
    }
}
