//! Signatures of the standard modules and of the community modules models use most.
//!
//! Only signatures: each operator's name, its parameters' arities and its fixity. The
//! operators' meaning lives in the evaluator. A module file with the same name beside the root
//! takes precedence over these (see [`crate::analyze`]).

/// How an operator is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fixity {
    /// `Op`, `Op(a, b)`
    Prefix,
    /// `a + b`
    Infix,
    /// `-. a`
    PrefixSymbol,
}

/// One operator of a standard module.
#[derive(Clone, Copy, Debug)]
pub struct StdOp {
    /// Identifier or canonical operator symbol.
    pub name: &'static str,
    /// One entry per parameter: the arity that argument must have (0 for an ordinary value).
    pub params: &'static [usize],
    pub fixity: Fixity,
    /// Level of the operator when all its arguments are constants: 0 for every operator except
    /// those of RealTime (temporal).
    pub level: u8,
}

/// A standard module's signature.
#[derive(Clone, Copy, Debug)]
pub struct StdModule {
    pub name: &'static str,
    /// Modules it EXTENDS (their exported operators are exported too).
    pub extends: &'static [&'static str],
    /// Declared VARIABLEs (RealTime's `now`).
    pub variables: &'static [&'static str],
    pub ops: &'static [StdOp],
}

const V0: &[usize] = &[];
const V1: &[usize] = &[0];
const V2: &[usize] = &[0, 0];
const V3: &[usize] = &[0, 0, 0];
const V4: &[usize] = &[0, 0, 0, 0];

const fn p(name: &'static str, params: &'static [usize]) -> StdOp {
    StdOp { name, params, fixity: Fixity::Prefix, level: 0 }
}
const fn inf(name: &'static str) -> StdOp {
    StdOp { name, params: V2, fixity: Fixity::Infix, level: 0 }
}
const fn temporal(name: &'static str, params: &'static [usize]) -> StdOp {
    StdOp { name, params, fixity: Fixity::Prefix, level: 3 }
}

