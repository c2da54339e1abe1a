//! The particle tableau of a temporal formula in negation normal form (Manna and Pnueli; TLC's
//! TBGraph is the same idea).
//!
//! A *particle* is one way of satisfying a set of obligations at the current position: literals
//! that must hold on the current state and on the step leaving it, the obligations passed to the
//! next position, and the eventualities (`<>f`) it postpones. A behaviour satisfies the formula iff
//! it follows a chain of particles from the root whose literals hold and which, for every
//! eventuality, infinitely often does not postpone it (a generalised Büchi condition).

use super::formula::{FormulaError, MAX_PARTICLES, Nnf, mk_and};
use std::collections::{BTreeMap, BTreeSet, HashMap};

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Particle {
    /// State literals (bit, polarity) that hold on the current state.
    pub slits: Vec<(u32, bool)>,
    /// Action literals (bit, polarity) that hold on the step leaving the current state.
    pub alits: Vec<(u32, bool)>,
    /// The obligation set passed to the next position.
    pub next: u32,
    /// Eventualities (indices) postponed by this particle.
    pub postponed: Vec<u32>,
}

pub(crate) struct Tableau {
    pub particles: Vec<Particle>,
    /// Particles of each obligation set.
    pub particles_of: Vec<Vec<u32>>,
    /// The obligation set of the formula itself.
    pub root: u32,
    pub eventualities: usize,
}

impl Particle {
    pub(crate) fn state_ok(&self, s: &[u64]) -> bool {
        self.slits.iter().all(|&(b, pos)| super::formula::bit(s, b) == pos)
    }
    pub(crate) fn action_ok(&self, a: &[u64]) -> bool {
        self.alits.iter().all(|&(b, pos)| super::formula::bit(a, b) == pos)
    }
}

struct Partial {
    todo: Vec<Nnf>,
    slits: BTreeMap<u32, bool>,
    alits: BTreeMap<u32, bool>,
    next: BTreeSet<Nnf>,
    postponed: BTreeSet<u32>,
}

impl Tableau {
    pub(crate) fn build(conjuncts: &[Nnf]) -> Result<Tableau, FormulaError> {
        let root_formula = mk_and(conjuncts.to_vec());
        let mut evs: BTreeMap<Nnf, u32> = BTreeMap::new();
        collect_eventualities(&root_formula, &mut evs);
        let mut sets: Vec<Vec<Nnf>> = Vec::new();
        let mut set_ids: HashMap<Vec<Nnf>, u32> = HashMap::new();
        let root_set = match root_formula {
            Nnf::Bool(true) => vec![],
            f => vec![f],
        };
        set_ids.insert(root_set.clone(), 0);
        sets.push(root_set);
        let mut t = Tableau { particles: Vec::new(), particles_of: Vec::new(), root: 0, eventualities: evs.len() };
        let mut particle_ids: HashMap<Particle, u32> = HashMap::new();
        let mut i = 0;
        while i < sets.len() {
            let mut mine = Vec::new();
            let mut work = vec![Partial {
                todo: sets[i].clone(),
                slits: BTreeMap::new(),
                alits: BTreeMap::new(),
                next: BTreeSet::new(),
                postponed: BTreeSet::new(),
            }];
            while let Some(mut p) = work.pop() {
                if t.particles.len() + work.len() > MAX_PARTICLES {
                    return Err(FormulaError::TableauTooLarge);
                }
                let Some(f) = p.todo.pop() else {
                    let next: Vec<Nnf> = p.next.into_iter().collect();
                    let next_id = match set_ids.get(&next) {
                        Some(&id) => id,
                        None => {
                            let id = sets.len() as u32;
                            set_ids.insert(next.clone(), id);
                            sets.push(next);
                            id
                        }
                    };
                    let particle = Particle {
                        slits: p.slits.into_iter().collect(),
                        alits: p.alits.into_iter().collect(),
                        next: next_id,
                        postponed: p.postponed.into_iter().collect(),
                    };
                    let id = match particle_ids.get(&particle) {
                        Some(&id) => id,
                        None => {
                            let id = t.particles.len() as u32;
                            particle_ids.insert(particle.clone(), id);
                            t.particles.push(particle);
                            id
                        }
                    };
                    if !mine.contains(&id) {
                        mine.push(id);
                    }
                    continue;
                };
                match f {
                    Nnf::Bool(true) => work.push(p),
                    Nnf::Bool(false) => {}
                    Nnf::S(b, pos) => {
                        if *p.slits.entry(b).or_insert(pos) == pos {
                            work.push(p);
                        }
                    }
                    Nnf::A(b, pos) => {
                        if *p.alits.entry(b).or_insert(pos) == pos {
                            work.push(p);
                        }
                    }
                    Nnf::And(v) => {
                        p.todo.extend(v);
                        work.push(p);
                    }
                    Nnf::Or(v) => {
                        for g in v {
                            let mut q = Partial {
                                todo: p.todo.clone(),
                                slits: p.slits.clone(),
                                alits: p.alits.clone(),
                                next: p.next.clone(),
                                postponed: p.postponed.clone(),
                            };
                            q.todo.push(g);
                            work.push(q);
                        }
                    }
                    Nnf::Always(g) => {
                        p.next.insert(Nnf::Always(g.clone()));
                        p.todo.push(*g);
                        work.push(p);
                    }
                    Nnf::Eventually(g) => {
                        let ev = Nnf::Eventually(g.clone());
                        let idx = evs.get(&ev).copied().unwrap_or(0);
                        // Postpone: the obligation moves to the next position.
                        let mut q = Partial {
                            todo: p.todo.clone(),
                            slits: p.slits.clone(),
                            alits: p.alits.clone(),
                            next: p.next.clone(),
                            postponed: p.postponed.clone(),
                        };
                        q.next.insert(ev);
                        q.postponed.insert(idx);
                        work.push(q);
                        // Fulfil now.
                        p.todo.push(*g);
                        work.push(p);
                    }
                }
            }
            mine.sort_unstable();
            t.particles_of.push(mine);
            i += 1;
        }
        Ok(t)
    }
}

fn collect_eventualities(f: &Nnf, evs: &mut BTreeMap<Nnf, u32>) {
    match f {
        Nnf::Bool(_) | Nnf::S(..) | Nnf::A(..) => {}
        Nnf::And(v) | Nnf::Or(v) => v.iter().for_each(|g| collect_eventualities(g, evs)),
        Nnf::Always(g) => collect_eventualities(g, evs),
        Nnf::Eventually(g) => {
            let n = evs.len() as u32;
            evs.entry(f.clone()).or_insert(n);
            collect_eventualities(g, evs);
        }
    }
}
