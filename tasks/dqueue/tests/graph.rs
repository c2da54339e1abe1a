//! The system's behaviour graph, walked through `simnet::Sim` (every enabled step of every
//! reachable state), has exactly as many observed states as TLC finds in the reference model
//! (reference/TLC.md): the model allows no observed state the system cannot reach, and misses
//! none it can.

use task_dqueue::dqueue::{Bug, system};
use task_dqueue::workload::{GraphState, Observed, constants};
use task_probe::testing::{Reach, reach};

/// TLC's count of distinct states of reference/dqueue.tla with task.toml's constants.
const REFERENCE_DISTINCT_STATES: usize = 8_635;
/// TLC's count for the bug model (reference/TLC.md).
const BUG_DISTINCT_STATES: usize = 2_584;

/// The observed states reachable from the start with `bug`, the depth of a breadth-first search
/// over them (the most states on a shortest path to one, TLC's depth) and the number of system
/// states where no step is enabled.
fn observed_states(bug: Bug) -> Reach {
    let start = GraphState::new(system(constants(), bug), 0);
    reach(start, |m| Observed::of(&m.sim, m.memory).json().to_string(), |_| {})
}

#[test]
fn the_system_reaches_exactly_the_reference_models_states() {
    let Reach { states, depth, dead_ends } = observed_states(Bug::None);
    println!("{states} observed states, depth {depth}");
    assert_eq!(states, REFERENCE_DISTINCT_STATES);
    assert_eq!(depth, 59, "TLC's depth of the reference model");
    assert_eq!(dead_ends, 0, "the correct system never stops");
}

#[test]
fn the_bug_switch_reaches_exactly_the_bug_models_states_and_stops() {
    let Reach { states, depth, dead_ends } = observed_states(Bug::ZeroItemUnanswered);
    println!("{states} observed states, depth {depth}, {dead_ends} dead ends");
    assert_eq!(states, BUG_DISTINCT_STATES);
    assert_eq!(depth, 53, "TLC's depth of the bug model");
    assert!(dead_ends > 0, "every consumer waits for ever in some run");
}
