//! Random simulation of a [`Spec`], as `tlc -simulate`: seeded random behaviours from Init.
//!
//! Each behaviour starts in a random initial state and takes, at each step, a successor chosen
//! uniformly among *all* successors of the current state (every action's). A behaviour stops
//! when it holds `depth` states, when the current state has no successor (a deadlock, reported as
//! an error when deadlock checking is on), or when the chosen successor lies outside the model
//! (CONSTRAINT or ACTION_CONSTRAINT false: it is still checked against the invariants, as in
//! the explorer, and then the behaviour ends). Every initial state is checked against the
//! invariants first, as TLC does, and every state a behaviour visits after that; every step
//! taken is checked against the action properties (after the invariants, as in the explorer).
//! An error ends the whole run with the behaviour that led to it.
//!
//! Architecture invariant: the same seed gives the same behaviours on every platform. The
//! generator is written here (SplitMix64 to seed xoshiro256**, fixed-width 64-bit arithmetic
//! only), behaviour `k` draws from its own stream derived from `(seed, k)`, and indices are drawn
//! without modulo bias. Nothing here reads a clock or the OS's entropy; a run advances in slices
//! ([`Simulator::run`] with a number of steps) like the explorer.

use crate::explore::{ActionId, Spec, TraceStep};

/// SplitMix64: a one-word generator used to expand a seed into xoshiro's state.
fn splitmix64(x: &mut u64) -> u64 {
    *x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// xoshiro256** (Blackman and Vigna): small, fast, and the same sequence on every target.
#[derive(Clone, Debug)]
pub struct Rng {
    s: [u64; 4],
}

impl Rng {
    pub fn new(seed: u64) -> Rng {
        let mut x = seed;
        let s = [splitmix64(&mut x), splitmix64(&mut x), splitmix64(&mut x), splitmix64(&mut x)];
        Rng { s }
    }

    /// The stream of behaviour `k` of a run seeded with `seed`.
    pub fn for_behaviour(seed: u64, k: u64) -> Rng {
        let mut x = seed;
        let a = splitmix64(&mut x);
        let mut y = k ^ a.rotate_left(17);
        Rng::new(a ^ splitmix64(&mut y))
    }

    pub fn next_u64(&mut self) -> u64 {
        let result = self.s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        result
    }

    /// A uniform index in `0..n` (`n > 0`), without modulo bias (Lemire's method).
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        if n <= 1 {
            return 0;
        }
        let threshold = n.wrapping_neg() % n;
        loop {
            let m = (self.next_u64() as u128) * (n as u128);
            if (m as u64) >= threshold {
                return (m >> 64) as u64;
            }
        }
    }
}

#[derive(Clone, Debug)]
pub struct SimOptions {
    /// Most states in one behaviour (the initial state counts as one); at least 1.
    pub depth: u32,
    /// Number of behaviours to generate.
    pub behaviours: u64,
    pub seed: u64,
    pub check_deadlock: bool,
}

impl Default for SimOptions {
    fn default() -> Self {
        SimOptions { depth: 100, behaviours: 1, seed: 0, check_deadlock: true }
    }
}

/// Per-action figures of a simulation: successors the action produced (over every state a
/// behaviour visited) and steps of a behaviour that took it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SimCoverage {
    pub generated: u64,
    pub taken: u64,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SimStats {
    /// Behaviours finished (an erroneous one included).
    pub behaviours: u64,
    /// States computed: initial states and every successor of every visited state.
    pub generated: u64,
    /// Steps taken over all behaviours.
    pub steps: u64,
    /// States in the longest behaviour so far.
    pub max_length: u32,
    /// Behaviours that ended in a state without successors (deadlock checking off).
    pub deadlocked: u64,
    /// Behaviours that ended on a state outside the model.
    pub left_model: u64,
}

#[derive(Clone, Debug)]
pub enum SimOutcome<S, E> {
    /// Every behaviour ran to its end with no error.
    Success,
    /// `behaviour` is the index (0-based) of the behaviour that failed.
    InvariantViolated { invariant: usize, behaviour: u64, trace: Vec<TraceStep<S>> },
    Deadlock { behaviour: u64, trace: Vec<TraceStep<S>> },
    /// Evaluation failed; `trace` leads to the state being evaluated (empty when it failed
    /// computing the initial states).
    Error { error: E, behaviour: u64, trace: Vec<TraceStep<S>> },
}

pub enum SimStatus<S, E> {
    Running,
    Done(SimOutcome<S, E>),
}

