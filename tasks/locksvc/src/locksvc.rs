//! PGo's lock service: one server (id `SERVER_ID` = 0) and `NUM_CLIENTS` clients (ids
//! `1..=NUM_CLIENTS`). A client asks the server for the lock, waits for a grant, holds its
//! critical section and gives the lock back; the server keeps a queue of the clients that asked,
//! the head being the holder, and grants the lock to the new head whenever the holder leaves.
//!
//! Written in the shape the PGo compiler gives a Modular PlusCal system: each archetype is a
//! state machine whose steps are the MPCal labels (a step either completes or, when its read
//! must wait, does not start); its state sits in named resources (`network[_]`, `hasLock[_]`,
//! the server's locals `msg` and `q`); the network is reached only through the `ReliableLink`
//! mapping of `network[_]`.
//!
//! ```text
//! archetype AServer(ref network[_])                archetype AClient(ref network[_], ref hasLock[_])
//!   variables msg, q = <<>>;                         acquireLock:
//!   serverLoop: while (TRUE) {                         network[SERVER_ID] := [from |-> self, type |-> Lock];
//!   serverReceive: msg := network[self];             criticalSection:
//!   serverRespond:                                     await network[self] = Grant;
//!     if (msg.type = Lock) {                           hasLock[self] := TRUE;
//!       if (q = <<>>) network[msg.from] := Grant;    unlock:
//!       q := Append(q, msg.from);                      hasLock[self] := FALSE;
//!     } else if (msg.type = Unlock) {                  network[SERVER_ID] := [from |-> self, type |-> Unlock];
//!       q := Tail(q);                                (then Done: a client locks once)
//!       if (q # <<>>) network[Head(q)] := Grant;
//!     }
//!   }
//! ```
//!
//! The processes run on [`simnet`]: `network[id]` is node `id`'s mailbox, a bag: a read takes
//! any one of the messages addressed to the node ([`Order::Any`]), and a write never waits. The
//! network is reliable: nothing is lost or duplicated.

use simnet::{Delivery, Message, Network, NodeId, Order, Process};

/// The server's id (MPCal's `ServerID`); clients are `1..=NUM_CLIENTS`.
pub const SERVER_ID: NodeId = 0;

/// The constants of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Constants {
    /// `NumClients`.
    pub num_clients: u64,
}

/// The system's one fault, switched on for the bug traces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bug {
    None,
    /// An off-by-one in the server's lock request handling: it grants the lock when the queue
    /// holds at most one client instead of none. The second client to ask is granted the lock
    /// while the first (the head of the queue) still holds it: two clients are in their critical
    /// sections at once, and the second is granted again when the first unlocks.
    GrantToSecondWaiter,
}

/// What a message says: MPCal's `LockMsg`, `UnlockMsg` (records with the sender) and
/// `GrantMsg` (the plain value 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Body {
    Lock,
    Unlock,
    Grant,
}

impl Body {
    /// MPCal's encoding: `LockMsg == 1`, `UnlockMsg == 2`, `GrantMsg == 3`.
    pub fn code(self) -> u64 {
        match self {
            Body::Lock => 1,
            Body::Unlock => 2,
            Body::Grant => 3,
        }
    }
}

/// A value written to `network[to]` by `from`.
pub type Msg = Message<Body>;

/// The MPCal labels: an archetype's program counter, and the name of the step that leaves it
/// (`Done` is where a client stops; no step leaves it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Label {
    ServerLoop,
    ServerReceive,
    ServerRespond,
    AcquireLock,
    CriticalSection,
    Unlock,
    Done,
}

impl Label {
    /// The labels that name steps, server's first.
    pub const STEPS: [Label; 6] =
        [Label::ServerLoop, Label::ServerReceive, Label::ServerRespond, Label::AcquireLock, Label::CriticalSection, Label::Unlock];

    pub fn name(self) -> &'static str {
        match self {
            Label::ServerLoop => "serverLoop",
            Label::ServerReceive => "serverReceive",
            Label::ServerRespond => "serverRespond",
            Label::AcquireLock => "acquireLock",
            Label::CriticalSection => "criticalSection",
            Label::Unlock => "unlock",
            Label::Done => "Done",
        }
    }
}

/// A step the scheduler may pick: the label, and for a step that reads a bag mailbox the
/// message it takes (a bag may hand over any of its messages).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Action {
    pub label: Label,
    pub take: Option<Msg>,
}

/// The `ReliableLink` mapping macro over `network[_]`: a read waits until node `id`'s bag holds
/// a message and takes any one of them; a write adds to the bag and never waits.
pub struct ReliableLink;

impl ReliableLink {
    /// The distinct messages a read of `network[id]` may take, in a fixed order.
    pub fn readable(net: &Network<Msg>, id: NodeId) -> Vec<Msg> {
        net.bag_of(id)
    }

    /// Takes one copy of `m` from its receiver's bag.
    pub fn read(net: &mut Network<Msg>, m: &Msg) -> Option<Msg> {
        match net.take_copy(m) {
            Delivery::Delivered(m) => Some(m),
            Delivery::Lost | Delivery::Blocked => None,
        }
    }

    pub fn write(net: &mut Network<Msg>, from: NodeId, to: NodeId, body: Body) {
        net.send(Msg { from, to, body });
    }
}

