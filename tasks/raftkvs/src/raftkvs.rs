//! PGo's Raft key-value store: `NumServers` Raft servers (ids `1..=NumServers`), a failure
//! injector (the crashers) and `NumClients` clients that send Put and Get requests.
//!
//! Written in the shape the PGo compiler gives a Modular PlusCal system. Each Raft server is
//! five archetypes that share the server's resources (`state`, `currentTerm`, `log`,
//! `commitIndex`, `nextIndex`, `matchIndex`, `votedFor`, `votesResponded`, `votesGranted`,
//! `leader`, `sm`, `smDomain`); each archetype is a state machine whose steps are its MPCal
//! labels, and a step either completes or, when one of its reads must wait, does not start.
//! Process ids are PGo's:
//!
//! ```text
//! AServer                    i            serverLoop -> handleMsg -> serverLoop
//! AServerRequestVote         NumServers+i serverRequestVoteLoop -> requestVoteLoop (x NumServers+1)
//! AServerAppendEntries     2*NumServers+i serverAppendEntriesLoop -> appendEntriesLoop (x NumServers+1)
//! AServerAdvanceCommitIndex 3*NumServers+i serverAdvanceCommitIndexLoop -> applyLoop (until caught up)
//! AServerBecomeLeader      4*NumServers+i serverBecomeLeaderLoop
//! AServerCrasher           5*NumServers+k serverCrash -> fdUpdate -> Done   (crashes server k)
//! AClient                  6*NumServers+c clientLoop -> sndReq -> rcvResp -> clientLoop
//! ```
//!
//! - `serverLoop` takes any message from the server's mailbox (a bag) into `m`; `handleMsg`
//!   handles it: a RequestVote request or response, an AppendEntries request or response
//!   (each first steps down to a newer term), or a client request (a leader appends it to its
//!   log; any other server answers with failure and its leader hint).
//! - `serverRequestVoteLoop` is the election timeout: a follower or candidate whose mailbox is
//!   empty becomes a candidate of the next term and votes for itself; `requestVoteLoop` then
//!   sends a RequestVote to each other server, one server per step (`idx`), and a last step
//!   goes back.
//! - `serverAppendEntriesLoop` starts a round of AppendEntries when the server is leader;
//!   `appendEntriesLoop` sends each other server the entries from its `nextIndex`, one server per
//!   step, while the server is still leader.
//! - `serverAdvanceCommitIndexLoop` computes, for a leader, the highest index a quorum has
//!   (`matchIndex`) whose entry is of the leader's term (`newCommitIndex`); `applyLoop` commits
//!   up to it one entry per step, applies it to `sm` and answers the entry's client.
//! - `serverBecomeLeaderLoop` makes a candidate with a quorum of votes leader.
//! - A crasher's `serverCrash` disables its server's network (`netEnabled`: the server takes no
//!   more steps, and messages sent to it are lost), then `fdUpdate` sets the failure detector
//!   `fd` of the server.
//! - The client takes its next request at `clientLoop`; at `sndReq` it sends it to its `leader`
//!   (any server when it knows none); at `rcvResp` it either takes a message from its mailbox
//!   (one for an older request is dropped and it waits again; a failure makes it retry at
//!   `sndReq` with the leader hint; a success ends the request), or, while its mailbox is empty,
//!   times out, forgets its leader and retries.
//!
//! The processes run on [`simnet`]: each node's mailbox is a bag (`Order::Any`); a Raft server
//! is one simulated node, so all five of its archetypes stop when it crashes.

use simnet::{Delivery, Message, Network, NodeId, Order, Process};
use std::collections::{BTreeMap, BTreeSet};

/// `Nil`: no server (no vote, no known leader).
pub const NIL: u64 = 0;

/// The constants of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Constants {
    pub num_servers: u64,
    pub num_clients: u64,
    /// `MaxNodeFail`: the number of crashers (crasher `k` crashes server `k`).
    pub max_node_fail: u64,
}

impl Constants {
    pub fn servers(&self) -> std::ops::RangeInclusive<u64> {
        1..=self.num_servers
    }
    pub fn is_quorum(&self, votes: usize) -> bool {
        votes as u64 * 2 > self.num_servers
    }
}

