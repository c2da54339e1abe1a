//! The cluster as one state machine: replicas `1..=replicas`, clients `1..=clients`, the
//! backend, and the messages in flight on the shared simulated network. Every step is one of
//! the task's actions; [`Cluster::enabled`] lists those enabled now in a fixed order and
//! [`Cluster::apply`] takes one. A trace records each step with the observed state after it
//! ([`Cluster::observe`]).
//!
//! Messages: a client's proposal to each replica, a replica's answer to the client, and the
//! after-sync result a leader sends a command's client when it applies the command. Each
//! node's mailbox is a bag (any message in it may be taken next); nothing is lost or
//! duplicated. Every message is distinct (a replica answers a command once and applies it
//! once), so a mailbox is a set.

use std::hash::{Hash, Hasher};

use serde_json::{Map, Value, json};
use simnet::{Delivery, Message, Network, NodeId, Order};

use crate::backend::Backend;
use crate::client::{Answer, Bug, Client, Outcome, Pc};
use crate::raw_curp::{RawCurp, Role};
use crate::{Cmd, client_of, quorum};

/// The constants of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Constants {
    /// `NumReplicas`.
    pub replicas: u64,
    /// `NumClients`.
    pub clients: u64,
    /// `NumRounds`: commands each client proposes, one after the other.
    pub rounds: u64,
    /// `MaxTerm`: elections stop at this term.
    pub max_term: u64,
}

/// Client `c`'s node on the network (replica `r` is node `r`).
pub fn client_node(c: u64) -> NodeId {
    100 + c
}

/// What a message says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Body {
    Propose { cmd: Cmd },
    Answer { cmd: Cmd, answer: Answer },
    /// The after-sync result of `cmd`, from a replica in `term`.
    Synced { cmd: Cmd, term: u64 },
}

pub type Msg = Message<Body>;

/// A step: an action and its arguments.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// Client `c` proposes its next command to every replica.
    Propose { c: u64 },
    /// Replica `r`, believing it leads, takes the proposal of `cmd` from its mailbox.
    ProcessProposeLeader { r: u64, cmd: Cmd },
    /// Replica `r`, a follower, takes the proposal of `cmd` from its mailbox.
    ProcessProposeNonLeader { r: u64, cmd: Cmd },
    /// The backend commits the log's next entry.
    Commit,
    /// Replica `r` applies the next committed entry and sends the command's client its
    /// after-sync result.
    ProcessCommitMsg { r: u64 },
    /// Replica `l` is elected leader of the next term by `voters`.
    LeaderChange { l: u64, voters: Vec<u64> },
    /// Replica `r`, behind the current term, hears of it.
    AppendEntries { r: u64 },
    /// Client `c`, in its fast round, takes `msg` from its mailbox.
    FastRound { c: u64, msg: Msg },
    /// Client `c`, in its slow round, takes `msg` from its mailbox.
    SlowRound { c: u64, msg: Msg },
}

impl Step {
    pub fn action(&self) -> &'static str {
        match self {
            Step::Propose { .. } => "Propose",
            Step::ProcessProposeLeader { .. } => "ProcessProposeLeader",
            Step::ProcessProposeNonLeader { .. } => "ProcessProposeNonLeader",
            Step::Commit => "Commit",
            Step::ProcessCommitMsg { .. } => "ProcessCommitMsg",
            Step::LeaderChange { .. } => "LeaderChange",
            Step::AppendEntries { .. } => "AppendEntries",
            Step::FastRound { .. } => "FastRound",
            Step::SlowRound { .. } => "SlowRound",
        }
    }

    /// Who takes the step: `r<n>`, `c<n>` or `backend`.
    pub fn actor(&self) -> String {
        match self {
            Step::Propose { c } | Step::FastRound { c, .. } | Step::SlowRound { c, .. } => format!("c{c}"),
            Step::ProcessProposeLeader { r, .. } | Step::ProcessProposeNonLeader { r, .. } | Step::ProcessCommitMsg { r } | Step::AppendEntries { r } => format!("r{r}"),
            Step::Commit | Step::LeaderChange { .. } => "backend".into(),
        }
    }

    /// The arguments a trace records (the model's action parameters).
    pub fn args(&self) -> Map<String, Value> {
        let v = match self {
            Step::Propose { c } | Step::FastRound { c, .. } | Step::SlowRound { c, .. } => json!({ "c": c }),
            // `k`: the command (the pinned variable `cmd` is a client's current command).
            Step::ProcessProposeLeader { r, cmd } | Step::ProcessProposeNonLeader { r, cmd } => json!({ "r": r, "k": cmd }),
            Step::ProcessCommitMsg { r } | Step::AppendEntries { r } => json!({ "r": r }),
            Step::Commit => json!({}),
            Step::LeaderChange { l, .. } => json!({ "l": l }),
        };
        v.as_object().cloned().unwrap_or_default()
    }
}

