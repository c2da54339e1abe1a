//! The cluster as one state machine: servers `1..=servers` running the library, the messages in
//! flight on the shared simulated network, and the clients' writes and reads. This is the event
//! loop RedisRaft runs around the library: each step is one call into it (a timer that fires, a
//! message taken from a connection, a client request, one part of a flush), and the trace
//! records it with the observed state after it ([`Cluster::observe`]).
//!
//! The network keeps one connection per pair of servers (messages between two servers arrive in
//! the order they were sent) and loses nothing. The runs are bounded: elections stop at
//! `MaxTerm`, clients append entries while the leader's log is shorter than `MaxIndex`, a leader's
//! heartbeat timer fires while its message id is below `MaxMsgId`, and clients issue `NumReads`
//! reads. A server that is a pre-candidate waits for its pre-votes (its timer does not fire
//! again), and a removal leaves at least two voting nodes.

use std::hash::{Hash, Hasher};

use serde_json::{Map, Value, json};
use simnet::{Delivery, Message, Network, Order};

use crate::raft_server::{Body, Bug, NodeCfg, Outcome, Server, State};
use crate::{Entry, EntryKind, NodeId};

/// The constants of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Constants {
    /// `NumServers`: servers 1..NumServers, server 1 leads term 1.
    pub servers: u64,
    /// `MaxTerm`: elections stop at this term.
    pub max_term: u64,
    /// `MaxIndex`: a leader takes client entries while its last index is below it.
    pub max_index: u64,
    /// `MaxMsgId`: a leader's heartbeat timer fires while its message id is below it.
    pub max_msg_id: u64,
    /// `NumReads`: the reads clients issue.
    pub reads: u64,
}

pub type Msg = Message<Body>;

/// A read as the client sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Read {
    /// The server it was sent to.
    pub server: NodeId,
    /// The highest commit index of any server when it was issued: a linearizable read returns
    /// the state at this index or later.
    pub floor: u64,
    pub status: ReadStatus,
    /// The applied index it read at, and the value there (0 until served).
    pub index: u64,
    pub value: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReadStatus {
    Pending,
    Served,
    Dropped,
}

impl ReadStatus {
    pub fn name(self) -> &'static str {
        match self {
            ReadStatus::Pending => "pending",
            ReadStatus::Served => "served",
            ReadStatus::Dropped => "dropped",
        }
    }
}

/// A step: a call into server `i`'s library.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// The election timer fires: `raft_election_start`, a pre-vote.
    ElectionStart { i: NodeId },
    /// A leader's request timer fires: `raft_periodic` sends append entries to every node.
    SendHeartbeat { i: NodeId },
    /// The oldest message on the connection from `j` to `i` is taken: `raft_recv_*`.
    Receive { i: NodeId, j: NodeId },
    /// A client's write reaches leader `i`: `raft_recv_entry`.
    RecvEntry { i: NodeId },
    /// The operator adds node `n` at leader `i`: `raft_recv_entry` with an add-node entry.
    AddNode { i: NodeId, n: NodeId },
    /// The operator removes node `n` at leader `i`.
    RemoveNode { i: NodeId, n: NodeId },
    /// A client's read reaches leader `i`: `raft_recv_read_request`.
    RecvReadRequest { i: NodeId },
    /// Leader `i`'s flush advances its commit index: `raft_update_commit_idx`.
    LogCommit { i: NodeId },
    /// Leader `i`'s flush sends append entries to `j`, which is behind or owes an
    /// acknowledgement to a read: `raft_send_appendentries`.
    SendAppendEntries { i: NodeId, j: NodeId },
    /// `raft_apply_entry`: `i` applies its next committed entry.
    ApplyEntry { i: NodeId },
    /// `raft_process_read_queue` at `i`.
    ProcessReadQueue { i: NodeId },
    /// `raft_begin_snapshot` at `i`.
    SnapshotBegin { i: NodeId },
    /// `raft_end_snapshot` at `i`.
    SnapshotEnd { i: NodeId },
}

