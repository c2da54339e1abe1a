//! The liveness checker on small systems written in Rust. Every lasso it reports goes through an
//! independent validator written here (it shares no code with the checker): the lasso must be a
//! behaviour of the system (steps or stutters, from an initial state, closing its cycle), fair on
//! its cycle, and falsify the property, evaluated directly on the ultimately periodic behaviour.
//! Random small systems are also checked against a brute-force enumeration of short lassos.

use std::collections::hash_map::DefaultHasher;
use std::fmt::Debug;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

use tla_check::liveness::{
    AtomId, Fairness, FairnessKind, Lasso, LiveOptions, LiveOutcome, LiveSpec, LivenessChecker, Step, Temporal,
    check,
};
use tla_check::{ActionId, Explorer, Options, Outcome, Spec};

type Pred<S> = Box<dyn Fn(&S) -> Result<bool, String>>;
type Act<S> = Box<dyn Fn(&S, &S) -> bool>;

/// A system given by its initial states, its next-state relation and its atoms.
struct Sys<S> {
    init: Vec<S>,
    next: Rc<dyn Fn(&S) -> Vec<(ActionId, S)>>,
    preds: Vec<Pred<S>>,
    acts: Vec<Act<S>>,
    /// Atoms on the whole next-state relation (`ENABLED <<Next>>_v`, `<<Next>>_v`), which the
    /// checker reads off the successors instead of evaluating them.
    next_preds: Vec<AtomId>,
    next_acts: Vec<AtomId>,
}

impl<S: Clone + Hash + Eq + Debug + 'static> Sys<S> {
    fn new(init: Vec<S>, next: impl Fn(&S) -> Vec<(ActionId, S)> + 'static) -> Self {
        Sys { init, next: Rc::new(next), preds: vec![], acts: vec![], next_preds: vec![], next_acts: vec![] }
    }
    fn pred(&mut self, f: impl Fn(&S) -> bool + 'static) -> Temporal {
        self.preds.push(Box::new(move |s| Ok(f(s))));
        Temporal::State(self.preds.len() as AtomId - 1)
    }
    fn act(&mut self, f: impl Fn(&S, &S) -> bool + 'static) -> Temporal {
        self.acts.push(Box::new(f));
        Temporal::Action(self.acts.len() as AtomId - 1)
    }
    /// `<<A>>_v` for action `a`, with v all the variables.
    fn angle(&self, a: ActionId) -> Act<S> {
        let next = self.next.clone();
        Box::new(move |s: &S, t: &S| s != t && next(s).iter().any(|(b, u)| *b == a && u == t))
    }
    fn taken(&mut self, a: ActionId) -> Temporal {
        let f = self.angle(a);
        self.acts.push(f);
        Temporal::Action(self.acts.len() as AtomId - 1)
    }
    fn enabled(&mut self, a: ActionId) -> Temporal {
        let next = self.next.clone();
        self.preds.push(Box::new(move |s: &S| Ok(next(s).iter().any(|(b, u)| *b == a && u != s))));
        Temporal::State(self.preds.len() as AtomId - 1)
    }
    /// Fairness on the whole next-state relation, `WF_v(Next)` or `SF_v(Next)`, v all the variables.
    fn fair_next(&mut self, kind: FairnessKind, label: &str) -> Fairness {
        let next = self.next.clone();
        self.preds.push(Box::new(move |s: &S| Ok(next(s).iter().any(|(_, u)| u != s))));
        let enabled = self.preds.len() as AtomId - 1;
        let next = self.next.clone();
        self.acts.push(Box::new(move |s: &S, t: &S| s != t && next(s).iter().any(|(_, u)| u == t)));
        let taken = self.acts.len() as AtomId - 1;
        self.next_preds.push(enabled);
        self.next_acts.push(taken);
        Fairness { kind, enabled, taken, label: label.to_string() }
    }
    fn fair(&mut self, kind: FairnessKind, a: ActionId, label: &str) -> Fairness {
        let Temporal::State(enabled) = self.enabled(a) else { unreachable!() };
        let Temporal::Action(taken) = self.taken(a) else { unreachable!() };
        Fairness { kind, enabled, taken, label: label.to_string() }
    }
}

impl<S: Clone + Hash + Eq + Debug> Spec for Sys<S> {
    type State = S;
    type Error = String;
    fn fingerprint(&self, s: &S) -> u64 {
        let mut h = DefaultHasher::new();
        s.hash(&mut h);
        h.finish()
    }
    fn initial_states(&self, out: &mut Vec<S>) -> Result<(), String> {
        out.extend(self.init.iter().cloned());
        Ok(())
    }
    fn successors(&self, s: &S, out: &mut Vec<(ActionId, S)>) -> Result<(), String> {
        out.extend((self.next)(s));
        Ok(())
    }
    fn violated_invariant(&self, _: &S) -> Result<Option<usize>, String> {
        Ok(None)
    }
    fn action_count(&self) -> usize {
        8
    }
}