/// The system's fault, switched on for the bug traces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bug {
    None,
    /// The leader advances its commit index to the highest index stored on a quorum even when
    /// that entry is from an earlier term: the Raft paper's Figure 8. Such an entry can still
    /// be overwritten by a later leader, after it was applied and answered.
    CommitEarlierTerm,
}

/// A server's role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    Follower,
    Candidate,
    Leader,
}

impl Role {
    pub fn name(self) -> &'static str {
        match self {
            Role::Follower => "follower",
            Role::Candidate => "candidate",
            Role::Leader => "leader",
        }
    }
}

/// A client's command: `[idx, type, key]` and for a Put `value`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cmd {
    pub idx: u64,
    pub put: bool,
    pub key: String,
    pub value: Option<String>,
}

/// A request of the client's workload (MPCal's `reqCh`): a Put of `value` or a Get.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Req {
    pub key: String,
    pub value: Option<String>,
}

/// A log entry: `[term, cmd, client]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Entry {
    pub term: u64,
    pub cmd: Cmd,
    pub client: NodeId,
}

/// A message's body, by its `mtype`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Body {
    /// `rvq`.
    RequestVoteRequest {
        term: u64,
        last_log_term: u64,
        last_log_index: u64,
    },
    /// `rvp`.
    RequestVoteResponse { term: u64, granted: bool },
    /// `apq`.
    AppendEntriesRequest {
        term: u64,
        prev_log_index: u64,
        prev_log_term: u64,
        entries: Vec<Entry>,
        commit_index: u64,
    },
    /// `app`.
    AppendEntriesResponse {
        term: u64,
        success: bool,
        match_index: u64,
    },
    /// `cpq` / `cgq`.
    ClientRequest { cmd: Cmd },
    /// `cpp` / `cgp`: `mresponse` is `[idx, key, value, ok]` on success, `[idx, key]` on a
    /// failure (the server is not the leader), with the leader hint.
    ClientResponse {
        put: bool,
        success: bool,
        idx: u64,
        key: String,
        value: Option<String>,
        ok: bool,
        leader_hint: u64,
    },
}

/// A message: `msource`, `mdest` and the rest.
pub type Msg = Message<Body>;

/// The MPCal labels (`Done` is where a crasher stops; no step leaves it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Label {
    ServerLoop,
    HandleMsg,
    ServerRequestVoteLoop,
    RequestVoteLoop,
    ServerAppendEntriesLoop,
    AppendEntriesLoop,
    ServerAdvanceCommitIndexLoop,
    ApplyLoop,
    ServerBecomeLeaderLoop,
    ServerCrash,
    FdUpdate,
    ClientLoop,
    SndReq,
    RcvResp,
    Done,
}

impl Label {
    /// The labels that name steps, in the order of the archetypes.
    pub const STEPS: [Label; 14] = [
        Label::ServerLoop,
        Label::HandleMsg,
        Label::ServerRequestVoteLoop,
        Label::RequestVoteLoop,
        Label::ServerAppendEntriesLoop,
        Label::AppendEntriesLoop,
        Label::ServerAdvanceCommitIndexLoop,
        Label::ApplyLoop,
        Label::ServerBecomeLeaderLoop,
        Label::ServerCrash,
        Label::FdUpdate,
        Label::ClientLoop,
        Label::SndReq,
        Label::RcvResp,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Label::ServerLoop => "serverLoop",
            Label::HandleMsg => "handleMsg",
            Label::ServerRequestVoteLoop => "serverRequestVoteLoop",
            Label::RequestVoteLoop => "requestVoteLoop",
            Label::ServerAppendEntriesLoop => "serverAppendEntriesLoop",
            Label::AppendEntriesLoop => "appendEntriesLoop",
            Label::ServerAdvanceCommitIndexLoop => "serverAdvanceCommitIndexLoop",
            Label::ApplyLoop => "applyLoop",
            Label::ServerBecomeLeaderLoop => "serverBecomeLeaderLoop",
            Label::ServerCrash => "serverCrash",
            Label::FdUpdate => "fdUpdate",
            Label::ClientLoop => "clientLoop",
            Label::SndReq => "sndReq",
            Label::RcvResp => "rcvResp",
            Label::Done => "Done",
        }
    }
}

