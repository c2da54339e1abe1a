//! One Raft server (`raft_server.c`): its persistent and volatile state and the library's
//! functions that the task covers, each named after the C function it follows. A function
//! that sends puts the messages in [`Server::out`]; a read it answers goes to
//! [`Server::answered`]; the event loop ([`crate::cluster`]) takes both after each call.
//!
//! Time is not modelled: a timer that fires is a call the event loop makes
//! ([`Server::election_start`], [`Server::send_heartbeat`]). A pre-vote is refused while the
//! server has a leader (in the C code, while its election timer has not elapsed either).

use crate::raft_log::Log;
use crate::raft_node::Node;
use crate::{Entry, EntryKind, NONE, NodeId, votes_is_majority};

/// `RAFT_STATE_*`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum State {
    Follower,
    PreCandidate,
    Candidate,
    Leader,
}

impl State {
    pub fn name(self) -> &'static str {
        match self {
            State::Follower => "follower",
            State::PreCandidate => "precandidate",
            State::Candidate => "candidate",
            State::Leader => "leader",
        }
    }
}

/// The bug switch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bug {
    None,
    /// A leader answers a read at once from its own state machine, without the round that
    /// confirms it still leads (the stale read RedisRaft had).
    LocalRead,
}

/// A node's membership as a snapshot records it: `(id, voting, active)`.
pub type NodeCfg = (NodeId, bool, bool);

/// The messages of the library (`raft_*_req_t`, `raft_*_resp_t`); a snapshot is sent in one
/// chunk.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Body {
    RequestVote { prevote: bool, term: u64, candidate_id: NodeId, last_log_idx: u64, last_log_term: u64 },
    RequestVoteResponse { prevote: bool, request_term: u64, term: u64, vote_granted: bool },
    AppendEntries { term: u64, leader_id: NodeId, leader_commit: u64, msg_id: u64, prev_log_idx: u64, prev_log_term: u64, entries: Vec<Entry> },
    AppendEntriesResponse { msg_id: u64, term: u64, success: bool, current_idx: u64 },
    Snapshot { term: u64, leader_id: NodeId, msg_id: u64, snapshot_index: u64, snapshot_term: u64, value: u64, nodes: Vec<NodeCfg> },
    SnapshotResponse { msg_id: u64, snapshot_index: u64, term: u64, success: bool },
}

/// A read waiting for its leader to confirm it still leads (`raft_read_request_t`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ReadRequest {
    /// The client's read number.
    pub id: u64,
    /// The last index when the read came.
    pub read_idx: u64,
    /// The message id it waits for a quorum to acknowledge.
    pub msg_id: u64,
}

/// How a read ended (the callback's `can_read`, with what it read).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ReadAnswer {
    pub id: u64,
    /// Whether it was served (false: dropped because the server no longer leads).
    pub ok: bool,
    /// The last applied index it read at, and the value there.
    pub index: u64,
    pub value: u64,
}

/// What a response did to its receiver: the trace names the step after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Handled with no change of state, or ignored as stale.
    Handled,
    /// A higher term: the server became a follower.
    BecameFollower,
    /// A pre-vote majority: the server became a candidate.
    BecameCandidate,
    /// A vote majority: the server became the leader.
    BecameLeader,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Server {
    pub id: NodeId,
    pub bug: Bug,
    pub current_term: u64,
    pub voted_for: NodeId,
    pub state: State,
    pub leader_id: NodeId,
    pub log: Log,
    pub snapshot_last_term: u64,
    /// The snapshot's state machine and configuration.
    pub snapshot_value: u64,
    pub snapshot_nodes: Vec<NodeCfg>,
    pub commit_idx: u64,
    pub last_applied_idx: u64,
    /// The state machine: one register, the last value written (0 before any write).
    pub value: u64,
    pub msg_id: u64,
    /// Every node this server knows, itself included, sorted by id.
    pub nodes: Vec<Node>,
    /// The index of the voting configuration change in progress (0: none; the C code uses -1).
    pub voting_cfg_change_log_idx: u64,
    pub snapshot_in_progress: bool,
    pub read_queue: Vec<ReadRequest>,
    /// Messages sent by the last call: (receiver, body).
    pub out: Vec<(NodeId, Body)>,
    /// Reads answered by the last call.
    pub answered: Vec<ReadAnswer>,
}

