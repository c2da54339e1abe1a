//! `sysmo agent --task ID|all --endpoint URL --model M [--api openai|anthropic] [--rounds N]
//! [--repeat R] [--out DIR] [--max-tokens N]`: an LLM models a task in a repair loop.
//!
//! Round 1 sends the task's prompt (`sysmo prompt`); the answer's module (and .cfg) is taken
//! from its text ([`parse_answer`]) and graded (`sysmo_grade::grade`); while the score (the
//! combined one when the task has it, else overall) is below 1.0 and rounds remain, the next
//! user turn of the same conversation is the repair text (`sysmo_grade::feedback`), or, for an
//! answer that holds no usable module, the reason and the expected format.
//!
//! What is not I/O is `sysmo_agent`'s, shared with the web app: the answer's files, the two
//! APIs' requests and responses, the conversation's rounds ([`run_conversation`] takes the
//! model as a closure from the messages so far to the answer's text, so it is tested without
//! a socket). Here: the arguments, [`HttpChat`] (that closure over HTTP, with `ureq`), the
//! grade on a thread, and the files and lines each round leaves.

use crate::EXIT_USAGE;
use serde_json::{json, Value as Json};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};
use sysmo_agent::{format_reminder, request_body, response_text, run_conversation, Answer, Api, Conversation, Message, Outcome, Round, SYSTEM};
use sysmo_grade::{grade, ModelInput, Report, TaskInput};

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
    /// The prompts to play: with the action list, without it (`--no-hints`), or both.
    pub modes: Vec<Mode>,
}

/// Which prompt a conversation starts from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The pinned actions listed (`sysmo prompt`).
    Hints,
    /// No action list; the answer holds its mapping (`sysmo prompt --no-hints`).
    NoHints,
}

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Mode::Hints => "hints",
            Mode::NoHints => "no-hints",
        }
    }
}

