//! One Raft node as etcd's `raft.go` (v3.5) structures it: a pure state machine. The host calls
//! [`Raft::tick`] once per time unit and [`Raft::step`] with every message that reaches the node;
//! whatever the node wants to send lands in its outbox ([`Raft::msgs`]), which the host drains.
//! There is no I/O, no clock and no thread here.
//!
//! Kept from etcd: the four roles and their step functions, PreVote, the election and heartbeat
//! timers with a randomised election timeout, one vote per term, the up-to-date check, the
//! append consistency check with conflict truncation and reject hints, commit by a quorum of match
//! indexes for an entry of the current term, the commit index carried by heartbeats, and the
//! handling of messages from other terms in `step`.

use std::collections::BTreeMap;

/// A node id; [`NONE`] is "no node" (etcd's `None`).
pub type NodeId = u64;
pub const NONE: NodeId = 0;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Role {
    Follower,
    PreCandidate,
    Candidate,
    Leader,
}

impl Role {
    pub fn name(self) -> &'static str {
        match self {
            Role::Follower => "Follower",
            Role::PreCandidate => "PreCandidate",
            Role::Candidate => "Candidate",
            Role::Leader => "Leader",
        }
    }
}

/// Message types. `Hup` (start an election) and `Beat` (send heartbeats) are local: the node's own
/// timers step them; `Prop` carries a client proposal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum MsgType {
    Hup,
    Beat,
    Prop,
    PreVote,
    PreVoteResp,
    Vote,
    VoteResp,
    App,
    AppResp,
    Heartbeat,
    HeartbeatResp,
}

impl MsgType {
    /// Local messages carry term 0 and never cross the network.
    pub fn is_local(self) -> bool {
        matches!(self, MsgType::Hup | MsgType::Beat)
    }
}

/// A log entry: its term and an opaque payload (0 for the empty entry a new leader appends).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Entry {
    pub term: u64,
    pub data: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Message {
    pub kind: MsgType,
    pub from: NodeId,
    pub to: NodeId,
    pub term: u64,
    /// Vote requests: the candidate's last log term. Appends: the term at `index`. Rejections:
    /// the term of the follower's hint.
    pub log_term: u64,
    /// Vote requests: the candidate's last index. Appends: the index before `entries`.
    /// Append responses: the last index accepted, or the rejected `index`.
    pub index: u64,
    pub entries: Vec<Entry>,
    pub commit: u64,
    pub reject: bool,
    pub reject_hint: u64,
}

impl Message {
    pub fn new(kind: MsgType, to: NodeId) -> Message {
        Message {
            kind,
            from: NONE,
            to,
            term: 0,
            log_term: 0,
            index: 0,
            entries: vec![],
            commit: 0,
            reject: false,
            reject_hint: 0,
        }
    }
}

/// The leader's view of one follower's log (etcd's `Progress`, without flow control).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    pub matched: u64,
    pub next: u64,
}

impl Progress {
    /// An acknowledgement up to `n`: true when it moved the match index.
    fn maybe_update(&mut self, n: u64) -> bool {
        let updated = self.matched < n;
        if updated {
            self.matched = n;
        }
        self.next = self.next.max(n + 1);
        updated
    }

    /// A rejection of the append after `rejected`; `hint` is where the follower's log may match.
    /// False for a stale rejection (already matched, or not about the last append sent).
    fn maybe_decr_to(&mut self, rejected: u64, hint: u64) -> bool {
        if rejected <= self.matched || self.next.saturating_sub(1) != rejected {
            return false;
        }
        self.next = rejected.min(hint + 1).max(1);
        true
    }
}

/// What survives a crash: etcd's HardState (term, vote, commit) and the stable log.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Durable {
    pub term: u64,
    pub vote: NodeId,
    pub commit: u64,
    pub log: Vec<Entry>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    pub id: NodeId,
    /// Every node of the cluster, this one included.
    pub peers: Vec<NodeId>,
    /// Ticks a follower waits for its leader before it campaigns (the base of the randomised
    /// timeout, which is drawn from `[election_tick, 2 * election_tick)`).
    pub election_tick: u32,
    pub heartbeat_tick: u32,
    pub pre_vote: bool,
    /// Seeds the node's random election timeouts.
    pub seed: u64,
}

/// Why a proposal was not taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepError {
    ProposalDropped,
}