impl<S: Clone + Hash + Eq + Debug> LiveSpec for Sys<S> {
    fn state_atom(&self, s: &S, atom: AtomId) -> Result<bool, String> {
        (self.preds[atom as usize])(s)
    }
    fn action_atom(&self, s: &S, t: &S, atom: AtomId) -> Result<bool, String> {
        Ok((self.acts[atom as usize])(s, t))
    }
    fn next_atom(&self, atom: AtomId, on_steps: bool) -> bool {
        if on_steps { self.next_acts.contains(&atom) } else { self.next_preds.contains(&atom) }
    }
    fn changes_subscript(&self, _: AtomId, s: &S, t: &S) -> Result<bool, String> {
        Ok(s != t)
    }
}

// ------------------------------------------------------------------ the independent validator

/// Truth of `f` at position `i` of the behaviour `states[0..n]` whose position `n - 1` is followed
/// by position `lp` forever.
fn holds<S: Clone + Hash + Eq + Debug>(sys: &Sys<S>, states: &[S], lp: usize, f: &Temporal, i: usize) -> bool {
    let n = states.len();
    let nxt = |i: usize| if i + 1 < n { i + 1 } else { lp };
    let future = |i: usize| (i..n).chain(lp..i.min(n));
    match f {
        Temporal::Bool(b) => *b,
        Temporal::State(a) => (sys.preds[*a as usize])(&states[i]).unwrap(),
        Temporal::Action(a) => (sys.acts[*a as usize])(&states[i], &states[nxt(i)]),
        Temporal::Not(g) => !holds(sys, states, lp, g, i),
        Temporal::And(v) => v.iter().all(|g| holds(sys, states, lp, g, i)),
        Temporal::Or(v) => v.iter().any(|g| holds(sys, states, lp, g, i)),
        Temporal::Implies(p, q) => !holds(sys, states, lp, p, i) || holds(sys, states, lp, q, i),
        Temporal::Always(g) => future(i).all(|j| holds(sys, states, lp, g, j)),
        Temporal::Eventually(g) => future(i).any(|j| holds(sys, states, lp, g, j)),
        Temporal::LeadsTo(p, q) => {
            future(i).all(|j| !holds(sys, states, lp, p, j) || future(j).any(|k| holds(sys, states, lp, q, k)))
        }
    }
}

fn fair_on_cycle<S: Clone + Hash + Eq + Debug>(sys: &Sys<S>, states: &[S], lp: usize, f: &Fairness) -> bool {
    let n = states.len();
    let enabled: Vec<bool> = (lp..n).map(|i| (sys.preds[f.enabled as usize])(&states[i]).unwrap()).collect();
    let taken =
        (lp..n).any(|i| (sys.acts[f.taken as usize])(&states[i], &states[if i + 1 < n { i + 1 } else { lp }]));
    match f.kind {
        FairnessKind::Weak => taken || !enabled.iter().all(|&b| b),
        FairnessKind::Strong => taken || !enabled.iter().any(|&b| b),
    }
}

fn is_step<S: Clone + Hash + Eq + Debug>(sys: &Sys<S>, s: &S, t: &S) -> bool {
    s == t || (sys.next)(s).iter().any(|(_, u)| u == t)
}

/// Panics unless `lasso` is a fair behaviour of `sys` that falsifies `prop`.
fn validate<S: Clone + Hash + Eq + Debug>(sys: &Sys<S>, fairness: &[Fairness], prop: &Temporal, lasso: &Lasso<S>) {
    let states: Vec<S> = lasso.steps.iter().map(|s| s.state.clone()).collect();
    let lp = lasso.cycle_start;
    assert!(!states.is_empty() && lp < states.len(), "empty lasso");
    assert!(sys.init.contains(&states[0]), "the lasso does not start in an initial state");
    assert_eq!(lasso.steps[0].step, Step::Initial);
    for (i, w) in lasso.steps.windows(2).enumerate() {
        assert!(is_step(sys, &w[0].state, &w[1].state), "step {i} is not a step of the system");
        match w[1].step {
            Step::Stutter => assert_eq!(w[0].state, w[1].state),
            Step::Action(a) => assert!((sys.next)(&w[0].state).contains(&(a, w[1].state.clone()))),
            Step::Initial => panic!("Initial in the middle of a lasso"),
        }
    }
    assert!(is_step(sys, &states[states.len() - 1], &states[lp]), "the cycle does not close");
    for f in fairness {
        assert!(fair_on_cycle(sys, &states, lp, f), "the cycle is unfair to {}", f.label);
    }
    assert!(!holds(sys, &states, lp, prop, 0), "the property holds on the reported lasso: {lasso:?}");
    assert_eq!(lasso.fairness.len(), fairness.len());
}