pub struct Simulator<'a, P: Spec> {
    spec: &'a P,
    opts: SimOptions,
    /// In-model initial states (computed and checked once).
    inits: Option<Vec<P::State>>,
    /// The behaviour under way, its index and its generator.
    current: Vec<TraceStep<P::State>>,
    rng: Rng,
    next_behaviour: u64,
    stats: SimStats,
    coverage: Vec<SimCoverage>,
    done: bool,
    succ_buf: Vec<(ActionId, P::State)>,
}

impl<'a, P: Spec> Simulator<'a, P> {
    pub fn new(spec: &'a P, opts: SimOptions) -> Self {
        let opts = SimOptions { depth: opts.depth.max(1), ..opts };
        Simulator {
            spec,
            rng: Rng::for_behaviour(opts.seed, 0),
            opts,
            inits: None,
            current: Vec::new(),
            next_behaviour: 0,
            stats: SimStats::default(),
            coverage: vec![SimCoverage::default(); spec.action_count()],
            done: false,
            succ_buf: Vec::new(),
        }
    }

    pub fn stats(&self) -> &SimStats {
        &self.stats
    }

    pub fn coverage(&self) -> &[SimCoverage] {
        &self.coverage
    }

    /// Run to the end.
    pub fn run_to_end(&mut self) -> SimOutcome<P::State, P::Error> {
        loop {
            if let SimStatus::Done(o) = self.run(u64::MAX) {
                return o;
            }
        }
    }

    /// Run until done or until `max_steps` steps (initial states included) were taken.
    pub fn run(&mut self, max_steps: u64) -> SimStatus<P::State, P::Error> {
        if self.done {
            return SimStatus::Done(SimOutcome::Success);
        }
        let out = self.advance(max_steps);
        if matches!(out, SimStatus::Done(_)) {
            self.done = true;
        }
        out
    }

    fn fail(&mut self, out: SimOutcome<P::State, P::Error>) -> SimStatus<P::State, P::Error> {
        self.stats.behaviours += 1;
        SimStatus::Done(out)
    }

    fn advance(&mut self, max_steps: u64) -> SimStatus<P::State, P::Error> {
        if self.inits.is_none() {
            match self.start() {
                Ok(inits) => self.inits = Some(inits),
                Err(out) => return SimStatus::Done(out),
            }
        }
        let mut steps = 0u64;
        while steps < max_steps {
            // The spec asked to stop (`TLCSet("exit", TRUE)`): as TLC's simulator, stop here.
            if self.spec.exit_requested() {
                return SimStatus::Done(SimOutcome::Success);
            }
            if self.current.is_empty() {
                if self.next_behaviour >= self.opts.behaviours {
                    return SimStatus::Done(SimOutcome::Success);
                }
                let inits = self.inits.as_ref().map(Vec::as_slice).unwrap_or(&[]);
                if inits.is_empty() {
                    // No initial state inside the model: nothing to simulate.
                    return SimStatus::Done(SimOutcome::Success);
                }
                self.rng = Rng::for_behaviour(self.opts.seed, self.next_behaviour);
                let i = self.rng.below(inits.len() as u64) as usize;
                self.current.push(TraceStep { action: None, state: inits[i].clone() });
                self.stats.max_length = self.stats.max_length.max(1);
                steps += 1;
                continue;
            }
            steps += 1;
            let behaviour = self.next_behaviour;
            if self.current.len() as u32 >= self.opts.depth {
                self.end_behaviour();
                continue;
            }
            let state = &self.current.last().expect("non-empty behaviour").state;
            let mut succs = std::mem::take(&mut self.succ_buf);
            succs.clear();
            // TLC's level: the length of the behaviour so far (its last state is expanded).
            self.spec.set_level(self.current.len() as u32);
            if let Err(error) = self.spec.successors(state, &mut succs) {
                self.succ_buf = succs;
                let trace = std::mem::take(&mut self.current);
                return self.fail(SimOutcome::Error { error, behaviour, trace });
            }
            self.stats.generated += succs.len() as u64 + self.spec.take_intermediate();
            for (a, _) in &succs {
                if let Some(c) = self.coverage.get_mut(*a as usize) {
                    c.generated += 1;
                }
            }
            if succs.is_empty() {
                self.succ_buf = succs;
                if self.opts.check_deadlock {
                    let trace = std::mem::take(&mut self.current);
                    return self.fail(SimOutcome::Deadlock { behaviour, trace });
                }
                self.stats.deadlocked += 1;
                self.end_behaviour();
                continue;
            }
            let pick = self.rng.below(succs.len() as u64) as usize;
            let (action, next) = succs.swap_remove(pick);
            self.succ_buf = succs;
            if let Some(c) = self.coverage.get_mut(action as usize) {
                c.taken += 1;
            }
            self.stats.steps += 1;
            let in_model = self.spec.in_model(&next).and_then(|b| {
                if b {
                    let from = &self.current.last().expect("non-empty behaviour").state;
                    self.spec.step_in_model(from, &next)
                } else {
                    Ok(false)
                }
            });
            let violated = self.spec.violated_invariant(&next);
            // The action properties, on the step taken (inside the model or not), after the
            // invariants as in the explorer.
            let step = match (&violated, &in_model) {
                (Ok(None), Ok(_)) => {
                    let from = &self.current.last().expect("non-empty behaviour").state;
                    self.spec.check_step(from, &next)
                }
                _ => Ok(()),
            };
            self.current.push(TraceStep { action: Some(action), state: next });
            self.stats.max_length = self.stats.max_length.max(self.current.len() as u32);
            match violated {
                Ok(None) => {}
                Ok(Some(invariant)) => {
                    let trace = std::mem::take(&mut self.current);
                    return self.fail(SimOutcome::InvariantViolated { invariant, behaviour, trace });
                }
                Err(error) => {
                    let trace = std::mem::take(&mut self.current);
                    return self.fail(SimOutcome::Error { error, behaviour, trace });
                }
            }
            if let Err(error) = step {
                let trace = std::mem::take(&mut self.current);
                return self.fail(SimOutcome::Error { error, behaviour, trace });
            }
            match in_model {
                Ok(true) => {}
                Ok(false) => {
                    self.stats.left_model += 1;
                    self.end_behaviour();
                }
                Err(error) => {
                    let trace = std::mem::take(&mut self.current);
                    return self.fail(SimOutcome::Error { error, behaviour, trace });
                }
            }
        }
        SimStatus::Running
    }

