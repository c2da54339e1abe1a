//! What a state may hold: as TLC, a state whose variable holds a value that cannot be stored
//! (an infinite set) is an evaluation error in that state, never a state stored under a
//! made-up fingerprint.

mod common;

use tla_check::{Explorer, Options, Outcome};

/// The error's code and message, the trace's length, and (generated, distinct).
fn error_of(text: &str) -> (String, String, usize, (u64, u64)) {
    common::with_model(text, "INIT Init\nNEXT Next\n", |m| {
        let mut ex = Explorer::new(&*m, Options { check_deadlock: false, ..Options::default() });
        let outcome = ex.run_to_end();
        let st = ex.stats();
        match outcome {
            Outcome::Error { error, trace } => {
                let d = error.to_diagnostic(Default::default());
                (d.code.to_string(), d.message.clone(), trace.len(), (st.generated, st.distinct))
            }
            _ => panic!("expected an evaluation error"),
        }
    })
}

#[test]
fn a_variable_holding_an_infinite_set_is_an_error_in_that_state() {
    // TLC 2.15: "TLC has found a state in which the value of a variable contains Nat", after
    // 3 states generated, 2 distinct (the third is the one holding Nat).
    let text = "---- MODULE M ----\nEXTENDS Naturals\nVARIABLE x, y\nInit == x = 0 /\\ y = {}\n\
                Next == x < 3 /\\ x' = x + 1 /\\ y' = IF x = 1 THEN Nat ELSE {}\n====\n";
    let (code, message, len, counts) = error_of(text);
    assert_eq!((code.as_str(), len, counts), ("E0406", 3, (3, 2)), "{message}");
    assert!(message.contains("the value of y"), "{message}");
    // The same in an initial state (TLC 2.15: 1 generated, 0 distinct).
    let init = text.replace("Init == x = 0 /\\ y = {}", "Init == x = 0 /\\ y = Nat");
    let (code, message, len, counts) = error_of(&init);
    assert_eq!((code.as_str(), len, counts), ("E0406", 1, (1, 0)), "{message}");
}