#[derive(Clone, Debug)]
pub struct Cluster {
    pub k: Constants,
    /// Replica `r` at index `r - 1`.
    pub replicas: Vec<RawCurp>,
    /// Client `c` at index `c - 1`.
    pub clients: Vec<Client>,
    pub backend: Backend,
    pub net: Network<Msg>,
}

impl Cluster {
    /// The cluster at its start: replica 1 leads term 1, every pool and mailbox empty.
    pub fn new(k: Constants, bug: Bug) -> Cluster {
        Cluster {
            k,
            replicas: (1..=k.replicas).map(|r| RawCurp::new(if r == 1 { Role::Leader } else { Role::Follower })).collect(),
            clients: (1..=k.clients).map(|_| Client::new(bug)).collect(),
            backend: Backend::new(),
            net: Network::new(Order::Any),
        }
    }

    /// The messages in a node's mailbox, sorted (every message is distinct).
    pub fn mailbox(&self, node: NodeId) -> Vec<Msg> {
        self.net.bag_of(node)
    }

    fn take(&mut self, m: &Msg) -> Option<Msg> {
        match self.net.take_copy(m) {
            Delivery::Delivered(m) => Some(m),
            Delivery::Lost | Delivery::Blocked => None,
        }
    }

    /// The command client `c` proposes next, if it has one left.
    pub fn next_cmd(&self, c: u64) -> Option<Cmd> {
        let cur = self.clients[c as usize - 1].cmd;
        let next = if cur == 0 { c } else { cur + self.k.clients };
        (next <= self.k.clients * self.k.rounds).then_some(next)
    }

    /// Whether replica `r` has applied `cmd`.
    fn applied(&self, r: u64, cmd: Cmd) -> bool {
        self.backend.log[..self.replicas[r as usize - 1].last_applied].contains(&cmd)
    }

    /// Every step enabled now, in a fixed order.
    pub fn enabled(&self) -> Vec<Step> {
        let mut out = vec![];
        for c in 1..=self.k.clients {
            if self.clients[c as usize - 1].pc == Pc::Propose && self.next_cmd(c).is_some() {
                out.push(Step::Propose { c });
            }
        }
        for r in 1..=self.k.replicas {
            let leader = self.replicas[r as usize - 1].role == Role::Leader;
            for m in self.mailbox(r) {
                if let Body::Propose { cmd } = m.body {
                    out.push(if leader { Step::ProcessProposeLeader { r, cmd } } else { Step::ProcessProposeNonLeader { r, cmd } });
                }
            }
        }
        if self.backend.can_commit() {
            out.push(Step::Commit);
        }
        for r in 1..=self.k.replicas {
            if self.replicas[r as usize - 1].last_applied < self.backend.commit_index {
                out.push(Step::ProcessCommitMsg { r });
            }
        }
        if self.backend.term < self.k.max_term {
            let n = self.k.replicas;
            for l in (1..=n).filter(|&l| l != self.backend.leader) {
                for mask in 1u64..(1 << n) {
                    let voters: Vec<u64> = (1..=n).filter(|v| mask & (1 << (v - 1)) != 0).collect();
                    if voters.contains(&l) && voters.len() >= quorum(n as usize) {
                        out.push(Step::LeaderChange { l, voters });
                    }
                }
            }
        }
        for r in 1..=self.k.replicas {
            if self.replicas[r as usize - 1].term < self.backend.term {
                out.push(Step::AppendEntries { r });
            }
        }
        for c in 1..=self.k.clients {
            let pc = self.clients[c as usize - 1].pc;
            for msg in self.mailbox(client_node(c)) {
                match pc {
                    Pc::Fast => out.push(Step::FastRound { c, msg }),
                    Pc::Slow => out.push(Step::SlowRound { c, msg }),
                    Pc::Propose | Pc::Done => {}
                }
            }
        }
        out
    }