impl Server {
    /// A server of a cluster of `ids` started together: `leader` led term 1 and its no-op,
    /// index 1, is committed and applied everywhere.
    pub fn bootstrapped(id: NodeId, ids: &[NodeId], leader: NodeId, bug: Bug) -> Server {
        let mut log = Log::new();
        log.append(Entry { term: 1, kind: EntryKind::NoOp });
        let mut nodes: Vec<Node> = ids.iter().map(|&n| Node::new(n, true)).collect();
        if id == leader {
            for n in nodes.iter_mut() {
                n.next_idx = 2;
                n.match_idx = 1;
                n.voted_for_me = n.id != id;
            }
        }
        Server {
            id,
            bug,
            current_term: 1,
            voted_for: leader,
            state: if id == leader { State::Leader } else { State::Follower },
            leader_id: leader,
            log,
            snapshot_last_term: 0,
            snapshot_value: 0,
            snapshot_nodes: Vec::new(),
            commit_idx: 1,
            last_applied_idx: 1,
            value: 0,
            msg_id: 0,
            nodes,
            voting_cfg_change_log_idx: 0,
            snapshot_in_progress: false,
            read_queue: Vec::new(),
            out: Vec::new(),
            answered: Vec::new(),
        }
    }

    pub fn node(&self, id: NodeId) -> Option<&Node> {
        self.nodes.iter().find(|n| n.id == id)
    }

    fn node_mut(&mut self, id: NodeId) -> Option<&mut Node> {
        self.nodes.iter_mut().find(|n| n.id == id)
    }

    pub fn is_leader(&self) -> bool {
        self.state == State::Leader
    }

    /// `raft_get_current_idx`.
    pub fn current_idx(&self) -> u64 {
        self.log.current_idx()
    }

    /// `snapshot_last_idx`.
    pub fn snapshot_last_idx(&self) -> u64 {
        self.log.base
    }

    /// The term of the entry at `idx`, kept or the snapshot's last (0 before index 1).
    fn term_at(&self, idx: u64) -> Option<u64> {
        if idx == 0 {
            return Some(0);
        }
        if idx == self.log.base {
            return Some(self.snapshot_last_term);
        }
        self.log.get(idx).map(|e| e.term)
    }

    /// `raft_get_last_log_term`.
    pub fn last_log_term(&self) -> u64 {
        self.term_at(self.current_idx()).unwrap_or(0)
    }

    /// `last_applied_term`: the term of the last applied entry (applied entries are never
    /// removed, only compacted into the snapshot).
    pub fn last_applied_term(&self) -> u64 {
        self.term_at(self.last_applied_idx).unwrap_or(0)
    }

    /// `raft_get_num_voting_nodes`.
    pub fn num_voting_nodes(&self) -> usize {
        self.nodes.iter().filter(|n| n.voting).count()
    }

    fn is_voting_self(&self) -> bool {
        self.node(self.id).is_some_and(|n| n.voting)
    }

    /// `raft_voting_change_is_in_progress`.
    pub fn voting_change_is_in_progress(&self) -> bool {
        self.voting_cfg_change_log_idx != 0
    }

    fn send(&mut self, to: NodeId, body: Body) {
        self.out.push((to, body));
    }

    /// `raft_set_current_term`: a new term forgets the vote.
    fn set_current_term(&mut self, term: u64) {
        if self.current_term < term {
            self.current_term = term;
            self.voted_for = NONE;
        }
    }

    /// `raft_set_state`.
    fn set_state(&mut self, state: State) {
        if state == State::Leader {
            self.leader_id = self.id;
        }
        self.state = state;
    }

    /// `raft_become_follower`.
    pub fn become_follower(&mut self) {
        self.set_state(State::Follower);
        self.leader_id = NONE;
    }

