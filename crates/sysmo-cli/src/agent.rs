//! `sysmo agent --task ID|all --endpoint URL --model M [--api openai|anthropic] [--rounds N]
//! [--repeat R] [--out DIR] [--max-tokens N]`: an LLM models a task in a repair loop.
//!
//! Round 1 sends the task's prompt (`sysmo prompt`); the answer's module (and .cfg) is taken
//! from its text ([`parse_answer`]) and graded (`sysmo_grade::grade`); while the score (the
//! combined one when the task has it, else overall) is below 1.0 and rounds remain, the next
//! user turn of the same conversation is the repair text (`sysmo_grade::feedback`), or, for an
//! answer that holds no usable module, the reason and the expected format.
//!
//! The conversation ([`run_conversation`]) takes the model as a closure from the messages so
//! far to the answer's text, so it is tested without a socket; [`HttpChat`] is that closure
//! over HTTP (OpenAI's chat completions or Anthropic's Messages API, with `ureq`), and
//! [`request_body`] / [`response_text`] are its pure halves.

use crate::EXIT_USAGE;
use serde_json::{json, Value as Json};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};
use sysmo_grade::{grade, ModelInput, Report, TaskInput};

/// Which HTTP API the endpoint speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Api {
    /// `POST {endpoint}/chat/completions`, `Authorization: Bearer KEY`.
    OpenAi,
    /// `POST {endpoint}/messages`, `x-api-key: KEY`, `anthropic-version: 2023-06-01`.
    Anthropic,
}

impl Api {
    fn name(self) -> &'static str {
        match self {
            Api::OpenAi => "openai",
            Api::Anthropic => "anthropic",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct AgentArgs {
    /// A task id, or `all`.
    pub task: String,
    pub endpoint: String,
    pub model: String,
    pub api: Api,
    pub rounds: u32,
    pub repeat: u32,
    pub out: PathBuf,
    /// `max_tokens` of each request; sent to OpenAI only when given.
    pub max_tokens: Option<u32>,
}

pub const DEFAULT_ROUNDS: u32 = 3;
/// Anthropic's API requires `max_tokens`: this one, unless `--max-tokens` says otherwise.
pub const DEFAULT_ANTHROPIC_MAX_TOKENS: u32 = 8192;
/// Per request.
pub const HTTP_TIMEOUT: Duration = Duration::from_secs(300);
/// Wall-clock safety net per grade (as `sysmo grade`'s default).
const GRADE_TIME_LIMIT: Duration = Duration::from_secs(600);

impl AgentArgs {
    pub fn from_args(args: &[String]) -> Result<AgentArgs, String> {
        let (mut task, mut endpoint, mut model) = (None, None, None);
        let mut a = AgentArgs {
            task: String::new(),
            endpoint: String::new(),
            model: String::new(),
            api: Api::OpenAi,
            rounds: DEFAULT_ROUNDS,
            repeat: 1,
            out: PathBuf::from("agent-out"),
            max_tokens: None,
        };
        let mut it = args.iter();
        while let Some(s) = it.next() {
            let mut val = |name: &str| it.next().cloned().ok_or_else(|| format!("{name} needs a value"));
            let count = |name: &str, v: String| match v.parse::<u32>() {
                Ok(n) if n >= 1 => Ok(n),
                _ => Err(format!("{name} takes a whole number of at least 1, not `{v}`")),
            };
            match s.as_str() {
                "--task" => task = Some(val(s)?),
                "--endpoint" => endpoint = Some(val(s)?),
                "--model" => model = Some(val(s)?),
                "--api" => {
                    a.api = match val(s)?.as_str() {
                        "openai" => Api::OpenAi,
                        "anthropic" => Api::Anthropic,
                        x => return Err(format!("--api is openai or anthropic, not `{x}`")),
                    }
                }
                "--rounds" => a.rounds = count(s, val(s)?)?,
                "--repeat" => a.repeat = count(s, val(s)?)?,
                "--out" => a.out = PathBuf::from(val(s)?),
                "--max-tokens" => a.max_tokens = Some(count(s, val(s)?)?),
                x => return Err(format!("unknown argument `{x}` for `sysmo agent`")),
            }
        }
        a.task = task.ok_or("`sysmo agent` needs --task ID (or --task all)")?;
        a.endpoint = endpoint.ok_or("`sysmo agent` needs --endpoint URL (such as https://host/v1)")?;
        a.model = model.ok_or("`sysmo agent` needs --model NAME")?;
        Ok(a)
    }
}

// ---------------------------------------------------------------------------------------------
// The answer's files.

/// The module (and .cfg) found in an answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    /// The module's name, as its header says.
    pub name: String,
    /// From `---- MODULE` to its closing `====` line, with a final newline.
    pub tla: String,
    pub cfg: Option<String>,
    /// Set when the module is not named as the task pins it: the plain statement to give back.
    pub wrong_name: Option<String>,
}

/// A fenced code block: its info string (lower-cased) and body; `closed` is false when the
/// text ends inside it.
struct Block {
    lang: String,
    body: String,
    closed: bool,
}

fn fenced_blocks(text: &str) -> (Vec<Block>, String) {
    let mut blocks = vec![];
    let mut outside = String::new();
    let mut cur: Option<(String, char, usize, String)> = None; // (lang, fence char and length, body)
    for line in text.lines() {
        let t = line.trim_start();
        let fence = |c: char| t.chars().take_while(|&x| x == c).count();
        let (ch, ticks) = if t.starts_with('~') { ('~', fence('~')) } else { ('`', fence('`')) };
        match &mut cur {
            None if ticks >= 3 => cur = Some((t[ticks..].trim().to_lowercase(), ch, ticks, String::new())),
            None => {
                outside.push_str(line);
                outside.push('\n');
            }
            Some((lang, c, n, body)) => {
                if ch == *c && ticks >= *n && t[ticks..].trim().is_empty() {
                    blocks.push(Block { lang: std::mem::take(lang), body: std::mem::take(body), closed: true });
                    cur = None;
                } else {
                    body.push_str(line);
                    body.push('\n');
                }
            }
        }
    }
    if let Some((lang, _, _, body)) = cur {
        blocks.push(Block { lang, body, closed: false });
    }
    (blocks, outside)
}

fn is_module_header(line: &str) -> bool {
    let t = line.trim();
    t.starts_with("----") && t.trim_start_matches('-').trim_start().starts_with("MODULE")
}

fn is_module_end(line: &str) -> bool {
    line.trim_start().starts_with("====")
}

/// The modules in a text: each from its header to its closing line; `Err(name)` for one that
/// has no closing line.
fn modules_in(text: &str) -> Vec<Result<String, String>> {
    let mut out = vec![];
    let mut cur: Option<String> = None;
    for line in text.lines() {
        match &mut cur {
            None if is_module_header(line) => cur = Some(format!("{line}\n")),
            None => {}
            Some(m) => {
                m.push_str(line);
                m.push('\n');
                if is_module_end(line) {
                    out.push(Ok(std::mem::take(m)));
                    cur = None;
                }
            }
        }
    }
    if let Some(m) = cur {
        out.push(Err(sysmo_grade::module_name(&m).unwrap_or_else(|| "?".into())));
    }
    out
}

const CFG_WORDS: &[&str] = &[
    "SPECIFICATION", "INIT", "NEXT", "CONSTANT", "CONSTANTS", "INVARIANT", "INVARIANTS", "PROPERTY", "PROPERTIES",
    "SYMMETRY", "VIEW", "CONSTRAINT", "CONSTRAINTS", "ACTION_CONSTRAINT", "CHECK_DEADLOCK", "ALIAS", "POSTCONDITION",
];

fn looks_like_cfg(body: &str) -> bool {
    let first = body.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with("\\*") && !l.starts_with("(*"));
    first.and_then(|l| l.split_whitespace().next()).is_some_and(|w| CFG_WORDS.contains(&w))
}

