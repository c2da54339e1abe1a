//! Tokens with byte spans, 0-based character columns and lines. Comments are dropped;
//! operator symbols (ASCII alternatives and Unicode forms) come out in canonical spelling.

use crate::diag::Diagnostic;
use crate::ops;
use crate::span::{FileId, Span};

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

#[derive(Clone, Debug)]
pub(crate) struct Token {
    pub kind: Kind,
    pub text: String,
    pub start: u32,
    pub end: u32,
    pub line: u32,
    pub col: u32,
}

impl Token {
    pub fn is_sym(&self, s: &str) -> bool {
        self.kind == Kind::Sym && self.text == s
    }
    pub fn is_word(&self, s: &str) -> bool {
        self.kind == Kind::Ident && self.text == s
    }
}

/// ASCII symbols, longest first.
const SYMS: &[&str] = &[
    "-+->", "(\\X)", "<=>", "::=", "...", "|->", "(+)", "(-)", "(.)", "(/)", "<<", ">>", "^^", "==",
    "=>", "=<", "=|", "<=", ">=", "/=", "/\\", "\\/", "<>", "<-", "<:", ":>", "::", ":=", "->",
    "-|", "--", "++", "**", "//", "||", "|-", "|=", "&&", "%%", "$$", "??", "!!", "##", "@@", "..",
    "~>", "[]", "^+", "^*", "^#", "!=", "(", ")", "[", "]", "{", "}", ",", ":", "=", "<", ">", "+",
    "-", "*", "/", "^", "|", "&", "%", "$", "?", "!", "#", "@", ".", "~", "'", "_", ";",
];

pub(crate) struct Lexed {
    pub tokens: Vec<Token>,
    pub diags: Vec<Diagnostic>,
}

fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Lex `text[from..]`; positions are relative to the whole text.
pub(crate) fn lex(file: FileId, text: &str, from: usize) -> Lexed {
    let b = text.as_bytes();
    let mut toks: Vec<Token> = Vec::new();
    let mut diags = Vec::new();
    let mut i = from;
    // line number and line start (byte) of position i
    let mut line = text[..from].bytes().filter(|&c| c == b'\n').count() as u32;
    let mut line_start = text[..from].rfind('\n').map(|p| p + 1).unwrap_or(0);
    let sp = |s: usize, e: usize| Span::new(file, s, e);
    let col_of = |ls: usize, p: usize| text[ls..p].chars().count() as u32;
    macro_rules! push {
        ($kind:expr, $txt:expr, $s:expr, $e:expr) => {{
            let col = col_of(line_start, $s);
            toks.push(Token { kind: $kind, text: $txt, start: $s as u32, end: $e as u32, line, col });
        }};
    }
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            i += 1;
            line += 1;
            line_start = i;
            continue;
        }
        if c == b' ' || c == b'\t' || c == b'\r' || c == 0x0c {
            i += 1;
            continue;
        }
        // comments
        if c == b'\\' && b.get(i + 1) == Some(&b'*') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if c == b'(' && b.get(i + 1) == Some(&b'*') {
            let open = i;
            let mut depth = 0usize;
            while i < b.len() {
                if b[i] == b'(' && b.get(i + 1) == Some(&b'*') {
                    depth += 1;
                    i += 2;
                } else if b[i] == b'*' && b.get(i + 1) == Some(&b')') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if b[i] == b'\n' {
                        line += 1;
                        line_start = i + 1;
                    }
                    i += 1;
                }
            }
            if depth > 0 {
                diags.push(
                    Diagnostic::error("E0105", sp(open, open + 2), "unterminated comment: `(*` is never closed")
                        .with_hint("close the comment with `*)` (comments nest: every `(*` needs its own `*)`)"),
                );
            }
            continue;
        }
        let start = i;
        // strings
        if c == b'"' {
            i += 1;
            let mut s = String::new();
            let mut closed = false;
            while i < b.len() {
                let ch = text[i..].chars().next().unwrap_or(' ');
                if ch == '"' {
                    i += 1;
                    closed = true;
                    break;
                }
                if ch == '\n' {
                    break;
                }
                if ch == '\\' {
                    let n = text[i + 1..].chars().next();
                    match n {
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
                    i += 1 + n.map(|c| c.len_utf8()).unwrap_or(0);
                    continue;
                }
                s.push(ch);
                i += ch.len_utf8();
            }
            if !closed {
                diags.push(
                    Diagnostic::error("E0104", sp(start, i), "unterminated string literal")
                        .with_hint("close the string with `\"` on the same line"),
                );
            }
            let raw = text[start..i].to_string();
            push!(Kind::Str(s), raw, start, i);
            continue;
        }
        // numbers and identifiers
        if c.is_ascii_alphanumeric() || (c == b'_' && b.get(i + 1).is_some_and(|&d| d.is_ascii_alphanumeric() || d == b'_')) {
            let mut j = i;
            while j < b.len() && is_word_char(b[j] as char) {
                j += 1;
            }
            let word = &text[i..j];
            if word.bytes().all(|d| d.is_ascii_digit()) {
                // decimal?
                if b.get(j) == Some(&b'.') && b.get(j + 1).is_some_and(|d| d.is_ascii_digit()) {
                    let mut k = j + 1;
                    while k < b.len() && b[k].is_ascii_digit() {
                        k += 1;
                    }
                    push!(Kind::Decimal, text[i..k].to_string(), i, k);
                    i = k;
                    continue;
                }
                let v = word.parse::<i64>().ok();
                push!(Kind::Num(v), word.to_string(), i, j);
                i = j;
                continue;
            }
            if word.len() > 3 && (word.starts_with("WF_") || word.starts_with("SF_")) || word == "WF_" || word == "SF_" {
                push!(Kind::Fair, word[..2].to_string(), i, i + 3);
                i += 3;
                continue;
            }
            if !word.bytes().any(|d| d.is_ascii_alphabetic()) {
                // only underscores and digits: `_` punctuation
                push!(Kind::Sym, "_".into(), i, i + 1);
                i += 1;
                continue;
            }
            push!(Kind::Ident, word.to_string(), i, j);
            i = j;
            continue;
        }
        // dash / equal lines
        if c == b'-' || c == b'=' {
            let mut j = i;
            while j < b.len() && b[j] == c {
                j += 1;
            }
            if j - i >= 4 {
                let k = if c == b'-' { Kind::DashLine } else { Kind::EqLine };
                push!(k, text[i..j].to_string(), i, j);
                i = j;
                continue;
            }
        }
        // backslash forms
        if c == b'\\' {
            if b.get(i + 1) == Some(&b'/') {
                push!(Kind::Sym, "\\/".into(), i, i + 2);
                i += 2;
                continue;
            }
            if b.get(i + 1).is_some_and(|d| d.is_ascii_alphabetic()) {
                let mut j = i + 1;
                while j < b.len() && b[j].is_ascii_alphanumeric() {
                    j += 1;
                }
                let word = &text[i + 1..j];
                let (first, rest) = word.split_at(1);
                let radix = match first {
                    "b" | "B" => 2,
                    "o" | "O" => 8,
                    "h" | "H" => 16,
                    _ => 0,
                };
                if radix != 0 && !rest.is_empty() && rest.chars().all(|d| d.is_digit(radix)) {
                    let v = i64::from_str_radix(rest, radix).ok();
                    push!(Kind::Num(v), text[i..j].to_string(), i, j);
                    i = j;
                    continue;
                }
                // operator words are letters only
                let mut k = i + 1;
                while k < b.len() && b[k].is_ascii_alphabetic() {
                    k += 1;
                }
                let w = &text[i + 1..k];
                if ops::BACKSLASH_WORDS.contains(&w) {
                    let full = format!("\\{w}");
                    push!(Kind::Sym, ops::canonical(&full).to_string(), i, k);
                } else {
                    diags.push(Diagnostic::error("E0106", sp(i, k), format!("unknown operator `\\{w}`")));
                    push!(Kind::Sym, format!("\\{w}"), i, k);
                }
                i = k;
                continue;
            }
            push!(Kind::Sym, "\\".into(), i, i + 1);
            i += 1;
            continue;
        }
        // proof step labels <1>2. <*> <+>
        if c == b'<' {
            let mut j = i + 1;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            let star = j == i + 1 && matches!(b.get(j), Some(b'*') | Some(b'+')) && b.get(j + 1) == Some(&b'>');
            if (j > i + 1 && b.get(j) == Some(&b'>')) || star {
                let mut k = if star { j + 2 } else { j + 1 };
                while k < b.len() && is_word_char(b[k] as char) {
                    k += 1;
                }
                while k < b.len() && b[k] == b'.' && b.get(k + 1) != Some(&b'.') {
                    k += 1;
                }
                push!(Kind::Step, text[i..k].to_string(), i, k);
                i = k;
                continue;
            }
        }
        // `=<<` is `=` followed by `<<`, not `=<` followed by `<`
        if text[i..].starts_with("=<<") {
            push!(Kind::Sym, "=".into(), i, i + 1);
            i += 1;
            continue;
        }
        // subscripts: `]_` and `>>_`
        if c == b']' && b.get(i + 1) == Some(&b'_') {
            push!(Kind::Sym, "]_".into(), i, i + 2);
            i += 2;
            continue;
        }
        if text[i..].starts_with(">>_") {
            push!(Kind::Sym, ">>_".into(), i, i + 3);
            i += 3;
            continue;
        }
        if text[i..].starts_with("-.") && !b.get(i + 2).is_some_and(|d| d.is_ascii_digit() || *d == b'.') {
            push!(Kind::Sym, "-.".into(), i, i + 2);
            i += 2;
            continue;
        }
        if let Some(s) = SYMS.iter().find(|s| text[i..].starts_with(**s)) {
            push!(Kind::Sym, ops::canonical(s).to_string(), i, i + s.len());
            i += s.len();
            continue;
        }
        let ch = text[i..].chars().next().unwrap_or(' ');
        if let Some((_, canon)) = ops::UNICODE.iter().find(|(u, _)| *u == ch) {
            let kind = if *canon == "TRUE" || *canon == "FALSE" { Kind::Ident } else { Kind::Sym };
            push!(kind, canon.to_string(), i, i + ch.len_utf8());
            i += ch.len_utf8();
            continue;
        }
        diags.push(Diagnostic::error("E0106", sp(i, i + ch.len_utf8()), format!("unexpected character `{ch}`")));
        i += ch.len_utf8();
    }
    let col = col_of(line_start, b.len());
    toks.push(Token { kind: Kind::Eof, text: String::new(), start: b.len() as u32, end: b.len() as u32, line, col });
    Lexed { tokens: toks, diags }
}
