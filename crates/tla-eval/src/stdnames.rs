//! The order in which TLC interns the identifiers of its standard modules.
//!
//! TLC compares strings by intern order ([`crate::intern`]), and it interns every identifier
//! of a module when it parses it: the root module first, then the modules it extends or
//! instantiates, breadth first (with `EXTENDS FiniteSets, TLC, Integers` TLC 2.15 parses
//! FiniteSets, TLC, Integers, Naturals, Sequences). So a string literal such as `"x"` or `"v"`
//! sorts before `"u"` in a spec that extends TLC, because TLC's own module uses the identifiers
//! `x` and `v`. The tables below list, for each standard module, the identifiers in the order
//! TLC interns them (checked with TLC 2.15: a set of all 75 of them, written in shuffled order
//! in a spec extending TLC and Bags, printed exactly in the order these tables predict), and
//! the modules it uses, in the order it names them.

/// (module, identifiers in intern order, modules it extends or instantiates)
pub const STANDARD_MODULES: &[(&str, &[&str], &[&str])] = &[
    (
        "Naturals",
        &["Naturals", "Nat", "a", "b", "n"],
        &[],
    ),
    (
        "Integers",
        &["Integers", "Naturals", "Int", "a"],
        &["Naturals"],
    ),
    (
        "Sequences",
        &["Sequences", "Naturals", "Seq", "S", "n", "Nat", "Len", "s", "t", "i", "Append", "e", "Head", "Tail", "SubSeq", "m", "SelectSeq", "Test", "F"],
        &["Naturals"],
    ),
    (
        "FiniteSets",
        &["FiniteSets", "Naturals", "Sequences", "IsFiniteSet", "S", "seq", "Seq", "s", "n", "Len", "Cardinality", "CS", "T", "x"],
        &["Naturals", "Sequences"],
    ),
    (
        "TLC",
        &["TLC", "Naturals", "Sequences", "FiniteSets", "Print", "out", "val", "PrintT", "Assert", "v", "JavaTime", "n", "Nat", "TLCGet", "i", "TLCSet", "d", "e", "x", "f", "g", "Permutations", "S", "w", "SortSeq", "s", "Op", "Perm", "p", "Len", "j", "RandomElement", "Any", "ToString", "a", "b", "TLCEval"],
        &["Naturals", "Sequences", "FiniteSets"],
    ),
    (
        "Bags",
        &["Bags", "TLC", "Naturals", "IsABag", "B", "n", "Nat", "BagToSet", "SetToBag", "S", "e", "BagIn", "EmptyBag", "B1", "B2", "d", "Sum", "f", "DSum", "elt", "BagUnion", "SubBag", "RemoveFromDom", "x", "y", "Combine", "BagSet", "i", "Biggest", "Range", "r", "s", "RSB", "BB", "BagOfAll", "F", "BagCardinality", "CopiesIn"],
        &["TLC", "Naturals"],
    ),
    (
        "Reals",
        &["Reals", "Integers", "Real", "a", "b", "m", "Infinity", "i", "r"],
        &["Integers"],
    ),
];

/// The identifiers and dependencies of a standard module.
pub fn standard_module(name: &str) -> Option<(&'static [&'static str], &'static [&'static str])> {
    STANDARD_MODULES.iter().find(|(n, _, _)| *n == name).map(|(_, ids, deps)| (*ids, *deps))
}