impl Step {
    /// The server that takes the step.
    pub fn server(&self) -> NodeId {
        match *self {
            Step::ElectionStart { i }
            | Step::SendHeartbeat { i }
            | Step::Receive { i, .. }
            | Step::RecvEntry { i }
            | Step::AddNode { i, .. }
            | Step::RemoveNode { i, .. }
            | Step::RecvReadRequest { i }
            | Step::LogCommit { i }
            | Step::SendAppendEntries { i, .. }
            | Step::ApplyEntry { i }
            | Step::ProcessReadQueue { i }
            | Step::SnapshotBegin { i }
            | Step::SnapshotEnd { i } => i,
        }
    }

    /// The arguments a trace records (the model's action parameters).
    pub fn args(&self) -> Map<String, Value> {
        let v = match *self {
            Step::Receive { i, j } | Step::SendAppendEntries { i, j } => json!({ "i": i, "j": j }),
            Step::AddNode { i, n } | Step::RemoveNode { i, n } => json!({ "i": i, "n": n }),
            _ => json!({ "i": self.server() }),
        };
        v.as_object().cloned().unwrap_or_default()
    }
}

#[derive(Clone, Debug)]
pub struct Cluster {
    pub k: Constants,
    /// Server `i` at index `i - 1`.
    pub servers: Vec<Server>,
    pub net: Network<Msg>,
    /// The writes clients sent so far; the `w`-th writes the value `w`.
    pub writes: u64,
    /// The reads clients issued, in order.
    pub reads: Vec<Read>,
}

impl Cluster {
    /// The cluster at its start: server 1 leads term 1, its no-op is committed and applied
    /// everywhere, nothing is in flight.
    pub fn new(k: Constants, bug: Bug) -> Cluster {
        let ids: Vec<NodeId> = (1..=k.servers).collect();
        Cluster { k, servers: ids.iter().map(|&i| Server::bootstrapped(i, &ids, 1, bug)).collect(), net: Network::new(Order::FifoPerLink), writes: 0, reads: Vec::new() }
    }

    pub fn server(&self, i: NodeId) -> &Server {
        &self.servers[i as usize - 1]
    }

    fn ids(&self) -> std::ops::RangeInclusive<NodeId> {
        1..=self.k.servers
    }

    /// The messages on the connection from `j` to `i`, oldest first.
    pub fn link(&self, j: NodeId, i: NodeId) -> Vec<&Body> {
        self.net.in_flight().iter().filter(|m| m.from == j && m.to == i).map(|m| &m.body).collect()
    }

    /// Every step enabled now, in a fixed order.
    pub fn enabled(&self) -> Vec<Step> {
        let mut out = vec![];
        for i in self.ids() {
            let s = self.server(i);
            if matches!(s.state, State::Follower | State::Candidate) && s.current_term < self.k.max_term {
                out.push(Step::ElectionStart { i });
            }
            if s.is_leader() && s.msg_id < self.k.max_msg_id {
                out.push(Step::SendHeartbeat { i });
            }
        }
        for i in self.ids() {
            for j in self.ids() {
                let Some(head) = self.link(j, i).first().copied() else { continue };
                // A server taking a snapshot loads no other until it ends.
                if matches!(head, Body::Snapshot { .. }) && self.server(i).snapshot_in_progress {
                    continue;
                }
                out.push(Step::Receive { i, j });
            }
        }
        for i in self.ids() {
            let s = self.server(i);
            if !s.is_leader() {
                continue;
            }
            if s.current_idx() < self.k.max_index {
                out.push(Step::RecvEntry { i });
                if !s.voting_change_is_in_progress() && !s.snapshot_in_progress {
                    for n in self.ids() {
                        match s.node(n) {
                            None => out.push(Step::AddNode { i, n }),
                            Some(node) if n != i && node.voting && node.active && s.num_voting_nodes() >= 3 => out.push(Step::RemoveNode { i, n }),
                            Some(_) => {}
                        }
                    }
                }
            }
            if (self.reads.len() as u64) < self.k.reads {
                out.push(Step::RecvReadRequest { i });
            }
            if s.commit_candidate() > s.commit_idx {
                out.push(Step::LogCommit { i });
            }
            for j in self.ids() {
                if s.flush_wants(j) {
                    out.push(Step::SendAppendEntries { i, j });
                }
            }
        }
        for i in self.ids() {
            let s = self.server(i);
            if s.is_apply_allowed() && s.last_applied_idx < s.commit_idx {
                out.push(Step::ApplyEntry { i });
            }
            if s.read_queue_ready() {
                out.push(Step::ProcessReadQueue { i });
            }
            if s.snapshot_in_progress {
                out.push(Step::SnapshotEnd { i });
            } else if s.num_snapshottable_logs() > 0 {
                out.push(Step::SnapshotBegin { i });
            }
        }
        out
    }

