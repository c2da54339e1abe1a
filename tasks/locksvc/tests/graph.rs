//! The system's behaviour graph, walked through `simnet::Sim` (every enabled step of every
//! reachable state), has exactly as many states as TLC finds in the reference model
//! (reference/TLC.md): the model allows no state the system cannot reach, and misses none it can.
//! A state here is the observed state with the server's `msg` (a model state is its variables;
//! the observed message counts determine the bags, which hold nothing else).

use task_locksvc::locksvc::{Archetype, Bug, SERVER_ID, system};
use task_locksvc::workload::{GraphState, Observed, constants};
use task_probe::testing::reach;

/// TLC's count of distinct states of reference/locksvc.tla with task.toml's constants.
const REFERENCE_DISTINCT_STATES: usize = 670;
/// TLC's count for the bug model (reference/TLC.md).
const BUG_DISTINCT_STATES: usize = 1_993;

/// The model state of a system state: the observed state and the server's last message.
fn key(sim: &simnet::Sim<Archetype>) -> String {
    let msg = match sim.process(SERVER_ID) {
        Some(Archetype::Server(s)) => s.msg.map(|m| (m.from, m.body.code())),
        _ => unreachable!("node 0 is the server"),
    };
    format!("{} {:?}", Observed::of(sim).json(), msg)
}

/// Every model state reachable from the start with `bug`, the depth of a breadth-first search
/// over them (the most states on a shortest path to one, TLC's depth), the number of system
/// states where no step is enabled, and whether two clients ever held the lock at once.
fn states(bug: Bug) -> (usize, usize, usize, bool) {
    let mut two_holders = false;
    let r = reach(GraphState::new(system(constants(), bug), ()), |m| key(&m.sim), |m| {
        two_holders |= m.sim.processes().filter(|(_, a)| a.has_lock()).count() > 1;
    });
    (r.states, r.depth, r.dead_ends, two_holders)
}

#[test]
fn the_system_reaches_exactly_the_reference_models_states() {
    let (n, depth, dead_ends, two_holders) = states(Bug::None);
    println!("{n} states, depth {depth}, {dead_ends} final states");
    assert_eq!(n, REFERENCE_DISTINCT_STATES);
    assert_eq!(depth, 29, "TLC's depth of the reference model");
    assert!(dead_ends > 0, "every run ends, the clients done and the server idle");
    assert!(!two_holders, "the correct service never grants the lock twice");
}

#[test]
fn the_bug_switch_reaches_exactly_the_bug_models_states() {
    let (n, depth, _, two_holders) = states(Bug::GrantToSecondWaiter);
    println!("{n} states, depth {depth}");
    assert_eq!(n, BUG_DISTINCT_STATES);
    assert_eq!(depth, 29, "TLC's depth of the bug model");
    assert!(two_holders, "the switch puts two clients in their critical sections");
}