    /// Takes `step`, one of those [`Cluster::enabled`] listed.
    pub fn apply(&mut self, step: &Step) {
        let n = self.k.replicas as usize;
        let clients = self.k.clients;
        match *step {
            Step::Propose { c } => {
                let Some(cmd) = self.next_cmd(c) else { return };
                self.clients[c as usize - 1].propose(cmd);
                for r in 1..=self.k.replicas {
                    self.net.send(Msg { from: client_node(c), to: r, body: Body::Propose { cmd } });
                }
            }
            Step::ProcessProposeLeader { r, cmd } | Step::ProcessProposeNonLeader { r, cmd } => {
                let Some(m) = self.take(&Msg { from: client_node(client_of(cmd, clients)), to: r, body: Body::Propose { cmd } }) else { return };
                let applied = self.applied(r, cmd);
                let replica = &mut self.replicas[r as usize - 1];
                let leader = replica.role == Role::Leader;
                let rec = if leader { replica.leader_record(cmd, clients, applied) } else { replica.follower_record(cmd, clients, applied) };
                let term = replica.term;
                if leader && !applied {
                    self.backend.push_log(term, cmd);
                }
                let answer = Answer { term, leader, conflict: rec.conflict, er: rec.er };
                self.net.send(Msg { from: r, to: m.from, body: Body::Answer { cmd, answer } });
            }
            Step::Commit => self.backend.commit(),
            Step::ProcessCommitMsg { r } => {
                let replica = &mut self.replicas[r as usize - 1];
                let Some(&cmd) = self.backend.log.get(replica.last_applied) else { return };
                replica.apply(cmd);
                let term = replica.term;
                self.net.send(Msg { from: r, to: client_node(client_of(cmd, clients)), body: Body::Synced { cmd, term } });
            }
            Step::LeaderChange { l, ref voters } => self.backend.elect(l, voters, &mut self.replicas),
            Step::AppendEntries { r } => {
                let term = self.backend.term;
                self.replicas[r as usize - 1].step_down(term);
            }
            Step::FastRound { c, msg } | Step::SlowRound { c, msg } => {
                let Some(m) = self.take(&msg) else { return };
                let has_next = self.next_cmd(c).is_some();
                let client = &mut self.clients[c as usize - 1];
                match m.body {
                    Body::Answer { cmd, answer } if cmd == client.cmd && client.pc == Pc::Fast => {
                        if client.fast_round(m.from, answer, n) {
                            client.finish(has_next);
                        }
                    }
                    Body::Synced { cmd, .. } if cmd == client.cmd => {
                        client.synced();
                        client.finish(has_next);
                    }
                    // An answer or result of an earlier command, or an answer that comes after
                    // the fast round ended: dropped.
                    _ => {}
                }
            }
        }
    }