/// The archetypes of a Raft server, in the order of their process ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Part {
    Server = 0,
    RequestVote = 1,
    AppendEntries = 2,
    AdvanceCommitIndex = 3,
    BecomeLeader = 4,
}

impl Part {
    pub const ALL: [Part; 5] = [
        Part::Server,
        Part::RequestVote,
        Part::AppendEntries,
        Part::AdvanceCommitIndex,
        Part::BecomeLeader,
    ];

    /// The process id of this archetype of server `srv`.
    pub fn process(self, k: &Constants, srv: NodeId) -> NodeId {
        self as u64 * k.num_servers + srv
    }

    fn start(self) -> Label {
        match self {
            Part::Server => Label::ServerLoop,
            Part::RequestVote => Label::ServerRequestVoteLoop,
            Part::AppendEntries => Label::ServerAppendEntriesLoop,
            Part::AdvanceCommitIndex => Label::ServerAdvanceCommitIndexLoop,
            Part::BecomeLeader => Label::ServerBecomeLeaderLoop,
        }
    }
}

/// A step the scheduler may pick: which archetype takes it (for a server), its label, and the
/// choices the step makes: the message a read of a bag takes, the server a client with no
/// leader sends to, whether the client times out.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Action {
    pub part: Option<Part>,
    pub label: Label,
    pub take: Option<Msg>,
    pub srv: Option<NodeId>,
    pub timeout: bool,
}

impl Action {
    fn at(part: Option<Part>, label: Label) -> Action {
        Action {
            part,
            label,
            take: None,
            srv: None,
            timeout: false,
        }
    }
}

/// The mailboxes: a read waits until the node's bag holds a message and takes any one of them;
/// a write to a node whose network is disabled (crashed) is lost.
pub struct Mailbox;

impl Mailbox {
    /// The distinct messages a read of node `id`'s mailbox may take, in a fixed order.
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

    pub fn is_empty(net: &Network<Msg>, id: NodeId) -> bool {
        net.addressed_to(id).next().is_none()
    }

    pub fn write(net: &mut Network<Msg>, from: NodeId, to: NodeId, body: Body) {
        if net.is_up(to) {
            net.send(Msg { from, to, body });
        }
    }
}

/// The resources of one Raft server, shared by its five archetypes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Resources {
    pub state: Role,
    pub current_term: u64,
    pub log: Vec<Entry>,
    pub commit_index: u64,
    /// `nextIndex[srv][j]`, `matchIndex[srv][j]` for `j` in `1..=NumServers` (index `j - 1`).
    pub next_index: Vec<u64>,
    pub match_index: Vec<u64>,
    pub voted_for: u64,
    pub votes_responded: BTreeSet<NodeId>,
    pub votes_granted: BTreeSet<NodeId>,
    pub leader: u64,
    pub sm: BTreeMap<String, String>,
    pub sm_domain: BTreeSet<String>,
}

impl Resources {
    fn new(k: &Constants) -> Resources {
        let n = k.num_servers as usize;
        Resources {
            state: Role::Follower,
            current_term: 1,
            log: vec![],
            commit_index: 0,
            next_index: vec![1; n],
            match_index: vec![0; n],
            voted_for: NIL,
            votes_responded: BTreeSet::new(),
            votes_granted: BTreeSet::new(),
            leader: NIL,
            sm: BTreeMap::new(),
            sm_domain: BTreeSet::new(),
        }
    }

    /// `LastTerm(log)`.
    pub fn last_term(&self) -> u64 {
        self.log.last().map_or(0, |e| e.term)
    }

    /// `UpdateTerm`: a message of a newer term makes the server a follower of that term.
    fn update_term(&mut self, term: u64) {
        if term > self.current_term {
            self.current_term = term;
            self.state = Role::Follower;
            self.voted_for = NIL;
            self.leader = NIL;
        }
    }

