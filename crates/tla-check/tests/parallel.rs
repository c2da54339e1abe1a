//! The multi-threaded explorer against the single-threaded one, on generated state graphs: with
//! 1 to 4 threads it must give the same outcome (kind, invariant, trace, error), the same counts,
//! depth and coverage, under every budget, with CONSTRAINT and ACTION_CONSTRAINT, action
//! properties, deadlocks, evaluation errors, and fingerprints that merge different states (as
//! VIEW does). The single-threaded explorer skips CONSTRAINT for a successor already stored
//! when the fingerprint identifies the state; the parallel one evaluates it on every successor.

use tla_check::{parallel, ActionId, Explorer, Options, Outcome, Spec};

fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

/// A pseudo-random graph over `0..size`: each state has 0 to `fanout` successors (fewer than
/// one on average only for rare states, which deadlock); `bad` states violate invariant 1,
/// `broken` states fail to expand after the first half of their successors, the invariant fails to evaluate on `failing_invariant`, states ≡ 0 mod `outside` are outside the model, and steps
/// whose sum ≡ 0 mod `step_outside` are outside it; steps with `7 × from + to ≡ 0 mod bad_step`
/// violate an action property; `view` merges states with equal `n % view`.
#[derive(Clone)]
struct Graph {
    seed: u64,
    size: u64,
    fanout: u64,
    bad: Option<u64>,
    broken: Option<u64>,
    outside: Option<u64>,
    step_outside: Option<u64>,
    failing_constraint: Option<u64>,
    failing_invariant: Option<u64>,
    bad_step: Option<u64>,
    view: Option<u64>,
}

impl Graph {
    fn new(seed: u64, size: u64) -> Graph {
        Graph { seed, size, fanout: 4, bad: None, broken: None, outside: None, step_outside: None, failing_constraint: None, failing_invariant: None, bad_step: None, view: None }
    }
}

impl Spec for Graph {
    type State = u64;
    type Error = String;
    fn fingerprint(&self, s: &u64) -> u64 {
        mix(self.view.map_or(*s, |v| s % v) ^ self.seed)
    }
    // Without a view the fingerprint identifies the state: the single-threaded explorer then
    // looks successors up before their constraint (the parallel one does not), and must agree.
    fn identity_fingerprint(&self, s: &u64) -> Option<u64> {
        self.view.is_none().then(|| self.fingerprint(s))
    }
    fn initial_states(&self, out: &mut Vec<u64>) -> Result<(), String> {
        out.extend([1, 2, 3, self.size / 2]);
        Ok(())
    }
    fn successors(&self, s: &u64, out: &mut Vec<(ActionId, u64)>) -> Result<(), String> {
        let h = mix(s.wrapping_add(self.seed));
        let n = if h.is_multiple_of(97) { 0 } else { 1 + h % self.fanout };
        for i in 0..n {
            if Some(*s) == self.broken && 2 * i >= n {
                // The successors before the failing part are handed over, as the contract says.
                return Err(format!("cannot expand {s}"));
            }
            let t = mix(h ^ (i + 1)) % self.size;
            out.push(((t % 3) as ActionId, t));
        }
        if Some(*s) == self.broken {
            return Err(format!("cannot expand {s}"));
        }
        Ok(())
    }
    fn violated_invariant(&self, s: &u64) -> Result<Option<usize>, String> {
        if Some(*s) == self.failing_invariant {
            return Err(format!("invariant undefined at {s}"));
        }
        Ok(self.bad.filter(|b| s == b).map(|_| 1))
    }
    fn in_model(&self, s: &u64) -> Result<bool, String> {
        if Some(*s) == self.failing_constraint {
            return Err(format!("constraint undefined at {s}"));
        }
        Ok(self.outside.is_none_or(|m| !s.is_multiple_of(m)))
    }
    fn step_in_model(&self, from: &u64, to: &u64) -> Result<bool, String> {
        Ok(self.step_outside.is_none_or(|m| !(from + to).is_multiple_of(m)))
    }
    fn check_step(&self, from: &u64, to: &u64) -> Result<(), String> {
        match self.bad_step {
            Some(m) if (7 * from + to).is_multiple_of(m) => Err(format!("step {from} -> {to}")),
            _ => Ok(()),
        }
    }
    fn action_count(&self) -> usize {
        3
    }
}

/// The outcome as comparable text: its kind, its trace (actions and states) and its payload.
fn describe(o: &Outcome<u64, String>) -> String {
    let trace = |t: &[tla_check::TraceStep<u64>]| t.iter().map(|s| format!("{:?}:{}", s.action, s.state)).collect::<Vec<_>>().join(" ");
    match o {
        Outcome::Success => "success".into(),
        Outcome::InvariantViolated { invariant, trace: t } => format!("invariant {invariant}: {}", trace(t)),
        Outcome::Deadlock { trace: t } => format!("deadlock: {}", trace(t)),
        Outcome::Error { error, trace: t } => format!("error {error}: {}", trace(t)),
        Outcome::BudgetExhausted(b) => format!("budget {b:?}"),
    }
}

