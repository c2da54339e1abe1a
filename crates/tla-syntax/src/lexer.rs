//! Tokens with byte spans, 0-based character columns and lines. Comments are dropped;
//! operator symbols (ASCII alternatives and Unicode forms) come out in canonical spelling.
//!
//! The tokens are recognised by the pest grammar `tla.pest` (one pass over the input: every
//! token, comment and blank is a rule there); this module turns pest's pairs into [`Token`]s,
//! adding lines, columns, literal values, canonical operator spellings and the diagnostics
//! of malformed tokens. pest's types stay inside this module.

use pest::Parser as _;
use pest_derive::Parser;

use crate::diag::Diagnostic;
use crate::ops;
use crate::span::{FileId, Span};

#[derive(Parser)]
#[grammar = "tla.pest"]
struct TlaLexer;

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Kind {
    Ident,
    Num(Option<i64>),
    Decimal,
    Str(String),
    /// Operator or punctuation; `text` holds the canonical spelling.
    Sym,
    /// `----` (four or more dashes).
    DashLine,
    /// `====` (four or more equal signs).
    EqLine,
    /// `WF_` or `SF_`.
    Fair,
    /// A proof step label such as `<1>2.` or `<*>`.
    Step,
    Eof,
}

/// `text` borrows the source (or a static canonical spelling): no allocation per token.
#[derive(Clone, Debug)]
pub(crate) struct Token<'t> {
    pub kind: Kind,
    pub text: &'t str,
    pub start: u32,
    pub end: u32,
    pub line: u32,
    pub col: u32,
}

impl Token<'_> {
    pub fn is_sym(&self, s: &str) -> bool {
        self.kind == Kind::Sym && self.text == s
    }
    pub fn is_word(&self, s: &str) -> bool {
        self.kind == Kind::Ident && self.text == s
    }
}

pub(crate) struct Lexed<'t> {
    pub tokens: Vec<Token<'t>>,
    pub diags: Vec<Diagnostic>,
}

/// Line and column (in characters) of a byte position, advanced monotonically.
struct Cursor<'t> {
    text: &'t [u8],
    pos: usize,
    line: u32,
    col: u32,
}

impl Cursor<'_> {
    fn advance_to(&mut self, p: usize) {
        for &c in &self.text[self.pos..p] {
            if c == b'\n' {
                self.line += 1;
                self.col = 0;
            } else if c & 0xC0 != 0x80 {
                // not a UTF-8 continuation byte: one more character
                self.col += 1;
            }
        }
        self.pos = p;
    }
}

/// The value of a string literal's body (between the quotes).
fn unescape(body: &str) -> String {
    let mut s = String::with_capacity(body.len());
    let mut chars = body.chars();
    while let Some(ch) = chars.next() {
        if ch != '\\' {
            s.push(ch);
            continue;
        }
        match chars.next() {
            Some('"') => s.push('"'),
            Some('\\') => s.push('\\'),
            Some('n') => s.push('\n'),
            Some('t') => s.push('\t'),
            Some('r') => s.push('\r'),
            Some('f') => s.push('\u{c}'),
            Some(o) => {
                s.push('\\');
                s.push(o);
            }
            None => {}
        }
    }
    s
}

