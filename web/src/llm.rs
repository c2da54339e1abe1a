//! "Write it with an LLM" on a task page: the user gives an endpoint (OpenAI-compatible chat
//! completions, or Anthropic's Messages API), a model and a key; the page sends the task's
//! prompt, takes the module and .cfg from the streamed answer, grades them in its own grading
//! worker and, while the score is below 1.0 and rounds remain, sends the repair text as the next
//! turn of the same conversation (`sysmo_agent::Conversation`, as `sysmo agent` does).
//!
//! Requests go only to the endpoint typed, from this page. The key stays in the page's memory;
//! it is written to localStorage only when the user ticks "remember", and never goes into a
//! URL or a share link (a share link carries the model, its cfg and its scores).
//!
//! The view models here ([`Settings`], [`RoundView`], [`diff`]) are plain data, tested
//! natively; [`LlmPanel`] is the component and its `fetch` loop.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use sysmo_agent::{Api, Outcome, Round};
use sysmo_grade::Report;

use crate::grading::Scorecard;
use crate::share::{self, Scores, SharePayload};

/// Rounds by default, and at most.
pub const DEFAULT_ROUNDS: u32 = 3;
pub const MAX_ROUNDS: u32 = 10;

/// Storage keys (localStorage). The key is stored only under [`KEY_KEY`], and only when the
/// user opts in.
pub const API_KEY: &str = "sysmo.llm.api";
pub const ENDPOINT_KEY: &str = "sysmo.llm.endpoint";
pub const MODEL_KEY: &str = "sysmo.llm.model";
pub const ROUNDS_KEY: &str = "sysmo.llm.rounds";
pub const KEY_KEY: &str = "sysmo.llm.key";
pub const NO_HINTS_KEY: &str = "sysmo.llm.no-hints";

/// The form's settings (the key apart: see [`Settings::load`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    pub api: Api,
    pub endpoint: String,
    pub model: String,
    pub rounds: u32,
    /// Keep the key in localStorage.
    pub remember: bool,
    /// The prompt without the action list: the model picks its actions and writes the mapping.
    pub no_hints: bool,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings { api: Api::OpenAi, endpoint: String::new(), model: String::new(), rounds: DEFAULT_ROUNDS, remember: false, no_hints: false }
    }
}

impl Settings {
    /// The settings and the remembered key, from storage (`get` reads a key).
    pub fn load(get: &dyn Fn(&str) -> Option<String>) -> (Settings, String) {
        let key = get(KEY_KEY).unwrap_or_default();
        let s = Settings {
            api: get(API_KEY).and_then(|a| Api::from_name(&a)).unwrap_or(Api::OpenAi),
            endpoint: get(ENDPOINT_KEY).unwrap_or_default(),
            model: get(MODEL_KEY).unwrap_or_default(),
            rounds: get(ROUNDS_KEY).and_then(|r| r.parse().ok()).map_or(DEFAULT_ROUNDS, |r: u32| r.clamp(1, MAX_ROUNDS)),
            remember: !key.is_empty(),
            no_hints: get(NO_HINTS_KEY).as_deref() == Some("true"),
        };
        (s, key)
    }

    /// Writes the settings (`set`), and the key only when remembered; otherwise a key stored
    /// before is removed (`remove`).
    pub fn save(&self, key: &str, set: &dyn Fn(&str, &str), remove: &dyn Fn(&str)) {
        set(API_KEY, self.api.name());
        set(ENDPOINT_KEY, &self.endpoint);
        set(MODEL_KEY, &self.model);
        set(ROUNDS_KEY, &self.rounds.to_string());
        set(NO_HINTS_KEY, if self.no_hints { "true" } else { "false" });
        if self.remember && !key.is_empty() {
            set(KEY_KEY, key);
        } else {
            remove(KEY_KEY);
        }
    }

    /// Why the form cannot start, if it cannot.
    pub fn problem(&self) -> Option<String> {
        let e = self.endpoint.trim();
        if e.is_empty() {
            return Some("Give the endpoint's base URL, such as https://api.openai.com/v1.".into());
        }
        if !(e.starts_with("http://") || e.starts_with("https://")) {
            return Some(format!("The endpoint must be an http:// or https:// URL, not `{e}`."));
        }
        if self.model.trim().is_empty() {
            return Some("Give the model's name.".into());
        }
        None
    }
}

/// One line of a diff between two models.
#[derive(Clone, Debug, PartialEq)]
pub enum DiffLine {
    Same(String),
    Added(String),
    Removed(String),
}

/// The line diff from `old` to `new` (longest common subsequence; models are short).
pub fn diff(old: &str, new: &str) -> Vec<DiffLine> {
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    // lcs[i][j]: the longest common subsequence of a[i..] and b[j..].
    let mut lcs = vec![vec![0u32; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] { lcs[i + 1][j + 1] + 1 } else { lcs[i + 1][j].max(lcs[i][j + 1]) };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, vec![]);
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            out.push(DiffLine::Same(a[i].to_string()));
            i += 1;
            j += 1;
        } else if j < b.len() && (i == a.len() || lcs[i][j + 1] >= lcs[i + 1][j]) {
            out.push(DiffLine::Added(b[j].to_string()));
            j += 1;
        } else {
            out.push(DiffLine::Removed(a[i].to_string()));
            i += 1;
        }
    }
    out
}

