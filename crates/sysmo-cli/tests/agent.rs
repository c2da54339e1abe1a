//! `sysmo agent` end to end against a mock LLM server on 127.0.0.1: the requests it sends
//! (URL, headers, the conversation), the files it writes, the lines it prints and results.csv.

use serde_json::Value;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};

const WRONG: &str = include_str!("../../../tasks/spin/wrong/trylock-blocks/spin.tla");
const REFERENCE: &str = include_str!("../../../tasks/spin/reference/spin.tla");
const CFG: &str = "SPECIFICATION Spec\nCONSTANT Threads = {0, 1, 2}\n";

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sysmo-cli-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A request as the server saw it.
#[derive(Debug)]
struct Request {
    line: String,
    headers: BTreeMap<String, String>,
    body: Value,
}

/// Serves the canned (status, body) responses in order, one per connection, and records the
/// requests.
fn mock_server(responses: Vec<(u16, String)>) -> (String, Arc<Mutex<Vec<Request>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let seen = Arc::new(Mutex::new(vec![]));
    let seen2 = seen.clone();
    std::thread::spawn(move || {
        for (status, body) in responses {
            let Ok((stream, _)) = listener.accept() else { return };
            let mut r = BufReader::new(stream.try_clone().unwrap());
            let mut line = String::new();
            r.read_line(&mut line).unwrap();
            let mut headers = BTreeMap::new();
            loop {
                let mut h = String::new();
                r.read_line(&mut h).unwrap();
                let h = h.trim_end();
                if h.is_empty() {
                    break;
                }
                let (k, v) = h.split_once(':').unwrap();
                headers.insert(k.trim().to_lowercase(), v.trim().to_string());
            }
            let len: usize = headers.get("content-length").expect("a content-length").parse().unwrap();
            let mut buf = vec![0; len];
            r.read_exact(&mut buf).unwrap();
            seen2.lock().unwrap().push(Request { line: line.trim_end().to_string(), headers, body: serde_json::from_slice(&buf).unwrap() });
            let reason = if status == 200 { "OK" } else { "Error" };
            let mut w = stream;
            write!(w, "HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}", body.len()).unwrap();
            w.flush().unwrap();
        }
    });
    (format!("http://{addr}/v1"), seen)
}

fn answer(tla: &str) -> String {
    format!("Here is the model.\n\n```tla\n{tla}```\n\n```cfg\n{CFG}```\n")
}

fn openai(text: &str) -> String {
    serde_json::json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}]}).to_string()
}

fn anthropic(text: &str) -> String {
    serde_json::json!({"type": "message", "role": "assistant", "content": [{"type": "text", "text": text}], "stop_reason": "end_turn"}).to_string()
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn csv_rows(out: &Path) -> Vec<Vec<String>> {
    let text = read(&out.join("results.csv"));
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("task,mode,run,round,status,syntax,runtime,conformance,invariants,precision,overall,combined,error"));
    lines.map(|l| l.split(',').map(str::to_string).collect()).collect()
}

/// Runs `sysmo agent ARGS` in `dir` with the environment changed as given (`None` removes a
/// variable); expects exit 0 and returns stdout's lines.
fn run_agent(dir: &Path, args: &[&str], env: &[(&str, Option<&str>)]) -> Vec<String> {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sysmo"));
    cmd.arg("agent").args(args).current_dir(dir);
    for (k, v) in env {
        match v {
            Some(v) => cmd.env(k, v),
            None => cmd.env_remove(k),
        };
    }
    let out = cmd.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    stdout.lines().map(str::to_string).collect()
}