pub static STANDARD_MODULES: &[StdModule] = &[
    StdModule {
        name: "Naturals",
        extends: &[],
        variables: &[],
        ops: &[
            p("Nat", V0),
            inf("+"),
            inf("-"),
            inf("*"),
            inf("^"),
            inf("<"),
            inf(">"),
            inf("<="),
            inf(">="),
            inf("%"),
            inf("\\div"),
            inf(".."),
        ],
    },
    StdModule {
        name: "Integers",
        extends: &["Naturals"],
        variables: &[],
        ops: &[p("Int", V0), StdOp { name: "-.", params: V1, fixity: Fixity::PrefixSymbol, level: 0 }],
    },
    StdModule {
        name: "Reals",
        extends: &["Integers"],
        variables: &[],
        ops: &[p("Real", V0), inf("/"), p("Infinity", V0)],
    },
    StdModule {
        name: "Sequences",
        extends: &[],
        variables: &[],
        ops: &[
            p("Seq", V1),
            p("Len", V1),
            inf("\\o"),
            p("Append", V2),
            p("Head", V1),
            p("Tail", V1),
            p("SubSeq", V3),
            p("SelectSeq", &[0, 1]),
        ],
    },
    StdModule {
        name: "FiniteSets",
        extends: &[],
        variables: &[],
        ops: &[p("IsFiniteSet", V1), p("Cardinality", V1)],
    },
    StdModule {
        name: "Bags",
        extends: &["TLC"],
        variables: &[],
        ops: &[
            p("IsABag", V1),
            p("BagToSet", V1),
            p("SetToBag", V1),
            p("BagIn", V2),
            p("EmptyBag", V0),
            inf("\\oplus"),
            inf("\\ominus"),
            p("BagUnion", V1),
            inf("\\sqsubseteq"),
            p("SubBag", V1),
            p("BagOfAll", &[1, 0]),
            p("BagCardinality", V1),
            p("CopiesIn", V2),
        ],
    },
    StdModule {
        name: "TLC",
        extends: &[],
        variables: &[],
        ops: &[
            p("Print", V2),
            p("PrintT", V1),
            p("Assert", V2),
            p("JavaTime", V0),
            p("TLCGet", V1),
            p("TLCSet", V2),
            inf(":>"),
            inf("@@"),
            p("Permutations", V1),
            p("SortSeq", &[0, 2]),
            p("RandomElement", V1),
            p("Any", V0),
            p("ToString", V1),
            p("TLCEval", V1),
        ],
    },
    StdModule {
        name: "RealTime",
        extends: &["Reals"],
        variables: &["now"],
        ops: &[temporal("RTBound", V4), temporal("RTnow", V1)],
    },
    StdModule {
        name: "Randomization",
        extends: &[],
        variables: &[],
        ops: &[p("RandomSubset", V2), p("RandomSetOfSubsets", V3), p("TestRandomSetOfSubsets", V3)],
    },
    // Community modules (github.com/tlaplus/CommunityModules).
    StdModule { name: "Folds", extends: &[], variables: &[], ops: &[p("MapThenFoldSet", &[2, 0, 1, 1, 0])] },
    StdModule {
        name: "Functions",
        extends: &["Integers", "Folds"],
        variables: &[],
        ops: &[
            p("Restrict", V2),
            p("RestrictDomain", &[0, 1]),
            p("RestrictValues", &[0, 1]),
            p("IsRestriction", V2),
            p("Range", V1),
            p("Pointwise", &[0, 0, 2]),
            p("Inverse", V3),
            p("AntiFunction", V1),
            p("IsInjective", V1),
            p("Injection", V2),
            p("Surjection", V2),
            p("Bijection", V2),
            p("ExistsInjection", V2),
            p("ExistsSurjection", V2),
            p("ExistsBijection", V2),
            p("FoldFunctionOnSet", &[2, 0, 0, 0]),
            p("FoldFunction", &[2, 0, 0]),
            p("SumFunctionOnSet", V2),
            p("SumFunction", V1),
        ],
    },
    StdModule {
        name: "FiniteSetsExt",
        extends: &["Integers", "FiniteSets", "Folds", "Functions"],
        variables: &[],
        ops: &[
            p("FoldSet", &[2, 0, 0]),
            p("SumSet", V1),
            p("ProductSet", V1),
            p("ReduceSet", &[2, 0, 0]),
            p("MapThenSumSet", &[1, 0]),
            p("FlattenSet", V1),
            p("SymDiff", V2),
            p("Quantify", &[0, 1]),
            p("kSubset", V2),
            p("Max", V1),
            p("Min", V1),
            p("Choices", V1),
            p("ChooseUnique", &[0, 1]),
        ],
    },
    StdModule {
        name: "SequencesExt",
        extends: &["Sequences", "Naturals", "FiniteSets", "FiniteSetsExt", "Folds", "Functions", "Bags", "TLC"],
        variables: &[],
        ops: &[
            p("ToSet", V1),
            p("ToBag", V1),
            p("SetToSeq", V1),
            p("SetToSeqs", V1),
            p("SetToSortSeq", &[0, 2]),
            p("SetToAllKPermutations", V1),
            p("TupleOf", V2),
            p("SeqOf", V2),
            p("BoundedSeq", V2),
            p("Contains", V2),
            p("IsSorted", &[0, 2]),
            p("Reverse", V1),
            p("Remove", V2),
            p("ReplaceAll", V3),
            p("SelectInSeq", &[0, 1]),
            p("SelectInSubSeq", &[0, 0, 0, 1]),
            p("SelectLastInSeq", &[0, 1]),
            p("SelectLastInSubSeq", &[0, 0, 0, 1]),
            p("InsertAt", V3),
            p("ReplaceAt", V3),
            p("RemoveAt", V2),
            p("RemoveFirst", V2),
            p("RemoveFirstMatch", &[0, 1]),
            p("Cons", V2),
            p("Snoc", V2),
            p("Front", V1),
            p("Last", V1),
            p("IsPrefix", V2),
            p("IsStrictPrefix", V2),
            p("IsSuffix", V2),
            p("IsStrictSuffix", V2),
            p("Prefixes", V1),
            p("CommonPrefixes", V1),
            p("LongestCommonPrefix", V1),
            p("Suffixes", V1),
            p("SeqMod", V2),
            p("FoldSeq", &[2, 0, 0]),
            p("FoldLeft", &[2, 0, 0]),
            p("FoldRight", &[2, 0, 0]),
            p("FoldLeftDomain", &[2, 0, 0]),
            p("FoldRightDomain", &[2, 0, 0]),
            p("FlattenSeq", V1),
            p("Zip", V2),
            p("Interleave", V2),
            p("SubSeqs", V1),
            p("AllSubSeqs", V1),
            p("IndexFirstSubSeq", V2),
            p("ReplaceSubSeqAt", V4),
            p("ReplaceFirstSubSeq", V3),
            p("ReplaceAllSubSeqs", V3),
        ],
    },
];