    /// Applies entry `k` (1-based) to the state machine.
    fn apply(&mut self, k: u64) {
        let cmd = &self.log[k as usize - 1].cmd;
        if cmd.put {
            self.sm
                .insert(cmd.key.clone(), cmd.value.clone().unwrap_or_default());
            self.sm_domain.insert(cmd.key.clone());
        }
    }
}

/// One Raft server: its resources and its five archetypes' labels and locals.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Server {
    pub k: Constants,
    pub bug: Bug,
    pub res: Resources,
    /// The label of each archetype, in [`Part::ALL`] order.
    pub pc: [Label; 5],
    /// `AServer`'s `m`: the message taken at `serverLoop`.
    pub m: Option<Msg>,
    /// `AServerRequestVote`'s and `AServerAppendEntries`' `idx`: the next server to send to.
    pub idx_rv: u64,
    pub idx_ae: u64,
    /// `AServerAdvanceCommitIndex`'s `newCommitIndex`.
    pub new_commit_index: u64,
}

/// A failure injector: crashes its server once.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Crasher {
    pub pc: Label,
    pub srv: NodeId,
}

/// A client with its locals `leader`, `req`, `reqIdx` and the requests still to send.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Client {
    pub k: Constants,
    pub pc: Label,
    pub leader: u64,
    pub req: Option<Req>,
    pub req_idx: u64,
    /// `reqCh`: the workload's requests not yet taken, next first.
    pub requests: Vec<Req>,
}

/// One simulated node: a Raft server (all five archetypes), a crasher or a client.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Node {
    Server(Box<Server>),
    Crasher(Crasher),
    Client(Client),
}

impl Server {
    fn new(k: Constants, bug: Bug) -> Server {
        Server {
            k,
            bug,
            res: Resources::new(&k),
            pc: Part::ALL.map(Part::start),
            m: None,
            idx_rv: 1,
            idx_ae: 1,
            new_commit_index: 0,
        }
    }

    fn pc(&self, p: Part) -> Label {
        self.pc[p as usize]
    }

    fn set_pc(&mut self, p: Part, l: Label) {
        self.pc[p as usize] = l;
    }

    fn enabled(&self, id: NodeId, net: &Network<Msg>) -> Vec<Action> {
        let r = &self.res;
        let mut out = vec![];
        for p in Part::ALL {
            let l = self.pc(p);
            let at = Action::at(Some(p), l);
            match l {
                Label::ServerLoop => {
                    out.extend(Mailbox::readable(net, id).into_iter().map(|m| Action {
                        take: Some(m),
                        ..at.clone()
                    }))
                }
                Label::HandleMsg
                | Label::RequestVoteLoop
                | Label::AppendEntriesLoop
                | Label::ApplyLoop => out.push(at),
                Label::ServerRequestVoteLoop => {
                    if r.state != Role::Leader && Mailbox::is_empty(net, id) {
                        out.push(at)
                    }
                }
                Label::ServerAppendEntriesLoop | Label::ServerAdvanceCommitIndexLoop => {
                    if r.state == Role::Leader {
                        out.push(at)
                    }
                }
                Label::ServerBecomeLeaderLoop => {
                    if r.state == Role::Candidate && self.k.is_quorum(r.votes_granted.len()) {
                        out.push(at)
                    }
                }
                _ => {}
            }
        }
        out
    }

