//! The system graph's search: the lock's code, run under shuttle, searched as a state machine.
//!
//! Three threads each make calls of the lock's interface without end, choosing each next call
//! among those the guards they hold allow ([`allowed`]). A machine state is reached by a
//! schedule: the list of choices made from the start (which thread runs next and, for a thread
//! between calls, which call it makes). To expand a state, the real code is run again under a
//! scheduler that replays that schedule ([`execute_all`]) and then takes one more choice; the
//! code runs until the next scheduling point and the state reached is read off: the observed
//! state (the recorder's shadow) and each thread's hidden progress.
//!
//! **Scheduling points.** A thread runs until it yields or blocks: after every recorded step
//! (`task_probe::with_step_yields`), between two calls, when it spins, and when it blocks on
//! the wait queue's lock or sleeps. The steps a thread takes in between are not recorded, and
//! interleaving them more finely shows nothing more: what runs between two such points is the
//! wait queue's lock being taken (which commutes with every other thread's later steps), the
//! recorded atomic operation, and the queue's lock being let go, the woken flag and the park
//! (which commute with every other thread's earlier steps: no one can wake a sleeper before it
//! has let go of the queue's lock). So every sequence of recorded steps the code can take is
//! one of these runs.
//!
//! **Hidden progress.** Two schedules reach the same machine state when the observed state is
//! the same and, for each thread, so is: the call it is making and the guards it holds, the
//! last step it recorded in that call, how many times it stopped since that step, and whether
//! it is blocked. Within a call, a thread's code after a recorded step depends only on that
//! step's outcome (a retry loop comes back to the same point with the same locals), and the
//! hidden shared state (the queue's lock holder, the woken flags) follows from the threads'
//! places, so equal keys have equal futures. Every thread can always make another call, so
//! every observed state is reached with every hidden variant the code can be in there, within
//! the bound on read guards ([`MAX_READ_GUARDS`]; see [`at_bound`] for what is left unjudged).
//!
//! **Renaming.** The lock treats its threads alike, so one state of each class of states that
//! differ only by the threads' names is expanded, and its steps are added under every renaming.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashSet, VecDeque};
use std::rc::Rc;
use std::sync::{Arc, Mutex};

use shuttle::scheduler::{Schedule, Scheduler, Task, TaskId};
use task_probe::rt::spawn_named;
use task_probe::{Header, Observed, Probe, Recorder};

use crate::{RwMutex, RwState};

/// Threads of the search (as in the traces).
pub const THREADS: usize = 3;

/// A call of the lock's interface; `Drop` drops the guard taken last.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Call {
    Read,
    TryRead,
    Write,
    TryWrite,
    UpRead,
    TryUpRead,
    Upgrade,
    TryUpgrade,
    Downgrade,
    Drop,
}

use Call::*;

/// Read guards a thread holds at most.
const MAX_READ_GUARDS: usize = 3;

/// The calls a thread may make next, by the guards it holds (kinds, oldest first): with none,
/// or with read guards only, any call that takes a guard (read guards nest; a thread that
/// reads and calls `write()` sleeps for good, as the code does); with the upgradeable guard on
/// top, an upgrade; with the write guard on top, a downgrade; and always dropping the guard
/// taken last. With [`MAX_READ_GUARDS`] read guards, only the drop: the observation is then
/// marked as frontier (see [`at_bound`]).
fn allowed(held: &str) -> &'static [Call] {
    match held.chars().last() {
        None => &[Read, TryRead, Write, TryWrite, UpRead, TryUpRead],
        Some('r') if held.len() < MAX_READ_GUARDS => &[Drop, Read, TryRead, Write, TryWrite, UpRead, TryUpRead],
        Some('u') => &[Drop, Upgrade, TryUpgrade],
        Some('w') => &[Drop, Downgrade],
        _ => &[Drop],
    }
}

/// A thread at the bound of the search: it holds as many read guards as it may, and would
/// have more calls to make in a larger search. An observation is left unjudged (frontier) when
/// a thread is at the bound there, and whenever the count is [`MAX_READ_GUARDS`] or more: such
/// an observation may also be that of a state in which one thread holds more guards than the
/// search lets it. With a count below the bound, every thread holds fewer guards than the bound
/// in every state with that observation, and the code's behaviour depends on the count only
/// through zero, one or more (a failed `write()`, upgrade or downgrade needs one reader, the
/// last reader's wake-up needs exactly one), so no run to it needs a thread with more.
fn at_bound(held: &str) -> bool {
    held.len() >= MAX_READ_GUARDS && held.ends_with('r')
}

