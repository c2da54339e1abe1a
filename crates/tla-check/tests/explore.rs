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