    fn step(&mut self, id: NodeId, a: &Action, net: &mut Network<Msg>) {
        let Some(part) = a.part else { return };
        let n = self.k.num_servers;
        match a.label {
            // serverLoop: m := net[self]
            Label::ServerLoop => {
                if let Some(m) = a.take.as_ref().and_then(|m| Mailbox::read(net, m)) {
                    self.m = Some(m);
                    self.set_pc(part, Label::HandleMsg);
                }
            }
            Label::HandleMsg => {
                if let Some(m) = self.m.clone() {
                    self.handle(id, m, net);
                }
                self.set_pc(part, Label::ServerLoop);
            }
            // The election timeout.
            Label::ServerRequestVoteLoop => {
                let r = &mut self.res;
                r.state = Role::Candidate;
                r.current_term += 1;
                r.voted_for = id;
                r.votes_responded = BTreeSet::from([id]);
                r.votes_granted = BTreeSet::from([id]);
                r.leader = NIL;
                self.idx_rv = 1;
                self.set_pc(part, Label::RequestVoteLoop);
            }
            Label::RequestVoteLoop => {
                if self.idx_rv <= n {
                    if self.idx_rv != id {
                        let r = &self.res;
                        let body = Body::RequestVoteRequest {
                            term: r.current_term,
                            last_log_term: r.last_term(),
                            last_log_index: r.log.len() as u64,
                        };
                        Mailbox::write(net, id, self.idx_rv, body);
                    }
                    self.idx_rv += 1;
                } else {
                    self.set_pc(part, Label::ServerRequestVoteLoop);
                }
            }
            Label::ServerAppendEntriesLoop => {
                self.idx_ae = 1;
                self.set_pc(part, Label::AppendEntriesLoop);
            }
            Label::AppendEntriesLoop => {
                let r = &self.res;
                if r.state == Role::Leader && self.idx_ae <= n {
                    let j = self.idx_ae;
                    if j != id {
                        let next = r.next_index[j as usize - 1];
                        let prev_log_index = next - 1;
                        let prev_log_term = if prev_log_index > 0 {
                            r.log[prev_log_index as usize - 1].term
                        } else {
                            0
                        };
                        let entries = r
                            .log
                            .get(next as usize - 1..)
                            .map(<[Entry]>::to_vec)
                            .unwrap_or_default();
                        let body = Body::AppendEntriesRequest {
                            term: r.current_term,
                            prev_log_index,
                            prev_log_term,
                            entries,
                            commit_index: r.commit_index,
                        };
                        Mailbox::write(net, id, j, body);
                    }
                    self.idx_ae += 1;
                } else {
                    self.set_pc(part, Label::ServerAppendEntriesLoop);
                }
            }
            Label::ServerAdvanceCommitIndexLoop => {
                let r = &self.res;
                // FindMaxAgreeIndex: the highest index held by a quorum (the leader and the
                // servers whose matchIndex reaches it).
                let agree = (1..=r.log.len() as u64).rev().find(|&index| {
                    let holders = self
                        .k
                        .servers()
                        .filter(|&k| k == id || r.match_index[k as usize - 1] >= index)
                        .count();
                    self.k.is_quorum(holders)
                });
                self.new_commit_index = match agree {
                    Some(index)
                        if self.bug == Bug::CommitEarlierTerm
                            || r.log[index as usize - 1].term == r.current_term =>
                    {
                        index.max(r.commit_index)
                    }
                    _ => r.commit_index,
                };
                self.set_pc(part, Label::ApplyLoop);
            }
            Label::ApplyLoop => {
                if self.res.commit_index < self.new_commit_index {
                    let r = &mut self.res;
                    r.commit_index += 1;
                    r.apply(r.commit_index);
                    let entry = r.log[r.commit_index as usize - 1].clone();
                    let cmd = entry.cmd;
                    let ok = r.sm_domain.contains(&cmd.key);
                    let value = if ok {
                        r.sm.get(&cmd.key).cloned()
                    } else {
                        None
                    };
                    let body = Body::ClientResponse {
                        put: cmd.put,
                        success: true,
                        idx: cmd.idx,
                        key: cmd.key,
                        value,
                        ok,
                        leader_hint: id,
                    };
                    Mailbox::write(net, id, entry.client, body);
                } else {
                    self.set_pc(part, Label::ServerAdvanceCommitIndexLoop);
                }
            }
            Label::ServerBecomeLeaderLoop => {
                let r = &mut self.res;
                r.state = Role::Leader;
                r.next_index = vec![r.log.len() as u64 + 1; n as usize];
                r.match_index = vec![0; n as usize];
                r.leader = id;
            }
            _ => {}
        }
    }

