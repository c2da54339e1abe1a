//! The simulated network: the PRNG's sequence is fixed, each delivery order holds, each fault
//! does what it says, a simulation is a deterministic state machine whose graph can be walked,
//! and a seed fixes a random run.

use simnet::{Applied, Delivery, Envelope, Faults, Network, NodeId, Order, Process, Rng, Sim, Step, Timer};
use std::collections::{BTreeSet, HashSet, VecDeque};

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Msg {
    from: NodeId,
    to: NodeId,
    n: u64,
}

impl Envelope for Msg {
    fn src(&self) -> NodeId {
        self.from
    }
    fn dst(&self) -> NodeId {
        self.to
    }
}

fn m(from: NodeId, to: NodeId, n: u64) -> Msg {
    Msg { from, to, n }
}

fn ns(net: &Network<Msg>) -> Vec<u64> {
    net.in_flight().iter().map(|m| m.n).collect()
}

/// splitmix64's first three outputs for seed 1, computed apart from this crate.
const FIRST_OF_SEED_1: [u64; 3] = [0x1ac0_46dd_a8e8_6e2a, 0xbe2c_3b00_b1d3_48c8, 0x9b1a_66a9_5412_ff75];

#[test]
fn the_prng_sequence_is_fixed_by_the_seed() {
    // The traces of every distributed task depend on these numbers: they must never change.
    let mut r = Rng::new(1);
    let first: Vec<u64> = (0..3).map(|_| r.next_u64()).collect();
    assert_eq!(first, FIRST_OF_SEED_1);
    let mut a = Rng::new(42);
    let mut b = Rng::new(42);
    let mut c = Rng::new(43);
    let xs: Vec<u64> = (0..100).map(|_| a.next_u64()).collect();
    let ys: Vec<u64> = (0..100).map(|_| b.next_u64()).collect();
    let zs: Vec<u64> = (0..100).map(|_| c.next_u64()).collect();
    assert_eq!(xs, ys);
    assert_ne!(xs, zs);
    let mut r = Rng::new(7);
    for _ in 0..1000 {
        assert!(r.below(6) < 6);
        assert_eq!(r.below(0), 0);
    }
    let mut r = Rng::new(9);
    let hits = (0..10_000).filter(|_| r.chance(30)).count();
    assert!((2_700..3_300).contains(&hits), "{hits}");
    assert_eq!(r.pick::<u8>(&[]), None);
}

#[test]
fn splitmix_matches_its_definition() {
    // splitmix64 from the state `seed ^ 0x6a09e667f3bcc909`, written out once more by hand.
    let mut state: u64 = 5 ^ 0x6a09_e667_f3bc_c909;
    let mut r = Rng::new(5);
    for _ in 0..50 {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        assert_eq!(r.next_u64(), z ^ (z >> 31));
    }
}

#[test]
fn any_order_delivers_any_message() {
    let mut net = Network::new(Order::Any);
    for (k, (a, b)) in [(1, 2), (1, 2), (3, 2)].into_iter().enumerate() {
        assert!(net.send(m(a, b, k as u64)));
    }
    assert_eq!(net.deliverable(), [0, 1, 2]);
    assert_eq!(net.take(1), Delivery::Delivered(m(1, 2, 1)));
    assert_eq!(ns(&net), [0, 2]);
    assert_eq!(net.take(5), Delivery::Blocked);
    assert_eq!(net.delivered(), 1);
}

#[test]
fn fifo_per_link_holds_back_later_messages_of_a_link() {
    let mut net = Network::new(Order::FifoPerLink);
    net.send(m(1, 2, 0));
    net.send(m(3, 2, 1));
    net.send(m(1, 2, 2));
    net.send(m(2, 1, 3));
    assert_eq!(net.deliverable(), [0, 1, 3]);
    assert_eq!(net.take(2), Delivery::Blocked);
    assert_eq!(ns(&net), [0, 1, 2, 3], "a blocked take changes nothing");
    assert_eq!(net.take(1), Delivery::Delivered(m(3, 2, 1)), "another link may overtake");
    assert_eq!(net.take(0), Delivery::Delivered(m(1, 2, 0)));
    assert_eq!(net.deliverable(), [0, 1]);
    assert_eq!(net.take(0), Delivery::Delivered(m(1, 2, 2)));
}

