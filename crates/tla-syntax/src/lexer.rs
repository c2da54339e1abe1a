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

fn is_word_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The kind of a word (a `token` starting with a letter, digit or `_`; `next`: the byte after
/// it): the word alternatives of the rule leave distinct texts, except a lone digit, which is
/// a number unless a word character follows (then it is a `_`).
fn word_kind(raw: &str, next: Option<u8>) -> (Kind, &str) {
    let b = raw.as_bytes();
    if raw == "WF_" || raw == "SF_" {
        (Kind::Fair, &raw[..2])
    } else if b.iter().any(|c| c.is_ascii_alphabetic()) {
        (Kind::Ident, raw)
    } else if b.contains(&b'.') {
        (Kind::Decimal, raw)
    } else if raw == "_" || (b.len() == 1 && next.is_some_and(is_word_byte)) {
        (Kind::Sym, "_")
    } else {
        (Kind::Num(raw.parse::<i64>().ok()), raw)
    }
}

/// The kind of an operator or punctuation `token`: `----` and `====` lines, proof step labels
/// (`<` then a digit, `*` or `+`), or an operator in canonical spelling.
fn punct_kind(raw: &str) -> (Kind, &str) {
    let b = raw.as_bytes();
    if b.len() >= 4 && b.iter().all(|&c| c == b'-') {
        (Kind::DashLine, raw)
    } else if b.len() >= 4 && b.iter().all(|&c| c == b'=') {
        (Kind::EqLine, raw)
    } else if b[0] == b'<' && b.len() >= 3 && (b[1].is_ascii_digit() || b[1] == b'*' || b[1] == b'+') {
        (Kind::Step, raw)
    } else {
        (Kind::Sym, ops::canonical(raw))
    }
}

/// The kind of a `token` starting with `\` (`next`: the byte after it), or `None` for a line comment
/// (`\*...`) or an unknown backslash word. A radix number is `\` and `b`, `o` or `h`, one or
/// more digits of that radix, and no letter or digit after: a backslash word with such a
/// text stopped before a digit (its letters end there), so it has a letter or digit after.
fn backslash_kind(raw: &str, next: Option<u8>) -> Option<(Kind, &str)> {
    let b = raw.as_bytes();
    if raw == "\\" || raw == "\\/" {
        return Some((Kind::Sym, raw));
    }
    if b[1] == b'*' {
        return None;
    }
    let radix = match b[1] {
        b'b' | b'B' => 2,
        b'o' | b'O' => 8,
        b'h' | b'H' => 16,
        _ => 0,
    };
    if radix != 0
        && b.len() > 2
        && b[2..].iter().all(|&c| (c as char).is_digit(radix))
        && !next.is_some_and(|c| c.is_ascii_alphanumeric())
    {
        return Some((Kind::Num(i64::from_str_radix(&raw[2..], radix).ok()), raw));
    }
    if ops::is_backslash_word(&raw[1..]) { Some((Kind::Sym, ops::canonical(raw))) } else { None }
}

/// Lex `text[from..]`; positions are relative to the whole text.
pub(crate) fn lex(file: FileId, text: &str, from: usize) -> Lexed<'_> {
    let from = from.min(text.len());
    let mut toks: Vec<Token> = Vec::with_capacity((text.len() - from) / 4);
    let mut diags = Vec::new();
    let sp = |s: usize, e: usize| Span::new(file, s, e);
    let line = text.as_bytes()[..from].iter().filter(|&&c| c == b'\n').count() as u32;
    let line_start = text[..from].rfind('\n').map(|p| p + 1).unwrap_or(0);
    let col = text[line_start..from].chars().count() as u32;
    let mut cur = Cursor { text: text.as_bytes(), pos: from, line, col };

    // `tokens` reads up to the end of the input or to the `(*` of a block comment; the comment
    // is matched by `block_comment` and the tokens resume after it.
    let mut base = from;
    'chunks: loop {
        let pairs = match TlaLexer::parse(Rule::tokens, &text[base..]) {
            Ok(p) => p,
            Err(_) => {
                // Unreachable: every character starts some token (`bad_char` takes any one).
                diags.push(Diagnostic::error("E0106", sp(base, text.len()), "the lexer could not read this text"));
                break 'chunks;
            }
        };
        // `tokens` is compound-atomic: its one pair holds the tokens.
        for pair in pairs.flat_map(|p| p.into_inner()) {
            let rule = pair.as_rule();
            let span = pair.as_span();
            let (s, e) = (base + span.start(), base + span.end());
            let raw = span.as_str();
            let (kind, txt): (Kind, &str) = match rule {
                Rule::EOI => break 'chunks,
                Rule::comment_start => {
                    match TlaLexer::parse(Rule::block_comment, &text[s..]).ok().and_then(|mut p| p.next()) {
                        Some(c) => {
                            base = s + c.as_span().end();
                            continue 'chunks;
                        }
                        None => {
                            diags.push(
                                Diagnostic::error("E0105", sp(s, s + 2), "unterminated comment: `(*` is never closed")
                                    .with_hint(
                                        "close the comment with `*)` (comments nest: every `(*` needs its own `*)`)",
                                    ),
                            );
                            break 'chunks;
                        }
                    }
                }
                Rule::string => (Kind::Str(unescape(&raw[1..raw.len() - 1])), raw),
                Rule::open_string => {
                    diags.push(
                        Diagnostic::error("E0104", sp(s, e), "unterminated string literal")
                            .with_hint("close the string with `\"` on the same line"),
                    );
                    (Kind::Str(unescape(&raw[1..])), raw)
                }
                Rule::token => {
                    let next = text.as_bytes().get(e).copied();
                    let first = raw.as_bytes()[0];
                    if is_word_byte(first) {
                        word_kind(raw, next)
                    } else if first != b'\\' {
                        punct_kind(raw)
                    } else if let Some(k) = backslash_kind(raw, next) {
                        k
                    } else if raw.starts_with("\\*") {
                        continue; // a line comment
                    } else {
                        diags.push(Diagnostic::error("E0106", sp(s, e), format!("unknown operator `{raw}`")));
                        (Kind::Sym, raw)
                    }
                }
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
        // Unreachable: `tokens` ends with `comment_start` or `EOI`.
        break;
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
