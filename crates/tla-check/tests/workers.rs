//! The workers of a parallel run share one program: each builds a model of its own over the
//! main model's program ([`Model::seed`]), on its own thread, and answers as the main model does.

use tla_check::load::Inputs;
use tla_check::run::{Finished, Liveness, Run, RunStatus, explore_parallel};
use tla_check::{Options, Outcome, Spec};
use tla_sema::Library;

/// Constants from the .cfg and from definitions (one computed by an ASSUME before the run),
/// an instance, a register set by an ASSUME, and a CONSTANT replaced by a definition.
const SPEC: &str = r#"---- MODULE W ----
EXTENDS Naturals, FiniteSets, TLC
CONSTANTS N, Limit
VARIABLES x, y
Big == {i * i : i \in 0..N}
ASSUME Cardinality(Big) = N + 1
ASSUME TLCSet(3, 7)
Half(S) == {s \in S : s % 2 = 0}
Counter == INSTANCE Count WITH c <- x
Init == x = 0 /\ y \in Half(Big)
Next == \/ /\ x < Limit /\ Counter!Inc /\ UNCHANGED y
        \/ /\ y' \in Big /\ y' > y /\ UNCHANGED x
Lim == 4
Inv == x <= Limit /\ TLCGet(3) = 7
===="#;

const COUNT: &str = r#"---- MODULE Count ----
EXTENDS Naturals
VARIABLE c
Inc == c' = c + 1
===="#;

fn inputs() -> Inputs {
    let library = Library::new().with("Count", "Count.tla", COUNT);
    Inputs::read("W.tla", SPEC, &library, "W.cfg", "CONSTANTS N = 6 Limit <- Lim\nINIT Init\nNEXT Next\nINVARIANT Inv\n")
        .unwrap_or_else(|(e, _)| panic!("{:?}", e.diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>()))
}

#[test]
fn a_worker_model_shares_the_program_and_answers_as_the_main_one() {
    let inputs = inputs();
    let main = inputs.checked_model().unwrap_or_else(|e| panic!("{:?}", e.diagnostics));
    let seed = main.seed();
    let mut expected = Vec::new();
    main.initial_states(&mut expected).unwrap_or_else(|e| panic!("{e:?}"));
    let mut steps = Vec::new();
    main.successors(&expected[0], &mut steps).unwrap_or_else(|e| panic!("{e:?}"));
    std::thread::scope(|s| {
        s.spawn(|| {
            let worker = seed.model().unwrap_or_else(|e| panic!("{e:?}"));
            let mut init = Vec::new();
            worker.initial_states(&mut init).unwrap_or_else(|e| panic!("{e:?}"));
            assert_eq!(init, expected);
            let mut next = Vec::new();
            worker.successors(&init[0], &mut next).unwrap_or_else(|e| panic!("{e:?}"));
            assert_eq!(next, steps);
        });
    });
    // Built on this thread too, to compare the programs' addresses.
    let worker = seed.model().unwrap_or_else(|e| panic!("{e:?}"));
    assert!(worker.shares_program_with(&main));
    // A model built from the inputs again has a program of its own.
    let again = inputs.model().unwrap_or_else(|e| panic!("{e:?}"));
    assert!(!again.shares_program_with(&main));
}

/// The last states deadlock (x at the limit, y the largest square): not an error here.
fn opts() -> Options {
    Options { check_deadlock: false, ..Options::default() }
}

#[test]
fn three_workers_find_what_one_finds() {
    let inputs = inputs();
    let one = {
        let model = inputs.checked_model().unwrap_or_else(|e| panic!("{e:?}"));
        let mut run = Run::new(&model, opts(), Liveness::Off);
        let f: Finished = loop {
            if let RunStatus::Done(f) = run.run(usize::MAX) {
                break *f;
            }
        };
        (f.stats.distinct, f.stats.generated, f.stats.depth, matches!(f.outcome, Outcome::Success))
    };
    let model = inputs.checked_model().unwrap_or_else(|e| panic!("{e:?}"));
    let (f, _) = explore_parallel(&model, opts(), 3);
    assert_eq!((f.stats.distinct, f.stats.generated, f.stats.depth, matches!(f.outcome, Outcome::Success)), one);
    assert!(one.3, "the spec checks");
}
