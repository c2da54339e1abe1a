//! The cluster as a `simnet::Sim`: random runs through every enabled step, faults included,
//! keep Raft's safety and the checking bounds, reach every task action, and are fixed by their
//! seed; the steps of a state can be walked breadth first.

use simnet::{Faults, Rng, Sim, Step};
use std::collections::{BTreeMap, HashSet, VecDeque};
use task_etcd::cluster::{Action, Bounds, Safety};
use task_etcd::node::{Node, NodeStep, cluster_sim};
use task_etcd::raft::Raft;

const B: Bounds = Bounds { max_term: 3, max_log_len: 3 };
const ALL_FAULTS: Faults = Faults { loss: true, duplication: true, crash: true, partition: true, budget: 8 };

fn rafts(s: &Sim<Node>) -> Vec<Raft> {
    s.processes().map(|(_, n)| n.raft.clone()).collect()
}

/// A random run of `len` steps; the task actions its steps were, in order.
fn run(seed: u64, len: usize, faults: Faults) -> (Sim<Node>, Vec<(Action, u64)>, Safety) {
    let mut rng = Rng::new(seed);
    let mut s = cluster_sim(3, seed, 3, 1, B, faults);
    let mut actions = vec![];
    let mut safety = Safety::default();
    for _ in 0..len {
        let Some(step) = s.random_step(&mut rng, 5) else { break };
        let who = match step {
            Step::Local { node, .. } | Step::Restart(node) => node,
            _ => continue,
        };
        if let Some((a, _)) = s.process(who).and_then(|n| n.last) {
            actions.push((a, who));
        }
        safety.observe(&rafts(&s));
        for r in rafts(&s) {
            assert!(r.term <= B.max_term && r.last_index() <= B.max_log_len, "seed {seed}: term {} log {}", r.term, r.last_index());
        }
    }
    (s, actions, safety)
}

#[test]
fn random_runs_with_faults_are_safe_and_reach_every_action() {
    let mut count: BTreeMap<Action, usize> = BTreeMap::new();
    let mut committed = 0;
    for seed in 0..40 {
        let (_, actions, safety) = run(seed, 600, ALL_FAULTS);
        assert!(safety.violation.is_none(), "seed {seed}: {:?}", safety.violation);
        if safety.committed_len() > 0 {
            committed += 1;
        }
        for (a, _) in actions {
            *count.entry(a).or_default() += 1;
        }
    }
    for a in Action::ALL {
        assert!(count.contains_key(&a), "{} never taken: {count:?}", a.name());
    }
    assert!(committed >= 20, "only {committed} of 40 runs commit");
}

#[test]
fn a_seed_fixes_a_run() {
    for seed in 0..10 {
        let (a, x, _) = run(seed, 300, ALL_FAULTS);
        let (b, y, _) = run(seed, 300, ALL_FAULTS);
        assert_eq!(x, y);
        assert_eq!(format!("{:?}", rafts(&a)), format!("{:?}", rafts(&b)));
        assert_eq!(a.net, b.net);
    }
}

#[test]
fn every_state_lists_its_steps_and_a_walk_finds_an_election() {
    // Breadth first over the reliable system's states, to depth 9 (a state is keyed by the
    // nodes' and the network's full contents).
    let start = cluster_sim(3, 1, 2, 1, B, Faults::NONE);
    let key = |s: &Sim<Node>| format!("{:?}|{:?}", rafts(s), s.net.in_flight());
    let mut seen = HashSet::from([key(&start)]);
    let mut queue = VecDeque::from([(start, 0)]);
    let mut leaders = 0;
    while let Some((s, d)) = queue.pop_front() {
        if rafts(&s).iter().any(|r| r.role == task_etcd::raft::Role::Leader) {
            leaders += 1;
        }
        if d == 9 {
            continue;
        }
        let steps = s.enabled();
        assert!(steps.iter().all(|st| matches!(st, Step::Local { .. })), "no faults without a fault budget");
        for st in steps {
            let mut t = s.clone();
            assert_eq!(t.apply(&st), simnet::Applied::Taken);
            if let Step::Local { node, label: NodeStep::Deliver(_) } = st {
                assert!(t.process(node).is_some());
            }
            if seen.insert(key(&t)) {
                queue.push_back((t, d + 1));
            }
        }
    }
    println!("{} states within 9 steps, {leaders} with a leader", seen.len());
    assert!(leaders > 0, "some interleaving of 9 steps elects a leader");
    assert!(seen.len() > 1000);
}
