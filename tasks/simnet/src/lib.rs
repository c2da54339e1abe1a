//! A seeded simulated network for the systems of the distributed tasks.
//!
//! A distributed task's system is a set of processes that exchange messages. Here they run in one
//! address space, one step at a time, and everything the real world would decide (which message
//! arrives next, whether it arrives at all, when a node crashes, when a timer fires) is a choice
//! the driver makes. Those choices come from a seeded PRNG ([`Rng`]), so a seed and a scenario
//! give the same run, and so the same trace, byte for byte, every time and on every target.
//!
//! The crate has four parts, each usable on its own:
//!
//! - [`Rng`]: the project's small PRNG (splitmix64) for the driver's choices.
//! - [`Network`]: the messages in flight and what happens to them. A task picks the delivery
//!   [`Order`]: any message in flight may be delivered next (etcd's test network), the oldest of
//!   each link (`from`, `to`) first (TCP connections), or the oldest addressed to each receiver
//!   first (one FIFO mailbox per node, as PGo's `TCPChannel` mapping). Faults: a message is lost
//!   ([`Network::drop`]), duplicated ([`Network::duplicate`]) or, under [`Order::Any`],
//!   reordered by delivering a later one first; links are cut and healed
//!   ([`Network::partition`], [`Network::heal`]); nodes crash and restart ([`Network::crash`],
//!   [`Network::restart`]): a crashed node's messages are lost when delivered. A task's messages
//!   are [`Message`]s (sender, receiver, a body of its own); a mailbox read as a bag offers its
//!   distinct messages ([`Network::bag_of`]) and gives up one copy of the one taken
//!   ([`Network::take_copy`]).
//! - [`Timer`]: a countdown in ticks, armed and disarmed by a process, that fires once.
//! - [`Sim`]: the whole system as a state machine. A [`Process`] lists the labelled steps it can
//!   take given the network ([`Process::enabled`]) and takes one ([`Process::step`]); the
//!   simulation adds the network's faults that its [`Faults`] allow, lists every enabled
//!   [`Step`] of a state in a fixed order ([`Sim::enabled`]) and applies a chosen one
//!   ([`Sim::apply`]). A random run picks among them with the PRNG ([`Sim::random_step`]); an
//!   exhaustive one can walk every choice, since a `Sim` is a plain value (`Clone`, `Eq`,
//!   `Hash`) whose next states depend only on it and the chosen step.
//!
//! Nothing here reads a clock, does I/O or starts a thread: the crate builds for
//! `wasm32-unknown-unknown` as it does natively, and gives the same answers on both.

#![forbid(unsafe_code)]

mod network;
mod rng;
mod sim;
mod timer;

pub use network::{Delivery, Envelope, Message, Network, NodeId, Order};
pub use rng::Rng;
pub use sim::{Applied, Faults, Process, Sim, Step};
pub use timer::Timer;