/// Run the checker; validate any lasso; return whether the property holds. The check runs three
/// ways, which must agree: the checker's own exploration; the graph built as the sink of the
/// safety explorer; and, on that graph, together with a property that holds (`TRUE`) before it.
fn run<S: Clone + Hash + Eq + Debug>(sys: &Sys<S>, fairness: &[Fairness], prop: &Temporal) -> Option<Lasso<S>> {
    let own = check(sys, fairness, prop, LiveOptions::default()).expect("formula accepted");
    let props = [Temporal::Bool(true), prop.clone()];
    let checker = LivenessChecker::new_many(sys, fairness, &props, LiveOptions::default()).expect("formula accepted");
    let opts = Options { check_deadlock: false, max_states: None, max_depth: None };
    let mut ex = Explorer::with_graph(sys, opts, checker);
    assert!(matches!(ex.run_to_end(), Outcome::Success));
    let graph = ex.into_graph();
    let mut checker = graph.sink;
    checker.adopt(graph.seen, graph.parent, graph.level_starts);
    let sunk = checker.run_to_end();
    let verdict = |o: LiveOutcome<S, String>, property: usize| match o {
        LiveOutcome::Holds => None,
        LiveOutcome::Violated(lasso) => {
            validate(sys, fairness, prop, &lasso);
            assert_eq!(lasso.property, property);
            Some(*lasso)
        }
        other => panic!("unexpected outcome {other:?}"),
    };
    let own = verdict(own, 0);
    let sunk = verdict(sunk, 1);
    assert_eq!(own.is_some(), sunk.is_some(), "the explorer's graph gives another verdict than the checker's own for {prop:?}");
    own
}

fn and(v: Vec<Temporal>) -> Temporal {
    Temporal::And(v)
}
fn always(f: Temporal) -> Temporal {
    Temporal::always(f)
}
fn eventually(f: Temporal) -> Temporal {
    Temporal::eventually(f)
}

// ------------------------------------------------------------------ systems

/// Two processes, each toggling its own bit: `Flip_i == b[i]' = 1 - b[i]` (action i).
fn togglers() -> Sys<[u8; 2]> {
    Sys::new(vec![[0, 0]], |s| {
        (0..2)
            .map(|i| {
                let mut t = *s;
                t[i] = 1 - t[i];
                (i as ActionId, t)
            })
            .collect()
    })
}

#[test]
fn missing_weak_fairness_lets_a_process_starve() {
    let mut sys = togglers();
    let p0 = sys.pred(|s| s[0] == 1);
    let p1 = sys.pred(|s| s[1] == 1);
    let prop = and(vec![always(eventually(p0)), always(eventually(p1))]);
    let wf0 = sys.fair(FairnessKind::Weak, 0, "WF_vars(Flip(0))");
    let wf1 = sys.fair(FairnessKind::Weak, 1, "WF_vars(Flip(1))");

    let lasso = run(&sys, std::slice::from_ref(&wf0), &prop).expect("process 1 starves");
    // Process 1 never moves on the cycle, though always enabled there.
    let f1 = run(&sys, &[], &prop).expect("no fairness: stuttering violates");
    assert!(f1.steps.len() <= 2);
    assert!(lasso.steps[lasso.cycle_start..].iter().all(|s| s.state[1] == 0));
    assert!(lasso.fairness[0].taken);

    assert!(run(&sys, &[wf0, wf1], &prop).is_none());
}

/// A lock shared by two processes. pc[i]: 0 idle, 1 waiting, 2 critical.
/// Actions: 3i Request, 3i+1 Acquire (when the lock is free), 3i+2 Release.
fn mutex() -> Sys<([u8; 2], bool)> {
    Sys::new(vec![([0, 0], false)], |&(pc, locked)| {
        let mut out = Vec::new();
        for i in 0..2 {
            let mut p = pc;
            match pc[i] {
                0 => {
                    p[i] = 1;
                    out.push((3 * i as ActionId, (p, locked)));
                }
                1 if !locked => {
                    p[i] = 2;
                    out.push((3 * i as ActionId + 1, (p, true)));
                }
                2 => {
                    p[i] = 0;
                    out.push((3 * i as ActionId + 2, (p, false)));
                }
                _ => {}
            }
        }
        out
    })
}

fn mutex_fairness(sys: &mut Sys<([u8; 2], bool)>, acquire: FairnessKind) -> Vec<Fairness> {
    let mut f = Vec::new();
    for i in 0..2u32 {
        f.push(sys.fair(FairnessKind::Weak, 3 * i, &format!("WF(Request({i}))")));
        f.push(sys.fair(acquire, 3 * i + 1, &format!("Acquire({i})")));
        f.push(sys.fair(FairnessKind::Weak, 3 * i + 2, &format!("WF(Release({i}))")));
    }
    f
}

/// `\A i \in {0, 1} : pc[i] = 1 ~> pc[i] = 2`, expanded into a conjunction.
fn no_starvation(sys: &mut Sys<([u8; 2], bool)>) -> Temporal {
    and((0..2)
        .map(|i| {
            let waiting = sys.pred(move |s| s.0[i] == 1);
            let critical = sys.pred(move |s| s.0[i] == 2);
            Temporal::leads_to(waiting, critical)
        })
        .collect())
}

