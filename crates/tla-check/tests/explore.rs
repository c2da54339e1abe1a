//! The explorer on small systems written in Rust, with the figures TLC reports for the same
//! systems written in TLA+ (DieHard and HourClock of the TLA+ examples; TLC 2.15, one worker).

use tla_check::{ActionId, Explorer, Options, Outcome, Spec, Status};

fn fp(words: &[i64]) -> u64 {
    // FNV-1a over fixed-width words: good enough for tests.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for w in words {
        for b in w.to_le_bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x100_0000_01b3);
        }
    }
    h
}

/// Two jugs of 3 and 5 gallons; the invariant says the big jug never holds 4.
struct DieHard;

impl Spec for DieHard {
    type State = (i64, i64);
    type Error = String;
    fn fingerprint(&self, s: &(i64, i64)) -> u64 {
        fp(&[s.0, s.1])
    }
    fn initial_states(&self, out: &mut Vec<(i64, i64)>) -> Result<(), String> {
        out.push((0, 0));
        Ok(())
    }
    fn successors(&self, &(small, big): &(i64, i64), out: &mut Vec<(ActionId, (i64, i64))>) -> Result<(), String> {
        out.push((0, (3, big)));
        out.push((1, (small, 5)));
        out.push((2, (0, big)));
        out.push((3, (small, 0)));
        let pour = small.min(5 - big);
        out.push((4, (small - pour, big + pour)));
        let pour = big.min(3 - small);
        out.push((5, (small + pour, big - pour)));
        Ok(())
    }
    fn violated_invariant(&self, s: &(i64, i64)) -> Result<Option<usize>, String> {
        Ok(if s.1 == 4 { Some(0) } else { None })
    }
    fn action_count(&self) -> usize {
        6
    }
}

#[test]
fn diehard_counterexample_is_shortest_and_replays() {
    let spec = DieHard;
    let mut ex = Explorer::new(&spec, Options::default());
    let out = ex.run_to_end();
    let Outcome::InvariantViolated { invariant, trace } = out else { panic!("expected a violation, got {out:?}") };
    assert_eq!(invariant, 0);
    // TLC: a counterexample of 7 states.
    assert_eq!(trace.len(), 7);
    assert_eq!(trace[0].state, (0, 0));
    assert_eq!(trace.last().unwrap().state.1, 4);
    // Each step is a real step of the system by the recorded action.
    for w in trace.windows(2) {
        let mut succs = Vec::new();
        spec.successors(&w[0].state, &mut succs).unwrap();
        assert!(succs.iter().any(|(a, s)| Some(*a) == w[1].action && *s == w[1].state));
    }
}

/// The hour clock: hr \in 1..12, hr' = IF hr = 12 THEN 1 ELSE hr + 1.
struct HourClock;

impl Spec for HourClock {
    type State = i64;
    type Error = String;
    fn fingerprint(&self, s: &i64) -> u64 {
        fp(&[*s])
    }
    fn initial_states(&self, out: &mut Vec<i64>) -> Result<(), String> {
        out.extend(1..=12);
        Ok(())
    }
    fn successors(&self, s: &i64, out: &mut Vec<(ActionId, i64)>) -> Result<(), String> {
        out.push((0, if *s == 12 { 1 } else { s + 1 }));
        Ok(())
    }
    fn violated_invariant(&self, s: &i64) -> Result<Option<usize>, String> {
        Ok(if (1..=12).contains(s) { None } else { Some(0) })
    }
    fn action_count(&self) -> usize {
        1
    }
}

#[test]
fn hourclock_counts_match_tlc() {
    let mut ex = Explorer::new(&HourClock, Options::default());
    assert!(matches!(ex.run_to_end(), Outcome::Success));
    let st = ex.stats();
    // TLC: 24 states generated, 12 distinct states found, depth 1.
    assert_eq!((st.generated, st.distinct, st.depth), (24, 12, 1));
    assert_eq!(ex.coverage()[0].generated, 12);
    assert_eq!(ex.coverage()[0].distinct, 0);
}

/// A counter that stops at `limit`: deadlock there unless deadlock checking is off.
struct Counter {
    limit: i64,
}

