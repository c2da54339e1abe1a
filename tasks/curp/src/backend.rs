//! The consensus backend, abstracted as the task asks (no RequestVote or AppendEntries): one
//! log that orders the commands, a commit index, and the current term and leader.
//!
//! - Only the leader of the current term appends: an entry a deposed leader appends, before it
//!   hears of the new term, is lost, as the entries of a Raft leader that no longer leads are.
//! - An election makes a replica leader of the next term with the votes of a quorum: the
//!   voters move to the new term at once; the others hear of it later (`AppendEntries`). The
//!   new leader inherits the whole log (entries are not lost to an election) and recovers the
//!   speculative pools: a command found in at least a recover quorum of the voters' pools, and
//!   not committed, enters its pools and, if the log lacks it, the log's end.
//! - Commit takes the log's next entry.

use std::collections::BTreeSet;

use crate::raw_curp::RawCurp;
use crate::{Cmd, recover_quorum};

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Backend {
    pub term: u64,
    /// The leader of `term` (a replica number, from 1).
    pub leader: u64,
    pub log: Vec<Cmd>,
    pub commit_index: usize,
}

impl Backend {
    pub fn new() -> Backend {
        Backend { term: 1, leader: 1, log: vec![], commit_index: 0 }
    }

    /// Appends `cmd` for a leader in `term`, unless the log holds it (a proposal is ordered
    /// once) or `term` is not the current one (the leader was deposed).
    pub fn push_log(&mut self, term: u64, cmd: Cmd) {
        if term == self.term && !self.log.contains(&cmd) {
            self.log.push(cmd);
        }
    }

    pub fn can_commit(&self) -> bool {
        self.commit_index < self.log.len()
    }

    pub fn commit(&mut self) {
        if self.can_commit() {
            self.commit_index += 1;
        }
    }

    pub fn committed(&self, cmd: Cmd) -> bool {
        self.log[..self.commit_index].contains(&cmd)
    }

    /// Replica `l` (in `voters`) is elected leader of the next term by `voters`, a quorum of
    /// `replicas` (index `r - 1` for replica `r`); see the module's docs.
    pub fn elect(&mut self, l: u64, voters: &[u64], replicas: &mut [RawCurp]) {
        self.term += 1;
        self.leader = l;
        let n = replicas.len();
        let mut recovered = BTreeSet::new();
        let candidates: BTreeSet<Cmd> = voters.iter().flat_map(|&v| replicas[v as usize - 1].sp.iter().copied()).collect();
        for cmd in candidates {
            let holders = voters.iter().filter(|&&v| replicas[v as usize - 1].sp.contains(&cmd)).count();
            if holders >= recover_quorum(n) && !self.committed(cmd) {
                recovered.insert(cmd);
            }
        }
        for &cmd in &recovered {
            if !self.log.contains(&cmd) {
                self.log.push(cmd);
            }
        }
        let uncommitted: BTreeSet<Cmd> = self.log[self.commit_index..].iter().copied().collect();
        for &v in voters {
            let r = &mut replicas[v as usize - 1];
            if v == l {
                r.become_leader(self.term, recovered.clone(), uncommitted.clone());
            } else {
                r.step_down(self.term);
            }
        }
    }
}

impl Default for Backend {
    fn default() -> Self {
        Backend::new()
    }
}