#[test]
fn weak_fairness_fails_on_an_intermittently_enabled_action_and_strong_fairness_passes() {
    let mut sys = mutex();
    let prop = no_starvation(&mut sys);
    let wf = mutex_fairness(&mut sys, FairnessKind::Weak);
    let lasso = run(&sys, &wf, &prop).expect("WF on Acquire lets a process wait forever");
    // On the cycle someone waits forever while the other one keeps taking the lock.
    let cyc = &lasso.steps[lasso.cycle_start..];
    let starving = (0..2).find(|&i| cyc.iter().all(|s| s.state.0[i] == 1)).expect("a starving process");
    let acq = &lasso.fairness[3 * starving + 1];
    assert!(acq.enabled_somewhere && !acq.enabled_everywhere && !acq.taken, "{acq:?}");

    let sf = mutex_fairness(&mut sys, FairnessKind::Strong);
    assert!(run(&sys, &sf, &prop).is_none());

    // Only process 0 is fair: process 1 may stop anywhere (waiting, or holding the lock).
    let only0: Vec<Fairness> = sf[..3].to_vec();
    let lasso = run(&sys, &only0, &prop).expect("process 1 is not fair");
    let cyc = &lasso.steps[lasso.cycle_start..];
    assert!(cyc.iter().all(|s| s.state.0[1] == cyc[0].state.0[1] && s.state.0[1] != 0), "{lasso:?}");
}

/// `x = 0` then `x' = 1` once; nothing forces the step.
fn one_step() -> Sys<u8> {
    Sys::new(vec![0], |&x| if x == 0 { vec![(0, 1)] } else { vec![] })
}

#[test]
fn a_property_failing_only_through_infinite_stuttering_is_found() {
    let mut sys = one_step();
    let x1 = sys.pred(|&x| x == 1);
    let prop = eventually(x1);
    let lasso = run(&sys, &[], &prop).expect("stuttering at x = 0 forever");
    assert_eq!(lasso.steps.len(), 1);
    assert_eq!(lasso.steps[0].state, 0);
    assert_eq!((lasso.cycle_start, lasso.back), (0, Step::Stutter));

    let wf = sys.fair(FairnessKind::Weak, 0, "WF_x(Next)");
    assert!(run(&sys, &[wf.clone()], &prop).is_none());
    // The end state stutters forever: <>[](x = 1) holds under WF, []<>(x = 0) does not.
    let x1 = sys.pred(|&x| x == 1);
    let x0 = sys.pred(|&x| x == 0);
    assert!(run(&sys, &[wf.clone()], &eventually(always(x1))).is_none());
    let lasso = run(&sys, &[wf], &always(eventually(x0))).expect("x stays 1");
    assert_eq!(lasso.steps.last().unwrap().state, 1);
}

/// An hour clock on 1..3: `hr' = IF hr = 3 THEN 1 ELSE hr + 1` (action 0).
fn clock() -> Sys<u8> {
    Sys::new(vec![1], |&h| vec![(0, if h == 3 { 1 } else { h + 1 })])
}

#[test]
fn always_eventually_and_eventually_always() {
    let mut sys = clock();
    let h1 = sys.pred(|&h| h == 1);
    let wf = sys.fair(FairnessKind::Weak, 0, "WF_hr(Tick)");
    assert!(run(&sys, &[wf.clone()], &always(eventually(h1.clone()))).is_none());
    let lasso = run(&sys, &[wf.clone()], &eventually(always(h1.clone()))).expect("the clock leaves 1");
    assert!(lasso.steps.len() >= 3, "the cycle visits every hour");
    let lasso = run(&sys, &[], &always(eventually(h1.clone()))).expect("it may stop");
    assert_eq!(lasso.back, Step::Stutter);
    assert_ne!(lasso.steps.last().unwrap().state, 1);
    // A conjunction of properties: the first holds, the second fails.
    let both = and(vec![always(eventually(h1.clone())), eventually(always(h1))]);
    run(&sys, &[wf], &both).expect("the conjunction fails on its second part");
}

#[test]
fn implications_between_temporal_formulas() {
    let mut sys = clock();
    let h1 = sys.pred(|&h| h == 1);
    let h2 = sys.pred(|&h| h == 2);
    let h3 = sys.pred(|&h| h == 3);
    let ae = |f: &Temporal| always(eventually(f.clone()));
    // Stopping at 1 forever keeps []<>(hr = 1) and breaks []<>(hr = 2).
    let p = Temporal::implies(ae(&h1), ae(&h2));
    let lasso = run(&sys, &[], &p).expect("stutter at 1");
    assert_eq!(lasso.steps.last().unwrap().state, 1);
    // Visiting 1 and 2 infinitely often forces 3 in between: holds without any fairness.
    let q = Temporal::implies(and(vec![ae(&h1), ae(&h2)]), ae(&h3));
    assert!(run(&sys, &[], &q).is_none());
    // A formula whose negation needs the tableau: [](hr = 2 => <>(hr = 3)).
    let r = always(Temporal::implies(h2.clone(), eventually(h3.clone())));
    let lasso = run(&sys, &[], &r).expect("stops at 2");
    assert_eq!(lasso.steps.last().unwrap().state, 2);
    let wf = sys.fair(FairnessKind::Weak, 0, "WF_hr(Tick)");
    assert!(run(&sys, &[wf], &r).is_none());
}

