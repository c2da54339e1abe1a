//! Strings and their TLC order.
//!
//! TLC orders strings (and model values, and record fields) not by their text but by the
//! order in which its intern table first saw them (`UniqueString.compareTo` compares intern
//! tokens). Checked with TLC 2.15: `{"zeta", "alpha", "mid"}` prints in that order and
//! `CHOOSE x \in {"zeta", "alpha"} : TRUE` is `"zeta"`; `{"u", "v"}` prints as `{"v", "u"}`
//! because the standard modules use an identifier `v` (identifiers are interned when modules
//! are parsed, string literals when their values are built).
//!
//! So every [`Str`] carries a *rank*: its position in an [`Interner`] that the evaluator fills
//! in TLC's order before checking starts, then freezes and shares read-only. A string built at
//! run time whose text the table does not hold gets [`UNRANKED`] and sorts after all ranked
//! strings, by text.

use crate::shared::Counted;

/// Rank of a string the interner does not know.
pub const UNRANKED: u32 = u32::MAX;

#[derive(Debug)]
struct StrData {
    rank: u32,
    /// The fingerprint of the text, computed once (see [`crate::fingerprint`]).
    fp: u64,
    text: Box<str>,
}

fn text_fp(text: &str) -> u64 {
    let mut h = crate::fingerprint::FpHasher::new();
    h.write_bytes(text.as_bytes());
    h.finish()
}

/// A TLA+ string (also the name of a model value or a record field). Cheap to clone.
#[derive(Clone, Debug)]
pub struct Str(Counted<StrData>);

impl Str {
    pub fn as_str(&self) -> &str {
        &self.0.text
    }
    pub fn rank(&self) -> u32 {
        self.0.rank
    }
    /// The same allocation (so equal); false says nothing.
    #[inline]
    pub fn same(&self, other: &Str) -> bool {
        Counted::ptr_eq(&self.0, &other.0)
    }
    /// The fingerprint of the text alone (equal texts, equal fingerprints).
    pub fn text_fingerprint(&self) -> u64 {
        self.0.fp
    }
    /// A string outside any interner (sorts after ranked strings, by text). Only for texts the
    /// run's interner does not hold: use [`Interner::get`] when there is one, so that equal texts
    /// have equal ranks.
    pub fn unranked(text: &str) -> Str {
        Str(Counted::new(StrData { rank: UNRANKED, fp: text_fp(text), text: text.into() }))
    }
}

impl PartialEq for Str {
    fn eq(&self, other: &Str) -> bool {
        Counted::ptr_eq(&self.0, &other.0) || (self.0.rank == other.0.rank && self.0.text == other.0.text)
    }
}
impl Eq for Str {}

impl PartialOrd for Str {
    fn partial_cmp(&self, other: &Str) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
/// TLC's order: intern rank, then (for unranked strings) text.
impl Ord for Str {
    fn cmp(&self, other: &Str) -> std::cmp::Ordering {
        if Counted::ptr_eq(&self.0, &other.0) {
            return std::cmp::Ordering::Equal;
        }
        self.0.rank.cmp(&other.0.rank).then_with(|| self.0.text.cmp(&other.0.text))
    }
}

/// The intern table: text → rank, in first-seen order.
#[derive(Debug, Default, Clone)]
pub struct Interner {
    map: crate::fxhash::FxHashMap<Box<str>, Str>,
}

impl Interner {
    pub fn new() -> Interner {
        Interner::default()
    }
    /// The string for `text`, giving it the next rank if it is new.
    pub fn intern(&mut self, text: &str) -> Str {
        if let Some(s) = self.map.get(text) {
            return s.clone();
        }
        let rank = self.map.len() as u32;
        let s = Str(Counted::new(StrData { rank, fp: text_fp(text), text: text.into() }));
        self.map.insert(text.into(), s.clone());
        s
    }
    /// The string for `text` without changing the table (unranked if unknown).
    pub fn get(&self, text: &str) -> Str {
        match self.map.get(text) {
            Some(s) => s.clone(),
            None => Str::unranked(text),
        }
    }
    pub fn len(&self) -> usize {
        self.map.len()
    }
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

/// Keywords of the `.cfg` language (not interned).
const CFG_KEYWORDS: &[&str] = &[
    "CONSTANT", "CONSTANTS", "INIT", "NEXT", "SPECIFICATION", "INVARIANT", "INVARIANTS", "PROPERTY",
    "PROPERTIES", "CONSTRAINT", "CONSTRAINTS", "ACTION_CONSTRAINT", "ACTION_CONSTRAINTS", "SYMMETRY",
    "VIEW", "CHECK_DEADLOCK", "POSTCONDITION", "ALIAS", "TRUE", "FALSE",
];

/// The names and string literals of a `.cfg` text in order (comments and keywords skipped),
/// the order in which TLC interns them.
pub fn cfg_words(text: &str) -> Vec<String> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut depth = 0usize;
    while i < b.len() {
        if b[i..].starts_with(b"(*") {
            depth += 1;
            i += 2;
        } else if depth > 0 && b[i..].starts_with(b"*)") {
            depth -= 1;
            i += 2;
        } else if depth > 0 {
            i += 1;
        } else if b[i..].starts_with(b"\\*") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i] == b'"' {
            let mut j = i + 1;
            let mut s: Vec<u8> = Vec::new();
            while j < b.len() && b[j] != b'"' {
                if b[j] == b'\\' && j + 1 < b.len() {
                    j += 1;
                }
                s.push(b[j]);
                j += 1;
            }
            out.push(String::from_utf8_lossy(&s).into_owned());
            i = j + 1;
        } else if b[i].is_ascii_alphanumeric() || b[i] == b'_' {
            let j = b[i..].iter().position(|c| !(c.is_ascii_alphanumeric() || *c == b'_')).map_or(b.len(), |k| i + k);
            let w = &text[i..j];
            if w.bytes().any(|c| c.is_ascii_alphabetic()) && !CFG_KEYWORDS.contains(&w) {
                out.push(w.to_string());
            }
            i = j;
        } else {
            i += 1;
        }
    }
    out
}
