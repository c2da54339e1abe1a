//! The I/O operators go through the host the front end gives (`tla_eval::host`): with one,
//! they read and write its files; with none (the web app, the grader), evaluating one is an
//! error that says the run has no files or programs, and nothing is written anywhere.

use std::sync::Arc;

use tla_check::load::Inputs;
use tla_eval::host::MemoryHost;
use tla_sema::Library;

const SPEC: &str = r#"---- MODULE M ----
EXTENDS Json, CSV
ASSUME JsonSerialize("out.json", <<1, [a |-> "b"]>>)
ASSUME JsonDeserialize("in.json") = [k |-> <<TRUE, 2>>]
ASSUME CSVRecords("in.json") = 2
VARIABLE x
Init == x = 0
Next == UNCHANGED x
===="#;

fn inputs() -> Inputs {
    Inputs::read("M.tla", SPEC, &Library::new(), "M.cfg", "INIT Init\nNEXT Next\n").unwrap_or_else(|(e, _)| panic!("{e:?}"))
}

#[test]
fn io_operators_use_the_host_files() {
    let host = Arc::new(MemoryHost::default());
    host.put("in.json", "{\"k\": [true,\n 2]}");
    let inputs = inputs().with_host(host.clone());
    inputs.checked_model().unwrap_or_else(|e| panic!("{:?}", e.diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>()));
    assert_eq!(host.files().get("out.json").map(String::as_str), Some(r#"[1,{"a":"b"}]"#));
}

#[test]
fn without_a_host_io_is_an_error_that_says_why() {
    let failure = match inputs().checked_model() {
        Ok(_) => panic!("the ASSUME wrote a file without a host"),
        Err(f) => f,
    };
    let text = failure.diagnostics.iter().map(|d| d.message.clone()).collect::<Vec<_>>().join("\n");
    assert!(text.contains("JsonSerialize reads or writes files or runs programs, and this run has no access to them"), "{text}");
}