/// x in 0..3: Inc (action 0) x' = (x + 1) % 4; Reset (action 1) from x = 2 to 0.
fn resettable() -> Sys<u8> {
    Sys::new(vec![0], |&x| {
        let mut v = vec![(0, (x + 1) % 4)];
        if x == 2 {
            v.push((1, 0));
        }
        v
    })
}

#[test]
fn box_action_and_diamond_angle_action() {
    let mut sys = resettable();
    // [][Inc]_x: every step is an Inc step or leaves x unchanged.
    let inc = sys.act(|&s, &t| t == (s + 1) % 4 || s == t);
    let lasso = run(&sys, &[], &always(inc)).expect("Reset is not Inc");
    assert!(lasso.steps.iter().any(|s| s.step == Step::Action(1)) || lasso.back == Step::Action(1));
    let next = sys.act(|&s, &t| t == (s + 1) % 4 || (s == 2 && t == 0) || s == t);
    assert!(run(&sys, &[], &always(next)).is_none());
    // <><<Reset>>_x: WF on Next does not force Reset; SF on Reset does.
    let reset = sys.taken(1);
    let wf_next = {
        let Temporal::State(enabled) = sys.pred(|_| true) else { unreachable!() };
        let Temporal::Action(taken) = sys.act(|s, t| s != t) else { unreachable!() };
        Fairness { kind: FairnessKind::Weak, enabled, taken, label: "WF_x(Next)".into() }
    };
    let lasso = run(&sys, &[wf_next.clone()], &eventually(reset.clone())).expect("Inc forever");
    assert!(lasso.steps.len() >= 4);
    let sf_reset = sys.fair(FairnessKind::Strong, 1, "SF_x(Reset)");
    assert!(run(&sys, &[wf_next.clone(), sf_reset.clone()], &eventually(reset.clone())).is_none());
    let wf_reset = sys.fair(FairnessKind::Weak, 1, "WF_x(Reset)");
    run(&sys, &[wf_next, wf_reset], &eventually(reset)).expect("Reset is enabled only at 2");
}

/// `x' = x + 1` for ever (action 0): no state space is complete.
fn counter() -> Sys<u32> {
    Sys::new(vec![0], |&x| vec![(0, x + 1)])
}

#[test]
fn a_violation_in_a_graph_cut_by_the_budget_stands_and_no_violation_proves_nothing() {
    let mut sys = counter();
    let far = sys.pred(|&x| x == 1000);
    let zero = sys.pred(|&x| x == 0);
    let opts = LiveOptions { max_states: Some(10), ..LiveOptions::default() };
    // Without fairness the counter may stop anywhere: a lasso within the first ten states.
    match check(&sys, &[], &eventually(far.clone()), opts.clone()).unwrap() {
        LiveOutcome::Violated(lasso) => {
            validate(&sys, &[], &eventually(far.clone()), &lasso);
            assert_eq!(lasso.back, Step::Stutter, "{lasso:?}");
            assert!(lasso.steps.len() <= 10, "{lasso:?}");
        }
        o => panic!("{o:?}"),
    }
    // Under weak fairness it reaches 1000, beyond the budget: not "holds", over budget.
    let wf = sys.fair(FairnessKind::Weak, 0, "WF_x(Next)");
    let fair = [wf];
    assert!(matches!(check(&sys, &fair, &eventually(far), opts.clone()).unwrap(), LiveOutcome::BudgetExhausted(_)));
    // []<>(x = 0) is violated, but only by an infinite path: no lasso in a finite graph.
    assert!(matches!(check(&sys, &fair, &always(eventually(zero)), opts).unwrap(), LiveOutcome::BudgetExhausted(_)));
}

#[test]
fn evaluation_errors_and_budgets_are_outcomes() {
    let mut sys = resettable();
    sys.preds.push(Box::new(|&x| if x == 3 { Err("boom".to_string()) } else { Ok(true) }));
    let bad = Temporal::State(sys.preds.len() as AtomId - 1);
    match check(&sys, &[], &always(eventually(bad)), LiveOptions::default()).unwrap() {
        LiveOutcome::Error { error, trace } => {
            assert_eq!(error, "boom");
            assert_eq!(trace.iter().map(|t| t.state).collect::<Vec<_>>(), vec![0, 1, 2, 3]);
        }
        o => panic!("{o:?}"),
    }
    let mut sys = clock();
    let h1 = sys.pred(|&h| h == 1);
    let opts = LiveOptions { max_states: Some(2), ..LiveOptions::default() };
    assert!(matches!(
        check(&sys, &[], &eventually(h1.clone()), opts).unwrap(),
        LiveOutcome::BudgetExhausted(_)
    ));
    // Slices: the same answer in steps of one state.
    let mut c = LivenessChecker::new(&sys, &[], &eventually(h1), LiveOptions::default()).unwrap();
    let mut calls = 0;
    let out = loop {
        calls += 1;
        if let tla_check::liveness::LiveStatus::Done(o) = c.run(1) {
            break o;
        }
    };
    assert!(matches!(out, LiveOutcome::Holds), "{out:?}");
    assert!(calls > 3);
    assert_eq!(c.stats().states, 3);
}

