//! A client: it proposes its commands one at a time to every replica, then runs the fast round
//! over the answers (the original's `fast_round`), falling back to the slow round (waiting for
//! the command's after-sync result) when the fast round cannot succeed.
//!
//! The fast round keeps the highest term among the answers. An answer of a higher term starts
//! the count again: the acceptances and the speculative result gathered so far came from an
//! older configuration. An answer of a lower term is ignored. The round succeeds once a super
//! quorum of the replicas accepted the command without conflict in that term and the leader of
//! that term returned its speculative execution result.

use std::collections::BTreeMap;

use crate::{Cmd, super_quorum};

/// The bug switch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bug {
    None,
    /// The fast round before it compared terms: it counts every acceptance whatever its term
    /// and keeps the first speculative result it gets, so a result from a deposed leader (a
    /// lower term than other answers) can win.
    LowerTermResult,
}

/// Where a client stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pc {
    /// About to propose its next command.
    Propose,
    /// Its fast round: taking answers.
    Fast,
    /// Its slow round: waiting for the after-sync result.
    Slow,
    /// Every command done.
    Done,
}

impl Pc {
    pub fn name(self) -> &'static str {
        match self {
            Pc::Propose => "propose",
            Pc::Fast => "fast",
            Pc::Slow => "slow",
            Pc::Done => "done",
        }
    }
}

/// A replica's answer to a proposal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Answer {
    /// The replica's term when it answered.
    pub term: u64,
    /// Whether the replica believed it led.
    pub leader: bool,
    pub conflict: bool,
    /// Whether it carries a speculative execution result (a leader's, without conflict).
    pub er: bool,
}

/// How a command ended for its client.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The fast round succeeded with the speculative result executed in `term`.
    Fast { term: u64 },
    /// The after-sync result came.
    Slow,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Client {
    pub pc: Pc,
    /// The command being proposed, or the last one (0 before the first).
    pub cmd: Cmd,
    /// The answers of this command's fast round, by replica.
    pub answers: BTreeMap<u64, Answer>,
    /// How the last command ended (`None` while it runs, and before the first).
    pub outcome: Option<Outcome>,
    /// The fast round's registers: the highest term seen, the acceptances counted in it, and
    /// the term of the speculative result held.
    pub max_term: u64,
    pub ok_cnt: usize,
    pub er: Option<u64>,
    pub bug: Bug,
}

impl Client {
    pub fn new(bug: Bug) -> Client {
        Client { pc: Pc::Propose, cmd: 0, answers: BTreeMap::new(), outcome: None, max_term: 0, ok_cnt: 0, er: None, bug }
    }

    /// Starts proposing `cmd`: a new fast round.
    pub fn propose(&mut self, cmd: Cmd) {
        self.cmd = cmd;
        self.answers.clear();
        self.outcome = None;
        self.max_term = 0;
        self.ok_cnt = 0;
        self.er = None;
        self.pc = Pc::Fast;
    }

    /// Takes replica `from`'s answer in the fast round; `size` is the number of replicas.
    /// Returns whether the round is over (succeeded, or every replica answered).
    pub fn fast_round(&mut self, from: u64, a: Answer, size: usize) -> bool {
        self.answers.insert(from, a);
        match self.bug {
            Bug::None => {
                if a.term > self.max_term {
                    // A newer term: what was gathered came from an older configuration.
                    self.max_term = a.term;
                    self.ok_cnt = 0;
                    self.er = None;
                }
                if a.term == self.max_term {
                    if !a.conflict {
                        self.ok_cnt += 1;
                    }
                    if a.er {
                        self.er = Some(a.term);
                    }
                }
            }
            Bug::LowerTermResult => {
                self.max_term = self.max_term.max(a.term);
                if !a.conflict {
                    self.ok_cnt += 1;
                }
                if a.er && self.er.is_none() {
                    self.er = Some(a.term);
                }
            }
        }
        if let (true, Some(term)) = (self.ok_cnt >= super_quorum(size), self.er) {
            self.outcome = Some(Outcome::Fast { term });
            return true;
        }
        if self.answers.len() == size {
            // The fast round failed: wait for the after-sync result.
            self.pc = Pc::Slow;
        }
        false
    }

    /// The after-sync result of the current command came.
    pub fn synced(&mut self) {
        self.outcome = Some(Outcome::Slow);
    }

    /// Moves on after the current command ended: to the next one, or done.
    pub fn finish(&mut self, has_next: bool) {
        self.pc = if has_next { Pc::Propose } else { Pc::Done };
    }
}
