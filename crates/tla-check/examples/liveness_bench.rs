//! Liveness against safety-only exploration on a 500,000-state system written in Rust:
//! three counters a ∈ 0..100, b ∈ 0..100, c ∈ 0..50, each incremented modulo its size by its own
//! action, every action weakly fair.
//!
//! `cargo run --release -p tla-check --example liveness_bench`

use std::time::Instant;

use tla_check::liveness::{AtomId, Fairness, FairnessKind, LiveOptions, LiveOutcome, LiveSpec, LiveStatus, LivenessChecker, Temporal};
use tla_check::{ActionId, Explorer, Options, Outcome, Spec};

type S = [u8; 3];
const SIZES: [u8; 3] = [100, 100, 50];

struct Counters;

impl Spec for Counters {
    type State = S;
    type Error = String;
    fn fingerprint(&self, s: &S) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for &b in s {
            h ^= b as u64;
            h = h.wrapping_mul(0x100_0000_01b3);
        }
        h ^ (h >> 31)
    }
    fn initial_states(&self, out: &mut Vec<S>) -> Result<(), String> {
        out.push([0, 0, 0]);
        Ok(())
    }
    fn successors(&self, s: &S, out: &mut Vec<(ActionId, S)>) -> Result<(), String> {
        for i in 0..3 {
            let mut t = *s;
            t[i] = (t[i] + 1) % SIZES[i];
            out.push((i as ActionId, t));
        }
        Ok(())
    }
    fn violated_invariant(&self, s: &S) -> Result<Option<usize>, String> {
        Ok(if (0..3).all(|i| s[i] < SIZES[i]) { None } else { Some(0) })
    }
    fn action_count(&self) -> usize {
        3
    }
}

// State atoms: 0..3 ENABLED Inc(i); 3: a = 0; 4: b = 0. Action atoms: 0..3 <<Inc(i)>>_vars.
impl LiveSpec for Counters {
    fn state_atom(&self, s: &S, atom: AtomId) -> Result<bool, String> {
        Ok(match atom {
            0..3 => true,
            3 => s[0] == 0,
            _ => s[1] == 0,
        })
    }
    fn action_atom(&self, s: &S, t: &S, atom: AtomId) -> Result<bool, String> {
        let i = atom as usize;
        Ok(s[i] != t[i])
    }
}

fn main() {
    let spec = Counters;
    let t = Instant::now();
    let mut ex = Explorer::new(&spec, Options { check_deadlock: false, ..Options::default() });
    let out = ex.run_to_end();
    let safety = t.elapsed().as_secs_f64();
    assert!(matches!(out, Outcome::Success));
    println!("safety:   {} distinct states in {:.3} s", ex.stats().distinct, safety);

    let fairness: Vec<Fairness> = (0..3)
        .map(|i| Fairness { kind: FairnessKind::Weak, enabled: i, taken: i, label: format!("WF_vars(Inc({i}))") })
        .collect();
    let a0 = Temporal::State(3);
    let b0 = Temporal::State(4);
    let cases = [
        ("[]<>(a = 0)", Temporal::always(Temporal::eventually(a0.clone()))),
        ("(a = 0) ~> (b = 0)", Temporal::leads_to(a0.clone(), b0)),
        ("<>[](a = 0)", Temporal::eventually(Temporal::always(a0))),
    ];
    for (name, prop) in cases {
        let t = Instant::now();
        let mut checker = LivenessChecker::new(&spec, &fairness, &prop, LiveOptions::default()).expect("formula");
        let mut phases = Vec::new();
        let out = loop {
            let t = Instant::now();
            let status = checker.run(usize::MAX);
            phases.push(format!("{:.3}", t.elapsed().as_secs_f64()));
            if let LiveStatus::Done(o) = status {
                break o;
            }
        };
        let live = t.elapsed().as_secs_f64();
        let verdict = match out {
            LiveOutcome::Holds => "holds".to_string(),
            LiveOutcome::Violated(l) => format!("violated (lasso of {} states, cycle from {})", l.steps.len(), l.cycle_start),
            o => format!("{o:?}"),
        };
        println!("liveness: {name:<20} {verdict} in {live:.3} s = {:.2}x safety", live / safety);
        let st = checker.stats();
        println!(
            "          graph {} states {} edges, product {} nodes, {} components; s per call: {}",
            st.states,
            st.edges,
            st.product_nodes,
            st.components,
            phases.join(" ")
        );
    }
}
