//! The rounds of one conversation with an LLM ([`Conversation`]): each answer's module is
//! graded, and while the score (combined when the task has it, else overall) is below 1.0 and
//! rounds remain, the next user turn of the same conversation is the repair text
//! (`sysmo_grade::feedback`), or, after an answer without a usable module, the reason and the
//! expected format; after no answer at all (an HTTP error), the same messages are sent again.
//!
//! The state machine does no I/O: a front end asks [`Conversation::messages`], sends them, hands
//! the reply to [`Conversation::answer`], grades the answer it returns and hands the report to
//! [`Conversation::graded`]; synchronously ([`run_conversation`], the CLI) or across awaits
//! (the web app).

use sysmo_grade::Report;

use crate::answer::{format_reminder, parse_answer, Answer};
use crate::api::Message;

/// What became of one round.
#[derive(Debug, Clone)]
pub enum Outcome {
    /// No answer: an HTTP error or a response without text.
    NoAnswer(String),
    /// An answer without a usable module.
    Unusable(String),
    /// A graded module (`wrong_name` is in the answer); `feedback` is the repair text, sent as
    /// the next turn when there is one.
    Graded { answer: Answer, report: Box<Report>, feedback: String },
}

#[derive(Debug, Clone)]
pub struct Round {
    pub round: u32,
    pub outcome: Outcome,
    /// The next user turn it led to: the repair text, or the reason and the format; `None`
    /// after the last round, and after no answer (the same messages are sent again).
    pub turn: Option<String>,
}

impl Round {
    /// The score that decides whether the loop goes on: combined when present, else overall.
    pub fn score(&self) -> Option<f64> {
        match &self.outcome {
            Outcome::Graded { report, .. } => Some(report.combined.unwrap_or(report.overall)),
            _ => None,
        }
    }

    pub fn status(&self) -> &'static str {
        match &self.outcome {
            Outcome::NoAnswer(_) => "no-answer",
            Outcome::Unusable(_) => "unusable",
            Outcome::Graded { .. } if self.score().is_some_and(|s| s >= 1.0) => "pass",
            Outcome::Graded { .. } => "graded",
        }
    }

    /// The error (or the module name's problem), if any.
    pub fn error(&self) -> Option<&str> {
        match &self.outcome {
            Outcome::NoAnswer(e) | Outcome::Unusable(e) => Some(e),
            Outcome::Graded { answer, .. } => answer.wrong_name.as_deref(),
        }
    }
}

/// One conversation of at most `rounds` rounds.
#[derive(Debug, Clone)]
pub struct Conversation {
    pinned: String,
    /// The answer must hold a mapping (the no-hints prompt).
    wants_mapping: bool,
    rounds: u32,
    messages: Vec<Message>,
    done: Vec<Round>,
    finished: bool,
}

impl Conversation {
    /// The first user turn is `prompt`; `pinned` is the module name the task expects.
    pub fn new(prompt: &str, pinned: &str, rounds: u32) -> Conversation {
        Conversation {
            pinned: pinned.to_string(),
            wants_mapping: false,
            rounds: rounds.max(1),
            messages: vec![Message { role: "user", content: prompt.to_string() }],
            done: vec![],
            finished: false,
        }
    }

    /// A conversation over the no-hints prompt: an answer without a mapping is unusable.
    pub fn wanting_a_mapping(self) -> Conversation {
        Conversation { wants_mapping: true, ..self }
    }

    /// Whether an answer must hold a mapping.
    pub fn wants_mapping(&self) -> bool {
        self.wants_mapping
    }

    /// The messages to send for the next answer.
    pub fn messages(&self) -> &[Message] {
        &self.messages
    }

    /// The rounds so far.
    pub fn rounds(&self) -> &[Round] {
        &self.done
    }

    /// The number of the round to play next; `None` once the conversation has ended (a pass,
    /// or no round left).
    pub fn next_round(&self) -> Option<u32> {
        (!self.finished).then(|| self.done.len() as u32 + 1)
    }

    /// The reply to [`Conversation::messages`]: its text, or why there is none. Returns the
    /// answer to grade (then call [`Conversation::graded`]); `None` when the round ended
    /// without one.
    pub fn answer(&mut self, reply: Result<String, String>) -> Option<Answer> {
        match reply {
            Err(e) => {
                self.end_round(Outcome::NoAnswer(e));
                None
            }
            Ok(text) => {
                let parsed = parse_answer(&text, &self.pinned).and_then(|a| match a.mapping {
                    None if self.wants_mapping => Err(
                        "The answer holds no mapping.json: give the mapping from the traces' step names to your actions.".to_string(),
                    ),
                    _ => Ok(a),
                });
                self.messages.push(Message { role: "assistant", content: text });
                match parsed {
                    Err(e) => {
                        self.end_round(Outcome::Unusable(e));
                        None
                    }
                    Ok(a) => Some(a),
                }
            }
        }
    }

    /// The grade of the answer [`Conversation::answer`] returned: ends the round.
    pub fn graded(&mut self, answer: Answer, report: Report) {
        let mut feedback = sysmo_grade::feedback(&report, &answer.tla, sysmo_grade::feedback::DEFAULT_LIMIT);
        if let Some(w) = &answer.wrong_name {
            feedback = format!("{w}\n\n{feedback}");
        }
        self.end_round(Outcome::Graded { answer, report: Box::new(report), feedback });
    }

    /// Stops the conversation where it is (the user cancelled).
    pub fn stop(&mut self) {
        self.finished = true;
    }