impl Spec for Counter {
    type State = i64;
    type Error = String;
    fn fingerprint(&self, s: &i64) -> u64 {
        fp(&[*s])
    }
    fn initial_states(&self, out: &mut Vec<i64>) -> Result<(), String> {
        out.push(0);
        Ok(())
    }
    fn successors(&self, s: &i64, out: &mut Vec<(ActionId, i64)>) -> Result<(), String> {
        if *s == 7 && self.limit < 0 {
            return Err("boom".into());
        }
        if *s < self.limit.abs() {
            out.push((0, s + 1));
        }
        Ok(())
    }
    fn violated_invariant(&self, _: &i64) -> Result<Option<usize>, String> {
        Ok(None)
    }
    fn action_count(&self) -> usize {
        1
    }
}

#[test]
fn deadlock_trace_depth_and_budgets() {
    let spec = Counter { limit: 5 };
    let mut ex = Explorer::new(&spec, Options::default());
    let Outcome::Deadlock { trace } = ex.run_to_end() else { panic!() };
    assert_eq!(trace.iter().map(|t| t.state).collect::<Vec<_>>(), vec![0, 1, 2, 3, 4, 5]);

    let mut ex = Explorer::new(&spec, Options { check_deadlock: false, ..Options::default() });
    assert!(matches!(ex.run_to_end(), Outcome::Success));
    assert_eq!(ex.stats().depth, 6);
    assert_eq!(ex.depth_of(0), 1);
    assert_eq!(ex.depth_of(5), 6);

    let spec = Counter { limit: 1000 };
    let mut ex = Explorer::new(&spec, Options { max_states: Some(10), ..Options::default() });
    assert!(matches!(ex.run_to_end(), Outcome::BudgetExhausted(tla_check::Budget::States(10))));
    assert_eq!(ex.stats().distinct, 10);

    let mut ex = Explorer::new(&spec, Options { max_depth: Some(4), ..Options::default() });
    assert!(matches!(ex.run_to_end(), Outcome::BudgetExhausted(tla_check::Budget::Depth(4))));
    assert_eq!(ex.stats().depth, 4);
}

#[test]
fn errors_carry_the_trace_and_slices_resume() {
    let spec = Counter { limit: -100 };
    let mut ex = Explorer::new(&spec, Options::default());
    let mut slices = 0;
    let out = loop {
        slices += 1;
        if let Status::Done(o) = ex.run(2) {
            break o;
        }
    };
    assert!(slices >= 4, "ran in slices of 2 expansions");
    let Outcome::Error { error, trace } = out else { panic!() };
    assert_eq!(error, "boom");
    assert_eq!(trace.last().unwrap().state, 7);
    assert_eq!(trace.len(), 8);
}

/// A counter over `0..=3` with two actions, in this order: `Up` (s + 1, below 3) and `Down`
/// (s - 2, from 2 on: a step back to a state already seen). The action property, when set,
/// rejects the steps into `bad_target`, or the steps that go down; CONSTRAINT, when set, keeps
/// the states up to `inside`.
#[derive(Clone)]
struct Steps {
    bad_target: Option<i64>,
    no_descent: bool,
    inside: Option<i64>,
}

impl Steps {
    /// The action property on the step `from → to`.
    fn property(&self, from: &i64, to: &i64) -> Result<(), String> {
        if Some(*to) == self.bad_target || (self.no_descent && to < from) {
            return Err(format!("step {from} -> {to}"));
        }
        Ok(())
    }
}

impl Spec for Steps {
    type State = i64;
    type Error = String;
    fn fingerprint(&self, s: &i64) -> u64 {
        fp(&[*s])
    }
    fn initial_states(&self, out: &mut Vec<i64>) -> Result<(), String> {
        out.push(0);
        Ok(())
    }
    fn successors(&self, s: &i64, out: &mut Vec<(ActionId, i64)>) -> Result<(), String> {
        if *s < 3 {
            out.push((0, s + 1));
        }
        if *s >= 2 {
            out.push((1, s - 2));
        }
        Ok(())
    }
    fn violated_invariant(&self, _: &i64) -> Result<Option<usize>, String> {
        Ok(None)
    }
    fn in_model(&self, s: &i64) -> Result<bool, String> {
        Ok(self.inside.is_none_or(|m| *s <= m))
    }
    fn check_step(&self, from: &i64, to: &i64) -> Result<(), String> {
        self.property(from, to)
    }
    fn action_count(&self) -> usize {
        2
    }
}