    /// `raft_accept_leader`.
    fn accept_leader(&mut self, leader: NodeId) {
        if self.state != State::Follower {
            self.become_follower();
        }
        self.leader_id = leader;
    }

    /// What a message from a leader does first (`raft_recv_appendentries`,
    /// `raft_recv_snapshot`): one of an older term is refused (false); a newer term is taken,
    /// and the sender is the leader this server follows.
    fn hear_from_leader(&mut self, term: u64, leader_id: NodeId) -> bool {
        if term < self.current_term {
            return false;
        }
        self.set_current_term(term);
        self.accept_leader(leader_id);
        true
    }

    /// `raft_election_start` (from `raft_periodic` when the election timer fires): a
    /// pre-vote first.
    pub fn election_start(&mut self) {
        self.leader_id = NONE;
        self.become_precandidate();
    }

    /// `raft_become_precandidate`: asks for pre-votes for the next term, which it does not take.
    pub fn become_precandidate(&mut self) {
        for n in self.nodes.iter_mut() {
            n.voted_for_me = false;
        }
        self.set_state(State::PreCandidate);
        self.send_requestvote_all();
    }

    /// `raft_become_candidate`.
    pub fn become_candidate(&mut self) {
        self.set_current_term(self.current_term + 1);
        for n in self.nodes.iter_mut() {
            n.voted_for_me = false;
        }
        if self.is_voting_self() {
            self.voted_for = self.id;
        }
        self.leader_id = NONE;
        self.set_state(State::Candidate);
        self.send_requestvote_all();
    }

    fn send_requestvote_all(&mut self) {
        let to: Vec<NodeId> = self.nodes.iter().filter(|n| n.id != self.id && n.voting).map(|n| n.id).collect();
        for n in to {
            self.send_requestvote(n);
        }
    }

    /// `raft_send_requestvote`.
    fn send_requestvote(&mut self, to: NodeId) {
        let prevote = self.state == State::PreCandidate;
        let body = Body::RequestVote {
            prevote,
            term: if prevote { self.current_term + 1 } else { self.current_term },
            candidate_id: self.id,
            last_log_idx: self.current_idx(),
            last_log_term: self.last_log_term(),
        };
        self.send(to, body);
    }

    /// `raft_become_leader`: a no-op entry of the new term, then append entries to every other
    /// node from that entry.
    pub fn become_leader(&mut self) {
        let term = self.current_term;
        self.append_entry(Entry { term, kind: EntryKind::NoOp });
        let current_idx = self.current_idx();
        let me = self.id;
        if let Some(n) = self.node_mut(me) {
            n.match_idx = current_idx;
        }
        self.set_state(State::Leader);
        let others: Vec<NodeId> = self.nodes.iter().filter(|n| n.id != me).map(|n| n.id).collect();
        for id in others {
            if let Some(n) = self.node_mut(id) {
                n.set_next_idx(current_idx);
                n.match_idx = 0;
            }
            self.send_appendentries(id);
        }
    }

