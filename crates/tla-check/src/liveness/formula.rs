//! Temporal formulas over atoms, negation normal form, and the split of `Fairness /\ ~Prop`'s
//! property part into disjuncts, TLC's way: each disjunct is a conjunction of conditions on the
//! initial state, `<>[]` conditions, `[]<>` conditions, and a tableau part for the rest.

use std::collections::BTreeMap;

/// The caller's name for an atom: a state predicate (`x = 1`, `ENABLED <<A>>_v`) or an action
/// (`<<A>>_v`, `[A]_v`). State atoms and action atoms are numbered independently.
pub type AtomId = u32;

/// A temporal formula of TLA+ over atoms. Quantifiers are expanded by the caller into `And`/`Or`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Temporal {
    Bool(bool),
    /// A state predicate, evaluated on a state.
    State(AtomId),
    /// An action, evaluated on a step (the pair of a state and its successor; a stuttering step
    /// is the pair of a state and itself).
    Action(AtomId),
    Not(Box<Temporal>),
    And(Vec<Temporal>),
    Or(Vec<Temporal>),
    Implies(Box<Temporal>, Box<Temporal>),
    Always(Box<Temporal>),
    Eventually(Box<Temporal>),
    LeadsTo(Box<Temporal>, Box<Temporal>),
}

impl Temporal {
    pub fn negate(f: Temporal) -> Temporal {
        Temporal::Not(Box::new(f))
    }
    pub fn always(f: Temporal) -> Temporal {
        Temporal::Always(Box::new(f))
    }
    pub fn eventually(f: Temporal) -> Temporal {
        Temporal::Eventually(Box::new(f))
    }
    pub fn leads_to(p: Temporal, q: Temporal) -> Temporal {
        Temporal::LeadsTo(Box::new(p), Box::new(q))
    }
    pub fn implies(p: Temporal, q: Temporal) -> Temporal {
        Temporal::Implies(Box::new(p), Box::new(q))
    }
}

/// Why a formula cannot be checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormulaError {
    /// Nested deeper than [`MAX_DEPTH`].
    TooDeep,
    /// The negated property has more disjuncts than the limit in the options.
    TooManyDisjuncts { limit: usize },
    /// The tableau of a disjunct has more particles than [`MAX_PARTICLES`].
    TableauTooLarge,
}

pub const MAX_DEPTH: usize = 2_000;
pub const MAX_PARTICLES: usize = 100_000;

/// A formula in negation normal form; literals name dense bit positions.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Nnf {
    Bool(bool),
    /// State literal: bit of the state's atom vector, polarity.
    S(u32, bool),
    /// Action literal: bit of the step's atom vector, polarity.
    A(u32, bool),
    And(Vec<Nnf>),
    Or(Vec<Nnf>),
    Always(Box<Nnf>),
    Eventually(Box<Nnf>),
}

impl Nnf {
    pub(crate) fn is_temporal(&self) -> bool {
        match self {
            Nnf::Bool(_) | Nnf::S(..) | Nnf::A(..) => false,
            Nnf::And(v) | Nnf::Or(v) => v.iter().any(Nnf::is_temporal),
            Nnf::Always(_) | Nnf::Eventually(_) => true,
        }
    }

    pub(crate) fn has_action(&self) -> bool {
        match self {
            Nnf::Bool(_) | Nnf::S(..) => false,
            Nnf::A(..) => true,
            Nnf::And(v) | Nnf::Or(v) => v.iter().any(Nnf::has_action),
            Nnf::Always(f) | Nnf::Eventually(f) => f.has_action(),
        }
    }

    /// Evaluate a non-temporal formula on a state's atom bits and a step's atom bits.
    pub(crate) fn eval(&self, s: &[u64], a: &[u64]) -> bool {
        match self {
            Nnf::Bool(b) => *b,
            Nnf::S(i, pos) => bit(s, *i) == *pos,
            Nnf::A(i, pos) => bit(a, *i) == *pos,
            Nnf::And(v) => v.iter().all(|f| f.eval(s, a)),
            Nnf::Or(v) => v.iter().any(|f| f.eval(s, a)),
            // Not reached for non-temporal formulas; a conservative answer otherwise.
            Nnf::Always(f) | Nnf::Eventually(f) => f.eval(s, a),
        }
    }
}

#[inline]
pub(crate) fn bit(words: &[u64], i: u32) -> bool {
    words.get((i / 64) as usize).is_some_and(|w| w >> (i % 64) & 1 == 1)
}

/// Dense numbering of the atoms a check uses.
#[derive(Default, Debug)]
pub(crate) struct Atoms {
    pub state: BTreeMap<AtomId, u32>,
    pub action: BTreeMap<AtomId, u32>,
}

