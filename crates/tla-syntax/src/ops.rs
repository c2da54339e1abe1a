//! The operator table: canonical spellings, alternative spellings (ASCII and Unicode),
//! fixity, precedence ranges and associativity, as in "Specifying Systems", table 6.
//!
//! Every operator in the AST carries its canonical spelling (the first column of the tables
//! below). Precedence is a range `lo..=hi`: in `a op1 b op2 c`, `op2` binds tighter when
//! `op2.lo > op1.hi`, looser when `op2.hi < op1.lo`; overlapping ranges are a conflict unless
//! both are the same left-associative operator.

/// Fixity and precedence of one operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpInfo {
    /// Canonical spelling.
    pub name: &'static str,
    pub lo: u8,
    pub hi: u8,
    /// Left-associative (may be chained without parentheses).
    pub assoc: bool,
}

const fn op(name: &'static str, lo: u8, hi: u8, assoc: bool) -> OpInfo {
    OpInfo { name, lo, hi, assoc }
}

/// Infix operators (canonical names).
pub const INFIX: &[OpInfo] = &[
    op("=>", 1, 1, false),
    op("<=>", 2, 2, false),
    op("~>", 2, 2, false),
    op("-+->", 2, 2, false),
    op("/\\", 3, 3, true),
    op("\\/", 3, 3, true),
    op("=", 5, 5, false),
    op("/=", 5, 5, false),
    op("<", 5, 5, false),
    op(">", 5, 5, false),
    op("<=", 5, 5, false),
    op(">=", 5, 5, false),
    op("\\in", 5, 5, false),
    op("\\notin", 5, 5, false),
    op("-|", 5, 5, false),
    op("::=", 5, 5, false),
    op(":=", 5, 5, false),
    op("=|", 5, 5, false),
    op("|-", 5, 5, false),
    op("|=", 5, 5, false),
    op("\\approx", 5, 5, false),
    op("\\asymp", 5, 5, false),
    op("\\cong", 5, 5, false),
    op("\\doteq", 5, 5, false),
    op("\\gg", 5, 5, false),
    op("\\ll", 5, 5, false),
    op("\\prec", 5, 5, false),
    op("\\preceq", 5, 5, false),
    op("\\propto", 5, 5, false),
    op("\\sim", 5, 5, false),
    op("\\simeq", 5, 5, false),
    op("\\sqsubset", 5, 5, false),
    op("\\sqsubseteq", 5, 5, false),
    op("\\sqsupset", 5, 5, false),
    op("\\sqsupseteq", 5, 5, false),
    op("\\subset", 5, 5, false),
    op("\\subseteq", 5, 5, false),
    op("\\succ", 5, 5, false),
    op("\\succeq", 5, 5, false),
    op("\\supset", 5, 5, false),
    op("\\supseteq", 5, 5, false),
    op("\\cdot", 5, 14, true),
    op("@@", 6, 6, true),
    op(":>", 7, 7, false),
    op("<:", 7, 7, false),
    op("\\cup", 8, 8, true),
    op("\\cap", 8, 8, true),
    op("\\", 8, 8, false),
    op("..", 9, 9, false),
    op("...", 9, 9, false),
    op("!!", 9, 13, false),
    op("##", 9, 13, true),
    op("$", 9, 13, true),
    op("$$", 9, 13, true),
    op("??", 9, 13, true),
    op("\\sqcap", 9, 13, true),
    op("\\sqcup", 9, 13, true),
    op("\\uplus", 9, 13, true),
    op("\\wr", 9, 14, false),
    op("+", 10, 10, true),
    op("++", 10, 10, true),
    op("(+)", 10, 10, true),
    op("%", 10, 11, false),
    op("%%", 10, 11, true),
    op("|", 10, 11, true),
    op("||", 10, 11, true),
    op("\\X", 10, 13, true),
    op("-", 11, 11, true),
    op("--", 11, 11, true),
    op("(-)", 11, 11, true),
    op("&", 13, 13, true),
    op("&&", 13, 13, true),
    op("(.)", 13, 13, true),
    op("(/)", 13, 13, false),
    op("(\\X)", 13, 13, true),
    op("*", 13, 13, true),
    op("**", 13, 13, true),
    op("/", 13, 13, false),
    op("//", 13, 13, false),
    op("\\bigcirc", 13, 13, true),
    op("\\bullet", 13, 13, true),
    op("\\div", 13, 13, false),
    op("\\o", 13, 13, true),
    op("\\star", 13, 13, true),
    op("^", 14, 14, false),
    op("^^", 14, 14, false),
];

/// Prefix operators (canonical names; prefix minus is `-.`).
pub const PREFIX: &[OpInfo] = &[
    op("~", 4, 4, false),
    op("ENABLED", 4, 15, false),
    op("UNCHANGED", 4, 15, false),
    op("[]", 4, 15, false),
    op("<>", 4, 15, false),
    op("SUBSET", 8, 8, false),
    op("UNION", 8, 8, false),
    op("DOMAIN", 9, 9, false),
    op("-.", 12, 12, false),
];

