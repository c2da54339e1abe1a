//! An LLM in the grading loop, as data: what the CLI's `sysmo agent` and the web app's "Write
//! it with an LLM" share. No I/O, no clock: the front ends send the requests (ureq natively,
//! `fetch` in the browser) and grade the answers (a thread, the grading worker).
//!
//! - [`api`]: the two HTTP APIs (OpenAI's chat completions, Anthropic's Messages): the URL and
//!   JSON body of a request, the answer's text from a response, and [`api::StreamDecoder`] for
//!   a streamed one (server-sent events).
//! - [`answer`]: the module and .cfg taken from an answer's text, or the plain reason it is
//!   unusable.
//! - [`conversation`]: the rounds of one conversation: each answer is graded, and while the
//!   score is below 1.0 and rounds remain, the next user turn is the repair text
//!   (`sysmo_grade::feedback`) or, after an unusable answer, the reason and the format.

#![forbid(unsafe_code)]

pub mod answer;
pub mod api;
pub mod conversation;

pub use answer::{format_reminder, parse_answer, Answer};
pub use api::{request_body, response_text, Api, Message, StreamDecoder, DEFAULT_ANTHROPIC_MAX_TOKENS, SYSTEM};
pub use conversation::{run_conversation, Conversation, Outcome, Round};