#[test]
fn openai_run_repairs_the_model_in_two_rounds() {
    let d = scratch("agent-openai");
    let (endpoint, seen) = mock_server(vec![(200, openai(&answer(WRONG))), (200, openai(&answer(REFERENCE)))]);
    let lines = run_agent(&d, &["--task", "spin", "--endpoint", &endpoint, "--model", "mock-1"], &[("SYSMO_API_KEY", Some("test-key"))]);

    // One line per round; the run stops once the model passes.
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with("spin run 1 round 1: syntax 1.000 runtime 1.000 conformance 0.750 invariants 1.000"), "{}", lines[0]);
    assert!(lines[0].contains("overall 0.9375"), "{}", lines[0]);
    assert!(lines[1].starts_with("spin run 1 round 2: syntax 1.000") && lines[1].contains("overall 1.0000 combined 1.0000"), "{}", lines[1]);

    // The requests: the prompt, then the same conversation with the answer and the repair text.
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 2);
    assert_eq!(seen[0].line, "POST /v1/chat/completions HTTP/1.1");
    assert_eq!(seen[0].headers.get("authorization").map(String::as_str), Some("Bearer test-key"));
    assert_eq!(seen[0].body["model"], "mock-1");
    let m0 = seen[0].body["messages"].as_array().unwrap();
    assert_eq!((m0.len(), m0[0]["role"].as_str(), m0[1]["role"].as_str()), (2, Some("system"), Some("user")));
    assert!(m0[1]["content"].as_str().unwrap().contains("---- MODULE spin ----"));
    let m1 = seen[1].body["messages"].as_array().unwrap();
    assert_eq!(m1.len(), 4);
    assert_eq!(m1[..2], m0[..]);
    assert_eq!(m1[2], serde_json::json!({"role": "assistant", "content": answer(WRONG)}));
    let run = d.join("agent-out/spin/run-1");
    let feedback = read(&run.join("round-1/feedback.txt"));
    assert!(feedback.contains("conformance"), "{feedback}");
    assert_eq!(m1[3], serde_json::json!({"role": "user", "content": feedback}));
    // The failing conjunct, with its operand's value, goes back to the model.
    assert!(seen[1].body.to_string().contains("~locked, where locked = TRUE"), "{feedback}");

    // The files.
    for r in ["round-1", "round-2"] {
        for f in ["spin.tla", "spin.cfg", "report.json", "feedback.txt"] {
            assert!(run.join(r).join(f).is_file(), "{r}/{f}");
        }
    }
    assert!(!run.join("round-3").exists());
    assert_eq!(read(&run.join("round-1/spin.tla")).trim(), WRONG.trim());
    assert_eq!(read(&run.join("round-2/spin.tla")).trim(), REFERENCE.trim());
    assert_eq!(read(&run.join("round-2/spin.cfg")), CFG);
    let report: Value = serde_json::from_str(&read(&run.join("round-2/report.json"))).unwrap();
    assert_eq!(report["overall"], 1.0);
    let t: Value = serde_json::from_str(&read(&run.join("transcript.json"))).unwrap();
    let roles: Vec<&str> = t["messages"].as_array().unwrap().iter().map(|m| m["role"].as_str().unwrap()).collect();
    assert_eq!(roles, ["user", "assistant", "user", "assistant"]);
    assert_eq!(t["messages"][3]["content"], answer(REFERENCE));

    // results.csv: a row per round, the header's thirteen fields.
    let rows = csv_rows(&d.join("agent-out"));
    assert_eq!(rows.len(), 2);
    assert!(rows.iter().all(|r| r.len() == 13), "{rows:?}");
    assert_eq!(rows[0][..5], ["spin", "hints", "1", "1", "graded"]);
    assert_eq!((rows[0][10].as_str(), rows[0][12].as_str()), ("0.9375", ""));
    assert_eq!(rows[1][..5], ["spin", "hints", "1", "2", "pass"]);
    assert_eq!((rows[1][10].as_str(), rows[1][11].as_str()), ("1.0000", "1.0000"));
}