/// Run both explorers; assert they agree; return the outcome's description and the number of
/// distinct states.
fn agree(g: &Graph, opts: Options) -> (String, u64) {
    let mut ex = Explorer::new(g, opts.clone());
    let want = describe(&ex.run_to_end());
    let (stats, coverage) = (ex.stats(), ex.coverage().to_vec());
    for workers in 1..=4 {
        let run = parallel::explore(g, opts.clone(), workers, |_| Some(g.clone()), |_| {});
        let what = format!("seed {} size {} workers {workers} {opts:?}", g.seed, g.size);
        assert_eq!(describe(&run.outcome), want, "{what}");
        assert_eq!((run.stats.distinct, run.stats.generated, run.stats.depth, run.stats.queued), (stats.distinct, stats.generated, stats.depth, stats.queued), "{what}");
        assert_eq!(run.coverage, coverage, "{what}");
    }
    (want, stats.distinct)
}

#[test]
fn same_answers_on_generated_graphs() {
    let mut kinds = std::collections::BTreeMap::new();
    for seed in 0..12u64 {
        let size = [50, 3_000, 20_000][seed as usize % 3];
        let base = Graph::new(seed, size);
        let mut cases = vec![
            (base.clone(), Options { check_deadlock: false, ..Options::default() }),
            (base.clone(), Options::default()),
            (base.clone(), Options { check_deadlock: false, max_states: Some(size / 3 + 1), max_depth: None }),
            (base.clone(), Options { check_deadlock: false, max_states: None, max_depth: Some(4) }),
        ];
        let pick = |k: u64| 1 + mix(seed * 31 + k) % (size - 1);
        cases.push((Graph { bad: Some(pick(1)), ..base.clone() }, Options { check_deadlock: false, ..Options::default() }));
        cases.push((Graph { broken: Some(pick(2)), ..base.clone() }, Options { check_deadlock: false, ..Options::default() }));
        cases.push((Graph { failing_constraint: Some(pick(3)), ..base.clone() }, Options { check_deadlock: false, ..Options::default() }));
        cases.push((Graph { failing_invariant: Some(pick(6)), ..base.clone() }, Options { check_deadlock: false, ..Options::default() }));
        cases.push((
            Graph { outside: Some(7), step_outside: Some(5), bad: Some(pick(4)), ..base.clone() },
            Options { check_deadlock: false, ..Options::default() },
        ));
        cases.push((Graph { view: Some(size / 4 + 1), bad: Some(pick(5)), ..base.clone() }, Options { check_deadlock: false, ..Options::default() }));
        cases.push((Graph { bad_step: Some(size + seed), ..base.clone() }, Options { check_deadlock: false, ..Options::default() }));
        cases.push((
            Graph { bad_step: Some(size / 2 + 1), outside: Some(3), bad: Some(pick(7)), broken: Some(pick(8)), ..base.clone() },
            Options { check_deadlock: false, ..Options::default() },
        ));
        cases.push((Graph { fanout: 9, ..base.clone() }, Options { check_deadlock: false, max_states: Some(size / 2), max_depth: Some(6) }));
        for (g, opts) in cases {
            let (d, _) = agree(&g, opts);
            *kinds.entry(d.split([' ', ':']).next().unwrap().to_string()).or_insert(0) += 1;
            if d.starts_with("error step") {
                *kinds.entry("action property".to_string()).or_insert(0) += 1;
            }
        }
    }
    // Every kind of outcome was compared.
    for k in ["success", "invariant", "deadlock", "error", "budget", "action property"] {
        assert!(kinds.get(k).is_some_and(|n| *n >= 2), "{kinds:?}");
    }
}

/// A state space far bigger than the chunks a run keeps in flight, so chunks are claimed and
/// merged while the queue grows, many times over.
#[test]
fn same_answers_over_many_chunks() {
    let g = Graph::new(99, 200_000);
    let (_, distinct) = agree(&g, Options { check_deadlock: false, ..Options::default() });
    assert!(distinct > 20 * 4 * parallel::MAX_IN_FLIGHT_PER_WORKER as u64 * parallel::MAX_CHUNK as u64, "{distinct}");
    let g = Graph { bad: Some(123_457), ..g };
    agree(&g, Options { check_deadlock: false, ..Options::default() });
}

/// A thread whose spec cannot be built takes no part; the others do its share.
#[test]
fn a_thread_without_a_spec_is_left_out() {
    let g = Graph::new(5, 20_000);
    let mut ex = Explorer::new(&g, Options { check_deadlock: false, ..Options::default() });
    let want = describe(&ex.run_to_end());
    let run = parallel::explore(&g, Options { check_deadlock: false, ..Options::default() }, 3, |i| (i != 1).then(|| g.clone()), |_| {});
    assert_eq!(describe(&run.outcome), want);
    assert_eq!(run.stats.distinct, ex.stats().distinct);
}