    /// Takes `step`, one of those [`Cluster::enabled`] listed, and returns the action a trace
    /// records for it (a response's action says what it made of its receiver).
    pub fn apply(&mut self, step: &Step) -> &'static str {
        let i = step.server();
        let action = match *step {
            Step::ElectionStart { .. } => {
                self.srv(i).election_start();
                "ElectionStart"
            }
            Step::SendHeartbeat { .. } => {
                self.srv(i).send_heartbeat();
                "SendHeartbeat"
            }
            Step::Receive { j, .. } => self.receive(i, j),
            Step::RecvEntry { .. } => {
                self.writes += 1;
                let w = self.writes;
                self.srv(i).recv_entry(EntryKind::Write(w));
                "RecvEntry"
            }
            Step::AddNode { n, .. } => {
                self.srv(i).recv_entry(EntryKind::AddNode(n));
                "AddNode"
            }
            Step::RemoveNode { n, .. } => {
                self.srv(i).recv_entry(EntryKind::RemoveNode(n));
                "RemoveNode"
            }
            Step::RecvReadRequest { .. } => {
                let id = self.reads.len() as u64 + 1;
                let floor = self.servers.iter().map(|s| s.commit_idx).max().unwrap_or(0);
                self.reads.push(Read { server: i, floor, status: ReadStatus::Pending, index: 0, value: 0 });
                self.srv(i).recv_read_request(id);
                "RecvReadRequest"
            }
            Step::LogCommit { .. } => {
                self.srv(i).update_commit_idx();
                "LogCommit"
            }
            Step::SendAppendEntries { j, .. } => {
                self.srv(i).send_appendentries(j);
                "SendAppendEntries"
            }
            Step::ApplyEntry { .. } => {
                self.srv(i).apply_entry();
                "ApplyEntry"
            }
            Step::ProcessReadQueue { .. } => {
                self.srv(i).process_read_queue();
                "ProcessReadQueue"
            }
            Step::SnapshotBegin { .. } => {
                self.srv(i).begin_snapshot();
                "SnapshotBegin"
            }
            Step::SnapshotEnd { .. } => {
                self.srv(i).end_snapshot();
                "SnapshotEnd"
            }
        };
        self.drain(i);
        action
    }

    fn srv(&mut self, i: NodeId) -> &mut Server {
        &mut self.servers[i as usize - 1]
    }

    /// Sends what server `i` put in its outbox and records the reads it answered.
    fn drain(&mut self, i: NodeId) {
        let s = self.srv(i);
        let out = std::mem::take(&mut s.out);
        let answered = std::mem::take(&mut s.answered);
        for (to, body) in out {
            self.net.send(Msg { from: i, to, body });
        }
        for a in answered {
            let r = &mut self.reads[a.id as usize - 1];
            if a.ok {
                r.status = ReadStatus::Served;
                r.index = a.index;
                r.value = a.value;
            } else {
                r.status = ReadStatus::Dropped;
            }
        }
    }

    /// Server `i` takes the oldest message from `j`.
    fn receive(&mut self, i: NodeId, j: NodeId) -> &'static str {
        let Some(k) = self.net.in_flight().iter().position(|m| m.from == j && m.to == i) else { return "" };
        let Delivery::Delivered(m) = self.net.take(k) else { return "" };
        let s = self.srv(i);
        let named = |o: Outcome, handled: &'static str| match o {
            Outcome::Handled => handled,
            Outcome::BecameFollower => "BecomeFollower",
            Outcome::BecameCandidate => "BecomeCandidate",
            Outcome::BecameLeader => "BecomeLeader",
        };
        match m.body {
            Body::RequestVote { prevote, term, candidate_id, last_log_idx, last_log_term } => {
                s.recv_requestvote(j, prevote, term, candidate_id, last_log_idx, last_log_term);
                "RecvRequestVote"
            }
            Body::RequestVoteResponse { prevote, request_term, term, vote_granted } => named(s.recv_requestvote_response(j, prevote, request_term, term, vote_granted), "RecvRequestVoteResponse"),
            Body::AppendEntries { term, leader_id, leader_commit, msg_id, prev_log_idx, prev_log_term, ref entries } => {
                s.recv_appendentries(j, term, leader_id, leader_commit, msg_id, prev_log_idx, prev_log_term, entries);
                "RecvAppendEntries"
            }
            Body::AppendEntriesResponse { msg_id, term, success, current_idx } => named(s.recv_appendentries_response(j, msg_id, term, success, current_idx), "RecvAppendEntriesResponse"),
            Body::Snapshot { term, leader_id, msg_id, snapshot_index, snapshot_term, value, ref nodes } => {
                s.recv_snapshot(j, term, leader_id, msg_id, snapshot_index, snapshot_term, value, nodes);
                "RecvSnapshot"
            }
            Body::SnapshotResponse { msg_id, snapshot_index, term, success } => named(s.recv_snapshot_response(j, msg_id, snapshot_index, term, success), "RecvSnapshotResponse"),
        }
    }

    /// The observed state, as a trace's `state`.
    pub fn observe(&self) -> Map<String, Value> {
        let ids: Vec<NodeId> = self.ids().collect();
        let per = |f: &dyn Fn(&Server) -> Value| Value::Object(self.servers.iter().map(|s| (s.id.to_string(), f(s))).collect());
        let per_node = |f: &dyn Fn(&Server, NodeId) -> Value| per(&|s| Value::Object(ids.iter().map(|&n| (n.to_string(), f(s, n))).collect()));
        let node_u64 = |g: fn(&crate::raft_node::Node) -> u64| per_node(&move |s, n| s.node(n).map_or(0, g).into());
        let mut m = Map::new();
        m.insert("state".into(), per(&|s| s.state.name().into()));
        m.insert("currentTerm".into(), per(&|s| s.current_term.into()));
        m.insert("votedFor".into(), per(&|s| s.voted_for.into()));
        m.insert("leaderId".into(), per(&|s| s.leader_id.into()));
        m.insert("log".into(), per(&|s| Value::Array(s.log.entries.iter().map(entry_json).collect())));
        m.insert("snapshotIndex".into(), per(&|s| s.snapshot_last_idx().into()));
        m.insert("snapshotTerm".into(), per(&|s| s.snapshot_last_term.into()));
        m.insert("snapshotValue".into(), per(&|s| s.snapshot_value.into()));
        m.insert("snapshotNodes".into(), per(&|s| cfg_json(&s.snapshot_nodes, &ids)));
        m.insert("commitIndex".into(), per(&|s| s.commit_idx.into()));
        m.insert("lastApplied".into(), per(&|s| s.last_applied_idx.into()));
        m.insert("value".into(), per(&|s| s.value.into()));
        m.insert("msgId".into(), per(&|s| s.msg_id.into()));
        m.insert("nodes".into(), per_node(&|s, n| s.node(n).map_or("absent", |x| x.status()).into()));
        m.insert("votes".into(), per_node(&|s, n| s.node(n).is_some_and(|x| x.voted_for_me).into()));
        m.insert("nextIndex".into(), node_u64(|x| x.next_idx));
        m.insert("matchIndex".into(), node_u64(|x| x.match_idx));
        m.insert("nextMsgId".into(), node_u64(|x| x.next_msgid));
        m.insert("matchMsgId".into(), node_u64(|x| x.match_msgid));
        m.insert("cfgChangeIndex".into(), per(&|s| s.voting_cfg_change_log_idx.into()));
        m.insert("snapshotting".into(), per(&|s| s.snapshot_in_progress.into()));
        m.insert("readQueue".into(), per(&|s| Value::Array(s.read_queue.iter().map(|r| json!({ "id": r.id, "readIndex": r.read_idx, "msgId": r.msg_id })).collect())));
        m.insert("messages".into(), per(&|s| Value::Object(ids.iter().map(|&to| (to.to_string(), Value::Array(self.link(s.id, to).into_iter().map(|b| body_json(b, &ids)).collect()))).collect())));
        m.insert("writes".into(), self.writes.into());
        m.insert(
            "reads".into(),
            Value::Array(self.reads.iter().map(|r| json!({ "server": r.server, "floor": r.floor, "status": r.status.name(), "index": r.index, "value": r.value })).collect()),
        );
        m
    }

    /// The messages in flight, per connection: the order across connections is no part of the
    /// state.
    fn links(&self) -> Vec<(NodeId, NodeId, Vec<&Body>)> {
        let mut v = vec![];
        for j in self.ids() {
            for i in self.ids() {
                let l = self.link(j, i);
                if !l.is_empty() {
                    v.push((j, i, l));
                }
            }
        }
        v
    }
}