#[test]
fn fifo_per_receiver_is_one_mailbox_per_node() {
    let mut net = Network::new(Order::FifoPerReceiver);
    net.send(m(1, 0, 10));
    net.send(m(2, 0, 20));
    net.send(m(0, 1, 30));
    assert_eq!(net.deliverable(), [0, 2]);
    assert_eq!(net.addressed_to(0).map(|m| m.n).collect::<Vec<_>>(), [10, 20]);
    assert_eq!(net.next_for(0), Some(0));
    assert_eq!(net.take(1), Delivery::Blocked, "the second request waits for the first");
    assert_eq!(net.take(0), Delivery::Delivered(m(1, 0, 10)));
    assert_eq!(net.next_for(0), Some(0));
    assert_eq!(net.next_for(7), None);
}

#[test]
fn loss_and_duplication() {
    let mut net = Network::new(Order::Any);
    net.send(m(1, 2, 0));
    net.send(m(1, 2, 1));
    assert!(net.drop(0));
    assert!(!net.drop(4));
    assert_eq!(ns(&net), [1]);
    assert_eq!(net.lost(), 1);
    assert!(net.duplicate(0));
    assert!(!net.duplicate(3));
    assert_eq!(ns(&net), [1, 1]);
    assert_eq!(net.duplicated(), 1);
    assert_eq!(net.take(1), Delivery::Delivered(m(1, 2, 1)));
    assert_eq!(net.take(0), Delivery::Delivered(m(1, 2, 1)), "the copy arrives too");
}

#[test]
fn partitions_lose_messages_both_at_sending_and_in_flight() {
    let all = [1, 2, 3];
    let mut net = Network::new(Order::Any);
    net.send(m(1, 2, 0));
    net.partition(&[1], &all);
    assert!(net.is_cut(1, 2) && net.is_cut(2, 1) && net.is_cut(3, 1) && !net.is_cut(2, 3));
    assert!(!net.send(m(1, 3, 1)), "sent on a cut link: lost at once");
    assert!(net.send(m(2, 3, 2)));
    assert_eq!(net.take(0), Delivery::Lost, "in flight when the link was cut");
    assert_eq!(net.lost(), 2);
    assert_eq!(net.take(0), Delivery::Delivered(m(2, 3, 2)));
    net.heal();
    assert!(!net.is_cut(1, 2));
    assert!(net.send(m(1, 3, 3)));
    net.cut(3, 1);
    assert!(net.is_cut(3, 1) && !net.is_cut(1, 3), "a cut is one way");
    assert_eq!(net.take(0), Delivery::Delivered(m(1, 3, 3)));
}

#[test]
fn a_crashed_node_loses_what_is_delivered_to_it() {
    let mut net = Network::new(Order::Any);
    net.send(m(1, 2, 0));
    net.send(m(1, 3, 1));
    net.crash(2);
    assert!(!net.is_up(2));
    assert_eq!(net.take(0), Delivery::Lost);
    net.restart(2);
    assert!(net.is_up(2));
    net.send(m(1, 2, 2));
    assert_eq!(net.take(1), Delivery::Delivered(m(1, 2, 2)));
}

#[test]
fn a_restart_loses_messages_to_the_node_as_the_seed_says() {
    let run = |seed| {
        let mut net = Network::new(Order::Any);
        for n in 0..40 {
            net.send(m(1, 2 + n % 2, n));
        }
        let mut rng = Rng::new(seed);
        net.lose_addressed_to(2, 50, &mut rng);
        (ns(&net), net.lost())
    };
    let (kept, lost) = run(3);
    assert_eq!(run(3), (kept.clone(), lost));
    assert!(lost > 5 && lost < 15, "{lost} of 20");
    assert_eq!(kept.iter().filter(|n| *n % 2 == 1).count(), 20, "messages to others stay");
    assert!(kept.windows(2).all(|w| w[0] < w[1]), "order kept");
    assert_ne!(run(4).0, kept);
}