impl Atoms {
    pub(crate) fn state_bit(&mut self, a: AtomId) -> u32 {
        let n = self.state.len() as u32;
        *self.state.entry(a).or_insert(n)
    }
    pub(crate) fn action_bit(&mut self, a: AtomId) -> u32 {
        let n = self.action.len() as u32;
        *self.action.entry(a).or_insert(n)
    }
    /// The atoms in bit order.
    pub(crate) fn state_list(&self) -> Vec<AtomId> {
        let mut v = vec![0; self.state.len()];
        for (&a, &b) in &self.state {
            v[b as usize] = a;
        }
        v
    }
    pub(crate) fn action_list(&self) -> Vec<AtomId> {
        let mut v = vec![0; self.action.len()];
        for (&a, &b) in &self.action {
            v[b as usize] = a;
        }
        v
    }
}

/// Negation normal form of `f` (negated when `neg`), with leads-to and implication expanded and
/// constants folded.
pub(crate) fn nnf(f: &Temporal, neg: bool, atoms: &mut Atoms, depth: usize) -> Result<Nnf, FormulaError> {
    if depth > MAX_DEPTH {
        return Err(FormulaError::TooDeep);
    }
    let d = depth + 1;
    Ok(match f {
        Temporal::Bool(b) => Nnf::Bool(*b != neg),
        Temporal::State(a) => Nnf::S(atoms.state_bit(*a), !neg),
        Temporal::Action(a) => Nnf::A(atoms.action_bit(*a), !neg),
        Temporal::Not(g) => nnf(g, !neg, atoms, d)?,
        Temporal::And(v) | Temporal::Or(v) => {
            let conj = matches!(f, Temporal::And(_)) != neg;
            let parts = v.iter().map(|g| nnf(g, neg, atoms, d)).collect::<Result<Vec<_>, _>>()?;
            if conj { mk_and(parts) } else { mk_or(parts) }
        }
        Temporal::Implies(p, q) => {
            // p => q  ==  ~p \/ q ;  ~(p => q)  ==  p /\ ~q
            let np = nnf(p, !neg, atoms, d)?;
            let nq = nnf(q, neg, atoms, d)?;
            if neg { mk_and(vec![np, nq]) } else { mk_or(vec![np, nq]) }
        }
        Temporal::Always(g) => {
            let g = nnf(g, neg, atoms, d)?;
            if neg { mk_eventually(g) } else { mk_always(g) }
        }
        Temporal::Eventually(g) => {
            let g = nnf(g, neg, atoms, d)?;
            if neg { mk_always(g) } else { mk_eventually(g) }
        }
        Temporal::LeadsTo(p, q) => {
            // p ~> q  ==  [](~p \/ <>q) ;  ~(p ~> q)  ==  <>(p /\ []~q)
            if neg {
                let p = nnf(p, false, atoms, d)?;
                let q = nnf(q, true, atoms, d)?;
                mk_eventually(mk_and(vec![p, mk_always(q)]))
            } else {
                let p = nnf(p, true, atoms, d)?;
                let q = nnf(q, false, atoms, d)?;
                mk_always(mk_or(vec![p, mk_eventually(q)]))
            }
        }
    })
}

pub(crate) fn mk_and(parts: Vec<Nnf>) -> Nnf {
    let mut out = Vec::new();
    for p in parts {
        match p {
            Nnf::Bool(true) => {}
            Nnf::Bool(false) => return Nnf::Bool(false),
            Nnf::And(v) => out.extend(v),
            p => out.push(p),
        }
    }
    out.sort();
    out.dedup();
    match out.len() {
        0 => Nnf::Bool(true),
        1 => out.pop().unwrap_or(Nnf::Bool(true)),
        _ => Nnf::And(out),
    }
}

pub(crate) fn mk_or(parts: Vec<Nnf>) -> Nnf {
    let mut out = Vec::new();
    for p in parts {
        match p {
            Nnf::Bool(false) => {}
            Nnf::Bool(true) => return Nnf::Bool(true),
            Nnf::Or(v) => out.extend(v),
            p => out.push(p),
        }
    }
    out.sort();
    out.dedup();
    match out.len() {
        0 => Nnf::Bool(false),
        1 => out.pop().unwrap_or(Nnf::Bool(false)),
        _ => Nnf::Or(out),
    }
}

fn mk_always(f: Nnf) -> Nnf {
    match f {
        Nnf::Bool(b) => Nnf::Bool(b),
        f @ Nnf::Always(_) => f,
        f => Nnf::Always(Box::new(f)),
    }
}

fn mk_eventually(f: Nnf) -> Nnf {
    match f {
        Nnf::Bool(b) => Nnf::Bool(b),
        f @ Nnf::Eventually(_) => f,
        f => Nnf::Eventually(Box::new(f)),
    }
}