    /// `handleMsg`: the message `m` taken at `serverLoop`.
    fn handle(&mut self, i: NodeId, m: Msg, net: &mut Network<Msg>) {
        let j = m.from;
        let r = &mut self.res;
        match m.body {
            Body::RequestVoteRequest {
                term,
                last_log_term,
                last_log_index,
            } => {
                r.update_term(term);
                let log_ok = last_log_term > r.last_term()
                    || (last_log_term == r.last_term() && last_log_index >= r.log.len() as u64);
                let grant =
                    term == r.current_term && log_ok && (r.voted_for == NIL || r.voted_for == j);
                if grant {
                    r.voted_for = j;
                }
                Mailbox::write(
                    net,
                    i,
                    j,
                    Body::RequestVoteResponse {
                        term: r.current_term,
                        granted: grant,
                    },
                );
            }
            Body::RequestVoteResponse { term, granted } => {
                r.update_term(term);
                if term == r.current_term {
                    r.votes_responded.insert(j);
                    if granted {
                        r.votes_granted.insert(j);
                    }
                }
            }
            Body::AppendEntriesRequest {
                term,
                prev_log_index,
                prev_log_term,
                entries,
                commit_index,
            } => {
                r.update_term(term);
                let log_ok = prev_log_index == 0
                    || (prev_log_index <= r.log.len() as u64
                        && r.log[prev_log_index as usize - 1].term == prev_log_term);
                if term == r.current_term {
                    r.leader = j;
                    if r.state == Role::Candidate {
                        r.state = Role::Follower;
                    }
                }
                if term < r.current_term || (r.state == Role::Follower && !log_ok) {
                    Mailbox::write(
                        net,
                        i,
                        j,
                        Body::AppendEntriesResponse {
                            term: r.current_term,
                            success: false,
                            match_index: 0,
                        },
                    );
                } else {
                    // Append the entries, truncating the log only where an entry's term
                    // differs from the leader's.
                    let p = prev_log_index as usize;
                    let conflict = entries
                        .iter()
                        .enumerate()
                        .any(|(k, e)| r.log.get(p + k).is_some_and(|x| x.term != e.term));
                    if conflict || p + entries.len() > r.log.len() {
                        r.log.truncate(p);
                        r.log.extend(entries.iter().cloned());
                    }
                    while r.commit_index < commit_index {
                        r.commit_index += 1;
                        r.apply(r.commit_index);
                    }
                    let match_index = prev_log_index + entries.len() as u64;
                    Mailbox::write(
                        net,
                        i,
                        j,
                        Body::AppendEntriesResponse {
                            term: r.current_term,
                            success: true,
                            match_index,
                        },
                    );
                }
            }
            Body::AppendEntriesResponse {
                term,
                success,
                match_index,
            } => {
                r.update_term(term);
                if term == r.current_term {
                    let k = j as usize - 1;
                    if success {
                        r.next_index[k] = match_index + 1;
                        r.match_index[k] = match_index;
                    } else {
                        r.next_index[k] = r.next_index[k].saturating_sub(1).max(1);
                    }
                }
            }
            Body::ClientRequest { cmd } => {
                if r.state == Role::Leader {
                    r.log.push(Entry {
                        term: r.current_term,
                        cmd,
                        client: j,
                    });
                } else {
                    let body = Body::ClientResponse {
                        put: cmd.put,
                        success: false,
                        idx: cmd.idx,
                        key: cmd.key,
                        value: None,
                        ok: false,
                        leader_hint: r.leader,
                    };
                    Mailbox::write(net, i, j, body);
                }
            }
            Body::ClientResponse { .. } => {}
        }
    }
}

impl Client {
    fn enabled(&self, id: NodeId, net: &Network<Msg>) -> Vec<Action> {
        let at = Action::at(None, self.pc);
        match self.pc {
            Label::ClientLoop if !self.requests.is_empty() => vec![at],
            Label::SndReq if self.leader == NIL => self
                .k
                .servers()
                .map(|s| Action {
                    srv: Some(s),
                    ..at.clone()
                })
                .collect(),
            Label::SndReq => vec![at],
            Label::RcvResp => {
                let mut v: Vec<Action> = Mailbox::readable(net, id)
                    .into_iter()
                    .map(|m| Action {
                        take: Some(m),
                        ..at.clone()
                    })
                    .collect();
                if v.is_empty() {
                    v.push(Action {
                        timeout: true,
                        ..at
                    });
                }
                v
            }
            _ => vec![],
        }
    }