    fn end_round(&mut self, outcome: Outcome) {
        let mut round = Round { round: self.done.len() as u32 + 1, outcome, turn: None };
        let go_on = round.round < self.rounds && round.score().is_none_or(|s| s < 1.0);
        if go_on {
            // The next user turn; after no answer at all the same messages are sent again.
            round.turn = match &round.outcome {
                Outcome::NoAnswer(_) => None,
                Outcome::Unusable(e) => Some(format!("{e}\n\n{}", format_reminder(&self.pinned, self.wants_mapping))),
                Outcome::Graded { feedback, .. } => Some(feedback.clone()),
            };
            if let Some(t) = &round.turn {
                self.messages.push(Message { role: "user", content: t.clone() });
            }
        }
        self.finished = !go_on;
        self.done.push(round);
    }
}

/// Conversation `c` played synchronously. `chat` answers the messages so far; `grade` grades a
/// usable answer (round number and answer); `on_round` sees each round as it ends, with the
/// messages so far. Returns the rounds and the whole conversation.
pub fn run_conversation(
    mut c: Conversation,
    chat: &mut dyn FnMut(&[Message]) -> Result<String, String>,
    grade: &mut dyn FnMut(u32, &Answer) -> Report,
    on_round: &mut dyn FnMut(&Round, &[Message]),
) -> (Vec<Round>, Vec<Message>) {
    while let Some(n) = c.next_round() {
        let reply = chat(c.messages());
        if let Some(answer) = c.answer(reply) {
            let report = grade(n, &answer);
            c.graded(answer, report);
        }
        if let Some(r) = c.rounds().last() {
            on_round(r, c.messages());
        }
    }
    (c.done, c.messages)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sysmo_grade::{grade, ModelInput, TaskInput};

    const WRONG: &str = include_str!("../../../tasks/spin/wrong/trylock-blocks/spin.tla");
    const REFERENCE: &str = include_str!("../../../tasks/spin/reference/spin.tla");
    const REFERENCE_CFG: &str = include_str!("../../../tasks/spin/reference/spin.cfg");

    fn grade_spin(a: &Answer) -> Report {
        let t = sysmo_tasks::task("spin").unwrap();
        let input = TaskInput::from_folder(t.files, t.traces).with_system_graph(t.system_graph());
        grade(&input, &ModelInput { name: "spin.tla", text: &a.tla, cfg: a.cfg.as_deref(), mapping: None }, &|| false)
    }

    /// Driven step by step, as the web app drives it across awaits: no answer, an unusable
    /// one, the wrong model, the reference; each later turn carries the reason or the repair
    /// text, and nothing is asked after the pass.
    #[test]
    fn rounds_go_on_until_the_model_passes() {
        let mut c = Conversation::new("PROMPT", "spin", 5);
        assert_eq!(c.next_round(), Some(1));
        assert!(c.answer(Err("HTTP 500: boom".into())).is_none());
        assert_eq!(c.messages(), [Message { role: "user", content: "PROMPT".into() }], "after no answer, the same messages");
        assert!(c.answer(Ok("Let me think.".into())).is_none());
        let last = c.messages().last().unwrap();
        assert!(last.role == "user" && last.content.contains("no TLA+ module") && last.content.contains("```tla"), "{}", last.content);
        let a = c.answer(Ok(format!("```tla\n{WRONG}```\n```cfg\n{REFERENCE_CFG}```\n"))).expect("a module");
        assert_eq!(c.next_round(), Some(3), "the round ends when its grade comes");
        let r = grade_spin(&a);
        c.graded(a, r);
        let Outcome::Graded { feedback, report, .. } = &c.rounds()[2].outcome else { panic!() };
        assert!(report.overall < 1.0);
        assert_eq!(c.messages().last().unwrap(), &Message { role: "user", content: feedback.clone() });
        let a = c.answer(Ok(format!("```tla\n{REFERENCE}```\n```cfg\n{REFERENCE_CFG}```\n"))).expect("a module");
        let r = grade_spin(&a);
        c.graded(a, r);
        assert_eq!(c.rounds().iter().map(Round::status).collect::<Vec<_>>(), ["no-answer", "unusable", "graded", "pass"]);
        assert_eq!((c.next_round(), c.messages().len()), (None, 6));
    }

    #[test]
    fn without_hints_an_answer_needs_its_mapping() {
        let mut c = Conversation::new("P", "spin", 3).wanting_a_mapping();
        assert!(c.answer(Ok(format!("```tla\n{REFERENCE}```\n"))).is_none());
        assert_eq!(c.rounds()[0].status(), "unusable");
        let turn = &c.messages().last().unwrap().content;
        assert!(turn.contains("no mapping.json") && turn.contains("```json"), "{turn}");
        let a = c.answer(Ok(format!("```tla\n{REFERENCE}```\n```json\n{{\"actions\": {{}}}}\n```\n"))).expect("usable");
        assert!(a.mapping.is_some());
    }

    #[test]
    fn the_last_round_ends_it_and_stop_ends_it_early() {
        let mut c = Conversation::new("P", "spin", 2);
        c.answer(Ok("no module".into()));
        c.answer(Ok("still none".into()));
        assert_eq!((c.next_round(), c.messages().len()), (None, 4), "no turn after the last round");
        let mut c = Conversation::new("P", "spin", 3);
        c.stop();
        assert_eq!(c.next_round(), None);
    }
}