fn is_tla_lang(lang: &str) -> bool {
    matches!(lang, "tla" | "tlaplus" | "tla+" | "tla-plus") || lang.ends_with(".tla")
}

fn is_cfg_lang(lang: &str) -> bool {
    matches!(lang, "cfg" | "tlc" | "tla-cfg") || lang.ends_with(".cfg")
}

/// How the answer should look, for a turn after an unusable one.
pub fn format_reminder(module: &str) -> String {
    format!(
        "Answer with the complete module `{module}.tla` in one ```tla code block, from \
         `---- MODULE {module} ----` to its closing `====` line, and its configuration \
         `{module}.cfg` in one ```cfg code block (SPECIFICATION Spec and the CONSTANT lines)."
    )
}

/// The module and .cfg of an answer. The module is taken from fenced blocks labelled `tla` or
/// `tlaplus`, or any fenced block holding a `---- MODULE` header, else from the bare text; the
/// .cfg from a block labelled `cfg` or one that starts with a .cfg keyword (SPECIFICATION,
/// INIT, CONSTANT, ...), the last one when there are several. `pinned` is the module name the
/// task expects. Errors are the plain reason the answer is unusable.
pub fn parse_answer(text: &str, pinned: &str) -> Result<Answer, String> {
    let (blocks, outside) = fenced_blocks(text);
    let mut found: Vec<Result<String, String>> = vec![];
    let mut cfg = None;
    for b in &blocks {
        let mods = modules_in(&b.body);
        if is_tla_lang(&b.lang) || !mods.is_empty() {
            if mods.is_empty() && !b.closed {
                // A tla block cut off before its header.
                found.push(Err("?".into()));
            }
            found.extend(mods);
        } else if is_cfg_lang(&b.lang) || looks_like_cfg(&b.body) {
            cfg = Some(b.body.clone());
        }
    }
    if found.is_empty() {
        // A bare module in the text (outside any code block).
        found = modules_in(&outside);
    }
    if found.is_empty() {
        return Err(format!("The answer holds no TLA+ module (no `---- MODULE {pinned} ----` header was found)."));
    }
    if let Some(Err(name)) = found.iter().find(|m| m.is_err()) {
        return Err(format!(
            "The module `{name}` has no closing `====` line: the answer looks truncated. Give the whole module; keep it short if it is long."
        ));
    }
    let mut mods: Vec<String> = vec![];
    for m in found.into_iter().flatten() {
        if !mods.iter().any(|x| x.trim() == m.trim()) {
            mods.push(m);
        }
    }
    if mods.len() > 1 {
        let names: Vec<String> = mods.iter().map(|m| format!("`{}`", sysmo_grade::module_name(m).unwrap_or_else(|| "?".into()))).collect();
        return Err(format!(
            "The answer holds {} different modules ({}); give exactly one module, `{pinned}`, in full.",
            mods.len(),
            names.join(", ")
        ));
    }
    let tla = mods.pop().unwrap_or_default();
    let name = sysmo_grade::module_name(&tla).unwrap_or_default();
    let wrong_name = (name != pinned).then(|| {
        format!("The module is named `{name}`, but the task expects `{pinned}`: its header must be `---- MODULE {pinned} ----`.")
    });
    let cfg = cfg.filter(|c| !c.trim().is_empty());
    Ok(Answer { name, tla, cfg, wrong_name })
}

