//! PGo's distributed queue: one producer and `NUM_CONSUMERS` consumers. A consumer asks the
//! producer for an item by sending its own id; the producer takes requests one at a time from
//! its mailbox and answers each requester with the next item of its stream.
//!
//! Written in the shape the PGo compiler gives a Modular PlusCal system: each archetype is a
//! state machine whose steps are the MPCal labels (a step is one critical section: it either
//! completes or, when one of its reads or writes must wait, does not start); its state sits in
//! named resources; the network is reached only through the `TCPChannel` mapping of
//! `network[_]` and the stream only through the `CyclicReads` mapping of `stream`.
//!
//! ```text
//! archetype AConsumer(ref net[_], ref proc)       archetype AProducer(ref net[_], ref s)
//!   c:  while (TRUE) {                              variable requester;
//!   c1:   net[PRODUCER] := self;                    p:  while (TRUE) {
//!   c2:   proc := net[self];                        p1:   requester := net[self];
//!       }                                           p2:   net[requester] := s;
//!                                                       }
//! ```
//!
//! The processes run on [`simnet`]: `network[id]` is node `id`'s mailbox, the messages in flight
//! to it in the order they were sent, whoever sent them ([`Order::FifoPerReceiver`]). The network
//! is reliable (PGo's TCP mailboxes neither lose nor reorder).

use simnet::{Delivery, Message, Network, NodeId, Order, Process};

/// The producer's id (the MPCal constant `PRODUCER`); consumers are `1..=NUM_CONSUMERS`.
pub const PRODUCER: NodeId = 0;

/// The constants of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Constants {
    /// `BUFFER_SIZE`: a mailbox holds at most this many values, and the stream counts modulo it.
    pub buffer_size: u64,
    /// `NUM_CONSUMERS`.
    pub num_consumers: u64,
}

/// The system's one fault, switched on for the bug traces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bug {
    None,
    /// The producer treats a zero item as "nothing to send": at `p2` it reads the stream and,
    /// when the item is 0, goes back to `p` without writing it. The request was taken from the
    /// mailbox at `p1` (acknowledged) but is never answered; its consumer waits at `c2` for ever.
    ZeroItemUnanswered,
}

/// A value written to `network[to]` by `from`: a request (the consumer's id) or an item.
pub type Msg = Message<u64>;

/// The MPCal labels: an archetype's program counter, and the name of the step that leaves it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Label {
    C,
    C1,
    C2,
    P,
    P1,
    P2,
}

impl Label {
    pub const ALL: [Label; 6] = [Label::C, Label::C1, Label::C2, Label::P, Label::P1, Label::P2];

    pub fn name(self) -> &'static str {
        match self {
            Label::C => "c",
            Label::C1 => "c1",
            Label::C2 => "c2",
            Label::P => "p",
            Label::P1 => "p1",
            Label::P2 => "p2",
        }
    }
}

/// The `TCPChannel` mapping macro over `network[_]`: reading `net[id]` waits until node `id`'s
/// mailbox holds a value and takes its head; writing `net[id]` waits while the mailbox holds
/// `BUFFER_SIZE` values and appends.
pub struct TcpChannel;

impl TcpChannel {
    pub fn can_read(net: &Network<Msg>, id: NodeId) -> bool {
        net.next_for(id).is_some()
    }

    pub fn read(net: &mut Network<Msg>, id: NodeId) -> Option<u64> {
        match net.take(net.next_for(id)?) {
            Delivery::Delivered(m) => Some(m.body),
            Delivery::Lost | Delivery::Blocked => None,
        }
    }

    pub fn can_write(net: &Network<Msg>, k: &Constants, to: NodeId) -> bool {
        (net.addressed_to(to).count() as u64) < k.buffer_size
    }

    pub fn write(net: &mut Network<Msg>, from: NodeId, to: NodeId, value: u64) {
        net.send(Msg { from, to, body: value });
    }
}

/// The `CyclicReads` mapping macro over the producer's `stream` resource: a read advances the
/// stream by one modulo `BUFFER_SIZE` and yields the new value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CyclicReads {
    pub value: u64,
}

impl CyclicReads {
    pub fn read(&mut self, k: &Constants) -> u64 {
        self.value = (self.value + 1) % k.buffer_size;
        self.value
    }
}