/// What a tick did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tick {
    Nothing,
    /// The election timer fired: the node campaigned (MsgHup).
    Campaign,
    /// The heartbeat timer of a leader fired (MsgBeat).
    Heartbeat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum VoteResult {
    Pending,
    Won,
    Lost,
}

/// splitmix64: the node's source of randomised election timeouts.
fn splitmix64(x: &mut u64) -> u64 {
    *x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *x;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[derive(Clone, Debug)]
pub struct Raft {
    pub id: NodeId,
    pub peers: Vec<NodeId>,
    pub term: u64,
    pub vote: NodeId,
    pub lead: NodeId,
    pub role: Role,
    /// Entry at index `k` (from 1) is `log[k - 1]`.
    pub log: Vec<Entry>,
    pub committed: u64,
    /// The leader's progress of every node (itself included); reset on every role change.
    pub prs: BTreeMap<NodeId, Progress>,
    /// Votes (or pre-votes) received in the current campaign: node -> granted.
    pub votes: BTreeMap<NodeId, bool>,
    pub pre_vote: bool,
    election_elapsed: u32,
    heartbeat_elapsed: u32,
    election_timeout: u32,
    heartbeat_timeout: u32,
    randomized_election_timeout: u32,
    rng: u64,
    /// The outbox (etcd's `msgs`).
    pub msgs: Vec<Message>,
}

impl Raft {
    /// A node starting from `durable` (all zero and empty for a new node) as a follower.
    pub fn new(cfg: &Config, durable: Durable) -> Raft {
        let mut peers = cfg.peers.clone();
        peers.sort_unstable();
        peers.dedup();
        let mut r = Raft {
            id: cfg.id,
            peers,
            term: durable.term,
            vote: durable.vote,
            lead: NONE,
            role: Role::Follower,
            log: durable.log,
            committed: durable.commit,
            prs: BTreeMap::new(),
            votes: BTreeMap::new(),
            pre_vote: cfg.pre_vote,
            election_elapsed: 0,
            heartbeat_elapsed: 0,
            election_timeout: cfg.election_tick.max(1),
            heartbeat_timeout: cfg.heartbeat_tick.max(1),
            randomized_election_timeout: 0,
            rng: cfg.seed ^ cfg.id.wrapping_mul(0x2545_f491_4f6c_dd1d),
            msgs: vec![],
        };
        let term = r.term;
        r.become_follower(term, NONE);
        r
    }

    /// The state a restart keeps.
    pub fn durable(&self) -> Durable {
        Durable { term: self.term, vote: self.vote, commit: self.committed, log: self.log.clone() }
    }

    pub fn last_index(&self) -> u64 {
        self.log.len() as u64
    }

    /// The term of the entry at `i` (0 for index 0), or `None` past the end.
    pub fn term_at(&self, i: u64) -> Option<u64> {
        if i == 0 {
            Some(0)
        } else {
            self.log.get((i - 1) as usize).map(|e| e.term)
        }
    }

    pub fn last_term(&self) -> u64 {
        self.log.last().map_or(0, |e| e.term)
    }

    fn quorum(&self) -> usize {
        self.peers.len() / 2 + 1
    }

    /// Takes the outbox.
    pub fn take_msgs(&mut self) -> Vec<Message> {
        std::mem::take(&mut self.msgs)
    }

    // ---- timers -------------------------------------------------------------------------

    /// One unit of time.
    pub fn tick(&mut self) -> Tick {
        if self.role == Role::Leader { self.tick_heartbeat() } else { self.tick_election() }
    }

    fn tick_election(&mut self) -> Tick {
        self.election_elapsed += 1;
        if self.election_elapsed >= self.randomized_election_timeout {
            self.election_elapsed = 0;
            let _ = self.step(Message::new(MsgType::Hup, self.id));
            return Tick::Campaign;
        }
        Tick::Nothing
    }

    fn tick_heartbeat(&mut self) -> Tick {
        self.heartbeat_elapsed += 1;
        self.election_elapsed += 1;
        if self.election_elapsed >= self.election_timeout {
            // Check-quorum and leader transfer are left out: the timer only restarts.
            self.election_elapsed = 0;
        }
        if self.heartbeat_elapsed >= self.heartbeat_timeout {
            self.heartbeat_elapsed = 0;
            let _ = self.step(Message::new(MsgType::Beat, self.id));
            return Tick::Heartbeat;
        }
        Tick::Nothing
    }

    // ---- role changes -------------------------------------------------------------------

    fn reset_randomized_election_timeout(&mut self) {
        let extra = (splitmix64(&mut self.rng) % u64::from(self.election_timeout)) as u32;
        self.randomized_election_timeout = self.election_timeout + extra;
    }

    fn reset(&mut self, term: u64) {
        if self.term != term {
            self.term = term;
            self.vote = NONE;
        }
        self.lead = NONE;
        self.election_elapsed = 0;
        self.heartbeat_elapsed = 0;
        self.reset_randomized_election_timeout();
        self.votes.clear();
        let last = self.last_index();
        self.prs = self.peers.iter().map(|&p| (p, Progress { matched: 0, next: last + 1 })).collect();
        if let Some(me) = self.prs.get_mut(&self.id) {
            me.matched = last;
        }
    }

    fn become_follower(&mut self, term: u64, lead: NodeId) {
        self.reset(term);
        self.lead = lead;
        self.role = Role::Follower;
    }

    /// Neither the term nor the vote changes: a pre-candidate only asks whether it could win.
    fn become_pre_candidate(&mut self) {
        assert!(self.role != Role::Leader, "invalid transition [leader -> pre-candidate]");
        self.votes.clear();
        self.lead = NONE;
        self.role = Role::PreCandidate;
    }

    fn become_candidate(&mut self) {
        assert!(self.role != Role::Leader, "invalid transition [leader -> candidate]");
        let term = self.term + 1;
        self.reset(term);
        self.vote = self.id;
        self.role = Role::Candidate;
    }

    fn become_leader(&mut self) {
        assert!(self.role != Role::Follower, "invalid transition [follower -> leader]");
        let term = self.term;
        self.reset(term);
        self.lead = self.id;
        self.role = Role::Leader;
        // The empty entry of the new term: committing it commits everything before it.
        self.append_entries(&[0]);
    }

    // ---- sending ------------------------------------------------------------------------

    /// Queues `m` from this node. Vote messages and their answers carry an explicit term (a
    /// pre-vote asks for a term not yet reached); every other message carries the node's term.
    fn send(&mut self, mut m: Message) {
        m.from = self.id;
        match m.kind {
            MsgType::Vote | MsgType::VoteResp | MsgType::PreVote | MsgType::PreVoteResp => {
                assert!(m.term != 0, "vote message without a term: {m:?}");
            }
            MsgType::Prop => {}
            _ => m.term = self.term,
        }
        self.msgs.push(m);
    }

    /// Sends `to` everything from its next index, with the previous index and term.
    fn send_append(&mut self, to: NodeId) {
        let Some(pr) = self.prs.get(&to).copied() else { return };
        let prev = pr.next - 1;
        let Some(prev_term) = self.term_at(prev) else { return };
        let mut m = Message::new(MsgType::App, to);
        m.index = prev;
        m.log_term = prev_term;
        m.entries = self.log[prev as usize..].to_vec();
        m.commit = self.committed;
        self.send(m);
    }

    fn bcast_append(&mut self) {
        for p in self.others() {
            self.send_append(p);
        }
    }

    /// Heartbeats carry the commit index, but never past what the follower is known to hold.
    fn bcast_heartbeat(&mut self) {
        for p in self.others() {
            let matched = self.prs.get(&p).map_or(0, |pr| pr.matched);
            let mut m = Message::new(MsgType::Heartbeat, p);
            m.commit = matched.min(self.committed);
            self.send(m);
        }
    }

    fn others(&self) -> Vec<NodeId> {
        self.peers.iter().copied().filter(|&p| p != self.id).collect()
    }

    // ---- the log ------------------------------------------------------------------------

    /// Leader: appends entries of its term with the given payloads.
    fn append_entries(&mut self, data: &[u64]) {
        let term = self.term;
        self.log.extend(data.iter().map(|&d| Entry { term, data: d }));
        let last = self.last_index();
        if let Some(me) = self.prs.get_mut(&self.id) {
            me.maybe_update(last);
        }
        self.maybe_commit();
    }

    fn match_term(&self, i: u64, t: u64) -> bool {
        self.term_at(i) == Some(t)
    }

    /// First index of `ents` (which follow `index`) that the log lacks or holds with another
    /// term; 0 if the log has them all.
    fn find_conflict(&self, index: u64, ents: &[Entry]) -> u64 {
        for (k, e) in ents.iter().enumerate() {
            let i = index + 1 + k as u64;
            if !self.match_term(i, e.term) {
                return i;
            }
        }
        0
    }

    /// The largest index `<= index` whose term is `<= term` (where the logs may agree).
    pub fn find_conflict_by_term(&self, index: u64, term: u64) -> u64 {
        if index > self.last_index() {
            return index;
        }
        let mut i = index;
        while i > 0 && self.term_at(i).is_some_and(|t| t > term) {
            i -= 1;
        }
        i
    }

    fn commit_to(&mut self, to: u64) {
        if self.committed < to {
            assert!(to <= self.last_index(), "commit {to} is out of range [last index {}]", self.last_index());
            self.committed = to;
        }
    }

    /// Follower: the entries after `index` if the log holds `index` with `log_term`; returns
    /// the last index of the appended entries.
    fn maybe_append(&mut self, index: u64, log_term: u64, commit: u64, ents: &[Entry]) -> Option<u64> {
        if !self.match_term(index, log_term) {
            return None;
        }
        let last_new = index + ents.len() as u64;
        let ci = self.find_conflict(index, ents);
        if ci != 0 {
            assert!(ci > self.committed, "entry {ci} conflicts with committed entry [committed {}]", self.committed);
            self.log.truncate((ci - 1) as usize);
            self.log.extend_from_slice(&ents[(ci - index - 1) as usize..]);
        }
        self.commit_to(commit.min(last_new));
        Some(last_new)
    }

    /// A candidate's log (last term, last index) is at least as up to date as this one.
    fn is_up_to_date(&self, last_index: u64, last_term: u64) -> bool {
        last_term > self.last_term() || (last_term == self.last_term() && last_index >= self.last_index())
    }

    /// Leader: commits the quorum's match index if its entry is of the current term.
    fn maybe_commit(&mut self) -> bool {
        let mut matched: Vec<u64> = self.prs.values().map(|p| p.matched).collect();
        matched.sort_unstable_by(|a, b| b.cmp(a));
        let Some(&mci) = matched.get(self.quorum() - 1) else { return false };
        if mci > self.committed && self.term_at(mci) == Some(self.term) {
            self.committed = mci;
            return true;
        }
        false
    }

    // ---- elections ----------------------------------------------------------------------

    fn poll(&mut self, from: NodeId, granted: bool) -> VoteResult {
        self.votes.entry(from).or_insert(granted);
        let yes = self.votes.values().filter(|&&v| v).count();
        let missing = self.peers.len() - self.votes.len();
        if yes >= self.quorum() {
            VoteResult::Won
        } else if yes + missing >= self.quorum() {
            VoteResult::Pending
        } else {
            VoteResult::Lost
        }
    }

    fn campaign(&mut self, pre: bool) {
        let (kind, term) = if pre {
            self.become_pre_candidate();
            (MsgType::PreVote, self.term + 1)
        } else {
            self.become_candidate();
            (MsgType::Vote, self.term)
        };
        if self.poll(self.id, true) == VoteResult::Won {
            // A single-node cluster wins at once.
            if pre {
                self.campaign(false);
            } else {
                self.become_leader();
            }
            return;
        }
        let (li, lt) = (self.last_index(), self.last_term());
        for p in self.others() {
            let mut m = Message::new(kind, p);
            m.term = term;
            m.index = li;
            m.log_term = lt;
            self.send(m);
        }
    }

    // ---- stepping -----------------------------------------------------------------------

    /// Handles one message (or local event).
    pub fn step(&mut self, m: Message) -> Result<(), StepError> {
        if m.term > self.term && !m.kind.is_local() && m.kind != MsgType::Prop {
            // etcd ignores (pre-)votes here while a lease is held; that needs check-quorum,
            // which is off.
            match m.kind {
                // A pre-vote never changes the receiver's term.
                MsgType::PreVote => {}
                // A granted pre-vote carries the term we asked for; we move to it only when we
                // win. A rejection carries the rejecter's (higher) term: we follow it.
                MsgType::PreVoteResp if !m.reject => {}
                MsgType::App | MsgType::Heartbeat => self.become_follower(m.term, m.from),
                _ => self.become_follower(m.term, NONE),
            }
        } else if m.term < self.term && !m.kind.is_local() && m.kind != MsgType::Prop {
            if self.pre_vote && matches!(m.kind, MsgType::App | MsgType::Heartbeat) {
                // A stale leader (cut off while we moved on) would otherwise never learn the new
                // term: pre-vote keeps our term from disrupting it. Answer at our term.
                let to = m.from;
                self.send(Message::new(MsgType::AppResp, to));
            } else if m.kind == MsgType::PreVote {
                let mut r = Message::new(MsgType::PreVoteResp, m.from);
                r.term = self.term;
                r.reject = true;
                self.send(r);
            }
            // Anything else from an older term is ignored.
            return Ok(());
        }

        match m.kind {
            MsgType::Hup => {
                if self.role != Role::Leader {
                    self.campaign(self.pre_vote);
                }
                Ok(())
            }
            MsgType::Vote | MsgType::PreVote => {
                let can_vote = self.vote == m.from
                    || (self.vote == NONE && self.lead == NONE)
                    || (m.kind == MsgType::PreVote && m.term > self.term);
                let resp = if m.kind == MsgType::Vote { MsgType::VoteResp } else { MsgType::PreVoteResp };
                let mut r = Message::new(resp, m.from);
                if can_vote && self.is_up_to_date(m.index, m.log_term) {
                    r.term = m.term;
                    self.send(r);
                    if m.kind == MsgType::Vote {
                        self.election_elapsed = 0;
                        self.vote = m.from;
                    }
                } else {
                    r.term = self.term;
                    r.reject = true;
                    self.send(r);
                }
                Ok(())
            }
            _ => match self.role {
                Role::Follower => self.step_follower(m),
                Role::PreCandidate | Role::Candidate => self.step_candidate(m),
                Role::Leader => self.step_leader(m),
            },
        }
    }

    fn step_follower(&mut self, m: Message) -> Result<(), StepError> {
        match m.kind {
            MsgType::Prop => {
                if self.lead == NONE {
                    return Err(StepError::ProposalDropped);
                }
                let mut f = m;
                f.to = self.lead;
                self.send(f);
            }
            MsgType::App => {
                self.election_elapsed = 0;
                self.lead = m.from;
                self.handle_append_entries(&m);
            }
            MsgType::Heartbeat => {
                self.election_elapsed = 0;
                self.lead = m.from;
                self.handle_heartbeat(&m);
            }
            _ => {}
        }
        Ok(())
    }

    fn step_candidate(&mut self, m: Message) -> Result<(), StepError> {
        let my_resp = if self.role == Role::PreCandidate { MsgType::PreVoteResp } else { MsgType::VoteResp };
        match m.kind {
            MsgType::Prop => return Err(StepError::ProposalDropped),
            MsgType::App => {
                self.become_follower(m.term, m.from);
                self.handle_append_entries(&m);
            }
            MsgType::Heartbeat => {
                self.become_follower(m.term, m.from);
                self.handle_heartbeat(&m);
            }
            k if k == my_resp => match self.poll(m.from, !m.reject) {
                VoteResult::Won => {
                    if self.role == Role::PreCandidate {
                        self.campaign(false);
                    } else {
                        self.become_leader();
                        self.bcast_append();
                    }
                }
                VoteResult::Lost => {
                    let term = self.term;
                    self.become_follower(term, NONE);
                }
                VoteResult::Pending => {}
            },
            _ => {}
        }
        Ok(())
    }

    fn step_leader(&mut self, m: Message) -> Result<(), StepError> {
        match m.kind {
            MsgType::Beat => {
                self.bcast_heartbeat();
                return Ok(());
            }
            MsgType::Prop => {
                if m.entries.is_empty() {
                    return Err(StepError::ProposalDropped);
                }
                let data: Vec<u64> = m.entries.iter().map(|e| e.data).collect();
                self.append_entries(&data);
                self.bcast_append();
                return Ok(());
            }
            _ => {}
        }
        let Some(mut pr) = self.prs.get(&m.from).copied() else { return Ok(()) };
        match m.kind {
            MsgType::AppResp => {
                if m.reject {
                    let mut next_probe = m.reject_hint;
                    if m.log_term > 0 {
                        next_probe = self.find_conflict_by_term(m.reject_hint, m.log_term);
                    }
                    if pr.maybe_decr_to(m.index, next_probe) {
                        self.prs.insert(m.from, pr);
                        self.send_append(m.from);
                    }
                } else if pr.maybe_update(m.index) {
                    self.prs.insert(m.from, pr);
                    if self.maybe_commit() {
                        self.bcast_append();
                    } else if pr.next <= self.last_index() {
                        self.send_append(m.from);
                    }
                } else {
                    self.prs.insert(m.from, pr);
                }
            }
            MsgType::HeartbeatResp if pr.matched < self.last_index() => self.send_append(m.from),
            _ => {}
        }
        Ok(())
    }

    fn handle_append_entries(&mut self, m: &Message) {
        if m.index < self.committed {
            let mut r = Message::new(MsgType::AppResp, m.from);
            r.index = self.committed;
            self.send(r);
            return;
        }
        match self.maybe_append(m.index, m.log_term, m.commit, &m.entries) {
            Some(last_new) => {
                let mut r = Message::new(MsgType::AppResp, m.from);
                r.index = last_new;
                self.send(r);
            }
            None => {
                let hint = self.find_conflict_by_term(m.index.min(self.last_index()), m.log_term);
                let mut r = Message::new(MsgType::AppResp, m.from);
                r.index = m.index;
                r.reject = true;
                r.reject_hint = hint;
                r.log_term = self.term_at(hint).unwrap_or(0);
                self.send(r);
            }
        }
    }

    fn handle_heartbeat(&mut self, m: &Message) {
        self.commit_to(m.commit);
        let r = Message::new(MsgType::HeartbeatResp, m.from);
        self.send(r);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(id: NodeId) -> Config {
        Config { id, peers: vec![1, 2, 3], election_tick: 10, heartbeat_tick: 1, pre_vote: true, seed: 7 }
    }

    fn node(id: NodeId) -> Raft {
        Raft::new(&cfg(id), Durable::default())
    }

    fn tick_until_campaign(r: &mut Raft) {
        for _ in 0..100 {
            if r.tick() == Tick::Campaign {
                return;
            }
        }
        panic!("no campaign within 100 ticks");
    }

    #[test]
    fn election_timeout_is_randomised_within_bounds() {
        for seed in 0..50 {
            let mut c = cfg(1);
            c.seed = seed;
            let mut r = Raft::new(&c, Durable::default());
            let mut n = 0;
            while r.tick() != Tick::Campaign {
                n += 1;
            }
            assert!((9..19).contains(&n), "campaign after {} ticks", n + 1);
        }
    }

    #[test]
    fn pre_vote_keeps_the_term_and_asks_for_the_next() {
        let mut r = node(1);
        tick_until_campaign(&mut r);
        assert_eq!((r.role, r.term, r.vote), (Role::PreCandidate, 0, NONE));
        let msgs = r.take_msgs();
        assert_eq!(msgs.len(), 2);
        assert!(msgs.iter().all(|m| m.kind == MsgType::PreVote && m.term == 1));
    }

    #[test]
    fn three_nodes_elect_a_leader_that_appends_an_empty_entry() {
        let mut n: Vec<Raft> = (1..=3).map(node).collect();
        tick_until_campaign(&mut n[0]);
        let mut queue = n[0].take_msgs();
        let mut steps = 0;
        while let Some(m) = queue.pop() {
            steps += 1;
            assert!(steps < 100);
            let to = (m.to - 1) as usize;
            n[to].step(m).unwrap();
            queue.extend(n[to].take_msgs());
        }
        assert_eq!(n[0].role, Role::Leader);
        assert_eq!(n[0].term, 1);
        for r in &n {
            assert_eq!(r.log, vec![Entry { term: 1, data: 0 }]);
            assert_eq!(r.lead, 1);
        }
        // Committed on the leader once a follower acknowledged; on followers by the next append.
        assert_eq!(n[0].committed, 1);
    }

    #[test]
    fn one_vote_per_term() {
        let mut r = node(3);
        let mut v = Message::new(MsgType::Vote, 3);
        v.from = 1;
        v.term = 1;
        r.step(v.clone()).unwrap();
        let mut w = v.clone();
        w.from = 2;
        r.step(w).unwrap();
        // The same candidate asking again is granted again.
        r.step(v).unwrap();
        let out = r.take_msgs();
        let rejects: Vec<bool> = out.iter().map(|m| m.reject).collect();
        assert_eq!(rejects, vec![false, true, false]);
        assert_eq!(r.vote, 1);
    }

    #[test]
    fn stale_vote_is_rejected_if_log_is_behind() {
        let mut r = Raft::new(&cfg(2), Durable { term: 2, vote: NONE, commit: 0, log: vec![Entry { term: 2, data: 0 }] });
        let mut v = Message::new(MsgType::Vote, 2);
        v.from = 1;
        v.term = 3;
        v.index = 5;
        v.log_term = 1;
        r.step(v).unwrap();
        let out = r.take_msgs();
        assert!(out[0].reject);
        // The higher term was adopted first.
        assert_eq!((r.term, r.vote), (3, NONE));
    }

    #[test]
    fn append_truncates_a_conflicting_suffix_and_commits_to_the_last_new_index() {
        let log = vec![Entry { term: 1, data: 0 }, Entry { term: 1, data: 5 }, Entry { term: 1, data: 6 }];
        let mut r = Raft::new(&cfg(2), Durable { term: 1, vote: 1, commit: 1, log });
        let mut m = Message::new(MsgType::App, 2);
        m.from = 3;
        m.term = 2;
        m.index = 1;
        m.log_term = 1;
        m.entries = vec![Entry { term: 2, data: 0 }];
        m.commit = 3;
        r.step(m).unwrap();
        assert_eq!(r.log.iter().map(|e| e.term).collect::<Vec<_>>(), vec![1, 2]);
        assert_eq!(r.committed, 2);
        assert_eq!((r.lead, r.term, r.role), (3, 2, Role::Follower));
        let out = r.take_msgs();
        assert_eq!((out[0].kind, out[0].index, out[0].reject), (MsgType::AppResp, 2, false));
    }

    #[test]
    fn append_with_a_missing_previous_entry_is_rejected_with_a_hint() {
        let mut r = Raft::new(&cfg(2), Durable { term: 1, vote: 1, commit: 0, log: vec![Entry { term: 1, data: 0 }] });
        let mut m = Message::new(MsgType::App, 2);
        m.from = 1;
        m.term = 1;
        m.index = 3;
        m.log_term = 1;
        r.step(m).unwrap();
        let out = r.take_msgs();
        assert!(out[0].reject);
        assert_eq!((out[0].index, out[0].reject_hint, out[0].log_term), (3, 1, 1));
    }

    #[test]
    fn lower_term_pre_vote_is_answered_and_lower_term_append_gets_our_term() {
        let mut r = Raft::new(&cfg(2), Durable { term: 3, vote: NONE, commit: 0, log: vec![] });
        let mut p = Message::new(MsgType::PreVote, 2);
        p.from = 1;
        p.term = 2;
        r.step(p).unwrap();
        let mut a = Message::new(MsgType::App, 2);
        a.from = 1;
        a.term = 1;
        r.step(a).unwrap();
        let mut v = Message::new(MsgType::VoteResp, 2);
        v.from = 1;
        v.term = 1;
        r.step(v).unwrap();
        let out = r.take_msgs();
        assert_eq!(out.len(), 2);
        assert_eq!((out[0].kind, out[0].term, out[0].reject), (MsgType::PreVoteResp, 3, true));
        assert_eq!((out[1].kind, out[1].term), (MsgType::AppResp, 3));
    }

    #[test]
    fn leader_commits_only_entries_of_its_term() {
        // Leader of term 3 with an old entry of term 1 at index 1 that a quorum matches.
        let log = vec![Entry { term: 1, data: 0 }];
        let mut r = Raft::new(&cfg(1), Durable { term: 2, vote: 1, commit: 0, log });
        r.become_pre_candidate();
        r.become_candidate();
        r.become_leader();
        assert_eq!(r.term, 3);
        r.take_msgs();
        let mut resp = Message::new(MsgType::AppResp, 1);
        resp.from = 2;
        resp.term = 3;
        resp.index = 1;
        r.step(resp.clone()).unwrap();
        assert_eq!(r.committed, 0, "index 1 is of term 1");
        resp.index = 2;
        r.step(resp).unwrap();
        assert_eq!(r.committed, 2);
    }

    #[test]
    fn restart_keeps_hard_state_and_log_only() {
        let mut n: Vec<Raft> = (1..=3).map(node).collect();
        tick_until_campaign(&mut n[1]);
        let mut queue = n[1].take_msgs();
        while let Some(m) = queue.pop() {
            let to = (m.to - 1) as usize;
            n[to].step(m).unwrap();
            queue.extend(n[to].take_msgs());
        }
        let leader = &n[1];
        assert_eq!(leader.role, Role::Leader);
        let back = Raft::new(&cfg(2), leader.durable());
        assert_eq!((back.role, back.lead, back.term, back.vote), (Role::Follower, NONE, 1, 2));
        assert_eq!((back.log.clone(), back.committed), (leader.log.clone(), leader.committed));
    }
}
