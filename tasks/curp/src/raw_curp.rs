//! One replica: its term and role, its speculative pool and uncommitted pool, and what it has
//! applied. The handlers are those of the original's `RawCurp`: `follower_record` and
//! `leader_record` (a command enters the speculative pool only if no command there conflicts
//! with it; the leader also checks, and fills, its uncommitted pool), applying a committed
//! command (which removes it from both pools: their garbage collection), and stepping down on
//! hearing of a newer term.

use std::collections::BTreeSet;

use crate::{Cmd, key};

/// What a replica believes it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    Leader,
    Follower,
}

impl Role {
    pub fn name(self) -> &'static str {
        match self {
            Role::Leader => "leader",
            Role::Follower => "follower",
        }
    }
}

/// A replica's state.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RawCurp {
    /// The term this replica is in; a deposed leader keeps its old term (and role) until the
    /// backend tells it of the new one.
    pub term: u64,
    pub role: Role,
    /// The speculative pool: commands recorded but not yet applied here, no two of which
    /// conflict (write the same key).
    pub sp: BTreeSet<Cmd>,
    /// The uncommitted pool: commands the leader has ordered and not yet applied (empty on a
    /// follower).
    pub ucp: BTreeSet<Cmd>,
    /// How many entries of the backend's log this replica has applied.
    pub last_applied: usize,
}

/// The outcome of recording a command: whether it conflicts, and, on a leader that took it
/// without conflict, the speculative execution's result (the term it was executed in).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Recorded {
    pub conflict: bool,
    pub er: bool,
}

impl RawCurp {
    pub fn new(role: Role) -> RawCurp {
        RawCurp { term: 1, role, sp: BTreeSet::new(), ucp: BTreeSet::new(), last_applied: 0 }
    }

    /// Whether `pool` holds another command that writes the key `cmd` writes.
    fn conflicts(pool: &BTreeSet<Cmd>, cmd: Cmd, clients: u64) -> bool {
        pool.iter().any(|&d| d != cmd && key(d, clients) == key(cmd, clients))
    }

    /// Inserts `cmd` into the speculative pool unless a command there conflicts with it;
    /// returns whether one did.
    fn sp_insert(&mut self, cmd: Cmd, clients: u64) -> bool {
        let conflict = Self::conflicts(&self.sp, cmd, clients);
        if !conflict {
            self.sp.insert(cmd);
        }
        conflict
    }

    /// A follower records a proposed command in its speculative pool (`follower_record`).
    /// A command it has applied already is not recorded again: it answers with a conflict,
    /// and the client waits for the command's after-sync result.
    pub fn follower_record(&mut self, cmd: Cmd, clients: u64, applied: bool) -> Recorded {
        if applied {
            return Recorded { conflict: true, er: false };
        }
        Recorded { conflict: self.sp_insert(cmd, clients), er: false }
    }

    /// The leader records a proposed command (`leader_record`): into the speculative pool
    /// unless it conflicts there, and into the uncommitted pool in any case, reporting a
    /// conflict found in either. Without conflict it executes the command speculatively and
    /// answers with the result. The caller then appends the command to the log.
    pub fn leader_record(&mut self, cmd: Cmd, clients: u64, applied: bool) -> Recorded {
        if applied {
            return Recorded { conflict: true, er: false };
        }
        let mut conflict = self.sp_insert(cmd, clients);
        conflict |= Self::conflicts(&self.ucp, cmd, clients);
        self.ucp.insert(cmd);
        Recorded { conflict, er: !conflict }
    }

    /// Applies the next committed command: it leaves both pools.
    pub fn apply(&mut self, cmd: Cmd) {
        self.sp.remove(&cmd);
        self.ucp.remove(&cmd);
        self.last_applied += 1;
    }

    /// Hears of a newer term from the backend: a follower of it, with no uncommitted pool.
    pub fn step_down(&mut self, term: u64) {
        self.term = term;
        self.role = Role::Follower;
        self.ucp.clear();
    }

    /// Becomes the leader of `term` with the speculative pool recovered from a quorum's, and
    /// the uncommitted pool of the log's uncommitted entries.
    pub fn become_leader(&mut self, term: u64, recovered: BTreeSet<Cmd>, uncommitted: BTreeSet<Cmd>) {
        self.term = term;
        self.role = Role::Leader;
        self.sp = recovered;
        self.ucp = uncommitted;
    }
}