    /// `raft_recv_requestvote`: the answer goes back to `from`.
    pub fn recv_requestvote(&mut self, from: NodeId, prevote: bool, term: u64, candidate_id: NodeId, last_log_idx: u64, last_log_term: u64) {
        let mut granted = false;
        'done: {
            // A pre-vote is refused while this server has another leader.
            if prevote && self.leader_id != NONE && self.leader_id != candidate_id {
                break 'done;
            }
            if !prevote && self.current_term < term {
                self.set_current_term(term);
                self.become_follower();
            }
            if self.current_term > term {
                break 'done;
            }
            if self.current_term == term && self.voted_for != NONE && self.voted_for != candidate_id {
                break 'done;
            }
            let ety_term = self.last_log_term();
            if last_log_term < ety_term || (last_log_term == ety_term && last_log_idx < self.current_idx()) {
                break 'done;
            }
            granted = true;
            if !prevote {
                self.voted_for = candidate_id;
                self.leader_id = NONE;
            }
        }
        let body = Body::RequestVoteResponse { prevote, request_term: term, term: self.current_term, vote_granted: granted };
        self.send(from, body);
    }

    /// `raft_get_nvotes_for_me`.
    fn nvotes_for_me(&self) -> usize {
        let others = self.nodes.iter().filter(|n| n.id != self.id && n.voting && n.voted_for_me).count();
        others + usize::from(self.is_voting_self())
    }

    /// `raft_recv_requestvote_response`.
    pub fn recv_requestvote_response(&mut self, from: NodeId, prevote: bool, request_term: u64, term: u64, vote_granted: bool) -> Outcome {
        if term > self.current_term {
            self.set_current_term(term);
            self.become_follower();
            return Outcome::BecameFollower;
        }
        let current = if prevote {
            self.state == State::PreCandidate && request_term == self.current_term + 1
        } else {
            self.state == State::Candidate && request_term == self.current_term
        };
        if !current || !vote_granted {
            return Outcome::Handled;
        }
        if let Some(n) = self.node_mut(from) {
            n.voted_for_me = true;
        }
        if votes_is_majority(self.num_voting_nodes(), self.nvotes_for_me()) {
            if self.state == State::PreCandidate {
                self.become_candidate();
                return Outcome::BecameCandidate;
            }
            self.become_leader();
            return Outcome::BecameLeader;
        }
        Outcome::Handled
    }

    /// `raft_recv_appendentries`: the answer goes back to `from`.
    #[allow(clippy::too_many_arguments)]
    pub fn recv_appendentries(&mut self, from: NodeId, term: u64, leader_id: NodeId, leader_commit: u64, msg_id: u64, prev_log_idx: u64, prev_log_term: u64, entries: &[Entry]) {
        let mut success = false;
        let mut current_idx = 0;
        'out: {
            if !self.hear_from_leader(term, leader_id) {
                break 'out;
            }
            if prev_log_idx == self.snapshot_last_idx() {
                assert_eq!(prev_log_term, self.snapshot_last_term, "server {}: an append entries conflicts with the snapshot", self.id);
            } else {
                let Some(ety) = self.log.get(prev_log_idx) else { break 'out };
                if ety.term != prev_log_term {
                    assert!(prev_log_idx > self.commit_idx, "server {}: a committed entry conflicts", self.id);
                    self.delete_entry_from_idx(prev_log_idx);
                    break 'out;
                }
            }
            success = true;
            current_idx = prev_log_idx;
            if self.msg_id < msg_id {
                self.msg_id = msg_id;
            }
            let mut i = 0;
            while i < entries.len() {
                let ety_index = prev_log_idx + 1 + i as u64;
                let Some(existing) = self.log.get(ety_index) else { break };
                if existing.term != entries[i].term {
                    assert!(ety_index > self.commit_idx, "server {}: a committed entry conflicts", self.id);
                    self.delete_entry_from_idx(ety_index);
                    break;
                }
                current_idx = ety_index;
                i += 1;
            }
            while i < entries.len() {
                self.append_entry(entries[i]);
                current_idx = prev_log_idx + 1 + i as u64;
                i += 1;
            }
            if self.commit_idx < leader_commit {
                let last_log_idx = self.current_idx().max(1);
                self.commit_idx = last_log_idx.min(leader_commit);
            }
        }
        if !success {
            current_idx = self.current_idx();
        }
        let body = Body::AppendEntriesResponse { msg_id, term: self.current_term, success, current_idx };
        self.send(from, body);
    }

    /// What the two responses to a leader's messages check first: a response from a node this
    /// server does not know, to a server that no longer leads, or stale (of an older term, or
    /// older than the last message id the node answered) changes nothing; one of a newer term
    /// makes the server a follower of it. None: the response is to be handled.
    fn screen_response(&mut self, from: NodeId, msg_id: u64, term: u64) -> Option<Outcome> {
        let Some(node) = self.node(from) else { return Some(Outcome::Handled) };
        if !self.is_leader() || msg_id < node.match_msgid || term < self.current_term {
            return Some(Outcome::Handled);
        }
        if term > self.current_term {
            self.set_current_term(term);
            self.become_follower();
            return Some(Outcome::BecameFollower);
        }
        None
    }

    /// `raft_recv_appendentries_response`.
    pub fn recv_appendentries_response(&mut self, from: NodeId, msg_id: u64, term: u64, success: bool, current_idx: u64) -> Outcome {
        if let Some(done) = self.screen_response(from, msg_id, term) {
            return done;
        }
        let node = self.node(from).expect("screened above");
        if !success {
            if current_idx < node.match_idx {
                return Outcome::Handled;
            }
            let next = (current_idx + 1).min(self.current_idx());
            if let Some(n) = self.node_mut(from) {
                n.set_next_idx(next);
            }
            self.send_appendentries(from);
            return Outcome::Handled;
        }
        let mine = self.current_idx();
        let n = self.node_mut(from).expect("screened above");
        if current_idx > n.match_idx {
            n.match_idx = current_idx;
        }
        assert!(current_idx <= mine);
        if msg_id > n.match_msgid {
            n.match_msgid = msg_id;
        }
        Outcome::Handled
    }

    /// `raft_recv_entry`: a client's entry at the leader (a write, or a configuration change
    /// when none is in progress and no snapshot is being taken). Returns its index.
    pub fn recv_entry(&mut self, kind: EntryKind) -> Option<u64> {
        if !self.is_leader() {
            return None;
        }
        if kind.is_cfg_change() && (self.voting_change_is_in_progress() || self.snapshot_in_progress) {
            return None;
        }
        let term = self.current_term;
        self.append_entry(Entry { term, kind });
        Some(self.current_idx())
    }

    /// `raft_append_entry`.
    fn append_entry(&mut self, ety: Entry) {
        assert!(self.current_term >= ety.term);
        self.log.append(ety);
        if ety.kind.is_cfg_change() {
            self.voting_cfg_change_log_idx = self.current_idx();
            self.handle_append_cfg_change(ety);
        }
    }

    /// `raft_handle_append_cfg_change`: an added node votes at once, a removed one gets no more
    /// messages.
    fn handle_append_cfg_change(&mut self, ety: Entry) {
        match ety.kind {
            EntryKind::AddNode(id) => self.add_node(id),
            EntryKind::RemoveNode(id) => {
                if let Some(n) = self.node_mut(id) {
                    n.active = false;
                }
            }
            EntryKind::NoOp | EntryKind::Write(_) => {}
        }
    }

    /// `raft_add_node_internal` for a voting node: a non-voting node is promoted; a node that
    /// already votes is left as it is (the C code refuses it and asserts).
    fn add_node(&mut self, id: NodeId) {
        if let Some(n) = self.node_mut(id) {
            n.voting = true;
            return;
        }
        let at = self.nodes.iter().position(|n| n.id > id).unwrap_or(self.nodes.len());
        self.nodes.insert(at, Node::new(id, true));
    }

    /// `raft_handle_remove_cfg_change`: undoes an appended change when its entry is deleted.
    fn handle_remove_cfg_change(&mut self, ety: Entry) {
        match ety.kind {
            EntryKind::AddNode(id) => {
                if let Some(n) = self.node_mut(id) {
                    n.voting = false;
                }
            }
            EntryKind::RemoveNode(id) => {
                if let Some(n) = self.node_mut(id) {
                    n.active = true;
                }
            }
            EntryKind::NoOp | EntryKind::Write(_) => {}
        }
    }

    /// `raft_handle_apply_cfg_change`: a removal takes the node out of the configuration.
    /// A server never applies its own removal here (it gets no more entries once the removal
    /// is appended); RedisRaft would shut it down.
    fn handle_apply_cfg_change(&mut self, ety: Entry) {
        if let EntryKind::RemoveNode(id) = ety.kind
            && id != self.id
        {
            self.remove_node(id);
        }
    }

    /// `raft_remove_node`.
    fn remove_node(&mut self, id: NodeId) {
        self.nodes.retain(|n| n.id != id);
        if self.leader_id == id {
            self.leader_id = NONE;
        }
    }

    /// `raft_delete_entry_from_idx`: removes the entries from `idx` on, last first, undoing
    /// their configuration changes.
    fn delete_entry_from_idx(&mut self, idx: u64) {
        assert!(self.commit_idx < idx);
        if self.log.count() == 0 || idx < self.log.first_idx() || idx > self.current_idx() {
            return;
        }
        while self.current_idx() >= idx {
            let last = self.current_idx();
            let Some(ety) = self.log.pop() else { break };
            self.handle_remove_cfg_change(ety);
            if self.voting_cfg_change_log_idx == last {
                self.voting_cfg_change_log_idx = 0;
            }
        }
    }

    /// `raft_get_previous_log_term`.
    fn previous_log_term(&self, idx: u64) -> u64 {
        self.log.get(idx - 1).map_or(self.snapshot_last_term, |e| e.term)
    }

    /// `raft_send_appendentries`: every entry from the node's next index in one message, or
    /// the snapshot when that entry is compacted.
    pub fn send_appendentries(&mut self, to: NodeId) {
        let Some(node) = self.node(to) else { return };
        assert_ne!(to, self.id);
        if !node.active {
            return;
        }
        if self.snapshot_last_idx() >= node.next_idx {
            self.send_snapshot(to);
            return;
        }
        let next_idx = node.next_idx;
        self.msg_id += 1;
        let entries: Vec<Entry> = (next_idx..=self.current_idx()).filter_map(|i| self.log.get(i)).collect();
        let n = entries.len() as u64;
        let body = Body::AppendEntries {
            term: self.current_term,
            leader_id: self.id,
            leader_commit: self.commit_idx,
            msg_id: self.msg_id,
            prev_log_idx: next_idx - 1,
            prev_log_term: self.previous_log_term(next_idx),
            entries,
        };
        self.send(to, body);
        let msg_id = self.msg_id;
        let node = self.node_mut(to).expect("looked up above");
        node.set_next_idx(next_idx + n);
        node.next_msgid = msg_id + 1;
    }

    /// Whether `raft_flush` would send append entries to `to` now: it is behind, or a read
    /// waits for it to acknowledge a newer message id.
    pub fn flush_wants(&self, to: NodeId) -> bool {
        let Some(node) = self.node(to) else { return false };
        if !self.is_leader() || to == self.id || !node.active {
            return false;
        }
        let last = self.read_queue.last().map_or(0, |r| r.msg_id);
        !(node.next_msgid > last && node.next_idx > self.current_idx())
    }

    /// `raft_periodic` at a leader whose request timer fired: a new message id, and append
    /// entries to every other node.
    pub fn send_heartbeat(&mut self) {
        self.msg_id += 1;
        let others: Vec<NodeId> = self.nodes.iter().filter(|n| n.id != self.id).map(|n| n.id).collect();
        for id in others {
            self.send_appendentries(id);
        }
    }

    /// `raft_send_snapshot`: the whole snapshot in one chunk.
    fn send_snapshot(&mut self, to: NodeId) {
        self.msg_id += 1;
        let body = Body::Snapshot {
            term: self.current_term,
            leader_id: self.id,
            msg_id: self.msg_id,
            snapshot_index: self.snapshot_last_idx(),
            snapshot_term: self.snapshot_last_term,
            value: self.snapshot_value,
            nodes: self.snapshot_nodes.clone(),
        };
        self.send(to, body);
        let base = self.snapshot_last_idx();
        if let Some(n) = self.node_mut(to) {
            n.set_next_idx(base + 1);
        }
    }

    /// `raft_recv_snapshot`, then `raft_begin_load_snapshot` and `raft_end_load_snapshot` with
    /// RedisRaft's loading of the configuration in between.
    #[allow(clippy::too_many_arguments)]
    pub fn recv_snapshot(&mut self, from: NodeId, term: u64, leader_id: NodeId, msg_id: u64, snapshot_index: u64, snapshot_term: u64, value: u64, nodes: &[NodeCfg]) {
        let mut success = false;
        'out: {
            if !self.hear_from_leader(term, leader_id) {
                break 'out;
            }
            if snapshot_index > self.current_idx() {
                self.load_snapshot(snapshot_index, snapshot_term, value, nodes);
            }
            success = true;
        }
        let body = Body::SnapshotResponse { msg_id, snapshot_index, term: self.current_term, success };
        self.send(from, body);
    }

    fn load_snapshot(&mut self, idx: u64, term: u64, value: u64, nodes: &[NodeCfg]) {
        if term > self.current_term {
            self.set_current_term(term);
        }
        self.log.reset(idx);
        if idx > self.commit_idx {
            self.commit_idx = idx;
        }
        self.last_applied_idx = idx;
        self.value = value;
        self.snapshot_last_term = term;
        self.snapshot_value = value;
        self.snapshot_nodes = nodes.to_vec();
        // Every node but this one goes; the configuration is the snapshot's.
        let me = self.id;
        self.nodes.retain(|n| n.id == me);
        if let Some(n) = self.node_mut(me) {
            n.voting = false;
            n.active = true;
            n.voted_for_me = false;
        }
        for &(id, voting, active) in nodes {
            if id == me {
                let n = self.node_mut(me).expect("kept above");
                n.voting = voting;
                n.active = active;
            } else {
                let at = self.nodes.iter().position(|n| n.id > id).unwrap_or(self.nodes.len());
                let mut n = Node::new(id, voting);
                n.active = active;
                self.nodes.insert(at, n);
            }
        }
        self.voting_cfg_change_log_idx = 0;
    }

    /// `raft_recv_snapshot_response`.
    pub fn recv_snapshot_response(&mut self, from: NodeId, msg_id: u64, snapshot_index: u64, term: u64, success: bool) -> Outcome {
        if let Some(done) = self.screen_response(from, msg_id, term) {
            return done;
        }
        let base = self.snapshot_last_idx();
        let n = self.node_mut(from).expect("screened above");
        n.match_msgid = msg_id;
        if snapshot_index == base && success {
            n.next_idx = (base + 1).max(n.next_idx);
        }
        Outcome::Handled
    }

    /// `raft_update_commit_idx` (from `raft_flush`): the highest index a majority of the voting
    /// nodes holds, if of the current term. The leader's own log is synced at once.
    pub fn update_commit_idx(&mut self) {
        self.commit_idx = self.commit_candidate();
    }

    /// What [`Server::update_commit_idx`] commits now (the current commit index if nothing).
    pub fn commit_candidate(&self) -> u64 {
        match self.quorum_value(self.current_idx(), |n| n.match_idx) {
            Some(commit) if commit > self.commit_idx && self.term_at(commit) == Some(self.current_term) => commit,
            _ => self.commit_idx,
        }
    }

    /// The highest value a majority of the voting nodes reaches, this server's being `mine`
    /// and another's `of` it: the voting nodes' values sorted in decreasing order, the middle
    /// one (`raft_update_commit_idx`, `quorum_msg_id`). None with no voting node.
    fn quorum_value(&self, mine: u64, of: impl Fn(&Node) -> u64) -> Option<u64> {
        let mut vals: Vec<u64> = self.nodes.iter().filter(|n| n.voting).map(|n| if n.id == self.id { mine } else { of(n) }).collect();
        vals.sort_unstable_by(|a, b| b.cmp(a));
        vals.get(vals.len() / 2).copied()
    }

    /// `raft_is_apply_allowed`.
    pub fn is_apply_allowed(&self) -> bool {
        !self.snapshot_in_progress
    }

    /// `raft_apply_entry`: applies the next committed entry. Returns whether it did.
    pub fn apply_entry(&mut self) -> bool {
        if !self.is_apply_allowed() || self.last_applied_idx == self.commit_idx {
            return false;
        }
        let idx = self.last_applied_idx + 1;
        let Some(ety) = self.log.get(idx) else { return false };
        if let EntryKind::Write(v) = ety.kind {
            self.value = v;
        }
        self.last_applied_idx = idx;
        if idx == self.voting_cfg_change_log_idx {
            self.voting_cfg_change_log_idx = 0;
        }
        if ety.kind.is_cfg_change() {
            self.handle_apply_cfg_change(ety);
        }
        true
    }

    /// `raft_apply_all`.
    fn apply_all(&mut self) {
        while self.apply_entry() {}
    }

    /// `quorum_msg_id`: the highest message id a majority of the voting nodes acknowledged.
    fn quorum_msg_id(&self) -> u64 {
        self.quorum_value(self.msg_id, |n| n.match_msgid).unwrap_or(0)
    }

    /// `raft_recv_read_request`: a leader queues the read with a new message id; a quorum's
    /// acknowledgement of that id confirms it still leads. With the bug switch on, it answers
    /// at once from its own state machine.
    pub fn recv_read_request(&mut self, id: u64) -> bool {
        if !self.is_leader() {
            return false;
        }
        if self.bug == Bug::LocalRead {
            self.answered.push(ReadAnswer { id, ok: true, index: self.last_applied_idx, value: self.value });
            return true;
        }
        self.msg_id += 1;
        self.read_queue.push(ReadRequest { id, read_idx: self.current_idx(), msg_id: self.msg_id });
        true
    }

    /// Whether [`Server::process_read_queue`] would answer a read now.
    pub fn read_queue_ready(&self) -> bool {
        let Some(head) = self.read_queue.first() else { return false };
        if !self.is_leader() {
            return true;
        }
        self.last_applied_term() >= self.current_term && head.msg_id <= self.quorum_msg_id() && head.read_idx <= self.last_applied_idx
    }

    /// `raft_process_read_queue`: a server that no longer leads drops its reads; a leader that
    /// has applied an entry of its term serves, in order, the reads a quorum confirmed and whose
    /// index it has applied.
    pub fn process_read_queue(&mut self) {
        if self.read_queue.is_empty() {
            return;
        }
        if !self.is_leader() {
            for r in std::mem::take(&mut self.read_queue) {
                self.answered.push(ReadAnswer { id: r.id, ok: false, index: 0, value: 0 });
            }
            return;
        }
        if self.last_applied_term() < self.current_term {
            return;
        }
        let acked = self.quorum_msg_id();
        while let Some(&head) = self.read_queue.first() {
            if head.msg_id > acked || head.read_idx > self.last_applied_idx {
                break;
            }
            self.read_queue.remove(0);
            self.answered.push(ReadAnswer { id: head.id, ok: true, index: self.last_applied_idx, value: self.value });
        }
    }

    /// `raft_get_num_snapshottable_logs`.
    pub fn num_snapshottable_logs(&self) -> u64 {
        if self.log.count() <= 1 {
            return 0;
        }
        self.commit_idx + 1 - self.log.first_idx()
    }

    /// `raft_begin_snapshot`: applies every committed entry, then holds applies until the
    /// snapshot ends. Returns whether it began.
    pub fn begin_snapshot(&mut self) -> bool {
        if self.snapshot_in_progress || self.num_snapshottable_logs() == 0 {
            return false;
        }
        self.apply_all();
        self.snapshot_in_progress = true;
        true
    }

    /// `raft_end_snapshot`: the snapshot holds the state machine at the last applied entry and
    /// the configuration; the log drops what it holds. A leader sends it to the nodes whose
    /// next entry it compacted.
    pub fn end_snapshot(&mut self) -> bool {
        if !self.snapshot_in_progress {
            return false;
        }
        let idx = self.last_applied_idx;
        self.snapshot_last_term = self.last_applied_term();
        self.snapshot_value = self.value;
        self.snapshot_nodes = self.nodes.iter().map(|n| (n.id, n.voting, n.active)).collect();
        self.log.poll(idx + 1);
        self.snapshot_in_progress = false;
        if !self.is_leader() {
            return true;
        }
        let behind: Vec<NodeId> = self.nodes.iter().filter(|n| n.id != self.id && n.active && idx > 0 && n.next_idx <= idx).map(|n| n.id).collect();
        for id in behind {
            self.send_snapshot(id);
        }
        true
    }
}