// ---------------------------------------------------------------------------------------------
// HTTP.

/// One turn of the conversation.
#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    /// `user` or `assistant`.
    pub role: &'static str,
    pub content: String,
}

/// The system prompt of every conversation.
pub const SYSTEM: &str = "You are an expert in TLA+ who models real systems' code. Answer with the files asked for, \
each complete, in its own fenced code block.";

/// The URL and JSON body of a request for the next answer.
pub fn request_body(api: Api, endpoint: &str, model: &str, max_tokens: Option<u32>, messages: &[Message]) -> (String, Json) {
    let base = endpoint.trim_end_matches('/');
    let msgs = |v: &mut Vec<Json>| v.extend(messages.iter().map(|m| json!({"role": m.role, "content": m.content})));
    match api {
        Api::OpenAi => {
            let mut v = vec![json!({"role": "system", "content": SYSTEM})];
            msgs(&mut v);
            let mut body = json!({"model": model, "messages": v});
            if let Some(n) = max_tokens {
                body["max_tokens"] = json!(n);
            }
            (format!("{base}/chat/completions"), body)
        }
        Api::Anthropic => {
            let mut v = vec![];
            msgs(&mut v);
            let body = json!({
                "model": model,
                "system": SYSTEM,
                "messages": v,
                "max_tokens": max_tokens.unwrap_or(DEFAULT_ANTHROPIC_MAX_TOKENS),
            });
            (format!("{base}/messages"), body)
        }
    }
}

fn first_chars(s: &str, n: usize) -> String {
    let mut t: String = s.chars().take(n).collect();
    if s.chars().count() > n {
        t.push_str("...");
    }
    t
}

/// The answer's text from an HTTP status and body.
pub fn response_text(api: Api, status: u16, body: &str) -> Result<String, String> {
    if !(200..300).contains(&status) {
        return Err(format!("HTTP {status}: {}", first_chars(body.trim(), 300)));
    }
    let v: Json = serde_json::from_str(body).map_err(|e| format!("the response is not JSON ({e}): {}", first_chars(body.trim(), 300)))?;
    let text_of = |parts: &Json| -> String {
        match parts {
            Json::String(s) => s.clone(),
            Json::Array(a) => a
                .iter()
                .filter(|p| p.get("type").and_then(Json::as_str).is_none_or(|t| t == "text"))
                .filter_map(|p| p.get("text").and_then(Json::as_str))
                .collect::<Vec<_>>()
                .join(""),
            _ => String::new(),
        }
    };
    let (text, why) = match api {
        Api::OpenAi => {
            let c = &v["choices"][0];
            let why = c["finish_reason"].as_str().map(|r| format!("finish_reason {r}"));
            let why = match c["message"]["refusal"].as_str() {
                Some(r) => Some(format!("refusal: {}", first_chars(r, 300))),
                None => why,
            };
            (text_of(&c["message"]["content"]), why)
        }
        Api::Anthropic => (text_of(&v["content"]), v["stop_reason"].as_str().map(|r| format!("stop_reason {r}"))),
    };
    if text.trim().is_empty() {
        return Err(match why {
            Some(w) => format!("the response has no text ({w})"),
            None => format!("the response has no text: {}", first_chars(body.trim(), 300)),
        });
    }
    Ok(text)
}