/// A guard a thread holds.
enum Guard<'a> {
    R(#[allow(dead_code)] crate::RwMutexReadGuard<'a, u32>),
    W(crate::RwMutexWriteGuard<'a, u32>),
    U(crate::RwMutexUpgradeableGuard<'a, u32>),
}

impl Guard<'_> {
    fn kind(&self) -> char {
        match self {
            Guard::R(_) => 'r',
            Guard::W(_) => 'w',
            Guard::U(_) => 'u',
        }
    }
}

/// Where a thread is: the call it is making (`None` between calls) and the guards it holds.
type Place = (Option<Call>, String);

/// What the threads and the scheduler share in one run: the call each thread makes next (set by
/// the scheduler when it runs a thread that is between calls), and where each thread is.
struct Shared {
    rec: Option<Recorder<RwState>>,
    next: [Option<Call>; THREADS],
    pos: [Place; THREADS],
}

type Sh = Arc<Mutex<Shared>>;

fn lock(sh: &Sh) -> std::sync::MutexGuard<'_, Shared> {
    sh.lock().unwrap_or_else(|p| p.into_inner())
}

/// One call by a thread holding `held`; the guard it takes, if any, goes on top.
fn call<'a>(m: &'a RwMutex<u32>, held: &mut Vec<Guard<'a>>, c: Call) {
    let g = match c {
        Read => Some(Guard::R(m.read())),
        TryRead => m.try_read().map(Guard::R),
        Write => Some(Guard::W(m.write())),
        TryWrite => m.try_write().map(Guard::W),
        UpRead => Some(Guard::U(m.upread())),
        TryUpRead => m.try_upread().map(Guard::U),
        Upgrade => match held.pop() {
            Some(Guard::U(u)) => Some(Guard::W(u.upgrade())),
            other => other,
        },
        TryUpgrade => match held.pop() {
            Some(Guard::U(u)) => Some(match u.try_upgrade() {
                Ok(w) => Guard::W(w),
                Err(u) => Guard::U(u),
            }),
            other => other,
        },
        Downgrade => match held.pop() {
            Some(Guard::W(w)) => Some(Guard::U(w.downgrade())),
            other => other,
        },
        Drop => {
            drop(held.pop());
            None
        }
    };
    held.extend(g);
}

/// One choice of a schedule: run thread `t`; if it is between calls, it makes `call`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Choice {
    t: u8,
    call: Option<Call>,
}

/// A thread's hidden progress as the scheduler follows it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
struct Progress {
    pos: Place,
    /// The last step it recorded in this call: the action and its pc after.
    last: Option<(String, &'static str)>,
    /// Times it stopped since that step (or since the call began).
    stops: u32,
}

/// What a run reached at the end of its schedule.
pub struct Reached {
    /// The observed state.
    state: RwState,
    /// Each thread's hidden progress, as a key.
    hidden: [String; THREADS],
    /// The choices enabled there.
    choices: Vec<Choice>,
    /// The step the last choice recorded, if it recorded one: its action and thread.
    step: Option<(String, usize)>,
    /// A thread is at the bound of the search (see [`at_bound`]).
    bound: bool,
}

/// Runs the code again and again: each run replays a schedule the driver gives (`next`, told
/// what the run before reached), then stops at the next scheduling point and reads the state
/// off.
struct Replay {
    sh: Sh,
    prefix: Vec<Choice>,
    at: usize,
    progress: [Progress; THREADS],
    /// Recorded steps when the last choice was made.
    steps_before_last: u64,
    out: Option<Reached>,
    next: Box<dyn FnMut(Option<Reached>) -> Option<Vec<Choice>>>,
}

impl Replay {
    fn thread_of(id: TaskId) -> Option<usize> {
        let i = usize::from(id);
        (1..=THREADS).contains(&i).then(|| i - 1)
    }