/// Lines added and removed.
pub fn diff_counts(d: &[DiffLine]) -> (usize, usize) {
    d.iter().fold((0, 0), |(a, r), l| match l {
        DiffLine::Added(_) => (a + 1, r),
        DiffLine::Removed(_) => (a, r + 1),
        DiffLine::Same(_) => (a, r),
    })
}

/// A round as the panel shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct RoundView {
    pub round: u32,
    /// `no-answer`, `unusable`, `graded`, `pass`.
    pub status: &'static str,
    /// Combined when the task has it, else overall.
    pub score: Option<f64>,
    /// The four-stage overall score, beside a combined `score`.
    pub overall: Option<f64>,
    /// Why the round has no grade, or the module name's problem.
    pub error: Option<String>,
    pub model: Option<String>,
    pub cfg: Option<String>,
    /// The model's own mapping (the no-hints prompt).
    pub mapping: Option<String>,
    /// From the last round before it that had a model.
    pub diff: Option<Vec<DiffLine>>,
    pub card: Option<Rc<Scorecard>>,
    /// The next user turn this round led to (the repair text, or the reason and the format);
    /// `None` after no answer (the same messages are sent again).
    pub turn: Option<String>,
}

impl RoundView {
    /// The view of `r`, with the model of the last round before it that had one.
    pub fn of(r: &Round, previous_model: Option<&str>) -> RoundView {
        let overall = match &r.outcome {
            Outcome::Graded { report, .. } if report.combined.is_some() => Some(report.overall),
            _ => None,
        };
        let (model, cfg, mapping, card) = match &r.outcome {
            Outcome::Graded { answer, report, .. } => {
                (Some(answer.tla.clone()), answer.cfg.clone(), answer.mapping.clone(), Some(Rc::new(Scorecard::from_report(report))))
            }
            Outcome::Unusable(_) | Outcome::NoAnswer(_) => (None, None, None, None),
        };
        // The repair text of the last round too (shown as not sent).
        let turn = match (&r.turn, &r.outcome) {
            (Some(t), _) => Some(t.clone()),
            (None, Outcome::Graded { feedback, .. }) => Some(feedback.clone()),
            (None, _) => None,
        };
        let diff = match (previous_model, &model) {
            (Some(old), Some(new)) => Some(diff(old, new)),
            _ => None,
        };
        RoundView { round: r.round, status: r.status(), score: r.score(), overall, error: r.error().map(str::to_string), model, cfg, mapping, diff, card, turn }
    }

    /// The views of a conversation's rounds.
    pub fn all(rounds: &[Round]) -> Vec<RoundView> {
        let mut last: Option<String> = None;
        rounds
            .iter()
            .map(|r| {
                let v = RoundView::of(r, last.as_deref());
                if v.model.is_some() {
                    last = v.model.clone();
                }
                v
            })
            .collect()
    }

    /// The share link's fragment for this round's model and scores.
    pub fn share_fragment(&self, task: &str) -> Option<Result<String, String>> {
        let (model, card) = (self.model.as_ref()?, self.card.as_ref()?);
        let p = SharePayload { task: task.to_string(), model: model.clone(), cfg: self.cfg.clone(), mapping: self.mapping.clone(), claimed: Scores::from_card(card), pack: sysmo_tasks::task(task).and_then(|t| t.pack_hash()) };
        Some(share::encode_fragment(&p).map_err(|e| e.to_string()))
    }
}

/// The graded round with the best score (the first of equals).
pub fn best_round(views: &[RoundView]) -> Option<&RoundView> {
    views.iter().filter(|v| v.score.is_some()).fold(None, |best: Option<&RoundView>, v| match best {
        Some(b) if b.score >= v.score => Some(b),
        _ => Some(v),
    })
}

/// What the panel is doing.
#[derive(Clone, Debug, PartialEq)]
pub enum Phase {
    Idle,
    /// Waiting for round `round`'s answer; `chars` of text received so far.
    Asking { round: u32, chars: usize },
    Grading { round: u32 },
    /// The conversation ended: passed, or no round left.
    Done,
    Cancelled,
    /// The loop stopped: the grading worker failed.
    Failed(String),
}

impl Phase {
    pub fn busy(&self) -> bool {
        matches!(self, Phase::Asking { .. } | Phase::Grading { .. })
    }