#[test]
fn sorting_in_flight_makes_bags_equal_and_keeps_fifo_orders() {
    let (mut a, mut b) = (Network::new(Order::Any), Network::new(Order::Any));
    for k in [2, 0, 1] {
        a.send(m(1, 2, k));
    }
    for k in [1, 2, 0] {
        b.send(m(1, 2, k));
    }
    assert_ne!(a, b);
    a.sort_in_flight();
    b.sort_in_flight();
    assert_eq!(a, b);
    assert_eq!(ns(&a), [0, 1, 2]);
    let mut f = Network::new(Order::FifoPerReceiver);
    for k in [2, 0, 1] {
        f.send(m(1, 2, k));
    }
    f.sort_in_flight();
    assert_eq!(ns(&f), [2, 0, 1]);
}

#[test]
fn networks_are_equal_by_their_state_not_their_counters() {
    let mut a = Network::new(Order::Any);
    let mut b = Network::new(Order::Any);
    a.send(m(1, 2, 0));
    a.drop(0);
    assert_eq!(a, b);
    b.crash(1);
    assert_ne!(a, b);
    assert_ne!(Network::<Msg>::new(Order::Any), Network::new(Order::FifoPerLink));
}

#[test]
fn timers_fire_once_after_their_ticks() {
    let mut t = Timer::new();
    assert!(!t.is_armed() && !t.tick());
    t.arm(3);
    assert_eq!(t.remaining(), Some(3));
    assert_eq!([t.tick(), t.tick(), t.tick(), t.tick()], [false, false, true, false]);
    assert!(!t.is_armed());
    t.arm(0);
    assert!(t.tick());
    t.arm(2);
    t.disarm();
    assert!(!t.tick() && !t.tick());
}