    fn end_behaviour(&mut self) {
        self.current.clear();
        self.stats.behaviours += 1;
        self.next_behaviour += 1;
    }

    /// Compute the initial states, check each against the invariants, keep those in the model.
    fn start(&mut self) -> Result<Vec<P::State>, SimOutcome<P::State, P::Error>> {
        let mut all = Vec::new();
        self.spec.set_level(0);
        if let Err(error) = self.spec.initial_states(&mut all) {
            return Err(SimOutcome::Error { error, behaviour: 0, trace: vec![] });
        }
        let mut inits = Vec::with_capacity(all.len());
        for s in all {
            self.stats.generated += 1;
            let one = |s: P::State| vec![TraceStep { action: None, state: s }];
            match self.spec.violated_invariant(&s) {
                Ok(None) => {}
                Ok(Some(invariant)) => {
                    self.stats.behaviours += 1;
                    return Err(SimOutcome::InvariantViolated { invariant, behaviour: 0, trace: one(s) });
                }
                Err(error) => return Err(SimOutcome::Error { error, behaviour: 0, trace: one(s) }),
            }
            match self.spec.in_model(&s) {
                Ok(true) => inits.push(s),
                Ok(false) => {}
                Err(error) => return Err(SimOutcome::Error { error, behaviour: 0, trace: one(s) }),
            }
        }
        Ok(inits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generator_matches_reference_values() {
        // SplitMix64 from 0: the published first outputs of the reference implementation.
        let mut x = 0u64;
        assert_eq!(splitmix64(&mut x), 0xE220_A839_7B1D_CDAF);
        assert_eq!(splitmix64(&mut x), 0x6E78_9E6A_A1B9_65F4);
        // xoshiro256** with state {1, 2, 3, 4}: the reference implementation's first outputs.
        let mut r = Rng { s: [1, 2, 3, 4] };
        let got: Vec<u64> = (0..4).map(|_| r.next_u64()).collect();
        assert_eq!(got, vec![11520, 0, 1509978240, 1215971899390074240]);
    }

    #[test]
    fn below_is_in_range_and_roughly_uniform() {
        let mut r = Rng::new(42);
        let mut counts = [0u32; 3];
        for _ in 0..30_000 {
            counts[r.below(3) as usize] += 1;
        }
        for c in counts {
            assert!((9_000..11_000).contains(&c), "{counts:?}");
        }
        assert_eq!(r.below(1), 0);
    }
}
