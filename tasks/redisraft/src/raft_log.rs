//! The log of one server (`raft_log.c`): the entries after the last snapshot. Index `i` is the
//! `i`-th entry since the start of time; the first `base` entries are in the snapshot.

use crate::Entry;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Log {
    /// The index of the last entry the snapshot holds (0: no snapshot).
    pub base: u64,
    /// The entries `base + 1 ..= base + entries.len()`.
    pub entries: Vec<Entry>,
}

impl Log {
    pub fn new() -> Log {
        Log { base: 0, entries: Vec::new() }
    }

    /// `current_idx`: the index of the last entry (the snapshot's when the log is empty).
    pub fn current_idx(&self) -> u64 {
        self.base + self.entries.len() as u64
    }

    /// `count`: the entries kept.
    pub fn count(&self) -> u64 {
        self.entries.len() as u64
    }

    /// `first_idx`: the index of the first entry kept.
    pub fn first_idx(&self) -> u64 {
        self.base + 1
    }

    /// `get`: the entry at `idx`, if kept.
    pub fn get(&self, idx: u64) -> Option<Entry> {
        if idx <= self.base {
            return None;
        }
        self.entries.get((idx - self.base - 1) as usize).copied()
    }

    /// `append`.
    pub fn append(&mut self, e: Entry) {
        self.entries.push(e);
    }

    /// `pop`: removes the last entry.
    pub fn pop(&mut self) -> Option<Entry> {
        self.entries.pop()
    }

    /// `poll`: removes the entries before `first` (they are in a snapshot now).
    pub fn poll(&mut self, first: u64) {
        while self.base + 1 < first && !self.entries.is_empty() {
            self.entries.remove(0);
            self.base += 1;
        }
    }

    /// `reset`: an empty log after a loaded snapshot of index `idx`.
    pub fn reset(&mut self, idx: u64) {
        self.base = idx;
        self.entries.clear();
    }
}

impl Default for Log {
    fn default() -> Log {
        Log::new()
    }
}