// ------------------------------------------------------------------ random systems, brute force

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn random_formula(r: &mut Rng, depth: u32, sys_atoms: usize, act_atoms: usize) -> Temporal {
    let leaf = |r: &mut Rng| {
        if r.below(4) == 0 {
            Temporal::Action(r.below(act_atoms as u64) as AtomId)
        } else {
            Temporal::State(r.below(sys_atoms as u64) as AtomId)
        }
    };
    if depth == 0 {
        return leaf(r);
    }
    let sub = |r: &mut Rng| Box::new(random_formula(r, depth - 1, sys_atoms, act_atoms));
    match r.below(9) {
        0 => Temporal::Not(sub(r)),
        1 => Temporal::And(vec![*sub(r), *sub(r)]),
        2 => Temporal::Or(vec![*sub(r), *sub(r)]),
        3 => Temporal::Implies(sub(r), sub(r)),
        4 => Temporal::Always(sub(r)),
        5 => Temporal::Eventually(sub(r)),
        6 => Temporal::LeadsTo(sub(r), sub(r)),
        7 => Temporal::always(Temporal::eventually(*sub(r))),
        _ => Temporal::eventually(Temporal::always(*sub(r))),
    }
}

/// Every lasso of at most `len` states: does some fair one falsify `prop`?
fn brute_force(sys: &Sys<u8>, fairness: &[Fairness], prop: &Temporal, len: usize) -> bool {
    let mut paths: Vec<Vec<u8>> = sys.init.iter().map(|&s| vec![s]).collect();
    while let Some(p) = paths.pop() {
        let last = *p.last().unwrap();
        for lp in 0..p.len() {
            if is_step(sys, &last, &p[lp])
                && fairness.iter().all(|f| fair_on_cycle(sys, &p, lp, f))
                && !holds(sys, &p, lp, prop, 0)
            {
                return true;
            }
        }
        if p.len() < len {
            let mut nexts: Vec<u8> = (sys.next)(&last).into_iter().map(|(_, t)| t).collect();
            nexts.push(last);
            nexts.sort();
            nexts.dedup();
            for t in nexts {
                let mut q = p.clone();
                q.push(t);
                paths.push(q);
            }
        }
    }
    false
}

#[test]
fn random_systems_agree_with_brute_force() {
    let mut r = Rng(0x2545_F491_4F6C_DD1D);
    let (mut holds_n, mut violated_n) = (0, 0);
    let (mut cut_violations, mut cut_unknown) = (0, 0);
    for round in 0..300 {
        let n = 2 + r.below(3) as u8;
        let mut edges: Vec<Vec<(ActionId, u8)>> = vec![vec![]; n as usize];
        for s in 0..n {
            for _ in 0..1 + r.below(2) {
                edges[s as usize].push((r.below(2) as ActionId, r.below(n as u64) as u8));
            }
        }
        let labels: Vec<u8> = (0..n).map(|_| r.below(8) as u8).collect();
        let table = edges.clone();
        let mut sys = Sys::new(vec![0], move |&s| table[s as usize].clone());
        for b in 0..3 {
            let labels = labels.clone();
            sys.pred(move |&s| labels[s as usize] >> b & 1 == 1);
        }
        let t0 = sys.taken(0);
        let _ = t0;
        sys.act(|&s, &t| t == s.wrapping_add(1) % 5 || s == t);
        let mut fairness = Vec::new();
        for a in 0..2 {
            match r.below(3) {
                0 => fairness.push(sys.fair(FairnessKind::Weak, a, "WF")),
                1 => fairness.push(sys.fair(FairnessKind::Strong, a, "SF")),
                _ => {}
            }
        }
        // Fairness on the whole next-state relation, read off the successors by the checker.
        match r.below(4) {
            0 => fairness.push(sys.fair_next(FairnessKind::Weak, "WF(Next)")),
            1 => fairness.push(sys.fair_next(FairnessKind::Strong, "SF(Next)")),
            _ => {}
        }
        let depth = 1 + r.below(3) as u32;
        let prop = random_formula(&mut r, depth, 3, 2);
        // A lasso of the checker is at most a few times the number of states long; a violation
        // needs at most (states × tableau) positions. Small systems keep that within 8.
        let expected = brute_force(&sys, &fairness, &prop, 8);
        let got = run(&sys, &fairness, &prop);
        if got.is_some() {
            violated_n += 1;
        } else {
            holds_n += 1;
        }
        assert_eq!(got.is_some(), expected, "round {round}: {prop:?} with {fairness:?} on {edges:?} {labels:?}");
        // With a state budget that stops the graph early: a violation found in the partial
        // graph is a real one (its lasso is checked on the system), and "holds" is said only
        // of a graph the budget did not cut.
        let opts = LiveOptions { max_states: Some(1 + u64::from(round as u8 % n)), ..LiveOptions::default() };
        match check(&sys, &fairness, &prop, opts).expect("formula accepted") {
            LiveOutcome::Violated(lasso) => {
                validate(&sys, &fairness, &prop, &lasso);
                assert!(expected, "round {round}: a violation in the partial graph that brute force does not find");
                cut_violations += 1;
            }
            LiveOutcome::Holds => assert!(!expected, "round {round}: holds"),
            LiveOutcome::BudgetExhausted(_) => cut_unknown += 1,
            other => panic!("round {round}: {other:?}"),
        }
    }
    assert!(holds_n > 30 && violated_n > 30, "{holds_n} {violated_n}");
    assert!(cut_violations > 20 && cut_unknown > 20, "{cut_violations} {cut_unknown}");
}