fn states<S: Copy>(trace: &[tla_check::TraceStep<S>]) -> Vec<S> {
    trace.iter().map(|t| t.state).collect()
}

/// Run the explorer on `spec`, and the parallel explorer with 1 and 3 threads, which must give
/// the same outcome, counts and coverage; returns the explorer, done.
fn explore<P>(spec: &P, opts: Options) -> (Outcome<i64, String>, Explorer<'_, P>)
where
    P: Spec<State = i64, Error = String> + Clone + Sync,
{
    let mut ex = Explorer::new(spec, opts.clone());
    let out = ex.run_to_end();
    for workers in [1, 3] {
        let run = tla_check::parallel::explore(spec, opts.clone(), workers, |_| Some(spec.clone()), |_| {});
        assert_eq!(format!("{:?}", run.outcome), format!("{out:?}"), "{workers} workers");
        assert_eq!(run.stats, ex.stats(), "{workers} workers");
        assert_eq!(run.coverage, ex.coverage().to_vec(), "{workers} workers");
    }
    (out, ex)
}

#[test]
fn action_properties_are_checked_on_seen_new_and_outside_steps() {
    // A step back to a state already seen (2 → 0): reported, with the trace to 2 and then 0.
    let spec = Steps { bad_target: None, no_descent: true, inside: None };
    let (out, ex) = explore(&spec, Options { check_deadlock: false, ..Options::default() });
    let Outcome::Error { error, trace } = out else { panic!("expected the step to be rejected") };
    assert_eq!(error, "step 2 -> 0");
    assert_eq!(states(&trace), vec![0, 1, 2, 0]);
    assert_eq!(trace[3].action, Some(1));
    // Expanding 2: Up's batch (3, stored) then Down's (0, seen).
    assert_eq!((ex.stats().generated, ex.stats().distinct), (5, 4));

    // A step to a new state (2 → 3): the state is stored and counted before the step is
    // checked, as TLC counts it.
    let spec = Steps { bad_target: Some(3), no_descent: false, inside: None };
    let (out, ex) = explore(&spec, Options { check_deadlock: false, ..Options::default() });
    let Outcome::Error { error, trace } = out else { panic!("expected the step to be rejected") };
    assert_eq!(error, "step 2 -> 3");
    assert_eq!(states(&trace), vec![0, 1, 2, 3]);
    assert_eq!((ex.stats().generated, ex.stats().distinct), (4, 4));
    assert_eq!((ex.coverage()[0].generated, ex.coverage()[0].distinct), (3, 3));

    // A step leaving the model (CONSTRAINT false at 3): still checked, and reported.
    let spec = Steps { bad_target: Some(3), no_descent: false, inside: Some(2) };
    let (out, ex) = explore(&spec, Options { check_deadlock: false, ..Options::default() });
    let Outcome::Error { error, trace } = out else { panic!("expected the step to be rejected") };
    assert_eq!(error, "step 2 -> 3");
    assert_eq!(states(&trace), vec![0, 1, 2, 3]);
    assert_eq!((ex.stats().generated, ex.stats().distinct), (4, 3));

    // Without a violation the same system runs to the end.
    let spec = Steps { bad_target: None, no_descent: false, inside: Some(2) };
    let (out, ex) = explore(&spec, Options { check_deadlock: false, ..Options::default() });
    assert!(matches!(out, Outcome::Success));
    assert_eq!((ex.stats().generated, ex.stats().distinct), (5, 3));
}

/// Two actions, in this order: `Inc` (s + 1 and s + 2, below 5) and `Check`, which fails to
/// evaluate at `fails_at` and has no successor elsewhere. The invariant rejects `bad`.
#[derive(Clone)]
struct FailsLater {
    fails_at: i64,
    bad: Option<i64>,
}

impl Spec for FailsLater {
    type State = i64;
    type Error = String;
    fn fingerprint(&self, s: &i64) -> u64 {
        fp(&[*s])
    }
    fn initial_states(&self, out: &mut Vec<i64>) -> Result<(), String> {
        out.push(0);
        Ok(())
    }
    fn successors(&self, s: &i64, out: &mut Vec<(ActionId, i64)>) -> Result<(), String> {
        if *s < 5 {
            out.push((0, s + 1));
            out.push((0, s + 2));
        }
        // The contract on an error: the successors produced before it are in `out`.
        if *s == self.fails_at {
            return Err(format!("Check fails at {s}"));
        }
        Ok(())
    }
    fn violated_invariant(&self, s: &i64) -> Result<Option<usize>, String> {
        Ok((Some(*s) == self.bad).then_some(0))
    }
    fn action_count(&self) -> usize {
        2
    }
}

#[test]
fn an_action_that_fails_comes_after_the_earlier_actions_successors() {
    // Expanding 1: Inc gives 2 (seen) and 3 (new, stored), then Check fails. TLC counts both
    // successors and stores 3 before it reports the error, with the trace to 1.
    let spec = FailsLater { fails_at: 1, bad: None };
    let (out, ex) = explore(&spec, Options::default());
    let Outcome::Error { error, trace } = out else { panic!("expected the error") };
    assert_eq!(error, "Check fails at 1");
    assert_eq!(states(&trace), vec![0, 1]);
    let st = ex.stats();
    assert_eq!((st.generated, st.distinct, st.queued), (5, 4, 2));
    assert_eq!((ex.coverage()[0].generated, ex.coverage()[0].distinct), (4, 3));
    assert_eq!(ex.coverage()[1].generated, 0);

    // An invariant violated by one of those earlier successors is the answer, not the error.
    let spec = FailsLater { fails_at: 1, bad: Some(3) };
    let (out, ex) = explore(&spec, Options::default());
    let Outcome::InvariantViolated { invariant, trace } = out else { panic!("expected the violation") };
    assert_eq!(invariant, 0);
    assert_eq!(states(&trace), vec![0, 1, 3]);
    assert_eq!((ex.stats().generated, ex.stats().distinct), (5, 4));

    // A state whose only action fails has no successor, yet it is an error, not a deadlock.
    let spec = FailsLater { fails_at: 5, bad: None };
    let (out, _) = explore(&spec, Options::default());
    let Outcome::Error { error, trace } = out else { panic!("expected the error") };
    assert_eq!(error, "Check fails at 5");
    assert_eq!(trace.last().unwrap().state, 5);
}

/// One action with three successors of 0 (1, 2, 3); the invariant rejects 1.
#[derive(Clone)]
struct Fan;

impl Spec for Fan {
    type State = i64;
    type Error = String;
    fn fingerprint(&self, s: &i64) -> u64 {
        fp(&[*s])
    }
    fn initial_states(&self, out: &mut Vec<i64>) -> Result<(), String> {
        out.push(0);
        Ok(())
    }
    fn successors(&self, s: &i64, out: &mut Vec<(ActionId, i64)>) -> Result<(), String> {
        if *s == 0 {
            out.extend([(0, 1), (0, 2), (0, 3)]);
        }
        Ok(())
    }
    fn violated_invariant(&self, s: &i64) -> Result<Option<usize>, String> {
        Ok((*s == 1).then_some(0))
    }
    fn action_count(&self) -> usize {
        1
    }
}

#[test]
fn a_stop_counts_the_successors_up_to_the_one_it_stops_at() {
    // TLC counts each successor as it is generated and handled: stopping at 1, the action's
    // other successors (2 and 3) are not counted.
    let (out, ex) = explore(&Fan, Options::default());
    let Outcome::InvariantViolated { trace, .. } = out else { panic!("expected the violation") };
    assert_eq!(states(&trace), vec![0, 1]);
    assert_eq!((ex.stats().generated, ex.stats().distinct), (2, 2));
    assert_eq!((ex.coverage()[0].generated, ex.coverage()[0].distinct), (1, 1));
}