/// The API key from the environment: `SYSMO_API_KEY`, else `OPENAI_API_KEY` or
/// `ANTHROPIC_API_KEY` by API; none (a local server) is allowed.
pub fn api_key(api: Api, env: impl Fn(&str) -> Option<String>) -> Option<String> {
    let fallback = match api {
        Api::OpenAi => "OPENAI_API_KEY",
        Api::Anthropic => "ANTHROPIC_API_KEY",
    };
    ["SYSMO_API_KEY", fallback].iter().filter_map(|k| env(k)).find(|v| !v.trim().is_empty())
}

/// The model over HTTP.
pub struct HttpChat {
    pub api: Api,
    pub endpoint: String,
    pub model: String,
    pub max_tokens: Option<u32>,
    pub key: Option<String>,
    agent: ureq::Agent,
}

impl HttpChat {
    pub fn new(api: Api, endpoint: &str, model: &str, max_tokens: Option<u32>, key: Option<String>) -> HttpChat {
        let config = ureq::Agent::config_builder().timeout_global(Some(HTTP_TIMEOUT)).http_status_as_error(false).build();
        HttpChat { api, endpoint: endpoint.to_string(), model: model.to_string(), max_tokens, key, agent: config.into() }
    }

    /// The answer's text to the conversation so far.
    pub fn complete(&self, messages: &[Message]) -> Result<String, String> {
        let (url, body) = request_body(self.api, &self.endpoint, &self.model, self.max_tokens, messages);
        let mut req = self.agent.post(&url).header("content-type", "application/json");
        match (self.api, &self.key) {
            (Api::OpenAi, Some(k)) => req = req.header("authorization", format!("Bearer {k}")),
            (Api::Anthropic, Some(k)) => req = req.header("x-api-key", k),
            (_, None) => {}
        }
        if self.api == Api::Anthropic {
            req = req.header("anthropic-version", "2023-06-01");
        }
        let mut resp = req.send(body.to_string()).map_err(|e| format!("request to {url} failed: {e}"))?;
        let status = resp.status().as_u16();
        let text = resp
            .body_mut()
            .with_config()
            .limit(64 << 20)
            .read_to_string()
            .map_err(|e| format!("reading the response from {url} failed: {e}"))?;
        response_text(self.api, status, &text)
    }
}

// ---------------------------------------------------------------------------------------------
// The conversation.

/// What became of one round.
#[derive(Debug)]
pub enum Outcome {
    /// No answer: an HTTP error or a response without text.
    NoAnswer(String),
    /// An answer without a usable module.
    Unusable(String),
    /// A graded module (`wrong_name` is in the answer).
    Graded { answer: Answer, report: Box<Report>, feedback: String },
}

#[derive(Debug)]
pub struct Round {
    pub round: u32,
    pub outcome: Outcome,
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

/// Grades a module of an embedded task, on a thread with room for deep evaluations.
pub fn grade_answer(task: &sysmo_tasks::TaskFiles, name: &str, answer: &Answer) -> Report {
    let input = TaskInput::from_folder(task.files, task.traces).with_system_graph(task.system_graph());
    let started = Instant::now();
    let should_stop = || started.elapsed() > GRADE_TIME_LIMIT;
    let model = ModelInput { name, text: &answer.tla, cfg: answer.cfg.as_deref(), mapping: None };
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(64 << 20)
            .spawn_scoped(s, || grade(&input, &model, &should_stop))
            .expect("a grading thread")
            .join()
            .expect("the grader stopped unexpectedly")
    })
}

/// The module name a task pins (`[pinned] module` in its task.toml).
pub fn pinned_module(task: &sysmo_tasks::TaskFiles) -> Result<String, String> {
    let v: toml::Value = toml::from_str(task.task_toml()).map_err(|e| format!("task `{}`: task.toml: {e}", task.id))?;
    v.get("pinned").and_then(|p| p.get("module")).and_then(|m| m.as_str()).map(str::to_string).ok_or_else(|| format!("task `{}` pins no module", task.id))
}