/// Archetype `AServer(ref network[_])` with its locals.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AServer {
    pub pc: Label,
    /// `msg`: the message read at `serverReceive` (none before the first).
    pub msg: Option<Msg>,
    /// `q`: the clients that asked for the lock and have not given it back, in arrival order;
    /// the head holds the lock (or has been granted it).
    pub q: Vec<NodeId>,
    pub bug: Bug,
}

/// Archetype `AClient(ref network[_], ref hasLock[_])`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AClient {
    pub pc: Label,
    /// The `hasLock[self]` resource.
    pub has_lock: bool,
}

/// One process of the system: an instance of either archetype.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Archetype {
    Server(AServer),
    Client(AClient),
}

impl Archetype {
    pub fn server(bug: Bug) -> Archetype {
        Archetype::Server(AServer { pc: Label::ServerLoop, msg: None, q: vec![], bug })
    }

    pub fn client() -> Archetype {
        Archetype::Client(AClient { pc: Label::AcquireLock, has_lock: false })
    }

    /// The label the process stands at.
    pub fn pc(&self) -> Label {
        match self {
            Archetype::Server(s) => s.pc,
            Archetype::Client(c) => c.pc,
        }
    }

    /// `hasLock[id]` (the server never holds it).
    pub fn has_lock(&self) -> bool {
        matches!(self, Archetype::Client(AClient { has_lock: true, .. }))
    }
}

impl Process for Archetype {
    type Msg = Msg;
    type Label = Action;

    /// The step at the process's label when its read need not wait; a read of a bag is one step
    /// per distinct message it may take.
    fn enabled(&self, id: NodeId, net: &Network<Msg>) -> Vec<Action> {
        let at = |label| Action { label, take: None };
        let reads = |label| ReliableLink::readable(net, id).into_iter().map(move |m| Action { label, take: Some(m) }).collect();
        match self {
            Archetype::Server(s) => match s.pc {
                Label::ServerLoop | Label::ServerRespond => vec![at(s.pc)],
                Label::ServerReceive => reads(Label::ServerReceive),
                _ => vec![],
            },
            Archetype::Client(c) => match c.pc {
                Label::AcquireLock | Label::Unlock => vec![at(c.pc)],
                // `with (resp = network[self])`: the only messages a client is sent are grants.
                Label::CriticalSection => reads(Label::CriticalSection),
                _ => vec![],
            },
        }
    }

    fn step(&mut self, id: NodeId, a: &Action, net: &mut Network<Msg>) {
        match self {
            Archetype::Server(s) => match a.label {
                // serverLoop: while (TRUE)
                Label::ServerLoop => s.pc = Label::ServerReceive,
                // serverReceive: msg := network[self]
                Label::ServerReceive => {
                    if let Some(m) = a.take.and_then(|m| ReliableLink::read(net, &m)) {
                        s.msg = Some(m);
                        s.pc = Label::ServerRespond;
                    }
                }
                // serverRespond
                Label::ServerRespond => {
                    if let Some(m) = s.msg {
                        match m.body {
                            Body::Lock => {
                                let free = match s.bug {
                                    Bug::None => s.q.is_empty(),
                                    Bug::GrantToSecondWaiter => s.q.len() <= 1,
                                };
                                if free {
                                    ReliableLink::write(net, id, m.from, Body::Grant);
                                }
                                s.q.push(m.from);
                            }
                            Body::Unlock => {
                                if !s.q.is_empty() {
                                    s.q.remove(0);
                                }
                                if let Some(&head) = s.q.first() {
                                    ReliableLink::write(net, id, head, Body::Grant);
                                }
                            }
                            Body::Grant => {}
                        }
                    }
                    s.pc = Label::ServerLoop;
                }
                _ => {}
            },
            Archetype::Client(c) => match a.label {
                // acquireLock: network[ServerID] := [from |-> self, type |-> LockMsg]
                Label::AcquireLock => {
                    ReliableLink::write(net, id, SERVER_ID, Body::Lock);
                    c.pc = Label::CriticalSection;
                }
                // criticalSection: with (resp = network[self]) assert resp = GrantMsg;
                //                  hasLock[self] := TRUE
                Label::CriticalSection => {
                    if let Some(m) = a.take.and_then(|m| ReliableLink::read(net, &m)) {
                        assert_eq!(m.body, Body::Grant, "a client is only ever sent grants");
                        c.has_lock = true;
                        c.pc = Label::Unlock;
                    }
                }
                // unlock: hasLock[self] := FALSE;
                //         network[ServerID] := [from |-> self, type |-> UnlockMsg]
                Label::Unlock => {
                    c.has_lock = false;
                    ReliableLink::write(net, id, SERVER_ID, Body::Unlock);
                    c.pc = Label::Done;
                }
                _ => {}
            },
        }
    }

    /// PGo archetypes keep nothing across a restart (no restarts happen: the network is
    /// reliable and no faults are allowed).
    fn restarted(&self) -> Archetype {
        match self {
            Archetype::Server(s) => Archetype::server(s.bug),
            Archetype::Client(_) => Archetype::client(),
        }
    }
}

/// The whole system at its start: the server (id 0), then clients `1..=NUM_CLIENTS`, every
/// mailbox empty, on a reliable network whose mailboxes are bags.
pub fn system(k: Constants, bug: Bug) -> simnet::Sim<Archetype> {
    let mut procs = vec![(SERVER_ID, Archetype::server(bug))];
    procs.extend((1..=k.num_clients).map(|c| (c, Archetype::client())));
    simnet::Sim::new(procs, Network::new(Order::Any), simnet::Faults::NONE)
}