    /// The status line, and its `data-state`.
    pub fn status(&self, views: &[RoundView]) -> (&'static str, String) {
        match self {
            Phase::Idle => ("idle", String::new()),
            Phase::Asking { round, chars: 0 } => ("asking", format!("round {round}: waiting for the answer…")),
            Phase::Asking { round, chars } => ("asking", format!("round {round}: receiving the answer ({chars} characters)…")),
            Phase::Grading { round } => ("grading", format!("round {round}: grading the model…")),
            Phase::Cancelled => ("cancelled", "cancelled".into()),
            Phase::Failed(m) => ("failed", m.clone()),
            Phase::Done => match best_round(views) {
                Some(b) if b.score.is_some_and(|s| s >= 1.0) => ("done", format!("done: round {} scores 1.0", b.round)),
                Some(b) => ("done", format!("done: no round left; the best is round {} ({:.4})", b.round, b.score.unwrap_or(0.0))),
                None => ("done", "done: no round gave a model to grade".into()),
            },
        }
    }
}

/// A cancellable grade in the panel's own worker: the page's `run` counter and the waiting
/// side of the round being graded.
type PendingGrade = Rc<RefCell<Option<(u64, futures_channel::oneshot::Sender<Result<Box<Report>, String>>)>>>;

mod component;
pub use component::LlmPanel;

/// Shared between the component and its loop.
#[derive(Default)]
struct Control {
    cancelled: Cell<bool>,
    abort: RefCell<Option<web_sys::AbortController>>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;
    use sysmo_agent::Conversation;

    #[test]
    fn the_key_is_stored_only_when_remembered() {
        let store = RefCell::new(BTreeMap::<String, String>::new());
        let set = |k: &str, v: &str| {
            store.borrow_mut().insert(k.into(), v.into());
        };
        let remove = |k: &str| {
            store.borrow_mut().remove(k);
        };
        let s = Settings { endpoint: "http://127.0.0.1:9/v1".into(), model: "m".into(), ..Settings::default() };
        s.save("sk-secret", &set, &remove);
        assert!(!store.borrow().values().any(|v| v.contains("sk-secret")));
        let get = |k: &str| store.borrow().get(k).cloned();
        assert_eq!(Settings::load(&get), (s.clone(), String::new()));
        let kept = Settings { remember: true, ..s.clone() };
        kept.save("sk-secret", &set, &remove);
        assert_eq!(Settings::load(&get), (kept, "sk-secret".to_string()));
        // Unticking removes it again.
        s.save("sk-secret", &set, &remove);
        assert_eq!(store.borrow().get(KEY_KEY), None);
    }

    #[test]
    fn settings_say_what_is_missing() {
        let s = Settings::default();
        assert!(s.problem().unwrap().contains("endpoint"));
        let s = Settings { endpoint: "ftp://x".into(), ..s };
        assert!(s.problem().unwrap().contains("http://"));
        let s = Settings { endpoint: "https://h/v1".into(), ..s };
        assert!(s.problem().unwrap().contains("model"));
        assert_eq!(Settings { model: "m".into(), ..s }.problem(), None);
    }

    #[test]
    fn diffs_lines() {
        let d = diff("a\nb\nc\n", "a\nx\nc\nd\n");
        assert_eq!(
            d,
            [DiffLine::Same("a".into()), DiffLine::Added("x".into()), DiffLine::Removed("b".into()), DiffLine::Same("c".into()), DiffLine::Added("d".into())]
        );
        assert_eq!(diff_counts(&d), (2, 1));
        assert_eq!(diff_counts(&diff("same\n", "same\n")), (0, 0));
    }

    #[test]
    fn rounds_become_views_with_the_best_shared() {
        let t = sysmo_tasks::task("spin").unwrap();
        let wrong = include_str!("../../tasks/spin/wrong/trylock-blocks/spin.tla");
        let reference = include_str!("../../tasks/spin/reference/spin.tla");
        let cfg = include_str!("../../tasks/spin/reference/spin.cfg");
        let mut c = Conversation::new("P", "spin", 4);
        c.answer(Ok("nothing here".into()));
        for m in [wrong, reference] {
            let a = c.answer(Ok(format!("```tla\n{m}```\n```cfg\n{cfg}```\n"))).unwrap();
            let r = crate::grading::grade_task_with("spin", &a.tla, a.cfg.as_deref(), None, &|| false).unwrap();
            c.graded(a, r);
        }
        let views = RoundView::all(c.rounds());
        assert_eq!(views.iter().map(|v| v.status).collect::<Vec<_>>(), ["unusable", "graded", "pass"]);
        assert!(views[0].turn.as_deref().unwrap().contains("no TLA+ module"));
        assert!(views[1].diff.is_none(), "no model before round 2");
        let (added, removed) = diff_counts(views[2].diff.as_ref().unwrap());
        assert!(added > 0 && removed > 0);
        let best = best_round(&views).unwrap();
        assert_eq!(best.round, 3);
        let fragment = best.share_fragment(t.id).unwrap().unwrap();
        let back = share::decode_fragment(&fragment).unwrap();
        assert_eq!((back.model.as_str(), back.cfg.as_deref(), back.claimed.overall), (reference, Some(cfg), 1.0));
        assert!(matches!(Phase::Done.status(&views), ("done", s) if s.contains("round 3 scores 1.0")));
    }
}