    /// The observed state, as a trace's `state`.
    pub fn observe(&self) -> Map<String, Value> {
        fn per<T>(items: &[T], f: impl Fn(&T) -> Value) -> Value {
            Value::Object(items.iter().enumerate().map(|(i, x)| ((i + 1).to_string(), f(x))).collect())
        }
        fn answer(a: Option<&Answer>) -> Value {
            let a = a.copied().unwrap_or(Answer { term: 0, leader: false, conflict: false, er: false });
            json!({ "term": a.term, "leader": a.leader, "conflict": a.conflict, "er": a.er })
        }
        let inbox: Vec<Vec<Cmd>> = (1..=self.k.replicas)
            .map(|r| {
                let mut v: Vec<Cmd> = self.mailbox(r).iter().filter_map(|m| if let Body::Propose { cmd } = m.body { Some(cmd) } else { None }).collect();
                v.sort();
                v
            })
            .collect();
        let mail: Vec<Vec<Value>> = (1..=self.k.clients)
            .map(|c| {
                let mut msgs: Vec<(Cmd, NodeId, u8, Value)> = self
                    .mailbox(client_node(c))
                    .iter()
                    .filter_map(|m| match m.body {
                        Body::Answer { cmd, answer: a } => Some((cmd, m.from, 0, json!({ "type": "answer", "cmd": cmd, "from": m.from, "term": a.term, "leader": a.leader, "conflict": a.conflict, "er": a.er }))),
                        Body::Synced { cmd, term } => Some((cmd, m.from, 1, json!({ "type": "synced", "cmd": cmd, "from": m.from, "term": term, "leader": true, "conflict": false, "er": false }))),
                        Body::Propose { .. } => None,
                    })
                    .collect();
                msgs.sort_by_key(|(cmd, from, kind, _)| (*cmd, *from, *kind));
                msgs.into_iter().map(|(_, _, _, v)| v).collect()
            })
            .collect();
        let n = self.k.replicas;
        let mut m = Map::new();
        m.insert("term".into(), per(&self.replicas, |r| r.term.into()));
        m.insert("role".into(), per(&self.replicas, |r| r.role.name().into()));
        m.insert("specPool".into(), per(&self.replicas, |r| json!(r.sp)));
        m.insert("ucp".into(), per(&self.replicas, |r| json!(r.ucp)));
        m.insert("lastApplied".into(), per(&self.replicas, |r| r.last_applied.into()));
        m.insert("inbox".into(), per(&inbox, |v| json!(v)));
        m.insert("leader".into(), self.backend.leader.into());
        m.insert("log".into(), json!(self.backend.log));
        m.insert("commitIndex".into(), self.backend.commit_index.into());
        m.insert("pc".into(), per(&self.clients, |c| c.pc.name().into()));
        m.insert("cmd".into(), per(&self.clients, |c| c.cmd.into()));
        m.insert("answers".into(), per(&self.clients, |c| Value::Object((1..=n).map(|r| (r.to_string(), answer(c.answers.get(&r)))).collect())));
        m.insert(
            "result".into(),
            per(&self.clients, |c| match c.outcome {
                None => json!({ "path": "none", "term": 0 }),
                Some(Outcome::Fast { term }) => json!({ "path": "fast", "term": term }),
                Some(Outcome::Slow) => json!({ "path": "slow", "term": 0 }),
            }),
        );
        m.insert("mail".into(), per(&mail, |v| Value::Array(v.clone())));
        m
    }

    /// The messages in flight, sorted: a mailbox is a bag, so two states that differ only in
    /// the order messages were sent are the same state.
    fn sorted_flight(&self) -> Vec<Msg> {
        let mut v = self.net.in_flight().to_vec();
        v.sort();
        v
    }
}

impl PartialEq for Cluster {
    fn eq(&self, o: &Self) -> bool {
        self.k == o.k && self.replicas == o.replicas && self.clients == o.clients && self.backend == o.backend && self.sorted_flight() == o.sorted_flight()
    }
}
impl Eq for Cluster {}
impl Hash for Cluster {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.k.hash(h);
        self.replicas.hash(h);
        self.clients.hash(h);
        self.backend.hash(h);
        self.sorted_flight().hash(h);
    }
}

impl task_probe::Machine for Cluster {
    fn observe(&self) -> Map<String, Value> {
        Cluster::observe(self)
    }

    fn successors(&self) -> Vec<(String, Map<String, Value>, Self)> {
        task_probe::successors_by(self, self.enabled(), |next, s| {
            next.apply(s);
            (s.action().to_string(), s.args())
        })
    }
}