/// a ⇄ b by Move (action 0); from b, Go (action 1) to the end state c.
fn go_or_not() -> Sys<char> {
    Sys::new(vec!['a'], |&s| match s {
        'a' => vec![(0, 'b')],
        'b' => vec![(0, 'a'), (1, 'c')],
        _ => vec![],
    })
}

#[test]
fn strong_fairness_splits_a_component_into_the_part_where_the_action_is_disabled() {
    let mut sys = go_or_not();
    let at_c = sys.pred(|&s| s == 'c');
    let sf_go = sys.fair(FairnessKind::Strong, 1, "SF(Go)");
    // Cycling a ⇄ b is unfair to Go, but stopping at a (where Go is disabled) is fair.
    let lasso = run(&sys, std::slice::from_ref(&sf_go), &eventually(at_c.clone())).expect("stop at a");
    assert!(lasso.steps[lasso.cycle_start..].iter().all(|s| s.state == 'a'), "{lasso:?}");
    assert_eq!(lasso.back, Step::Stutter);
    let wf_move = sys.fair(FairnessKind::Weak, 0, "WF(Move)");
    assert!(run(&sys, &[sf_go, wf_move.clone()], &eventually(at_c.clone())).is_none());
    // Under weak fairness of Go, cycling is fair (Go is disabled at a).
    let wf_go = sys.fair(FairnessKind::Weak, 1, "WF(Go)");
    let lasso = run(&sys, &[wf_go, wf_move], &eventually(at_c)).expect("cycle a, b");
    assert!(lasso.steps[lasso.cycle_start..].iter().any(|s| s.state == 'b'));
}

/// A counter over `0..=3`: `Up` (s + 1, below 3), then `Down` (s - 2, from 2 on, back to a state
/// already seen), then `Stop`, which fails to evaluate at `fails_at`. The action property rejects
/// the steps into `bad_target` and, with `no_descent`, the steps down; CONSTRAINT keeps the states
/// up to `inside`. Its one state atom is `s = 3`.
struct Ladder {
    bad_target: Option<i64>,
    no_descent: bool,
    inside: i64,
    fails_at: Option<i64>,
}

impl Spec for Ladder {
    type State = i64;
    type Error = String;
    fn fingerprint(&self, s: &i64) -> u64 {
        let mut h = DefaultHasher::new();
        s.hash(&mut h);
        h.finish()
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
        if Some(*s) == self.fails_at {
            return Err(format!("Stop fails at {s}"));
        }
        Ok(())
    }
    fn violated_invariant(&self, _: &i64) -> Result<Option<usize>, String> {
        Ok(None)
    }
    fn in_model(&self, s: &i64) -> Result<bool, String> {
        Ok(*s <= self.inside)
    }
    fn check_step(&self, from: &i64, to: &i64) -> Result<(), String> {
        if Some(*to) == self.bad_target || (self.no_descent && to < from) {
            return Err(format!("step {from} -> {to}"));
        }
        Ok(())
    }
    fn action_count(&self) -> usize {
        3
    }
}

impl LiveSpec for Ladder {
    fn state_atom(&self, s: &i64, _: AtomId) -> Result<bool, String> {
        Ok(*s == 3)
    }
    fn action_atom(&self, _: &i64, _: &i64, _: AtomId) -> Result<bool, String> {
        Ok(false)
    }
    fn next_atom(&self, _: AtomId, _: bool) -> bool {
        false
    }
    fn changes_subscript(&self, _: AtomId, s: &i64, t: &i64) -> Result<bool, String> {
        Ok(s != t)
    }
}