/// Archetype `AConsumer(ref net[_], ref proc)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AConsumer {
    pub pc: Label,
    /// The `proc` resource: the last item this consumer processed (0 before the first).
    pub proc: u64,
}

/// Archetype `AProducer(ref net[_], ref s)` with its local `requester`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AProducer {
    pub pc: Label,
    /// The consumer whose request is being answered (0 before the first request).
    pub requester: u64,
    /// The `s` resource, the stream of items.
    pub s: CyclicReads,
    pub bug: Bug,
}

/// One process of the system: an instance of either archetype, with the run's constants.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Archetype {
    pub k: Constants,
    pub role: Role,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    Consumer(AConsumer),
    Producer(AProducer),
}

impl Archetype {
    pub fn consumer(k: Constants) -> Archetype {
        Archetype { k, role: Role::Consumer(AConsumer { pc: Label::C, proc: 0 }) }
    }

    pub fn producer(k: Constants, bug: Bug) -> Archetype {
        Archetype { k, role: Role::Producer(AProducer { pc: Label::P, requester: 0, s: CyclicReads { value: 0 }, bug }) }
    }

    /// The label the process stands at.
    pub fn pc(&self) -> Label {
        match &self.role {
            Role::Consumer(c) => c.pc,
            Role::Producer(p) => p.pc,
        }
    }
}

impl Process for Archetype {
    type Msg = Msg;
    type Label = Label;

    /// One step at most: the one at the process's label, when none of its reads or writes waits.
    fn enabled(&self, id: NodeId, net: &Network<Msg>) -> Vec<Label> {
        let k = &self.k;
        let ready = match &self.role {
            Role::Consumer(c) => match c.pc {
                Label::C => true,
                Label::C1 => TcpChannel::can_write(net, k, PRODUCER),
                Label::C2 => TcpChannel::can_read(net, id),
                _ => false,
            },
            Role::Producer(p) => match p.pc {
                Label::P => true,
                Label::P1 => TcpChannel::can_read(net, id),
                Label::P2 => TcpChannel::can_write(net, k, p.requester),
                _ => false,
            },
        };
        if ready { vec![self.pc()] } else { vec![] }
    }

    fn step(&mut self, id: NodeId, label: &Label, net: &mut Network<Msg>) {
        let k = self.k;
        match &mut self.role {
            Role::Consumer(c) => match label {
                // c: while (TRUE)
                Label::C => c.pc = Label::C1,
                // c1: net[PRODUCER] := self
                Label::C1 => {
                    TcpChannel::write(net, id, PRODUCER, id);
                    c.pc = Label::C2;
                }
                // c2: proc := net[self]
                Label::C2 => {
                    if let Some(item) = TcpChannel::read(net, id) {
                        c.proc = item;
                        c.pc = Label::C;
                    }
                }
                _ => {}
            },
            Role::Producer(p) => match label {
                // p: while (TRUE)
                Label::P => p.pc = Label::P1,
                // p1: requester := net[self]
                Label::P1 => {
                    if let Some(who) = TcpChannel::read(net, id) {
                        p.requester = who;
                        p.pc = Label::P2;
                    }
                }
                // p2: net[requester] := s
                Label::P2 => {
                    let item = p.s.read(&k);
                    if !(p.bug == Bug::ZeroItemUnanswered && item == 0) {
                        TcpChannel::write(net, id, p.requester, item);
                    }
                    p.pc = Label::P;
                }
                _ => {}
            },
        }
    }

    /// PGo archetypes keep nothing across a restart; the stream is outside the process.
    fn restarted(&self) -> Archetype {
        match &self.role {
            Role::Consumer(_) => Archetype::consumer(self.k),
            Role::Producer(p) => {
                let mut a = Archetype::producer(self.k, p.bug);
                if let Role::Producer(q) = &mut a.role {
                    q.s = p.s.clone();
                }
                a
            }
        }
    }
}

/// The whole system at its start: the producer (id 0), then consumers `1..=NUM_CONSUMERS`,
/// every mailbox empty, on a reliable network.
pub fn system(k: Constants, bug: Bug) -> simnet::Sim<Archetype> {
    let mut procs = vec![(PRODUCER, Archetype::producer(k, bug))];
    procs.extend((1..=k.num_consumers).map(|c| (c, Archetype::consumer(k))));
    simnet::Sim::new(procs, Network::new(Order::FifoPerReceiver), simnet::Faults::NONE)
}