/// One disjunct of the negated property: a behaviour satisfies it iff its first state satisfies
/// every `init`, eventually every step satisfies every `ea` (`<>[]`), infinitely many steps
/// satisfy each `ae` (`[]<>`), and it satisfies the `tableau` formula.
#[derive(Clone, Debug, Default)]
pub(crate) struct Disjunct {
    pub init: Vec<Nnf>,
    pub ea: Vec<Nnf>,
    pub ae: Vec<Nnf>,
    pub tableau: Vec<Nnf>,
}

/// Split `f` (in NNF) into disjuncts. Non-temporal sub-formulas stay whole.
pub(crate) fn disjuncts(f: &Nnf, limit: usize) -> Result<Vec<Disjunct>, FormulaError> {
    let dnf = dnf(f, limit)?;
    let mut out = Vec::new();
    for conj in dnf {
        let mut d = Disjunct::default();
        for c in conj {
            match &c {
                Nnf::Bool(true) => {}
                c if !c.is_temporal() && !c.has_action() => d.init.push(c.clone()),
                Nnf::Eventually(g) if matches!(&**g, Nnf::Always(h) if !h.is_temporal()) => {
                    if let Nnf::Always(h) = &**g {
                        d.ea.push((**h).clone());
                    }
                }
                Nnf::Always(g) if matches!(&**g, Nnf::Eventually(h) if !h.is_temporal()) => {
                    if let Nnf::Eventually(h) = &**g {
                        d.ae.push((**h).clone());
                    }
                }
                _ => d.tableau.push(c),
            }
        }
        out.push(d);
    }
    Ok(out)
}

fn dnf(f: &Nnf, limit: usize) -> Result<Vec<Vec<Nnf>>, FormulaError> {
    if !f.is_temporal() {
        return Ok(match f {
            Nnf::Bool(false) => vec![],
            f => vec![vec![f.clone()]],
        });
    }
    match f {
        Nnf::Or(v) => {
            let mut out = Vec::new();
            for g in v {
                out.extend(dnf(g, limit)?);
                if out.len() > limit {
                    return Err(FormulaError::TooManyDisjuncts { limit });
                }
            }
            Ok(out)
        }
        Nnf::And(v) => {
            let mut acc: Vec<Vec<Nnf>> = vec![vec![]];
            for g in v {
                let parts = dnf(g, limit)?;
                if acc.len().saturating_mul(parts.len()) > limit {
                    return Err(FormulaError::TooManyDisjuncts { limit });
                }
                let mut next = Vec::with_capacity(acc.len() * parts.len());
                for a in &acc {
                    for p in &parts {
                        let mut c = a.clone();
                        c.extend(p.iter().cloned());
                        next.push(c);
                    }
                }
                acc = next;
            }
            Ok(acc)
        }
        f => Ok(vec![vec![f.clone()]]),
    }
}

/// Back to a [`Temporal`] over the caller's atom names, for reports.
pub(crate) fn to_temporal(f: &Nnf, state_atoms: &[AtomId], action_atoms: &[AtomId]) -> Temporal {
    let lit = |t: Temporal, pos: bool| if pos { t } else { Temporal::negate(t) };
    match f {
        Nnf::Bool(b) => Temporal::Bool(*b),
        Nnf::S(i, pos) => lit(Temporal::State(state_atoms.get(*i as usize).copied().unwrap_or(0)), *pos),
        Nnf::A(i, pos) => lit(Temporal::Action(action_atoms.get(*i as usize).copied().unwrap_or(0)), *pos),
        Nnf::And(v) => Temporal::And(v.iter().map(|g| to_temporal(g, state_atoms, action_atoms)).collect()),
        Nnf::Or(v) => Temporal::Or(v.iter().map(|g| to_temporal(g, state_atoms, action_atoms)).collect()),
        Nnf::Always(g) => Temporal::always(to_temporal(g, state_atoms, action_atoms)),
        Nnf::Eventually(g) => Temporal::eventually(to_temporal(g, state_atoms, action_atoms)),
    }
}

impl Disjunct {
    pub(crate) fn to_temporal(&self, sa: &[AtomId], aa: &[AtomId]) -> Temporal {
        let mut parts = Vec::new();
        parts.extend(self.init.iter().map(|f| to_temporal(f, sa, aa)));
        parts.extend(
            self.ea.iter().map(|f| Temporal::eventually(Temporal::always(to_temporal(f, sa, aa)))),
        );
        parts.extend(
            self.ae.iter().map(|f| Temporal::always(Temporal::eventually(to_temporal(f, sa, aa)))),
        );
        parts.extend(self.tableau.iter().map(|f| to_temporal(f, sa, aa)));
        match parts.len() {
            0 => Temporal::Bool(true),
            1 => parts.pop().unwrap_or(Temporal::Bool(true)),
            _ => Temporal::And(parts),
        }
    }
}