/// Postfix operators.
pub const POSTFIX: &[OpInfo] =
    &[op("'", 15, 15, false), op("^+", 15, 15, false), op("^*", 15, 15, false), op("^#", 15, 15, false)];

/// Which bytes begin some operator of a table: most tokens (names, `)`, `,`, ...) are then
/// told apart from operators without scanning the table.
const fn first_bytes(t: &[OpInfo]) -> [bool; 256] {
    let mut m = [false; 256];
    let mut i = 0;
    while i < t.len() {
        let b = t[i].name.as_bytes();
        if !b.is_empty() {
            m[b[0] as usize] = true;
        }
        i += 1;
    }
    m
}
static INFIX_FIRST: [bool; 256] = first_bytes(INFIX);
static PREFIX_FIRST: [bool; 256] = first_bytes(PREFIX);
static POSTFIX_FIRST: [bool; 256] = first_bytes(POSTFIX);

fn find(table: &[OpInfo], first: &[bool; 256], name: &str) -> Option<OpInfo> {
    let b0 = *name.as_bytes().first()?;
    if !first[b0 as usize] {
        return None;
    }
    table.iter().find(|o| o.name.as_bytes().first() == Some(&b0) && o.name == name).copied()
}

pub fn infix(name: &str) -> Option<OpInfo> {
    find(INFIX, &INFIX_FIRST, name)
}
pub fn prefix(name: &str) -> Option<OpInfo> {
    find(PREFIX, &PREFIX_FIRST, name)
}
pub fn postfix(name: &str) -> Option<OpInfo> {
    find(POSTFIX, &POSTFIX_FIRST, name)
}

/// Alternative spellings → canonical. Spellings not listed here are already canonical.
const ALIASES: &[(&str, &str)] = &[
    ("\\land", "/\\"),
    ("\\lor", "\\/"),
    ("\\lnot", "~"),
    ("\\neg", "~"),
    ("#", "/="),
    ("=<", "<="),
    ("\\leq", "<="),
    ("\\geq", ">="),
    ("\\equiv", "<=>"),
    ("\\union", "\\cup"),
    ("\\intersect", "\\cap"),
    ("\\setminus", "\\"),
    ("\\times", "\\X"),
    ("\\circ", "\\o"),
    ("\\oplus", "(+)"),
    ("\\ominus", "(-)"),
    ("\\odot", "(.)"),
    ("\\oslash", "(/)"),
    ("\\otimes", "(\\X)"),
    ("\\forall", "\\A"),
    ("\\exists", "\\E"),
];

/// The canonical spelling of an operator symbol (ASCII alternative forms).
pub fn canonical(s: &str) -> &str {
    // Every alias is `#`, `=<` or a backslash word: other symbols skip the table.
    match s.as_bytes().first() {
        Some(b'\\' | b'#' | b'=') => ALIASES.iter().find(|(a, _)| *a == s).map(|(_, c)| *c).unwrap_or(s),
        _ => s,
    }
}

/// Unicode symbols that SANY accepts, with their canonical ASCII spelling.
pub const UNICODE: &[(char, &str)] = &[
    ('∧', "/\\"),
    ('∨', "\\/"),
    ('¬', "~"),
    ('⇒', "=>"),
    ('⟹', "=>"),
    ('≜', "=="),
    ('∈', "\\in"),
    ('∉', "\\notin"),
    ('∀', "\\A"),
    ('∃', "\\E"),
    ('□', "[]"),
    ('◇', "<>"),
    ('≠', "/="),
    ('≤', "<="),
    ('≥', ">="),
    ('⊆', "\\subseteq"),
    ('⊂', "\\subset"),
    ('⊇', "\\supseteq"),
    ('⊃', "\\supset"),
    ('∪', "\\cup"),
    ('∩', "\\cap"),
    ('⟨', "<<"),
    ('⟩', ">>"),
    ('↦', "|->"),
    ('→', "->"),
    ('←', "<-"),
    ('×', "\\X"),
    ('∘', "\\o"),
    ('⊕', "(+)"),
    ('⊖', "(-)"),
    ('⊙', "(.)"),
    ('⊘', "(/)"),
    ('⊗', "(\\X)"),
    ('≡', "<=>"),
    ('⇔', "<=>"),
    ('↝', "~>"),
    ('≺', "\\prec"),
    ('⪯', "\\preceq"),
    ('≼', "\\preceq"),
    ('≻', "\\succ"),
    ('⪰', "\\succeq"),
    ('≽', "\\succeq"),
    ('⊏', "\\sqsubset"),
    ('⊑', "\\sqsubseteq"),
    ('⊐', "\\sqsupset"),
    ('⊒', "\\sqsupseteq"),
    ('⊓', "\\sqcap"),
    ('⊔', "\\sqcup"),
    ('⊎', "\\uplus"),
    ('≀', "\\wr"),
    ('∼', "\\sim"),
    ('≃', "\\simeq"),
    ('≈', "\\approx"),
    ('≅', "\\cong"),
    ('≍', "\\asymp"),
    ('≐', "\\doteq"),
    ('∝', "\\propto"),
    ('⋅', "\\cdot"),
    ('∙', "\\bullet"),
    ('⋆', "\\star"),
    ('◯', "\\bigcirc"),
    ('÷', "\\div"),
    ('≪', "\\ll"),
    ('≫', "\\gg"),
    ('⊢', "|-"),
    ('⊣', "-|"),
    ('⊨', "|="),
    ('⫤', "=|"),
    ('‥', ".."),
    ('…', "..."),
    ('⩴', "::="),
    ('≔', ":="),
    ('∖', "\\"),
    ('⊤', "TRUE"),
    ('⊥', "FALSE"),
];