/// A log entry as a trace shows it.
pub fn entry_json(e: &Entry) -> Value {
    json!({ "term": e.term, "type": e.kind.name(), "value": e.kind.value() })
}

/// A configuration as a trace shows it: every node's status, `absent` for those it lacks.
fn cfg_json(cfg: &[NodeCfg], ids: &[NodeId]) -> Value {
    let status = |n: NodeId| cfg.iter().find(|c| c.0 == n).map_or("absent", |&(_, voting, active)| crate::raft_node::status(voting, active));
    Value::Object(ids.iter().map(|&n| (n.to_string(), status(n).into())).collect())
}

/// A message as a trace shows it.
pub fn body_json(b: &Body, ids: &[NodeId]) -> Value {
    match b {
        Body::RequestVote { prevote, term, candidate_id, last_log_idx, last_log_term } => {
            json!({ "type": "RequestVote", "prevote": prevote, "term": term, "candidate": candidate_id, "lastLogIndex": last_log_idx, "lastLogTerm": last_log_term })
        }
        Body::RequestVoteResponse { prevote, request_term, term, vote_granted } => {
            json!({ "type": "RequestVoteResponse", "prevote": prevote, "requestTerm": request_term, "term": term, "granted": vote_granted })
        }
        Body::AppendEntries { term, leader_id, leader_commit, msg_id, prev_log_idx, prev_log_term, entries } => json!({
            "type": "AppendEntries", "term": term, "leader": leader_id, "commit": leader_commit, "msgId": msg_id,
            "prevLogIndex": prev_log_idx, "prevLogTerm": prev_log_term, "entries": entries.iter().map(entry_json).collect::<Vec<_>>()
        }),
        Body::AppendEntriesResponse { msg_id, term, success, current_idx } => {
            json!({ "type": "AppendEntriesResponse", "msgId": msg_id, "term": term, "success": success, "currentIndex": current_idx })
        }
        Body::Snapshot { term, leader_id, msg_id, snapshot_index, snapshot_term, value, nodes } => json!({
            "type": "Snapshot", "term": term, "leader": leader_id, "msgId": msg_id, "snapshotIndex": snapshot_index,
            "snapshotTerm": snapshot_term, "value": value, "nodes": cfg_json(nodes, ids)
        }),
        Body::SnapshotResponse { msg_id, snapshot_index, term, success } => {
            json!({ "type": "SnapshotResponse", "msgId": msg_id, "snapshotIndex": snapshot_index, "term": term, "success": success })
        }
    }
}

impl PartialEq for Cluster {
    fn eq(&self, o: &Self) -> bool {
        self.k == o.k && self.servers == o.servers && self.writes == o.writes && self.reads == o.reads && self.links() == o.links()
    }
}
impl Eq for Cluster {}
impl Hash for Cluster {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.k.hash(h);
        self.servers.hash(h);
        self.writes.hash(h);
        self.reads.hash(h);
        self.links().hash(h);
    }
}

impl task_probe::Machine for Cluster {
    fn observe(&self) -> Map<String, Value> {
        Cluster::observe(self)
    }

    fn successors(&self) -> Vec<(String, Map<String, Value>, Self)> {
        task_probe::successors_by(self, self.enabled(), |next, s| (next.apply(s).to_string(), s.args()))
    }
}