/// One conversation of at most `rounds` rounds. `chat` answers the messages so far; `grade`
/// grades a usable answer (round number and answer); `on_round` sees each round as it ends,
/// with the messages so far. Returns the rounds and the whole conversation.
pub fn run_conversation(
    prompt: &str,
    pinned: &str,
    rounds: u32,
    chat: &mut dyn FnMut(&[Message]) -> Result<String, String>,
    grade: &mut dyn FnMut(u32, &Answer) -> Report,
    on_round: &mut dyn FnMut(&Round, &[Message]),
) -> (Vec<Round>, Vec<Message>) {
    let mut messages = vec![Message { role: "user", content: prompt.to_string() }];
    let mut done = vec![];
    for n in 1..=rounds {
        let outcome = match chat(&messages) {
            Err(e) => Outcome::NoAnswer(e),
            Ok(text) => {
                let parsed = parse_answer(&text, pinned);
                messages.push(Message { role: "assistant", content: text });
                match parsed {
                    Err(e) => Outcome::Unusable(e),
                    Ok(answer) => {
                        let report = grade(n, &answer);
                        let mut feedback = sysmo_grade::feedback(&report, &answer.tla, sysmo_grade::feedback::DEFAULT_LIMIT);
                        if let Some(w) = &answer.wrong_name {
                            feedback = format!("{w}\n\n{feedback}");
                        }
                        Outcome::Graded { answer, report: Box::new(report), feedback }
                    }
                }
            }
        };
        let round = Round { round: n, outcome };
        let go_on = n < rounds && round.score().is_none_or(|s| s < 1.0);
        if go_on {
            // The next user turn; after no answer at all the same messages are sent again.
            match &round.outcome {
                Outcome::NoAnswer(_) => {}
                Outcome::Unusable(e) => messages.push(Message { role: "user", content: format!("{e}\n\n{}", format_reminder(pinned)) }),
                Outcome::Graded { feedback, .. } => messages.push(Message { role: "user", content: feedback.clone() }),
            }
        }
        on_round(&round, &messages);
        done.push(round);
        if !go_on {
            break;
        }
    }
    (done, messages)
}

// ---------------------------------------------------------------------------------------------
// The command.