/// The liveness checker's own exploration checks the action properties on every step, as the
/// explorer does, and processes the successors of the actions before one that fails.
#[test]
fn own_exploration_checks_every_step_and_earlier_actions_first() {
    let prop = Temporal::Eventually(Box::new(Temporal::State(0)));
    let error_of = |l: &Ladder| match check(l, &[], &prop, LiveOptions::default()).expect("formula accepted") {
        LiveOutcome::Error { error, trace } => (error, trace.iter().map(|t| t.state).collect::<Vec<_>>()),
        _ => panic!("expected an error"),
    };
    // A step back to a state already seen.
    let l = Ladder { bad_target: None, no_descent: true, inside: 3, fails_at: None };
    assert_eq!(error_of(&l), ("step 2 -> 0".to_string(), vec![0, 1, 2, 0]));
    // A step leaving the model.
    let l = Ladder { bad_target: Some(3), no_descent: false, inside: 2, fails_at: None };
    assert_eq!(error_of(&l), ("step 2 -> 3".to_string(), vec![0, 1, 2, 3]));
    // Stop fails at 2 after Up's 3 and Down's 0: 3 is stored before the error is reported.
    let l = Ladder { bad_target: None, no_descent: false, inside: 3, fails_at: Some(2) };
    let mut c = LivenessChecker::new(&l, &[], &prop, LiveOptions::default()).unwrap();
    let LiveOutcome::Error { error, trace } = c.run_to_end() else { panic!("expected the error") };
    assert_eq!((error.as_str(), trace.len()), ("Stop fails at 2", 3));
    assert_eq!(c.stats().states, 4);
    // And with the step into 3 rejected as well, the rejection comes first.
    let l = Ladder { bad_target: Some(3), no_descent: false, inside: 3, fails_at: Some(2) };
    assert_eq!(error_of(&l), ("step 2 -> 3".to_string(), vec![0, 1, 2, 3]));
}

#[test]
fn after_a_violation_the_properties_after_it_are_checked_on_the_same_graph() {
    let mut sys = mutex();
    let starves = no_starvation(&mut sys);
    let locked = sys.pred(|s| s.1);
    let never_locked = always(Temporal::Not(Box::new(locked.clone())));
    let eventually_locked = eventually(locked);
    let wf = mutex_fairness(&mut sys, FairnessKind::Weak);
    // Under weak fairness: a process may starve (violated), the lock is eventually taken
    // (holds), it is never taken (violated).
    let props = [starves.clone(), eventually_locked.clone(), never_locked.clone()];
    let mut checker = LivenessChecker::new_many(&sys, &wf, &props, LiveOptions::default()).unwrap();
    let LiveOutcome::Violated(first) = checker.run_to_end() else { panic!("a process may starve") };
    assert_eq!(first.property, 0);
    validate(&sys, &wf, &starves, &first);
    assert!(checker.check_rest());
    let LiveOutcome::Violated(second) = checker.run_to_end() else { panic!("the lock is taken") };
    assert_eq!(second.property, 2);
    validate(&sys, &wf, &never_locked, &second);
    // The same lasso as a check of the properties after the first one alone.
    let mut alone = LivenessChecker::new_many(&sys, &wf, &props[1..], LiveOptions::default()).unwrap();
    let LiveOutcome::Violated(expected) = alone.run_to_end() else { panic!("the lock is taken") };
    assert_eq!(second.steps.iter().map(|s| s.state).collect::<Vec<_>>(), expected.steps.iter().map(|s| s.state).collect::<Vec<_>>());
    assert_eq!(second.cycle_start, expected.cycle_start);
    assert!(checker.check_rest());
    assert!(matches!(checker.run_to_end(), LiveOutcome::Holds));
    assert!(!checker.check_rest(), "nothing is left after a run that ends holding");
}

#[test]
fn a_fairness_action_is_evaluated_only_from_states_where_it_is_enabled() {
    use std::cell::RefCell;
    let mut sys = mutex();
    let prop = no_starvation(&mut sys);
    let wf = mutex_fairness(&mut sys, FairnessKind::Weak);
    // Each taken atom records the states it is evaluated from.
    let from: Rc<RefCell<Vec<(u32, ([u8; 2], bool))>>> = Rc::default();
    for f in &wf {
        let inner = std::mem::replace(&mut sys.acts[f.taken as usize], Box::new(|_, _| false));
        let log = from.clone();
        let atom = f.taken;
        sys.acts[f.taken as usize] = Box::new(move |s, t| {
            log.borrow_mut().push((atom, *s));
            inner(s, t)
        });
    }
    // The checker's own exploration, and the graph built as the safety explorer's sink.
    let own = check(&sys, &wf, &prop, LiveOptions::default()).unwrap();
    assert!(matches!(own, LiveOutcome::Violated(_)), "WF on Acquire lets a process wait forever");
    let checker = LivenessChecker::new(&sys, &wf, &prop, LiveOptions::default()).unwrap();
    let mut ex = Explorer::with_graph(&sys, Options { check_deadlock: false, max_states: None, max_depth: None }, checker);
    assert!(matches!(ex.run_to_end(), Outcome::Success));
    let log = from.borrow();
    assert!(!log.is_empty());
    for (atom, s) in log.iter() {
        let f = wf.iter().find(|f| f.taken == *atom).unwrap();
        assert!((sys.preds[f.enabled as usize])(s).unwrap(), "{} evaluated from {s:?}, where it is disabled", f.label);
    }
}