    /// Follows the thread that just ran: its new step, its new call, or one more stop.
    fn follow(&mut self, t: usize, rec: &Recorder<RwState>, steps_seen: &mut u64) {
        let pos = lock(&self.sh).pos[t].clone();
        let steps = rec.steps();
        let step = if steps > *steps_seen {
            let action = rec.last_step().map(|(a, _)| a).unwrap_or_default();
            Some((action, rec.state().pc[t]))
        } else {
            None
        };
        *steps_seen = steps;
        let p = &mut self.progress[t];
        if p.pos != pos {
            *p = Progress { pos, last: step, stops: 0 };
        } else if step.is_some() {
            p.last = step;
            p.stops = 0;
        } else {
            p.stops += 1;
        }
    }
}

thread_local! {
    /// Recorded steps the scheduler has seen so far in this run.
    static SEEN: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

impl Scheduler for Replay {
    fn new_execution(&mut self) -> Option<Schedule> {
        self.prefix = (self.next)(self.out.take())?;
        self.at = 0;
        self.progress = Default::default();
        self.steps_before_last = 0;
        SEEN.with(|s| s.set(0));
        Some(Schedule::new(0))
    }

    fn next_task(&mut self, runnable: &[&Task], current: Option<TaskId>, is_yielding: bool) -> Option<TaskId> {
        let free: Vec<TaskId> = runnable.iter().filter(|t| !t.blocked()).map(|t| t.id()).collect();
        if let Some(c) = current.filter(|c| !is_yielding && free.contains(c)) {
            return Some(c);
        }
        // Before the threads run, the main thread spawns them; then it only yields (so that a
        // run in which every thread is blocked goes on: it is a state with no step).
        let threads: Vec<usize> = free.iter().filter_map(|&id| Self::thread_of(id)).collect();
        if current.is_none_or(|c| usize::from(c) == 0 && !is_yielding) {
            return free.first().copied();
        }
        let rec = lock(&self.sh).rec.clone()?;
        if let Some(t) = current.and_then(Self::thread_of) {
            let mut seen = SEEN.with(|s| s.get());
            self.follow(t, &rec, &mut seen);
            SEEN.with(|s| s.set(seen));
        }
        if self.at < self.prefix.len() {
            let c = self.prefix[self.at];
            self.at += 1;
            if self.at == self.prefix.len() {
                self.steps_before_last = rec.steps();
            }
            let t = usize::from(c.t);
            if !threads.contains(&t) {
                return None;
            }
            if let Some(call) = c.call {
                let mut g = lock(&self.sh);
                g.next[t] = Some(call);
                g.pos[t].0 = Some(call);
            }
            return Some(TaskId::from(t + 1));
        }
        // The end of the schedule: read the state off and stop.
        let state = rec.state();
        let mut choices = Vec::new();
        let pos = lock(&self.sh).pos.clone();
        for &t in &threads {
            match &pos[t] {
                (None, held) => choices.extend(allowed(held).iter().map(|&c| Choice { t: t as u8, call: Some(c) })),
                (Some(_), _) => choices.push(Choice { t: t as u8, call: None }),
            }
        }
        let hidden = std::array::from_fn(|t| {
            let p = &self.progress[t];
            format!("{:?}/{:?}/{}/{}", p.pos, p.last, p.stops, !threads.contains(&t))
        });
        let step = if !self.prefix.is_empty() && rec.steps() > self.steps_before_last { rec.last_step() } else { None };
        let bound = pos.iter().any(|(_, held)| at_bound(held)) || state.readers >= MAX_READ_GUARDS;
        self.out = Some(Reached { state, hidden, choices, step, bound });
        None
    }

    fn next_u64(&mut self) -> u64 {
        0
    }
}

/// Runs the code along each schedule `next` gives, telling it what each run reached.
fn execute_all(next: impl FnMut(Option<Reached>) -> Option<Vec<Choice>> + 'static) {
    let sh: Sh = Arc::new(Mutex::new(Shared { rec: None, next: [None; THREADS], pos: Default::default() }));
    let sched = Replay {
        sh: Arc::clone(&sh),
        prefix: Vec::new(),
        at: 0,
        progress: Default::default(),
        steps_before_last: 0,
        out: None,
        next: Box::new(next),
    };
    let mut config = shuttle::Config::new();
    config.max_steps = shuttle::MaxSteps::None;
    config.silence_warnings = true;
    let body = move || {
        let header = Header {
            task: "rwmutex".to_string(),
            constants: serde_json::json!({ "Threads": [0, 1, 2] }),
            seed: 0,
            scheduler: task_probe::Scheduler::Random,
            source_path: "tasks/rwmutex/src/lib.rs".to_string(),
            source_text: "",
            bug: None,
        };
        let rec = Recorder::new(&header, RwState::new(THREADS));
        *lock(&sh) = Shared { rec: Some(rec.clone()), next: [None; THREADS], pos: Default::default() };
        let m = Arc::new(RwMutex::with_probe(0u32, Probe::on(&rec)));
        let handles: Vec<_> = (0..THREADS)
            .map(|t| {
                let m = Arc::clone(&m);
                let sh = Arc::clone(&sh);
                spawn_named(&t.to_string(), move || {
                    let mut held: Vec<Guard<'_>> = Vec::new();
                    loop {
                        let c = lock(&sh).next[t].take();
                        if let Some(c) = c {
                            call(&m, &mut held, c);
                            lock(&sh).pos[t] = (None, held.iter().map(Guard::kind).collect());
                        }
                        task_probe::rt::thread::yield_now();
                    }
                })
            })
            .collect();
        drop(handles);
        loop {
            task_probe::rt::thread::yield_now();
        }
    };
    task_probe::with_step_yields(|| shuttle::Runner::new(sched, config).run(body));
}

/// The permutations of the threads: the lock treats its threads alike (a thread's number is
/// only its name in the wait queue), so a state with the threads renamed has the same steps,
/// renamed. The search expands one state of each class and adds the steps of the others.
const PERMS: [[usize; THREADS]; 6] = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];

/// The state with thread `t` renamed `p[t]`.
fn rename(s: &RwState, p: &[usize; THREADS]) -> RwState {
    let mut r = s.clone();
    for (t, &to) in p.iter().enumerate() {
        r.pc[to] = s.pc[t];
    }
    r.waiters = s.waiters.iter().map(|&w| p[w]).collect();
    r
}

/// The observed state, compactly (the key of an observation).
fn obs_text(s: &RwState) -> String {
    format!("{}{}{}{}{:?}{:?}", s.writer as u8, s.upreader as u8, s.being_upgraded as u8, s.readers, s.waiters, s.pc)
}

/// The observed state as a trace shows it.
fn obs_json(s: &RwState) -> String {
    let mut out = String::new();
    task_probe::write_canonical(&s.to_json(), &mut out);
    out
}

/// A machine state's key with the threads renamed by `p`.
fn key(r: &Reached, p: &[usize; THREADS]) -> String {
    let mut k = obs_text(&rename(&r.state, p));
    let mut hidden = vec![""; THREADS];
    for t in 0..THREADS {
        hidden[p[t]] = &r.hidden[t];
    }
    for h in hidden {
        k.push('|');
        k.push_str(h);
    }
    k
}

/// 128 bits of a key (two FNV-1a hashes with different offsets): the search keeps these, not
/// the keys.
fn fingerprint(k: &str) -> u128 {
    let h = |mut x: u64| {
        for b in k.as_bytes() {
            x ^= u64::from(*b);
            x = x.wrapping_mul(0x0000_0100_0000_01b3);
        }
        x
    };
    (u128::from(h(0xcbf2_9ce4_8422_2325)) << 64) | u128::from(h(0x8422_2325_cbf2_9ce4))
}

/// The graph the search found: observed states (canonical JSON text), by id, with whether a
/// run starts there, how many machine states with that observation were expanded, and whether
/// one was left unexpanded (frontier); and the steps between them.
#[derive(Default)]
pub struct Found {
    pub states: Vec<(String, bool, u64, bool)>,
    pub edges: Vec<(usize, String, usize, usize)>,
    ids: std::collections::HashMap<String, usize>,
    edge_set: std::collections::HashSet<(usize, String, usize, usize)>,
    /// Machine states expanded, and found in all.
    pub expanded: usize,
    pub machine_states: usize,
}

impl Found {
    /// The id of an observed state (renamed by `p`).
    fn id(&mut self, s: &RwState, p: &[usize; THREADS]) -> usize {
        let s = rename(s, p);
        let k = obs_text(&s);
        if let Some(&i) = self.ids.get(&k) {
            return i;
        }
        let i = self.states.len();
        self.states.push((obs_json(&s), false, 0, false));
        self.ids.insert(k, i);
        i
    }
}

/// A state being expanded: its node, what it is, its observation renamed each way, the
/// schedule that reaches it, and how many of its choices were tried.
type Expanding = (usize, Reached, Vec<usize>, Vec<Choice>, usize);

/// The search's state between runs.
struct Driver {
    found: Found,
    max_states: usize,
    /// Per machine state: its parent and the choice that leads there.
    nodes: Vec<(u32, Choice)>,
    seen: HashSet<u128>,
    pending: VecDeque<(usize, Reached)>,
    cur: Option<Expanding>,
    started: bool,
}

impl Driver {
    /// Takes in what the last run reached; the next schedule to run.
    fn next(&mut self, prev: Option<Reached>) -> Option<Vec<Choice>> {
        if !self.started {
            self.started = true;
            return Some(Vec::new());
        }
        let r = prev?;
        let found = &mut self.found;
        match &self.cur {
            None => {
                // The initial state.
                for p in &PERMS {
                    self.seen.insert(fingerprint(&key(&r, p)));
                    let id = found.id(&r.state, p);
                    found.states[id].1 = true;
                }
                self.pending.push_back((0, r));
            }
            Some((n, here, renamed, _, i)) => {
                if let Some((action, t)) = &r.step {
                    for (k, p) in PERMS.iter().enumerate() {
                        let to = found.id(&r.state, p);
                        let e = (renamed[k], action.clone(), p[*t], to);
                        if found.edge_set.insert(e.clone()) {
                            found.edges.push(e);
                        }
                    }
                }
                let fps: Vec<u128> = PERMS.iter().map(|p| fingerprint(&key(&r, p))).collect();
                if !fps.iter().any(|f| self.seen.contains(f)) {
                    self.seen.extend(fps);
                    self.nodes.push((*n as u32, here.choices[*i - 1]));
                    self.pending.push_back((self.nodes.len() - 1, r));
                }
            }
        }
        loop {
            if let Some((_, here, _, prefix, i)) = self.cur.as_mut().filter(|c| c.4 < c.1.choices.len()) {
                let mut p = prefix.clone();
                p.push(here.choices[*i]);
                *i += 1;
                return Some(p);
            }
            let (n, here) = self.pending.pop_front()?;
            let found = &mut self.found;
            let renamed: Vec<usize> = PERMS.iter().map(|p| found.id(&here.state, p)).collect();
            if self.nodes.len() > self.max_states {
                for &id in &renamed {
                    found.states[id].3 = true;
                }
                self.cur = None;
                continue;
            }
            found.expanded += 1;
            if here.bound {
                for &id in &renamed {
                    found.states[id].3 = true;
                }
            }
            // Each machine state of the class counts once.
            let class: BTreeMap<String, usize> = PERMS.iter().zip(&renamed).map(|(p, &id)| (key(&here, p), id)).collect();
            for id in class.into_values() {
                found.states[id].2 += 1;
            }
            let mut prefix = Vec::new();
            let mut m = n;
            while m != 0 {
                prefix.push(self.nodes[m].1);
                m = self.nodes[m].0 as usize;
            }
            prefix.reverse();
            self.cur = Some((n, here, renamed, prefix, 0));
        }
    }
}

/// The search, breadth first, of at most `max_states` machine states (up to renaming the
/// threads); a state past the bound is not expanded and its observation is marked frontier.
pub fn search(max_states: usize) -> Found {
    let driver = Rc::new(RefCell::new(Driver {
        found: Found::default(),
        max_states,
        nodes: vec![(u32::MAX, Choice { t: 0, call: None })],
        seen: HashSet::new(),
        pending: VecDeque::new(),
        cur: None,
        started: false,
    }));
    let d = Rc::clone(&driver);
    execute_all(move |prev| d.borrow_mut().next(prev));
    let mut d = driver.borrow_mut();
    d.found.machine_states = d.nodes.len();
    std::mem::take(&mut d.found)
}