/// A small system for the simulation tests: node 1 sends numbered pings to node 2 until it has
/// sent `LIMIT`; node 2 answers each with a pong; node 1 counts the pongs. Once node 1's timer
/// has fired and nothing is in flight, it sends its oldest unanswered ping again; it forgets
/// everything on a restart but what it sent (its disk).
const LIMIT: u64 = 2;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Node {
    Pinger { sent: u64, pongs: BTreeSet<u64>, timer: Timer },
    Ponger { answered: u64 },
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Label {
    Ping,
    Resend,
    Tick,
    /// Take the `k`-th message in flight, addressed to this node.
    Receive(usize),
}

impl Process for Node {
    type Msg = Msg;
    type Label = Label;

    fn enabled(&self, id: NodeId, net: &Network<Msg>) -> Vec<Label> {
        let mut v = vec![];
        if let Node::Pinger { sent, timer, pongs } = self {
            if *sent < LIMIT {
                v.push(Label::Ping);
            }
            if timer.is_armed() {
                v.push(Label::Tick);
            } else if (pongs.len() as u64) < *sent && net.is_empty() {
                v.push(Label::Resend);
            }
        }
        v.extend(net.deliverable().into_iter().filter(|&k| net.in_flight()[k].to == id).map(Label::Receive));
        v
    }

    fn step(&mut self, id: NodeId, label: &Label, net: &mut Network<Msg>) {
        match (self, label) {
            (Node::Pinger { sent, timer, .. }, Label::Ping) => {
                *sent += 1;
                net.send(m(id, 2, *sent));
                timer.arm(2);
            }
            (Node::Pinger { timer, .. }, Label::Tick) => {
                timer.tick();
            }
            (Node::Pinger { sent, pongs, timer }, Label::Resend) => {
                let n = (1..=*sent).find(|n| !pongs.contains(n)).unwrap_or(1);
                net.send(m(id, 2, n));
                timer.arm(2);
            }
            (me, Label::Receive(k)) => {
                let simnet::Delivery::Delivered(msg) = net.take(*k) else { return };
                match me {
                    Node::Pinger { pongs, .. } => {
                        pongs.insert(msg.n);
                    }
                    Node::Ponger { answered } => {
                        // Counted up to 4, so that a cut link's endless resends keep the graph finite.
                        *answered = (*answered + 1).min(4);
                        net.send(m(id, msg.from, msg.n));
                    }
                }
            }
            _ => {}
        }
    }

    fn restarted(&self) -> Node {
        match self {
            Node::Pinger { sent, .. } => Node::Pinger { sent: *sent, pongs: BTreeSet::new(), timer: Timer::new() },
            Node::Ponger { .. } => Node::Ponger { answered: 0 },
        }
    }
}

fn system(order: Order, faults: Faults) -> Sim<Node> {
    Sim::new(
        vec![(1, Node::Pinger { sent: 0, pongs: BTreeSet::new(), timer: Timer::new() }), (2, Node::Ponger { answered: 0 })],
        Network::new(order),
        faults,
    )
}

fn pongs(s: &Sim<Node>) -> usize {
    match s.process(1) {
        Some(Node::Pinger { pongs, .. }) => pongs.len(),
        _ => 0,
    }
}

/// Every state reachable from `s` (breadth first over `enabled` and `apply`).
fn reachable(s: Sim<Node>) -> HashSet<Sim<Node>> {
    let mut seen = HashSet::new();
    let mut queue = VecDeque::from([s.clone()]);
    seen.insert(s);
    while let Some(s) = queue.pop_front() {
        for step in s.enabled() {
            let mut t = s.clone();
            assert_eq!(t.apply(&step), Applied::Taken, "{step:?}");
            if seen.insert(t.clone()) {
                queue.push_back(t);
                assert!(seen.len() < 200_000, "the graph must be finite");
            }
        }
    }
    seen
}

#[test]
fn a_simulation_lists_its_steps_in_a_fixed_order_and_refuses_others() {
    let mut s = system(Order::FifoPerLink, Faults { loss: true, duplication: true, crash: true, partition: true, budget: 1 });
    assert_eq!(
        s.enabled(),
        [
            Step::Local { node: 1, label: Label::Ping },
            Step::Crash(1),
            Step::Crash(2),
            Step::Cut(1, 2),
            Step::Cut(2, 1)
        ]
    );
    assert_eq!(s.apply(&Step::Local { node: 2, label: Label::Receive(0) }), Applied::NotEnabled);
    assert_eq!(s.apply(&Step::Drop(0)), Applied::NotEnabled);
    assert_eq!(s.apply(&Step::Local { node: 1, label: Label::Ping }), Applied::Taken);
    assert!(s.enabled().contains(&Step::Drop(0)) && s.enabled().contains(&Step::Duplicate(0)));
    assert_eq!(s.apply(&Step::Crash(2)), Applied::Taken);
    assert_eq!(s.faults_left(), 0);
    let e = s.enabled();
    assert!(e.contains(&Step::Restart(2)), "a restart needs no budget");
    assert!(!e.iter().any(|x| matches!(x, Step::Drop(_) | Step::Crash(_) | Step::Cut(..))), "{e:?}");
    assert!(!e.iter().any(|x| matches!(x, Step::Local { node: 2, .. })), "a crashed node takes no step");
    assert_eq!(s.apply(&Step::Restart(2)), Applied::Taken);
    assert_eq!(s.apply(&Step::Local { node: 2, label: Label::Receive(0) }), Applied::Taken);
    assert_eq!(s.apply(&Step::Local { node: 1, label: Label::Receive(0) }), Applied::Taken);
    assert_eq!(pongs(&s), 1);
}

#[test]
fn the_graph_of_a_reliable_system_is_finite_and_every_run_ends_answered() {
    let all = reachable(system(Order::FifoPerLink, Faults::NONE));
    let ends: Vec<&Sim<Node>> = all.iter().filter(|s| s.enabled().iter().all(|st| matches!(st, Step::Local { label: Label::Tick, .. }))).collect();
    assert!(!ends.is_empty());
    assert!(ends.iter().all(|s| pongs(s) == LIMIT as usize), "without faults every ping is answered");
    // The same walk twice gives the same graph.
    assert_eq!(reachable(system(Order::FifoPerLink, Faults::NONE)).len(), all.len());
}

#[test]
fn each_fault_adds_the_behaviours_it_should() {
    let base = reachable(system(Order::FifoPerLink, Faults::NONE)).len();
    let with = |f: Faults| reachable(system(Order::FifoPerLink, Faults { budget: 1, ..f }));
    // Loss: a ping or pong can vanish; the resend timer then makes up for it.
    let loss = with(Faults { loss: true, ..Faults::NONE });
    assert!(loss.len() > base);
    assert!(loss.iter().any(|s| s.net.lost() == 1 && s.faults_left() == 0));
    // Duplication: the ponger can answer one ping twice.
    let dup = with(Faults { duplication: true, ..Faults::NONE });
    assert!(dup.iter().any(|s| matches!(s.process(2), Some(Node::Ponger { answered: 3.. }))));
    assert!(!reachable(system(Order::FifoPerLink, Faults::NONE)).iter().any(|s| matches!(s.process(2), Some(Node::Ponger { answered: 3.. }))));
    // Crash and restart: the pinger forgets its pongs but not what it sent.
    let crash = with(Faults { crash: true, ..Faults::NONE });
    assert!(crash.iter().any(|s| !s.net.is_up(1)));
    assert!(crash.iter().any(|s| s.net.is_up(1)
        && s.faults_left() == 0
        && matches!(s.process(1), Some(Node::Pinger { sent: 2, pongs, .. }) if pongs.is_empty())
        && s.net.is_empty()));
    // Partition: a cut link loses what is sent on it until the heal.
    let part = with(Faults { partition: true, ..Faults::NONE });
    assert!(part.iter().any(|s| s.net.is_cut(2, 1)));
    assert!(part.iter().any(|s| s.net.lost() > 0));
}

#[test]
fn any_order_reorders_what_fifo_keeps_in_order() {
    // Two pings in flight on one link: under FIFO the ponger answers 1 first, under Any either.
    let first_answer = |order| {
        let all = reachable(system(order, Faults::NONE));
        all.iter()
            .filter_map(|s| match s.process(2) {
                Some(Node::Ponger { answered: 1 }) => s.net.in_flight().iter().find(|m| m.to == 1).map(|m| m.n),
                _ => None,
            })
            .collect::<BTreeSet<u64>>()
    };
    assert_eq!(first_answer(Order::FifoPerLink), BTreeSet::from([1]));
    assert_eq!(first_answer(Order::Any), BTreeSet::from([1, 2]));
}

#[test]
fn a_seed_fixes_a_random_run() {
    let run = |seed| {
        let mut rng = Rng::new(seed);
        let mut s = system(Order::Any, Faults { loss: true, duplication: true, crash: true, partition: true, budget: 6 });
        let mut steps = vec![];
        while let Some(st) = s.random_step(&mut rng, 20) {
            steps.push(st);
            if steps.len() == 60 {
                break;
            }
        }
        (steps, s)
    };
    for seed in 0..20 {
        let (a, sa) = run(seed);
        let (b, sb) = run(seed);
        assert_eq!(a, b);
        assert_eq!(sa, sb);
    }
    let distinct: BTreeSet<String> = (0..20).map(|seed| format!("{:?}", run(seed).0)).collect();
    assert!(distinct.len() > 15, "{} distinct runs of 20", distinct.len());
    let faults: usize = (0..20).map(|seed| run(seed).0.iter().filter(|s| !s.is_local()).count()).sum();
    assert!(faults > 10, "{faults} faults in 20 runs");
}

#[test]
fn a_bag_offers_each_distinct_message_and_gives_up_one_copy() {
    use simnet::Message;
    let mut net: Network<Message<char>> = Network::new(Order::Any);
    for body in ['b', 'a', 'b'] {
        net.send(Message { from: 1, to: 2, body });
    }
    net.send(Message { from: 1, to: 3, body: 'c' });
    let bag = net.bag_of(2);
    assert_eq!(bag.iter().map(|m| m.body).collect::<String>(), "ab", "distinct and sorted");
    assert!(matches!(net.take_copy(&Message { from: 1, to: 2, body: 'b' }), Delivery::Delivered(m) if m.body == 'b'));
    assert_eq!(net.bag_of(2).len(), 2, "one copy of b is left, beside a");
    assert_eq!(net.len(), 3);
    assert!(matches!(net.take_copy(&Message { from: 1, to: 2, body: 'z' }), Delivery::Blocked), "no such message");
    net.crash(3);
    assert!(matches!(net.take_copy(&Message { from: 1, to: 3, body: 'c' }), Delivery::Lost), "its receiver is down");
}
