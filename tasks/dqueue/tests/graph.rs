//! The system's behaviour graph, walked through `simnet::Sim` (every enabled step of every
//! reachable state), has exactly as many observed states as TLC finds in the reference model
//! (reference/TLC.md): the model allows no observed state the system cannot reach, and misses
//! none it can.

use std::collections::{HashMap, HashSet, VecDeque};
use task_dqueue::dqueue::{Archetype, Bug, Label, Role, system};
use task_dqueue::workload::{Observed, constants};

/// TLC's count of distinct states of reference/dqueue.tla with task.toml's constants.
const REFERENCE_DISTINCT_STATES: usize = 8_635;
/// TLC's count for the bug model (reference/TLC.md).
const BUG_DISTINCT_STATES: usize = 2_584;

/// Every observed state reachable from the start with `bug`, the depth of a breadth-first search
/// over them (the most states on a shortest path to one, TLC's depth) and the number of system
/// states where no step is enabled.
fn observed_states(bug: Bug) -> (HashSet<String>, usize, usize) {
    let start = (system(constants(), bug), 0u64);
    let mut seen: HashMap<(simnet::Sim<Archetype>, u64), usize> = HashMap::new();
    // Each observed state with the length of the shortest path to it (in states).
    let mut observed: HashMap<String, usize> = HashMap::new();
    let mut queue = VecDeque::new();
    let mut dead_ends = 0;
    observed.insert(Observed::of(&start.0, start.1).json().to_string(), 1);
    seen.insert(start.clone(), 1);
    queue.push_back(start);
    while let Some((sim, processor)) = queue.pop_front() {
        let d = seen[&(sim.clone(), processor)];
        let steps = sim.enabled();
        if steps.is_empty() {
            dead_ends += 1;
        }
        for step in steps {
            let mut next = sim.clone();
            assert_eq!(next.apply(&step), simnet::Applied::Taken);
            let mut p = processor;
            if let simnet::Step::Local { node, label: Label::C2 } = step
                && let Some(Archetype { role: Role::Consumer(c), .. }) = next.process(node)
            {
                p = c.proc;
            }
            observed.entry(Observed::of(&next, p).json().to_string()).or_insert(d + 1);
            if !seen.contains_key(&(next.clone(), p)) {
                seen.insert((next.clone(), p), d + 1);
                queue.push_back((next, p));
            }
        }
    }
    let depth = observed.values().copied().max().unwrap_or(0);
    (observed.into_keys().collect(), depth, dead_ends)
}

#[test]
fn the_system_reaches_exactly_the_reference_models_states() {
    let (states, depth, dead_ends) = observed_states(Bug::None);
    println!("{} observed states, depth {depth}", states.len());
    assert_eq!(states.len(), REFERENCE_DISTINCT_STATES);
    assert_eq!(depth, 59, "TLC's depth of the reference model");
    assert_eq!(dead_ends, 0, "the correct system never stops");
}

#[test]
fn the_bug_switch_reaches_exactly_the_bug_models_states_and_stops() {
    let (states, depth, dead_ends) = observed_states(Bug::ZeroItemUnanswered);
    println!("{} observed states, depth {depth}, {dead_ends} dead ends", states.len());
    assert_eq!(states.len(), BUG_DISTINCT_STATES);
    assert_eq!(depth, 53, "TLC's depth of the bug model");
    assert!(dead_ends > 0, "every consumer waits for ever in some run");
}