/// The line printed for a round.
pub fn round_line(task: &str, run: u32, r: &Round) -> String {
    let head = format!("{task} run {run} round {}:", r.round);
    match &r.outcome {
        Outcome::Graded { report, answer, .. } => {
            let stages: Vec<String> = report.stages.scores().iter().map(|(k, score, _)| format!("{k} {score:.3}")).collect();
            let mut line = format!(
                "{head} {} overall {:.4} combined {}",
                stages.join(" "),
                report.overall,
                report.combined.map(|c| format!("{c:.4}")).unwrap_or_else(|| "-".into())
            );
            if let Some(w) = &answer.wrong_name {
                line += &format!(" ({w})");
            }
            line
        }
        Outcome::NoAnswer(e) | Outcome::Unusable(e) => format!("{head} error: {}", one_line(e)),
    }
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn csv_field(s: &str) -> String {
    let s = one_line(s);
    if s.contains([',', '"']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s
    }
}

pub const CSV_HEADER: &str = "task,run,round,status,syntax,runtime,conformance,invariants,precision,overall,combined,error\n";

/// The round's row of results.csv.
pub fn csv_row(task: &str, run: u32, r: &Round) -> String {
    let scores = match &r.outcome {
        Outcome::Graded { report, .. } => {
            let stages: Vec<String> = report.stages.scores().iter().map(|(_, score, _)| format!("{score:.4}")).collect();
            format!("{},{:.4},{}", stages.join(","), report.overall, report.combined.map(|c| format!("{c:.4}")).unwrap_or_default())
        }
        _ => ",,,,,,".to_string(),
    };
    format!("{task},{run},{},{},{scores},{}\n", r.round, r.status(), csv_field(r.error().unwrap_or("")))
}

fn transcript(task: &str, run: u32, a: &AgentArgs, rounds: &[Json], messages: &[Message]) -> Json {
    json!({
        "task": task,
        "run": run,
        "api": a.api.name(),
        "endpoint": a.endpoint,
        "model": a.model,
        "system": SYSTEM,
        "rounds": rounds,
        "messages": messages.iter().map(|m| json!({"role": m.role, "content": m.content})).collect::<Vec<_>>(),
    })
}

fn write_file(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Writes a round's files under `dir` (`round-N/`).
fn write_round(dir: &Path, module: &str, r: &Round) -> Result<(), String> {
    let rd = dir.join(format!("round-{}", r.round));
    std::fs::create_dir_all(&rd).map_err(|e| format!("cannot create {}: {e}", rd.display()))?;
    match &r.outcome {
        Outcome::Graded { answer, report, feedback } => {
            write_file(&rd.join(format!("{module}.tla")), &answer.tla)?;
            if let Some(c) = &answer.cfg {
                write_file(&rd.join(format!("{module}.cfg")), c)?;
            }
            write_file(&rd.join("report.json"), &format!("{}\n", report.to_json()))?;
            write_file(&rd.join("feedback.txt"), feedback)?;
        }
        Outcome::NoAnswer(e) => write_file(&rd.join("feedback.txt"), &format!("{e}\n"))?,
        Outcome::Unusable(e) => write_file(&rd.join("feedback.txt"), &format!("{e}\n\n{}\n", format_reminder(module)))?,
    }
    Ok(())
}

/// One run of one task: the conversation, its files under `dir`, a line per round on stdout and
/// a row per round in `csv`.
fn run_one(a: &AgentArgs, task: &'static sysmo_tasks::TaskFiles, run: u32, chat: &HttpChat, csv: &mut String) -> Result<(), String> {
    let module = pinned_module(task)?;
    let prompt = task.prompt().map_err(|e| format!("task `{}`: {e}", task.id))?;
    let dir = a.out.join(task.id).join(format!("run-{run}"));
    if dir.exists() {
        std::fs::remove_dir_all(&dir).map_err(|e| format!("cannot clear {}: {e}", dir.display()))?;
    }
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let mut log: Vec<Json> = vec![];
    let mut failure: Option<String> = None;
    let mut chat_fn = |m: &[Message]| chat.complete(m);
    // The file's own name, not its path: the feedback goes to the LLM, and is the same in
    // every run.
    let file_name = format!("{module}.tla");
    let mut grade_fn = |_: u32, ans: &Answer| grade_answer(task, &file_name, ans);
    let mut on_round = |r: &Round, msgs: &[Message]| {
        println!("{}", round_line(task.id, run, r));
        let _ = std::io::stdout().flush();
        csv.push_str(&csv_row(task.id, run, r));
        log.push(json!({"round": r.round, "status": r.status(), "score": r.score(), "error": r.error()}));
        let t = transcript(task.id, run, a, &log, msgs);
        let res = write_round(&dir, &module, r).and_then(|_| {
            write_file(&dir.join("transcript.json"), &format!("{}\n", serde_json::to_string_pretty(&t).unwrap_or_default()))
        });
        if let Err(e) = res {
            failure.get_or_insert(e);
        }
    };
    run_conversation(&prompt, &module, a.rounds, &mut chat_fn, &mut grade_fn, &mut on_round);
    failure.map_or(Ok(()), Err)
}

pub fn run(a: &AgentArgs) -> ExitCode {
    let tasks: Vec<&'static sysmo_tasks::TaskFiles> = if a.task == "all" {
        sysmo_tasks::tasks().iter().collect()
    } else {
        match sysmo_tasks::task(&a.task) {
            Some(t) => vec![t],
            None => {
                let ids: Vec<&str> = sysmo_tasks::tasks().iter().map(|t| t.id).collect();
                eprintln!("error: no task `{}` (tasks: {}, or all)", a.task, ids.join(", "));
                return ExitCode::from(EXIT_USAGE);
            }
        }
    };
    let key = api_key(a.api, |k| std::env::var(k).ok());
    let chat = HttpChat::new(a.api, &a.endpoint, &a.model, a.max_tokens, key);
    if let Err(e) = std::fs::create_dir_all(&a.out) {
        eprintln!("error: cannot create {}: {e}", a.out.display());
        return ExitCode::from(EXIT_USAGE);
    }
    let mut csv = String::from(CSV_HEADER);
    let csv_path = a.out.join("results.csv");
    let mut code = ExitCode::SUCCESS;
    for task in tasks {
        for run in 1..=a.repeat {
            if let Err(e) = run_one(a, task, run, &chat, &mut csv) {
                eprintln!("error: {}: run {run}: {e}", task.id);
                code = ExitCode::from(EXIT_USAGE);
            }
            // Written after every run, so that a long `--task all` leaves its results so far.
            if let Err(e) = write_file(&csv_path, &csv) {
                eprintln!("error: {e}");
                return ExitCode::from(EXIT_USAGE);
            }
        }
    }
    code
}

#[cfg(test)]
mod tests {
    use super::*;

    const WRONG: &str = include_str!("../../../tasks/spin/wrong/trylock-blocks/spin.tla");
    const REFERENCE: &str = include_str!("../../../tasks/spin/reference/spin.tla");
    const REFERENCE_CFG: &str = include_str!("../../../tasks/spin/reference/spin.cfg");
    const SMALL: &str = "---- MODULE spin ----\nVARIABLE x\nInit == x = 0\nNext == x' = x\n====\n";

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn args() {
        let a = AgentArgs::from_args(&s(&["--task", "spin", "--endpoint", "http://h/v1", "--model", "m"])).unwrap();
        assert_eq!((a.api, a.rounds, a.repeat, a.out.as_path(), a.max_tokens), (Api::OpenAi, 3, 1, Path::new("agent-out"), None));
        let a = AgentArgs::from_args(&s(&[
            "--task", "all", "--endpoint", "e", "--model", "m", "--api", "anthropic", "--rounds", "5", "--repeat", "2", "--out", "o",
            "--max-tokens", "100",
        ]))
        .unwrap();
        assert_eq!((a.task.as_str(), a.api, a.rounds, a.repeat, a.out.as_path(), a.max_tokens), ("all", Api::Anthropic, 5, 2, Path::new("o"), Some(100)));
        assert!(AgentArgs::from_args(&s(&["--endpoint", "e", "--model", "m"])).unwrap_err().contains("--task"));
        assert!(AgentArgs::from_args(&s(&["--task", "spin", "--model", "m"])).unwrap_err().contains("--endpoint"));
        assert!(AgentArgs::from_args(&s(&["--task", "spin", "--endpoint", "e"])).unwrap_err().contains("--model"));
        assert!(AgentArgs::from_args(&s(&["--task", "spin", "--endpoint", "e", "--model", "m", "--api", "x"])).is_err());
        assert!(AgentArgs::from_args(&s(&["--task", "spin", "--endpoint", "e", "--model", "m", "--rounds", "0"])).is_err());
        assert!(AgentArgs::from_args(&s(&["--task", "spin", "--endpoint", "e", "--model", "m", "--bogus"])).is_err());
    }

    #[test]
    fn parses_fenced_tla_and_cfg() {
        let text = format!("Here it is.\n\n```tla\n{REFERENCE}```\n\nand\n\n```cfg\n{REFERENCE_CFG}```\n");
        let a = parse_answer(&text, "spin").unwrap();
        assert_eq!(a.name, "spin");
        assert_eq!(a.tla.trim(), REFERENCE.trim());
        assert_eq!(a.cfg.as_deref(), Some(REFERENCE_CFG));
        assert_eq!(a.wrong_name, None);
        // tlaplus, an unlabelled block holding a module, a cfg recognised by its first keyword.
        let text = format!("```tlaplus\n{SMALL}```\n```\nSPECIFICATION Spec\nCONSTANT Threads = {{0, 1}}\n```\n");
        let a = parse_answer(&text, "spin").unwrap();
        assert_eq!((a.tla.as_str(), a.cfg.as_deref()), (SMALL, Some("SPECIFICATION Spec\nCONSTANT Threads = {0, 1}\n")));
        let a = parse_answer(&format!("~~~tla\n{SMALL}~~~\n"), "spin").unwrap();
        assert_eq!(a.tla, SMALL);
        let a = parse_answer(&format!("spin.tla:\n```\n{SMALL}```\n"), "spin").unwrap();
        assert_eq!((a.tla.as_str(), a.cfg), (SMALL, None));
        // Text after the closing line is not the module's.
        let a = parse_answer(&format!("```tla\n{SMALL}\\* trailing\n```"), "spin").unwrap();
        assert_eq!(a.tla, SMALL);
    }

    #[test]
    fn parses_a_bare_module() {
        let a = parse_answer(&format!("Sure:\n\n{SMALL}\nThat is all.\n"), "spin").unwrap();
        assert_eq!((a.name.as_str(), a.tla.as_str()), ("spin", SMALL));
    }

    #[test]
    fn two_different_modules_are_an_error() {
        let other = SMALL.replace("MODULE spin", "MODULE helper");
        let e = parse_answer(&format!("```tla\n{SMALL}```\n```tla\n{other}```\n"), "spin").unwrap_err();
        assert!(e.contains("2 different modules") && e.contains("`spin`") && e.contains("`helper`"), "{e}");
        // The same module twice is one module.
        assert!(parse_answer(&format!("```tla\n{SMALL}```\nAgain:\n```tla\n{SMALL}```\n"), "spin").is_ok());
    }

    #[test]
    fn a_truncated_module_is_an_error() {
        let cut = &SMALL[..SMALL.find("====").unwrap()];
        for text in [format!("```tla\n{cut}"), format!("```tla\n{cut}```\n"), format!("Here:\n{cut}")] {
            let e = parse_answer(&text, "spin").unwrap_err();
            assert!(e.contains("no closing `====`") && e.contains("truncated"), "{text}: {e}");
        }
    }

    #[test]
    fn no_module_is_an_error() {
        for text in ["I cannot help with that.", "```python\nprint(1)\n```\n", "```cfg\nSPECIFICATION Spec\n```\n"] {
            let e = parse_answer(text, "spin").unwrap_err();
            assert!(e.contains("no TLA+ module"), "{text}: {e}");
        }
    }

    #[test]
    fn a_wrong_module_name_is_said_plainly() {
        let a = parse_answer(&format!("```tla\n{}```", SMALL.replace("MODULE spin", "MODULE SpinLock")), "spin").unwrap();
        assert_eq!(a.name, "SpinLock");
        let w = a.wrong_name.unwrap();
        assert!(w.contains("`SpinLock`") && w.contains("---- MODULE spin ----"), "{w}");
    }

    #[test]
    fn requests_and_responses() {
        let msgs = [Message { role: "user", content: "hi".into() }];
        let (url, body) = request_body(Api::OpenAi, "http://h/v1/", "m", None, &msgs);
        assert_eq!(url, "http://h/v1/chat/completions");
        assert_eq!(body["messages"][0]["role"], "system");
        assert_eq!(body["messages"][1], json!({"role": "user", "content": "hi"}));
        assert!(body.get("max_tokens").is_none());
        let (url, body) = request_body(Api::Anthropic, "http://h/v1", "m", None, &msgs);
        assert_eq!(url, "http://h/v1/messages");
        assert_eq!((body["system"].as_str(), body["max_tokens"].as_u64()), (Some(SYSTEM), Some(8192)));
        assert_eq!(body["messages"], json!([{"role": "user", "content": "hi"}]));

        let ok = r#"{"choices":[{"message":{"role":"assistant","content":"A"},"finish_reason":"stop"}]}"#;
        assert_eq!(response_text(Api::OpenAi, 200, ok).unwrap(), "A");
        let ok = r#"{"content":[{"type":"thinking","thinking":"x"},{"type":"text","text":"B"}],"stop_reason":"end_turn"}"#;
        assert_eq!(response_text(Api::Anthropic, 200, ok).unwrap(), "B");
        let e = response_text(Api::OpenAi, 429, &"x".repeat(1000)).unwrap_err();
        assert!(e.starts_with("HTTP 429: xxx") && e.len() < 320, "{e}");
        let e = response_text(Api::OpenAi, 200, r#"{"choices":[{"message":{"content":null},"finish_reason":"length"}]}"#).unwrap_err();
        assert!(e.contains("no text") && e.contains("length"), "{e}");
        assert!(response_text(Api::Anthropic, 200, r#"{"content":[]}"#).unwrap_err().contains("no text"));
        assert!(response_text(Api::Anthropic, 200, "<html>").unwrap_err().contains("not JSON"));
    }

    #[test]
    fn the_key_comes_from_the_environment() {
        let env = |vars: &'static [(&'static str, &'static str)]| move |k: &str| vars.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string());
        assert_eq!(api_key(Api::OpenAi, env(&[("SYSMO_API_KEY", "s"), ("OPENAI_API_KEY", "o")])).as_deref(), Some("s"));
        assert_eq!(api_key(Api::OpenAi, env(&[("OPENAI_API_KEY", "o"), ("ANTHROPIC_API_KEY", "a")])).as_deref(), Some("o"));
        assert_eq!(api_key(Api::Anthropic, env(&[("OPENAI_API_KEY", "o"), ("ANTHROPIC_API_KEY", "a")])).as_deref(), Some("a"));
        assert_eq!(api_key(Api::Anthropic, env(&[("SYSMO_API_KEY", ""), ("OPENAI_API_KEY", "o")])), None);
    }

    /// A conversation without a socket: an unusable answer, then the wrong model, then the
    /// reference; each later turn carries the reason or the repair text.
    #[test]
    fn the_conversation_goes_on_until_the_model_passes() {
        let task = sysmo_tasks::task("spin").unwrap();
        let answers = [
            Err("HTTP 500: boom".to_string()),
            Ok("Let me think.".to_string()),
            Ok(format!("```tla\n{WRONG}```\n```cfg\n{REFERENCE_CFG}```\n")),
            Ok(format!("```tla\n{REFERENCE}```\n```cfg\n{REFERENCE_CFG}```\n")),
            Ok("never asked".to_string()),
        ];
        let mut sent: Vec<Vec<Message>> = vec![];
        let mut chat = |m: &[Message]| {
            sent.push(m.to_vec());
            answers[sent.len() - 1].clone()
        };
        let mut grade = |_: u32, a: &Answer| grade_answer(task, "spin.tla", a);
        let mut lines = vec![];
        let mut on_round = |r: &Round, _: &[Message]| lines.push(round_line("spin", 1, r));
        let (rounds, messages) = run_conversation("PROMPT", "spin", 5, &mut chat, &mut grade, &mut on_round);
        assert_eq!(rounds.iter().map(Round::status).collect::<Vec<_>>(), ["no-answer", "unusable", "graded", "pass"]);
        assert_eq!(sent.len(), 4);
        // After no answer, the same messages again.
        assert_eq!(sent[0], sent[1]);
        assert_eq!(sent[0], [Message { role: "user", content: "PROMPT".into() }]);
        // After an unusable answer: it, then the reason and the format.
        let last = sent[2].last().unwrap();
        assert_eq!(sent[2][1], Message { role: "assistant", content: "Let me think.".into() });
        assert!(last.role == "user" && last.content.contains("no TLA+ module") && last.content.contains("```tla"), "{}", last.content);
        // After a graded answer below 1.0: its repair text.
        let Outcome::Graded { feedback, report, .. } = &rounds[2].outcome else { panic!() };
        assert!(report.overall < 1.0);
        assert_eq!(sent[3].last().unwrap(), &Message { role: "user", content: feedback.clone() });
        assert!(sent[3][sent[3].len() - 2].content.contains("MODULE spin"));
        assert_eq!(rounds[3].score(), Some(1.0));
        assert_eq!(messages.len(), 6, "the last answer is kept, no turn after it");
        assert!(lines[0].contains("error: HTTP 500: boom"), "{}", lines[0]);
        assert!(lines[3].contains("overall 1.0000"), "{}", lines[3]);
        let row = csv_row("spin", 1, &rounds[1]);
        assert_eq!(row.matches(',').count(), CSV_HEADER.matches(',').count(), "{row}");
        assert!(row.starts_with("spin,1,2,unusable,,,,,,,,"), "{row}");
    }
}