pub const DEFAULT_ROUNDS: u32 = 3;
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
            modes: vec![Mode::Hints],
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
                    let v = val(s)?;
                    a.api = Api::from_name(&v).ok_or_else(|| format!("--api is openai or anthropic, not `{v}`"))?;
                }
                "--rounds" => a.rounds = count(s, val(s)?)?,
                "--repeat" => a.repeat = count(s, val(s)?)?,
                "--out" => a.out = PathBuf::from(val(s)?),
                "--max-tokens" => a.max_tokens = Some(count(s, val(s)?)?),
                "--no-hints" => a.modes = vec![Mode::NoHints],
                "--mode" => {
                    a.modes = match val(s)?.as_str() {
                        "hints" => vec![Mode::Hints],
                        "no-hints" => vec![Mode::NoHints],
                        "both" => vec![Mode::Hints, Mode::NoHints],
                        x => return Err(format!("--mode is hints, no-hints or both, not `{x}`")),
                    }
                }
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
// HTTP.

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
        let (url, body) = request_body(self.api, &self.endpoint, &self.model, self.max_tokens, messages, false);
        let mut req = self.agent.post(&url).header("content-type", "application/json");
        for (name, value) in self.api.headers(self.key.as_deref()) {
            req = req.header(name, value);
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

/// Grades a module of an embedded task, on a thread with room for deep evaluations.
pub fn grade_answer(task: &sysmo_tasks::TaskFiles, name: &str, answer: &Answer) -> Report {
    let input = TaskInput::from_folder(task.files, task.traces).with_system_graph(task.system_graph());
    let started = Instant::now();
    let should_stop = || started.elapsed() > GRADE_TIME_LIMIT;
    let model = ModelInput { name, text: &answer.tla, cfg: answer.cfg.as_deref(), mapping: answer.mapping.as_deref() };
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

// ---------------------------------------------------------------------------------------------
// The command.

/// The line printed for a round.
pub fn round_line(task: &str, mode: Mode, run: u32, r: &Round) -> String {
    let head = match mode {
        Mode::Hints => format!("{task} run {run} round {}:", r.round),
        Mode::NoHints => format!("{task} (no hints) run {run} round {}:", r.round),
    };
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

pub const CSV_HEADER: &str = "task,mode,run,round,status,syntax,runtime,conformance,invariants,precision,overall,combined,error\n";

/// The round's row of results.csv.
pub fn csv_row(task: &str, mode: Mode, run: u32, r: &Round) -> String {
    let scores = match &r.outcome {
        Outcome::Graded { report, .. } => {
            let stages: Vec<String> = report.stages.scores().iter().map(|(_, score, _)| format!("{score:.4}")).collect();
            format!("{},{:.4},{}", stages.join(","), report.overall, report.combined.map(|c| format!("{c:.4}")).unwrap_or_default())
        }
        _ => ",,,,,,".to_string(),
    };
    format!("{task},{},{run},{},{},{scores},{}\n", mode.name(), r.round, r.status(), csv_field(r.error().unwrap_or("")))
}

fn transcript(task: &str, mode: Mode, run: u32, a: &AgentArgs, rounds: &[Json], messages: &[Message]) -> Json {
    json!({
        "task": task,
        "mode": mode.name(),
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
            if let Some(m) = &answer.mapping {
                write_file(&rd.join("mapping.json"), m)?;
            }
            write_file(&rd.join("report.json"), &format!("{}\n", report.to_json()))?;
            write_file(&rd.join("feedback.txt"), feedback)?;
        }
        Outcome::NoAnswer(e) => write_file(&rd.join("feedback.txt"), &format!("{e}\n"))?,
        Outcome::Unusable(e) => {
            let text = r.turn.clone().unwrap_or_else(|| format!("{e}\n\n{}", format_reminder(module, false)));
            write_file(&rd.join("feedback.txt"), &format!("{text}\n"))?
        }
    }
    Ok(())
}

/// One run of one task: the conversation, its files under `dir`, a line per round on stdout and
/// a row per round in `csv`.
fn run_one(a: &AgentArgs, task: &'static sysmo_tasks::TaskFiles, mode: Mode, run: u32, chat: &HttpChat, csv: &mut String) -> Result<(), String> {
    let module = pinned_module(task)?;
    let (prompt, dir) = match mode {
        Mode::Hints => (task.prompt(), a.out.join(task.id).join(format!("run-{run}"))),
        Mode::NoHints => (task.prompt_no_hints(), a.out.join(task.id).join("no-hints").join(format!("run-{run}"))),
    };
    let prompt = prompt.map_err(|e| format!("task `{}`: {e}", task.id))?;
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
        println!("{}", round_line(task.id, mode, run, r));
        let _ = std::io::stdout().flush();
        csv.push_str(&csv_row(task.id, mode, run, r));
        log.push(json!({"round": r.round, "status": r.status(), "score": r.score(), "error": r.error()}));
        let t = transcript(task.id, mode, run, a, &log, msgs);
        let res = write_round(&dir, &module, r).and_then(|_| {
            write_file(&dir.join("transcript.json"), &format!("{}\n", serde_json::to_string_pretty(&t).unwrap_or_default()))
        });
        if let Err(e) = res {
            failure.get_or_insert(e);
        }
    };
    let conversation = Conversation::new(&prompt, &module, a.rounds);
    let conversation = if mode == Mode::NoHints { conversation.wanting_a_mapping() } else { conversation };
    run_conversation(conversation, &mut chat_fn, &mut grade_fn, &mut on_round);
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
        for &mode in &a.modes {
            for run in 1..=a.repeat {
                if let Err(e) = run_one(a, task, mode, run, &chat, &mut csv) {
                    eprintln!("error: {} ({}): run {run}: {e}", task.id, mode.name());
                    code = ExitCode::from(EXIT_USAGE);
                }
                // Written after every run, so that a long `--task all` leaves its results so far.
                if let Err(e) = write_file(&csv_path, &csv) {
                    eprintln!("error: {e}");
                    return ExitCode::from(EXIT_USAGE);
                }
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
        let a = AgentArgs::from_args(&s(&["--task", "spin", "--endpoint", "e", "--model", "m", "--no-hints"])).unwrap();
        assert_eq!(a.modes, [Mode::NoHints]);
        let a = AgentArgs::from_args(&s(&["--task", "spin", "--endpoint", "e", "--model", "m", "--mode", "both"])).unwrap();
        assert_eq!(a.modes, [Mode::Hints, Mode::NoHints]);
        assert!(AgentArgs::from_args(&s(&["--task", "spin", "--endpoint", "e", "--model", "m", "--mode", "x"])).is_err());
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
        let mut on_round = |r: &Round, _: &[Message]| lines.push(round_line("spin", Mode::Hints, 1, r));
        let (rounds, messages) = run_conversation(Conversation::new("PROMPT", "spin", 5), &mut chat, &mut grade, &mut on_round);
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
        let row = csv_row("spin", Mode::Hints, 1, &rounds[1]);
        assert_eq!(row.matches(',').count(), CSV_HEADER.matches(',').count(), "{row}");
        assert!(row.starts_with("spin,hints,1,2,unusable,,,,,,,,"), "{row}");
    }
}