/// Backslash words that are operators or quantifiers (after `\`), canonical or aliases.
pub(crate) const BACKSLASH_WORDS: &[&str] = &[
    "in", "notin", "A", "E", "AA", "EE", "X", "times", "land", "lor", "lnot", "neg", "equiv", "cup",
    "union", "cap", "intersect", "subseteq", "subset", "supseteq", "supset", "sqsubset",
    "sqsubseteq", "sqsupset", "sqsupseteq", "sqcap", "sqcup", "uplus", "oplus", "ominus", "odot",
    "oslash", "otimes", "o", "circ", "bullet", "star", "bigcirc", "cdot", "div", "wr", "sim",
    "simeq", "approx", "cong", "asymp", "doteq", "propto", "prec", "preceq", "succ", "succeq", "ll",
    "gg", "leq", "geq", "forall", "exists", "setminus",
];

/// Whether `w` (a backslash word without its `\`) is one of [`BACKSLASH_WORDS`].
pub(crate) fn is_backslash_word(w: &str) -> bool {
    // The common ones without scanning the table.
    matches!(w, "in" | "A" | "E" | "cup" | "cap" | "subseteq" | "X" | "notin") || BACKSLASH_WORDS.contains(&w)
}

/// Reserved words of TLA+ (they cannot be used as names).
pub const KEYWORDS: &[&str] = &[
    "ASSUME", "ASSUMPTION", "AXIOM", "BOOLEAN", "CASE", "CHOOSE", "CONSTANT", "CONSTANTS",
    "COROLLARY", "DOMAIN", "ELSE", "ENABLED", "EXCEPT", "EXTENDS", "FALSE", "IF", "IN", "INSTANCE",
    "LAMBDA", "LEMMA", "LET", "LOCAL", "MODULE", "OTHER", "PROPOSITION", "RECURSIVE", "STRING",
    "SUBSET", "THEN", "THEOREM", "TRUE", "UNCHANGED", "UNION", "VARIABLE", "VARIABLES", "WITH",
    // The proof language's words are reserved too (SANY rejects them as names).
    "ACTION", "BY", "DEF", "DEFINE", "DEFS", "HAVE", "HIDE", "NEW", "OBVIOUS", "OMITTED", "ONLY",
    "PICK", "PROOF", "PROVE", "QED", "STATE", "SUFFICES", "TAKE", "TEMPORAL", "USE", "WITNESS",
];

pub fn is_keyword(s: &str) -> bool {
    KEYWORDS.contains(&s)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn aliases_map_to_known_operators() {
        for (a, c) in ALIASES {
            assert_eq!(canonical(a), *c);
            assert!(infix(c).is_some() || prefix(c).is_some() || c.starts_with("\\A") || c.starts_with("\\E"), "{a}");
        }
        assert_eq!(canonical("+"), "+");
        assert_eq!(canonical("="), "=");
        for w in BACKSLASH_WORDS {
            assert!(is_backslash_word(w), "{w}");
        }
        assert!(!is_backslash_word("foo"));
        for o in INFIX {
            assert_eq!(infix(o.name).map(|i| i.name), Some(o.name));
        }
        for o in PREFIX {
            assert_eq!(prefix(o.name).map(|i| i.name), Some(o.name));
        }
        for o in POSTFIX {
            assert_eq!(postfix(o.name).map(|i| i.name), Some(o.name));
        }
        assert!(infix(")").is_none() && infix("x").is_none() && infix("").is_none());
    }
    #[test]
    fn ranges_are_well_formed() {
        for o in INFIX.iter().chain(PREFIX).chain(POSTFIX) {
            assert!(o.lo <= o.hi, "{}", o.name);
        }
    }
}
