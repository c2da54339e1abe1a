//! TLC's `.cfg` language: a keyword starts a section, the names or assignments after it (across
//! lines, optionally separated by commas) belong to it until the next keyword.
//! Errors are diagnostics (E03xx); the parser skips to the next keyword and keeps going.

use crate::ast::Ident;
use crate::cfg::{CfgOutput, CfgValue, Config, ConstAssign, ConstRhs};
use crate::diag::Diagnostic;
use crate::span::{FileId, Span};

#[derive(Clone, Debug, PartialEq)]
enum T {
    Word(String),
    Num(Option<i64>),
    Str(String),
    Sym(&'static str),
    Eof,
}

#[derive(Clone, Debug)]
struct Tok {
    t: T,
    span: Span,
}

const KEYWORDS: &[&str] = &[
    "SPECIFICATION", "INIT", "NEXT", "CONSTANT", "CONSTANTS", "INVARIANT", "INVARIANTS", "PROPERTY",
    "PROPERTIES", "CONSTRAINT", "CONSTRAINTS", "ACTION_CONSTRAINT", "ACTION_CONSTRAINTS", "SYMMETRY",
    "VIEW", "ALIAS", "POSTCONDITION", "CHECK_DEADLOCK",
];

#[derive(pest_derive::Parser)]
#[grammar = "cfg.pest"]
struct CfgLexer;

/// The value of a string literal's body (between the quotes): `\n`, `\t`, and `\c` for any
/// other character `c`.
fn unescape(body: &str) -> String {
    let mut s = String::with_capacity(body.len());
    let mut chars = body.chars();
    while let Some(ch) = chars.next() {
        if ch != '\\' {
            s.push(ch);
            continue;
        }
        match chars.next() {
            Some('n') => s.push('\n'),
            Some('t') => s.push('\t'),
            Some(o) => s.push(o),
            None => s.push('\\'),
        }
    }
    s
}

const SYMS: &[&str] = &["<-", "<<", ">>", "=", "[", "]", "{", "}", ",", "-", "!"];

/// Tokens from the pest grammar `cfg.pest`, with literal values and the diagnostics of
/// malformed tokens.
fn lex(file: FileId, text: &str, diags: &mut Vec<Diagnostic>) -> Vec<Tok> {
    use pest::Parser as _;
    let mut out = Vec::new();
    let sp = |s: usize, e: usize| Span::new(file, s, e);
    match CfgLexer::parse(Rule::tokens, text) {
        Ok(pairs) => {
            for pair in pairs {
                let span = pair.as_span();
                let (s, e, raw) = (span.start(), span.end(), span.as_str());
                let t = match pair.as_rule() {
                    Rule::EOI => break,
                    Rule::open_comment => {
                        diags.push(Diagnostic::error("E0303", sp(s, s + 2), "unterminated comment: `(*` is never closed"));
                        continue;
                    }
                    Rule::string => T::Str(unescape(&raw[1..raw.len() - 1])),
                    Rule::open_string => {
                        diags.push(Diagnostic::error("E0303", sp(s, e), "unterminated string"));
                        T::Str(unescape(&raw[1..]))
                    }
                    Rule::number => T::Num(raw.parse().ok()),
                    Rule::word => T::Word(raw.to_string()),
                    Rule::symbol => match SYMS.iter().find(|x| **x == raw) {
                        Some(x) => T::Sym(x),
                        None => continue,
                    },
                    _ => {
                        diags.push(Diagnostic::error(
                            "E0301",
                            sp(s, e),
                            format!("unexpected character `{raw}` in the configuration"),
                        ));
                        continue;
                    }
                };
                out.push(Tok { t, span: sp(s, e) });
            }
        }
        // Unreachable: every character starts some token (`bad_char` takes any one).
        Err(_) => diags.push(Diagnostic::error("E0301", sp(0, text.len()), "the configuration could not be read")),
    }
    out.push(Tok { t: T::Eof, span: sp(text.len(), text.len()) });
    out
}

struct P {
    toks: Vec<Tok>,
    pos: usize,
    diags: Vec<Diagnostic>,
}

fn describe(t: &T) -> String {
    match t {
        T::Word(w) => format!("`{w}`"),
        T::Num(_) => "a number".into(),
        T::Str(s) => format!("\"{s}\""),
        T::Sym(s) => format!("`{s}`"),
        T::Eof => "end of file".into(),
    }
}

impl P {
    fn peek(&self) -> &Tok {
        &self.toks[self.pos.min(self.toks.len() - 1)]
    }
    fn bump(&mut self) -> Tok {
        let t = self.peek().clone();
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
        t
    }
    fn at_keyword(&self) -> bool {
        matches!(&self.peek().t, T::Word(w) if KEYWORDS.contains(&w.as_str())) || self.peek().t == T::Eof
    }
    fn is_sym(&self, s: &str) -> bool {
        matches!(self.peek().t, T::Sym(x) if x == s)
    }
    fn err(&mut self, expected: &str) {
        let t = self.peek().clone();
        self.diags.push(Diagnostic::error("E0301", t.span, format!("expected {expected}, found {}", describe(&t.t))));
        // skip to the next keyword
        while !self.at_keyword() {
            self.bump();
        }
    }
    /// A name (operator names may be written `M!Op`).
    fn name(&mut self) -> Option<Ident> {
        let t = self.peek().clone();
        match t.t {
            T::Word(w) if !KEYWORDS.contains(&w.as_str()) => {
                self.bump();
                let mut name = w;
                let mut span = t.span;
                while self.is_sym("!") {
                    self.bump();
                    if let T::Word(n) = self.peek().t.clone() {
                        let s = self.bump().span;
                        name = format!("{name}!{n}");
                        span = span.to(s);
                    } else {
                        self.err("a name after `!`");
                        return None;
                    }
                }
                Some(Ident { name, span })
            }
            _ => {
                self.err("a name");
                None
            }
        }
    }
    fn value(&mut self) -> Option<(CfgValue, Span)> {
        let t = self.peek().clone();
        match t.t {
            T::Num(n) => {
                self.bump();
                Some((CfgValue::Int(self.num(n, t.span, false)?), t.span))
            }
            T::Sym("-") => {
                self.bump();
                let n = self.peek().clone();
                if let T::Num(v) = n.t {
                    self.bump();
                    Some((CfgValue::Int(self.num(v, n.span, true)?), t.span.to(n.span)))
                } else {
                    self.err("a number after `-`");
                    None
                }
            }
            T::Str(s) => {
                self.bump();
                Some((CfgValue::Str(s), t.span))
            }
            T::Word(w) if w == "TRUE" || w == "FALSE" => {
                self.bump();
                Some((CfgValue::Bool(w == "TRUE"), t.span))
            }
            T::Word(w) if !KEYWORDS.contains(&w.as_str()) => {
                self.bump();
                Some((CfgValue::ModelValue(w), t.span))
            }
            T::Sym("{") => {
                self.bump();
                let mut items = Vec::new();
                if !self.is_sym("}") {
                    loop {
                        items.push(self.value()?.0);
                        if self.is_sym(",") {
                            self.bump();
                        } else {
                            break;
                        }
                    }
                }
                if !self.is_sym("}") {
                    let open = t.span;
                    let found = self.peek().clone();
                    self.diags.push(
                        Diagnostic::error("E0304", open, format!("unclosed `{{`: expected `}}`, found {}", describe(&found.t)))
                            .with_label(found.span, "expected `}` here"),
                    );
                    while !self.at_keyword() {
                        self.bump();
                    }
                    return None;
                }
                let c = self.bump();
                Some((CfgValue::Set(items), t.span.to(c.span)))
            }
            _ => {
                self.err("a value (a number, a string, TRUE, FALSE, a model value or a set `{...}`)");
                None
            }
        }
    }
    fn num(&mut self, n: Option<i64>, span: Span, neg: bool) -> Option<i64> {
        match n {
            Some(v) => Some(if neg { -v } else { v }),
            None => {
                self.diags.push(Diagnostic::error("E0305", span, "number too large"));
                None
            }
        }
    }
}

fn set_single(p: &mut P, slot: &mut Option<Ident>, kw: &str, kw_span: Span) {
    if let Some(n) = p.name() {
        if let Some(old) = slot.as_ref() {
            p.diags.push(
                Diagnostic::warning("E0302", kw_span, format!("`{kw}` given more than once; the last one (`{}`) is used", n.name))
                    .with_label(old.span, "earlier value"),
            );
        }
        *slot = Some(n);
    }
    if !p.at_keyword() {
        p.err(&format!("a keyword (`{kw}` takes one name)"));
    }
}

/// A list of names, possibly empty: TLC accepts a keyword with no name after it
/// (`PROPERTIES` followed by `CHECK_DEADLOCK FALSE`).
fn names(p: &mut P, list: &mut Vec<Ident>) {
    while !p.at_keyword() {
        match p.name() {
            Some(n) => list.push(n),
            None => return,
        }
        if p.is_sym(",") {
            p.bump();
        }
    }
}

fn constants(p: &mut P, list: &mut Vec<ConstAssign>) {
    while !p.at_keyword() {
        let Some(name) = p.name() else { return };
        if p.is_sym("=") {
            p.bump();
            let mut module = None;
            if p.is_sym("[") {
                p.bump();
                let Some(m) = p.name() else { return };
                if !p.is_sym("]") {
                    p.err("`]`");
                    return;
                }
                p.bump();
                module = Some(m);
            }
            match p.value() {
                Some((v, s)) => list.push(ConstAssign { name, rhs: ConstRhs::Value(v, s), module }),
                None => return,
            }
        } else if p.is_sym("<-") {
            p.bump();
            if p.is_sym("[") {
                p.bump();
                let Some(module) = p.name() else { return };
                if !p.is_sym("]") {
                    p.err("`]`");
                    return;
                }
                p.bump();
                let Some(def) = p.name() else { return };
                list.push(ConstAssign { name, rhs: ConstRhs::ModSubst { module: module.clone(), def }, module: Some(module) });
            } else {
                let Some(def) = p.name() else { return };
                list.push(ConstAssign { name, rhs: ConstRhs::Subst(def), module: None });
            }
        } else {
            let t = p.peek().clone();
            p.diags.push(
                Diagnostic::error("E0306", name.span, format!("constant `{}` needs a value: expected `=` or `<-`, found {}", name.name, describe(&t.t)))
                    .with_hint(format!("write `{0} = value` (e.g. a model value `{0} = {0}`) or `{0} <- Definition`", name.name)),
            );
            continue;
        }
        if p.is_sym(",") {
            p.bump();
        }
    }
}

pub(crate) fn parse(file: FileId, text: &str) -> CfgOutput {
    let mut diags = Vec::new();
    let toks = lex(file, text, &mut diags);
    let mut p = P { toks, pos: 0, diags };
    let mut c = Config::default();
    loop {
        let t = p.peek().clone();
        let kw = match &t.t {
            T::Eof => break,
            T::Word(w) if KEYWORDS.contains(&w.as_str()) => w.clone(),
            _ => {
                p.diags.push(
                    Diagnostic::error("E0301", t.span, format!("expected a keyword such as INIT, NEXT, SPECIFICATION, CONSTANTS or INVARIANT, found {}", describe(&t.t))),
                );
                p.bump();
                while !p.at_keyword() {
                    p.bump();
                }
                continue;
            }
        };
        p.bump();
        match kw.as_str() {
            "SPECIFICATION" => set_single(&mut p, &mut c.specification, &kw, t.span),
            "INIT" => set_single(&mut p, &mut c.init, &kw, t.span),
            "NEXT" => set_single(&mut p, &mut c.next, &kw, t.span),
            "SYMMETRY" => set_single(&mut p, &mut c.symmetry, &kw, t.span),
            "VIEW" => set_single(&mut p, &mut c.view, &kw, t.span),
            "ALIAS" => set_single(&mut p, &mut c.alias, &kw, t.span),
            "POSTCONDITION" => set_single(&mut p, &mut c.postcondition, &kw, t.span),
            "CONSTANT" | "CONSTANTS" => constants(&mut p, &mut c.constants),
            "INVARIANT" | "INVARIANTS" => names(&mut p, &mut c.invariants),
            "PROPERTY" | "PROPERTIES" => names(&mut p, &mut c.properties),
            "CONSTRAINT" | "CONSTRAINTS" => names(&mut p, &mut c.constraints),
            "ACTION_CONSTRAINT" | "ACTION_CONSTRAINTS" => names(&mut p, &mut c.action_constraints),
            "CHECK_DEADLOCK" => {
                let v = p.peek().clone();
                match v.t {
                    T::Word(w) if w == "TRUE" || w == "FALSE" => {
                        p.bump();
                        c.check_deadlock = Some(w == "TRUE");
                    }
                    _ => p.err("TRUE or FALSE after CHECK_DEADLOCK"),
                }
                if !p.at_keyword() {
                    p.err("a keyword");
                }
            }
            _ => {}
        }
    }
    CfgOutput { config: c, diagnostics: p.diags }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_from_the_grammar() {
        let mut d = Vec::new();
        let toks = lex(FileId(0), "N <- [a = \"x\\ty\"] \\* c\n(* (* n *) *) 12 -3 <<1>>", &mut d);
        let ts: Vec<T> = toks.into_iter().map(|t| t.t).collect();
        assert!(d.is_empty());
        assert_eq!(ts[..4], [T::Word("N".into()), T::Sym("<-"), T::Sym("["), T::Word("a".into())]);
        assert!(ts.contains(&T::Str("x\ty".into())));
        assert!(ts.contains(&T::Num(Some(12))));
        assert_eq!(ts.iter().filter(|t| **t == T::Sym("<<")).count(), 1);
        assert_eq!(ts.last(), Some(&T::Eof));
    }

    #[test]
    fn non_ascii_in_comments_and_strings() {
        let mut d = Vec::new();
        let toks = lex(FileId(0), "(* é (* ü *) *) INIT \"ö\" é", &mut d);
        assert_eq!(toks.len(), 3);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].code, "E0301");
        let mut d = Vec::new();
        lex(FileId(0), "(* é \"x", &mut d);
        assert_eq!(d[0].code, "E0303");
    }
}