    fn step(&mut self, id: NodeId, a: &Action, net: &mut Network<Msg>) {
        match a.label {
            Label::ClientLoop => {
                if !self.requests.is_empty() {
                    self.req = Some(self.requests.remove(0));
                    self.req_idx += 1;
                    self.pc = Label::SndReq;
                }
            }
            Label::SndReq => {
                if self.leader == NIL {
                    self.leader = a.srv.unwrap_or(1);
                }
                if let Some(req) = &self.req {
                    let cmd = Cmd {
                        idx: self.req_idx,
                        put: req.value.is_some(),
                        key: req.key.clone(),
                        value: req.value.clone(),
                    };
                    Mailbox::write(net, id, self.leader, Body::ClientRequest { cmd });
                }
                self.pc = Label::RcvResp;
            }
            Label::RcvResp if a.timeout => {
                self.leader = NIL;
                self.pc = Label::SndReq;
            }
            Label::RcvResp => {
                let Some(Msg {
                    body:
                        Body::ClientResponse {
                            success,
                            idx,
                            leader_hint,
                            ..
                        },
                    ..
                }) = a.take.as_ref().and_then(|m| Mailbox::read(net, m))
                else {
                    return;
                };
                if idx != self.req_idx {
                    // A response to an older request: wait again.
                } else {
                    self.leader = leader_hint;
                    self.pc = if success {
                        Label::ClientLoop
                    } else {
                        Label::SndReq
                    };
                }
            }
            _ => {}
        }
    }
}

impl Process for Node {
    type Msg = Msg;
    type Label = Action;

    fn enabled(&self, id: NodeId, net: &Network<Msg>) -> Vec<Action> {
        match self {
            Node::Server(s) => s.enabled(id, net),
            Node::Crasher(c) => match c.pc {
                Label::ServerCrash | Label::FdUpdate => vec![Action::at(None, c.pc)],
                _ => vec![],
            },
            Node::Client(c) => c.enabled(id, net),
        }
    }

    fn step(&mut self, id: NodeId, a: &Action, net: &mut Network<Msg>) {
        match self {
            Node::Server(s) => s.step(id, a, net),
            Node::Crasher(c) => match c.pc {
                // serverCrash: netEnabled[srvId] := FALSE
                Label::ServerCrash => {
                    net.crash(c.srv);
                    c.pc = Label::FdUpdate;
                }
                // fdUpdate: fd[srvId] := TRUE
                Label::FdUpdate => c.pc = Label::Done,
                _ => {}
            },
            Node::Client(c) => c.step(id, a, net),
        }
    }

    /// Nothing restarts in this system: a crashed server stays down.
    fn restarted(&self) -> Node {
        self.clone()
    }
}

impl Node {
    pub fn as_server(&self) -> Option<&Server> {
        match self {
            Node::Server(s) => Some(s),
            _ => None,
        }
    }
}

/// The whole system at its start: servers `1..=NumServers` (each with its five archetypes),
/// crashers `5*NumServers+1..` and clients `6*NumServers+1..`, every mailbox empty.
/// `requests[c]` is the workload of client `c` (0-based).
pub fn system(k: Constants, bug: Bug, requests: Vec<Vec<Req>>) -> simnet::Sim<Node> {
    let n = k.num_servers;
    let mut procs: Vec<(NodeId, Node)> = k
        .servers()
        .map(|s| (s, Node::Server(Box::new(Server::new(k, bug)))))
        .collect();
    procs.extend((1..=k.max_node_fail).map(|c| {
        (
            5 * n + c,
            Node::Crasher(Crasher {
                pc: Label::ServerCrash,
                srv: c,
            }),
        )
    }));
    let mut requests = requests.into_iter();
    procs.extend((1..=k.num_clients).map(|c| {
        let client = Client {
            k,
            pc: Label::ClientLoop,
            leader: NIL,
            req: None,
            req_idx: 0,
            requests: requests.next().unwrap_or_default(),
        };
        (6 * n + c, Node::Client(client))
    }));
    simnet::Sim::new(procs, Network::new(Order::Any), simnet::Faults::NONE)
}