/// Lex `text[from..]`; positions are relative to the whole text.
pub(crate) fn lex(file: FileId, text: &str, from: usize) -> Lexed<'_> {
    let from = from.min(text.len());
    let src = &text[from..];
    let mut toks: Vec<Token> = Vec::with_capacity(src.len() / 4);
    let mut diags = Vec::new();
    let sp = |s: usize, e: usize| Span::new(file, s, e);
    let line = text.as_bytes()[..from].iter().filter(|&&c| c == b'\n').count() as u32;
    let line_start = text[..from].rfind('\n').map(|p| p + 1).unwrap_or(0);
    let col = text[line_start..from].chars().count() as u32;
    let mut cur = Cursor { text: text.as_bytes(), pos: from, line, col };

    let pairs = match TlaLexer::parse(Rule::tokens, src) {
        Ok(p) => p,
        Err(_) => {
            // Unreachable: every character starts some token (`bad_char` takes any one).
            diags.push(Diagnostic::error("E0106", sp(from, text.len()), "the lexer could not read this text"));
            cur.advance_to(text.len());
            let n = text.len() as u32;
            toks.push(Token { kind: Kind::Eof, text: "", start: n, end: n, line: cur.line, col: cur.col });
            return Lexed { tokens: toks, diags };
        }
    };
    for pair in pairs {
        let rule = pair.as_rule();
        let span = pair.as_span();
        let (s, e) = (from + span.start(), from + span.end());
        let raw = span.as_str();
        let (kind, txt): (Kind, &str) = match rule {
            Rule::EOI => break,
            Rule::open_comment => {
                diags.push(
                    Diagnostic::error("E0105", sp(s, s + 2), "unterminated comment: `(*` is never closed")
                        .with_hint("close the comment with `*)` (comments nest: every `(*` needs its own `*)`)"),
                );
                continue;
            }
            Rule::string => (Kind::Str(unescape(&raw[1..raw.len() - 1])), raw),
            Rule::open_string => {
                diags.push(
                    Diagnostic::error("E0104", sp(s, e), "unterminated string literal")
                        .with_hint("close the string with `\"` on the same line"),
                );
                (Kind::Str(unescape(&raw[1..])), raw)
            }
            Rule::fair => (Kind::Fair, &raw[..2]),
            Rule::decimal => (Kind::Decimal, raw),
            Rule::number => (Kind::Num(raw.parse::<i64>().ok()), raw),
            Rule::ident => (Kind::Ident, raw),
            Rule::underscore => (Kind::Sym, "_"),
            Rule::dash_line => (Kind::DashLine, raw),
            Rule::eq_line => (Kind::EqLine, raw),
            Rule::radix_number => {
                let radix = match raw.as_bytes()[1] {
                    b'b' | b'B' => 2,
                    b'o' | b'O' => 8,
                    _ => 16,
                };
                (Kind::Num(i64::from_str_radix(&raw[2..], radix).ok()), raw)
            }
            Rule::bs_word => {
                if ops::BACKSLASH_WORDS.contains(&&raw[1..]) {
                    (Kind::Sym, ops::canonical(raw))
                } else {
                    diags.push(Diagnostic::error("E0106", sp(s, e), format!("unknown operator `{raw}`")));
                    (Kind::Sym, raw)
                }
            }
            Rule::step => (Kind::Step, raw),
            Rule::bs_or | Rule::backslash | Rule::eq_before_tuple | Rule::bracket_sub | Rule::tuple_sub | Rule::neg_dot => {
                (Kind::Sym, raw)
            }
            Rule::symbol => (Kind::Sym, ops::canonical(raw)),
            Rule::unicode_symbol => {
                let ch = raw.chars().next().unwrap_or(' ');
                match ops::UNICODE.iter().find(|(u, _)| *u == ch) {
                    Some((_, "TRUE")) => (Kind::Ident, "TRUE"),
                    Some((_, "FALSE")) => (Kind::Ident, "FALSE"),
                    Some((_, canon)) => (Kind::Sym, canon),
                    None => {
                        diags.push(Diagnostic::error("E0106", sp(s, e), format!("unexpected character `{raw}`")));
                        continue;
                    }
                }
            }
            _ => {
                // bad_char
                diags.push(Diagnostic::error("E0106", sp(s, e), format!("unexpected character `{raw}`")));
                continue;
            }
        };
        cur.advance_to(s);
        toks.push(Token { kind, text: txt, start: s as u32, end: e as u32, line: cur.line, col: cur.col });
    }
    cur.advance_to(text.len());
    let n = text.len() as u32;
    toks.push(Token { kind: Kind::Eof, text: "", start: n, end: n, line: cur.line, col: cur.col });
    Lexed { tokens: toks, diags }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(Kind, String)> {
        lex(FileId(0), text, 0).tokens.into_iter().map(|t| (t.kind, t.text.to_string())).collect()
    }

    #[test]
    fn every_unicode_form_is_one_token() {
        for (u, canon) in ops::UNICODE {
            let src = u.to_string();
            let l = lex(FileId(0), &src, 0);
            assert!(l.diags.is_empty(), "{u}");
            assert_eq!(l.tokens.len(), 2, "{u}");
            assert_eq!(l.tokens[0].text, *canon, "{u}");
        }
    }

    #[test]
    fn longest_match_and_special_forms() {
        let k = kinds("a=<<b>>_c ]_x -. 1 -.5 WF_v <1>2. \\h1F \\o8 1_2 ----- === \\cup \\foo");
        let texts: Vec<&str> = k.iter().map(|(_, t)| t.as_str()).collect();
        assert_eq!(
            texts,
            [
                "a", "=", "<<", "b", ">>_", "c", "]_", "x", "-.", "1", "-", ".", "5", "WF", "v", "<1>2.", "\\h1F",
                "\\o", "8", "_", "_", "2", "-----", "==", "=", "\\cup", "\\foo", ""
            ]
        );
        assert_eq!(k[15].0, Kind::Step);
        assert_eq!(k[16].0, Kind::Num(Some(31)));
        assert_eq!(k[22].0, Kind::DashLine);
    }

    #[test]
    fn lines_columns_and_offsets() {
        let text = "x (* a\n (* b *)\n *) ⟨y\n  \"s\\\"t\" 3.25";
        let l = lex(FileId(0), text, 2);
        let t: Vec<(&str, u32, u32)> = l.tokens.iter().map(|t| (t.text, t.line, t.col)).collect();
        assert_eq!(t, [("<<", 2, 4), ("y", 2, 5), ("\"s\\\"t\"", 3, 2), ("3.25", 3, 9), ("", 3, 13)]);
        assert_eq!(l.tokens[2].kind, Kind::Str("s\"t".into()));
        assert_eq!(l.tokens[0].start as usize, text.find('⟨').unwrap());
    }

    #[test]
    fn malformed_tokens_are_diagnostics() {
        let l = lex(FileId(0), "x \"abc\ny ` \\foo (* (* *)", 0);
        let codes: Vec<&str> = l.diags.iter().map(|d| d.code).collect();
        assert_eq!(codes, ["E0104", "E0106", "E0106", "E0105"]);
        assert_eq!(l.tokens.iter().map(|t| t.text).collect::<Vec<_>>(), ["x", "\"abc", "y", "\\foo", ""]);
    }

    #[test]
    fn deeply_nested_comments_need_no_recursion() {
        let text = format!("a {}{} b", "(*".repeat(200_000), "*)".repeat(200_000));
        let l = lex(FileId(0), &text, 0);
        assert!(l.diags.is_empty());
        assert_eq!(l.tokens.iter().map(|t| t.text).collect::<Vec<_>>(), ["a", "b", ""]);
        let open = "(*".repeat(100_000);
        let l = lex(FileId(0), &open, 0);
        assert_eq!(l.diags.len(), 1);
    }
}