/// The built-in standard module of that name.
pub fn standard_module(name: &str) -> Option<&'static StdModule> {
    STANDARD_MODULES.iter().find(|m| m.name == name)
}

/// The standard modules that define `name` (directly), for "add EXTENDS X" hints.
pub fn modules_defining(name: &str) -> Vec<&'static str> {
    let name = canonical(name);
    STANDARD_MODULES.iter().filter(|m| m.ops.iter().any(|o| o.name == name)).map(|m| m.name).collect()
}

/// Operators every module has (TLA+'s built-in operators), with their parameter count.
/// `None` means "any number" (not used for these).
pub static BUILTIN_OPERATORS: &[(&str, usize)] = &[
    ("TRUE", 0),
    ("FALSE", 0),
    ("BOOLEAN", 0),
    ("STRING", 0),
    ("=", 2),
    ("/=", 2),
    ("\\in", 2),
    ("\\notin", 2),
    ("\\subseteq", 2),
    ("\\cup", 2),
    ("\\cap", 2),
    ("\\", 2),
    ("SUBSET", 1),
    ("UNION", 1),
    ("DOMAIN", 1),
    ("/\\", 2),
    ("\\/", 2),
    ("~", 1),
    ("=>", 2),
    ("<=>", 2),
    ("'", 1),
    ("ENABLED", 1),
    ("UNCHANGED", 1),
    ("\\cdot", 2),
    ("[]", 1),
    ("<>", 1),
    ("~>", 2),
    ("-+->", 2),
];

pub fn builtin_arity(name: &str) -> Option<usize> {
    BUILTIN_OPERATORS.iter().find(|(n, _)| *n == name).map(|(_, a)| *a)
}

/// One spelling for operators that have synonyms, so that signatures written here match the
/// parser's canonical names whichever synonym it chose.
pub fn canonical(name: &str) -> &str {
    match name {
        "\\leq" | "=<" | "≤" => "<=",
        "\\geq" | "≥" => ">=",
        "\\circ" | "∘" => "\\o",
        "(+)" | "⊕" => "\\oplus",
        "(-)" | "⊖" => "\\ominus",
        "#" | "≠" => "/=",
        "\\union" => "\\cup",
        "\\intersect" => "\\cap",
        "\\land" => "/\\",
        "\\lor" => "\\/",
        "\\lnot" | "\\neg" => "~",
        "\\equiv" => "<=>",
        "\\X" | "\\times" => "\\X",
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extends_refer_to_known_modules() {
        for m in STANDARD_MODULES {
            for e in m.extends {
                assert!(standard_module(e).is_some(), "{} extends unknown {}", m.name, e);
            }
        }
    }

    #[test]
    fn len_comes_from_sequences() {
        assert_eq!(modules_defining("Len"), vec!["Sequences"]);
        assert_eq!(modules_defining("\\leq"), vec!["Naturals"]);
    }
}