#[test]
fn anthropic_run_survives_an_http_error() {
    let d = scratch("agent-anthropic");
    let overloaded = r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#.to_string();
    let (endpoint, seen) = mock_server(vec![(529, overloaded), (200, anthropic(&answer(WRONG))), (200, anthropic(&answer(REFERENCE)))]);
    let out_dir = d.join("results");
    let endpoint = format!("{endpoint}/");
    let args = ["--task", "spin", "--endpoint", &endpoint, "--model", "mock-2", "--api", "anthropic", "--rounds", "4", "--out", out_dir.to_str().unwrap(), "--max-tokens", "1000"];
    let lines = run_agent(&d, &args, &[("SYSMO_API_KEY", None), ("ANTHROPIC_API_KEY", Some("anthropic-key"))]);
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(lines[0].starts_with("spin run 1 round 1: error: HTTP 529: {\"type\":\"error\""), "{}", lines[0]);
    assert!(lines[2].contains("overall 1.0000"), "{}", lines[2]);

    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 3);
    assert_eq!(seen[0].line, "POST /v1/messages HTTP/1.1");
    assert_eq!(seen[0].headers.get("x-api-key").map(String::as_str), Some("anthropic-key"));
    assert_eq!(seen[0].headers.get("anthropic-version").map(String::as_str), Some("2023-06-01"));
    assert!(!seen[0].headers.contains_key("authorization"));
    assert_eq!((seen[0].body["max_tokens"].as_u64(), seen[0].body["system"].is_string()), (Some(1000), true));
    // The failed request is sent again as it was; then the conversation goes on.
    assert_eq!(seen[0].body, seen[1].body);
    let m = seen[2].body["messages"].as_array().unwrap();
    assert_eq!(m.len(), 3);
    assert_eq!(m[1]["content"], answer(WRONG));
    let run = out_dir.join("spin/run-1");
    assert_eq!(m[2]["content"].as_str().unwrap(), read(&run.join("round-2/feedback.txt")));

    assert!(read(&run.join("round-1/feedback.txt")).starts_with("HTTP 529"));
    assert!(!run.join("round-1/report.json").exists() && run.join("round-3/report.json").is_file());
    let rows = csv_rows(&out_dir);
    assert_eq!(rows.iter().map(|r| r[4].as_str()).collect::<Vec<_>>(), ["no-answer", "graded", "pass"]);
    assert!(rows[0][12].starts_with("\"HTTP 529"), "{:?}", rows[0]);
}

/// Without hints: the prompt lists no action to write; an answer without its mapping is
/// unusable; the renamed reference with its mapping passes every stage.
#[test]
fn no_hints_run_grades_the_models_own_actions_through_its_mapping() {
    let d = scratch("agent-no-hints");
    let renamed = REFERENCE
        .replace("TryLock(t)", "Attempt(t)")
        .replace("LockSpin(t)", "Spinning(t)")
        .replace("LockAcquired(t)", "Acquired(t)")
        .replace("Unlock(t)", "Release(t)");
    let mapping = r#"{"version": 1, "actions": {"TryLock": "Attempt", "LockSpin": "Spinning", "LockAcquired": "Acquired", "Unlock": "Release"}}"#;
    let with_mapping = format!("{}```json\n{mapping}\n```\n", answer(&renamed));
    let (endpoint, seen) = mock_server(vec![(200, openai(&answer(&renamed))), (200, openai(&with_mapping))]);
    let lines = run_agent(&d, &["--task", "spin", "--endpoint", &endpoint, "--model", "m", "--no-hints"], &[("SYSMO_API_KEY", None)]);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with("spin (no hints) run 1 round 1: error: The answer holds no mapping.json"), "{}", lines[0]);
    assert!(lines[1].contains("overall 1.0000 combined 1.0000"), "{}", lines[1]);
    let seen = seen.lock().unwrap();
    let prompt = seen[0].body["messages"][1]["content"].as_str().unwrap();
    assert!(!prompt.contains("- `TryLock(t)`: ") && prompt.contains("- `TryLock` (t)") && prompt.contains("mapping.json"), "the no-hints prompt");
    let run = d.join("agent-out/spin/no-hints/run-1");
    assert_eq!(read(&run.join("round-2/mapping.json")).trim(), mapping);
    let rows = csv_rows(&d.join("agent-out"));
    assert_eq!(rows.iter().map(|r| (r[1].as_str(), r[4].as_str())).collect::<Vec<_>>(), [("no-hints", "unusable"), ("no-hints", "pass")]);
}
