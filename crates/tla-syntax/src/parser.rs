//! Tokens → AST: module frames, top-level units, and a precedence-climbing expression parser
//! that honours TLA+'s precedence ranges and the column rule of `/\` and `\/` bullet lists.
//!
//! Architecture invariant: a module is split into segments at every line whose first token in
//! column 0 starts a unit (a declaration keyword or a definition header) and at `----` / `====`.
//! Each segment is parsed on its own: a syntax error turns the unit it is in into
//! [`Unit::Error`] and parsing resumes at the next segment.

use crate::ast::*;
use crate::diag::Diagnostic;
use crate::lexer::{self, Kind, Token};
use crate::ops::{self, OpInfo};
use crate::span::{FileId, Span};
use crate::ParseOutput;

type R<T> = Result<T, ()>;

/// Find the start of the next module header (`----` dashes, then `MODULE`) at or after `from`.
fn find_module_start(text: &str, from: usize) -> Option<usize> {
    let b = text.as_bytes();
    let mut i = from;
    while let Some(off) = text.get(i..).and_then(|t| t.find("----")) {
        let p = i + off;
        let mut j = p;
        while j < b.len() && b[j] == b'-' {
            j += 1;
        }
        while j < b.len() && (b[j] as char).is_ascii_whitespace() {
            j += 1;
        }
        if text[j..].starts_with("MODULE") && !b.get(j + 6).is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_') {
            return Some(p);
        }
        i = j.max(p + 4);
    }
    None
}

pub(crate) fn parse_file(file: FileId, text: &str) -> ParseOutput {
    let mut modules = Vec::new();
    let mut diagnostics = Vec::new();
    let mut pos = 0usize;
    while let Some(start) = find_module_start(text, pos) {
        let lexed = lexer::lex(file, text, start);
        let mut p = Parser::new(file, &lexed.tokens);
        let m = p.module();
        let end = match &m {
            Some(m) => m.span.end as usize,
            None => p.toks[p.pos.min(p.toks.len() - 1)].end as usize,
        };
        diagnostics.extend(lexed.diags.into_iter().filter(|d| (d.span.start as usize) < end.max(start + 1)));
        diagnostics.extend(p.diags);
        if let Some(m) = m {
            modules.push(m);
        }
        if end <= pos || end <= start {
            break;
        }
        pos = end;
    }
    if modules.is_empty() && diagnostics.is_empty() {
        diagnostics.push(
            Diagnostic::error("E0100", Span::new(file, 0, 0), "no module found in this file")
                .with_hint("a module starts with `---- MODULE Name ----` and ends with `====`"),
        );
    }
    ParseOutput { modules, diagnostics }
}

const UNIT_KEYWORDS: &[&str] = &[
    "CONSTANT", "CONSTANTS", "VARIABLE", "VARIABLES", "ASSUME", "ASSUMPTION", "AXIOM", "THEOREM",
    "LEMMA", "PROPOSITION", "COROLLARY", "INSTANCE", "LOCAL", "RECURSIVE", "USE", "HIDE",
];
/// Words that start a proof, which may begin at column 1 right after a theorem's statement
/// (`BY (x # {}) <=> ...` is the theorem's proof, not a keyword misused as a definition).
const PROOF_KEYWORDS: &[&str] = &["BY", "PROOF", "OBVIOUS", "OMITTED"];
const THEOREM_KEYWORDS: &[&str] = &["AXIOM", "THEOREM", "LEMMA", "PROPOSITION", "COROLLARY", "USE", "HIDE"];
/// Deepest nesting of proofs (SANY's limit is 100 as well).
const MAX_PROOF_DEPTH: u32 = 100;

enum Def {
    Op(OpDef),
    Fun(FunDef),
    Module(ModuleDef),
}

pub(crate) struct Parser<'a> {
    file: FileId,
    toks: &'a [Token<'a>],
    pos: usize,
    /// Index of the token that ends the current segment (never consumed while inside it).
    end: usize,
    /// Columns of the open bullet lists, innermost last.
    fences: Vec<u32>,
    diags: Vec<Diagnostic>,
    /// Expression nesting depth (bounded so that hostile input cannot overflow the stack).
    depth: u32,
}

const MAX_DEPTH: u32 = 100;

fn describe(t: &Token) -> String {
    match t.kind {
        Kind::Eof => "end of file".into(),
        Kind::DashLine => "`----`".into(),
        Kind::EqLine => "`====`".into(),
        Kind::Fair => format!("`{}_`", t.text),
        _ => format!("`{}`", t.text),
    }
}

impl<'a> Parser<'a> {
    fn new(file: FileId, toks: &'a [Token<'a>]) -> Self {
        Parser { file, toks, pos: 0, end: toks.len() - 1, fences: Vec::new(), diags: Vec::new(), depth: 0 }
    }

    // ---------- token cursor ----------

    fn sp(&self, s: u32, e: u32) -> Span {
        Span { file: self.file, start: s, end: e }
    }
    fn tok_span(&self, t: &Token) -> Span {
        self.sp(t.start, t.end)
    }
    /// The next token ignoring segment and fence limits (clamped to the segment end).
    fn raw(&self) -> &'a Token<'a> {
        &self.toks[self.pos.min(self.end)]
    }
    fn fenced(&self, t: &Token) -> bool {
        self.fences.last().is_some_and(|&c| t.col <= c)
    }
    fn at_end(&self) -> bool {
        self.pos >= self.end || self.fenced(&self.toks[self.pos])
    }
    fn peek(&self) -> Option<&'a Token<'a>> {
        if self.at_end() { None } else { Some(&self.toks[self.pos]) }
    }
    /// Lookahead `k` tokens (segment limit only).
    fn ahead(&self, k: usize) -> Option<&'a Token<'a>> {
        let i = self.pos + k;
        if i < self.end { Some(&self.toks[i]) } else { None }
    }
    fn is_sym(&self, s: &str) -> bool {
        self.peek().is_some_and(|t| t.is_sym(s))
    }
    fn is_word(&self, s: &str) -> bool {
        self.peek().is_some_and(|t| t.is_word(s))
    }
    fn bump(&mut self) -> &'a Token<'a> {
        let t = &self.toks[self.pos.min(self.end)];
        if self.pos < self.end {
            self.pos += 1;
        }
        t
    }
    fn prev_end(&self) -> u32 {
        if self.pos == 0 { 0 } else { self.toks[self.pos - 1].end }
    }
    fn eat_sym(&mut self, s: &str) -> bool {
        if self.is_sym(s) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn error(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// "expected X, found Y" at the next token.
    #[inline(never)]
    fn unexpected<T>(&mut self, expected: &str) -> R<T> {
        let t = self.raw();
        let found = if self.at_end() && t.kind != Kind::Eof && self.fenced(t) {
            format!("{} (it ends the bullet list: it is not right of the bullet's column)", describe(t))
        } else if self.pos >= self.end && t.kind != Kind::Eof {
            format!("{} at the start of the next unit", describe(t))
        } else {
            describe(t)
        };
        let span = self.tok_span(t);
        let mut d = Diagnostic::error("E0101", span, format!("expected {expected}, found {found}"));
        if t.is_sym("!=") {
            d = Diagnostic::error("E0109", span, "`!=` is not a TLA+ operator")
                .with_hint("write `/=` or `#` for \"not equal\"");
        } else if t.is_sym("==") {
            d = Diagnostic::error("E0111", span, "`==` defines an operator; it cannot appear inside an expression")
                .with_hint("write `=` for equality");
        } else if t.kind == Kind::Ident && ops::is_keyword(&t.text) && expected.contains("name") {
            d = Diagnostic::error("E0114", span, format!("`{}` is a reserved word and cannot be used as a name", t.text))
                .with_hint("choose another name");
        }
        self.error(d);
        Err(())
    }

    fn expect_sym(&mut self, s: &str) -> R<&'a Token<'a>> {
        if self.is_sym(s) { Ok(self.bump()) } else { self.unexpected(&format!("`{s}`")) }
    }

    /// Expect a closing bracket; on failure point at the opening one.
    #[inline(never)]
    fn close(&mut self, open: &Token, close: &str) -> R<&'a Token<'a>> {
        if self.is_sym(close) {
            return Ok(self.bump());
        }
        let t = self.raw();
        let (ospan, tspan) = (self.tok_span(open), self.tok_span(t));
        let found = describe(t);
        let mut d = Diagnostic::error("E0102", ospan, format!("unclosed `{}`: expected `{close}`, found {found}", open.text))
            .with_label(tspan, format!("expected `{close}` here"));
        if t.is_sym("!=") {
            d = d.with_hint("`!=` is not TLA+: write `/=` or `#`");
        } else if t.is_sym("==") {
            d = d.with_hint("`==` defines an operator; write `=` for equality");
        } else if close == "]" && t.is_sym("->") {
            d = d.with_hint("a function is written `[x \\in S |-> e]`; `[S -> T]` is a set of functions");
        } else {
            d = d.with_hint(format!("add `{close}` to close the `{}`", open.text));
        }
        self.error(d);
        Err(())
    }

    fn ident(&mut self) -> R<Ident> {
        match self.peek() {
            Some(t) if t.kind == Kind::Ident && !ops::is_keyword(&t.text) => {
                self.bump();
                Ok(Ident { name: t.text.to_string(), span: self.tok_span(t) })
            }
            _ => self.unexpected("a name"),
        }
    }

    // ---------- units ----------

    fn is_ident_at(&self, i: usize) -> bool {
        self.toks.get(i).is_some_and(|t| t.kind == Kind::Ident && !ops::is_keyword(&t.text))
    }
    fn sym_at(&self, i: usize, s: &str) -> bool {
        self.toks.get(i).is_some_and(|t| t.is_sym(s))
    }
    fn is_keyword_at(&self, i: usize, k: &str) -> bool {
        self.toks.get(i).is_some_and(|t| t.kind == Kind::Ident && t.text == k)
    }

    fn is_infix_sym_at(&self, i: usize) -> bool {
        self.toks.get(i).is_some_and(|t| t.kind == Kind::Sym && ops::infix(&t.text).is_some())
    }

    /// Whether a definition header starts at token `i`: `Name ==`, `Name(...) ==`,
    /// `Name[...] ==`, `a op b ==`, `op a ==`, `a op ==`.
    fn is_def_header(&self, i: usize) -> bool {
        let t = &self.toks[i];
        if t.kind == Kind::Sym && (t.text == "-." || ops::prefix(&t.text).is_some() || t.text == "-") {
            return self.is_ident_at(i + 1) && self.sym_at(i + 2, "==");
        }
        if !self.is_ident_at(i) {
            return false;
        }
        if self.sym_at(i + 1, "==") {
            return true;
        }
        if self.sym_at(i + 1, "(") || self.sym_at(i + 1, "[") {
            let (o, c) = if self.sym_at(i + 1, "(") { ("(", ")") } else { ("[", "]") };
            let mut depth = 0i32;
            let mut j = i + 1;
            while j < self.toks.len() && j < i + 400 {
                let tj = &self.toks[j];
                if matches!(tj.kind, Kind::Eof | Kind::EqLine | Kind::DashLine) {
                    return false;
                }
                if tj.is_sym(o) {
                    depth += 1;
                } else if tj.is_sym(c) || (c == "]" && tj.is_sym("]_")) {
                    depth -= 1;
                    if depth == 0 {
                        return self.sym_at(j + 1, "==");
                    }
                }
                j += 1;
            }
            return false;
        }
        if self.is_infix_sym_at(i + 1) && self.is_ident_at(i + 2) && self.sym_at(i + 3, "==") {
            return true;
        }
        if self.toks.get(i + 1).is_some_and(|t| t.kind == Kind::Sym && ops::postfix(&t.text).is_some())
            && self.sym_at(i + 2, "==")
        {
            return true;
        }
        false
    }

    fn is_unit_start(&self, i: usize) -> bool {
        let t = &self.toks[i];
        (t.kind == Kind::Ident && UNIT_KEYWORDS.contains(&t.text)) || self.is_def_header(i)
    }

    fn is_boundary(&self, i: usize) -> bool {
        let t = &self.toks[i];
        match t.kind {
            Kind::Eof | Kind::EqLine | Kind::DashLine => true,
            _ if t.col != 0 => false,
            _ => {
                if t.is_word("ASSUME") && i > 0 {
                    let p = &self.toks[i - 1];
                    if p.is_sym("==") || p.kind == Kind::Step || THEOREM_KEYWORDS.contains(&p.text) {
                        return false;
                    }
                }
                if self.is_unit_start(i) {
                    return true;
                }
                // recovery points for common mistakes: `Name = e` after a complete
                // expression (meant `==`), and a keyword used as a definition's name
                let after_operand = i > 0 && {
                    let p = &self.toks[i - 1];
                    matches!(p.kind, Kind::Ident | Kind::Num(_) | Kind::Str(_) | Kind::Decimal)
                        && !ops::is_keyword(&p.text)
                        || [")", "]", "}", ">>", "'"].iter().any(|s| p.is_sym(s))
                };
                (after_operand && self.is_ident_at(i) && self.sym_at(i + 1, "="))
                    || (t.kind == Kind::Ident
                        && ops::is_keyword(&t.text)
                        && !PROOF_KEYWORDS.contains(&t.text)
                        && (self.sym_at(i + 1, "==") || (self.sym_at(i + 1, "(") && !THEOREM_KEYWORDS.contains(&t.text))))
            }
        }
    }

    fn module(&mut self) -> Option<Module> {
        self.end = self.toks.len() - 1;
        let first = self.bump(); // the dash line
        let start = first.start;
        if !self.is_word("MODULE") {
            let _: R<()> = self.unexpected("`MODULE`");
            return None;
        }
        self.bump();
        let name = match self.peek() {
            Some(t) if t.kind == Kind::Ident => {
                self.bump();
                Ident { name: t.text.to_string(), span: self.tok_span(t) }
            }
            _ => {
                let _: R<()> = self.unexpected("the module's name");
                return None;
            }
        };
        if self.raw().kind == Kind::DashLine {
            self.bump();
        } else {
            let t = self.raw();
            self.error(
                Diagnostic::error("E0101", self.tok_span(t), format!("expected `----` after the module name, found {}", describe(t)))
                    .with_hint("write the header as `---- MODULE Name ----`"),
            );
        }
        let mut extends = Vec::new();
        if self.is_word("EXTENDS") {
            self.bump();
            loop {
                match self.ident() {
                    Ok(i) => extends.push(i),
                    Err(()) => break,
                }
                if !self.eat_sym(",") {
                    break;
                }
            }
        }
        let mut units = Vec::new();
        let end;
        loop {
            self.end = self.toks.len() - 1;
            self.fences.clear();
            let t = self.raw();
            match t.kind {
                Kind::EqLine => {
                    self.bump();
                    end = t.end;
                    break;
                }
                Kind::Eof => {
                    self.error(
                        Diagnostic::error(
                            "E0103",
                            // Point just after the module's last token: that is where `====`
                            // belongs (an empty span, so no definition is blamed for it).
                            Span::new(self.file, self.prev_end() as usize, self.prev_end() as usize),
                            format!("module `{}` is not closed by `====`", name.name),
                        )
                            .with_label(self.tok_span(&self.toks[0]), "the module starts here")
                            .with_hint("end the module with a line of four or more `=`"),
                    );
                    // An unclosed module runs to the end of the file (so that lexical errors
                    // after its last token, such as an unclosed comment, are still reported).
                    end = t.end;
                    break;
                }
                Kind::DashLine => {
                    if self.toks.get(self.pos + 1).is_some_and(|n| n.is_word("MODULE")) {
                        let sub_start = self.pos;
                        let mut sub = Parser::new(self.file, &self.toks[sub_start..]);
                        let m = sub.module();
                        let consumed = sub.pos;
                        self.diags.append(&mut sub.diags);
                        self.pos = sub_start + consumed.max(1);
                        if let Some(m) = m {
                            units.push(Unit::Submodule(Box::new(m)));
                        }
                    } else {
                        self.bump();
                    }
                }
                _ => self.segment(&mut units),
            }
        }
        Some(Module { name, extends, units, span: self.sp(start, end) })
    }

    /// Parse the units of one segment (from the current token to the next boundary).
    fn segment(&mut self, units: &mut Vec<Unit>) {
        let mut seg_end = self.pos + 1;
        while !self.is_boundary(seg_end) {
            seg_end += 1;
        }
        self.end = seg_end;
        let last_end = self.toks[seg_end - 1].end;
        while self.pos < seg_end {
            let ustart = self.pos;
            self.fences.clear();
            let r = self.unit();
            match r {
                Ok(u) if self.pos >= seg_end || self.is_unit_start(self.pos) => units.push(u),
                Ok(_) => {
                    let _: R<()> = self.unexpected_after_expr();
                    units.push(Unit::Error(self.sp(self.toks[ustart].start, last_end)));
                    self.pos = seg_end;
                }
                Err(()) => {
                    units.push(Unit::Error(self.sp(self.toks[ustart].start, last_end)));
                    self.pos = seg_end;
                }
            }
            if self.pos == ustart {
                self.pos = seg_end;
            }
        }
        self.end = self.toks.len() - 1;
    }

    fn unexpected_after_expr<T>(&mut self) -> R<T> {
        self.fences.clear();
        let t = self.raw();
        if t.kind == Kind::Ident && self.pos + 1 < self.end && self.toks[self.pos + 1].is_sym("=") && t.col == 0 {
            let span = self.tok_span(t);
            self.error(
                Diagnostic::error("E0101", span, format!("unexpected `{}`: a definition is written with `==`", t.text))
                    .with_hint(format!("write `{} == ...`", t.text)),
            );
            return Err(());
        }
        self.unexpected("an operator or the end of the definition")
    }

    fn unit(&mut self) -> R<Unit> {
        let t = self.raw();
        let kw = if t.kind == Kind::Ident { t.text } else { "" };
        match kw {
            "LOCAL" => {
                self.bump();
                if self.is_word("INSTANCE") {
                    let mut i = self.instance()?;
                    i.local = true;
                    return Ok(Unit::Instance(i));
                }
                Ok(self.definition(true)?.into_unit())
            }
            "CONSTANT" | "CONSTANTS" => {
                self.bump();
                let mut v = vec![self.op_decl()?];
                while self.eat_sym(",") {
                    v.push(self.op_decl()?);
                }
                Ok(Unit::Constants(v))
            }
            "RECURSIVE" => {
                self.bump();
                Ok(Unit::Recursive(self.recursive_decls()?))
            }
            "VARIABLE" | "VARIABLES" => {
                self.bump();
                let mut v = vec![self.ident()?];
                while self.eat_sym(",") {
                    v.push(self.ident()?);
                }
                Ok(Unit::Variables(v))
            }
            "ASSUME" | "ASSUMPTION" => {
                self.bump();
                let start = t.start;
                let name = if self.is_ident_at(self.pos) && self.sym_at(self.pos + 1, "==") {
                    let n = self.ident()?;
                    self.bump();
                    Some(n)
                } else {
                    None
                };
                let expr = self.expr()?;
                Ok(Unit::Assume(Assume { name, expr, span: self.sp(start, self.prev_end()) }))
            }
            "INSTANCE" => Ok(Unit::Instance(self.instance()?)),
            "USE" | "HIDE" => {
                self.bump();
                let items = self.use_items()?;
                Ok(Unit::UseHide(UseHide { hide: kw == "HIDE", items, span: self.sp(t.start, self.prev_end()) }))
            }
            k if THEOREM_KEYWORDS.contains(&k) => {
                self.bump();
                let name = if self.is_ident_at(self.pos) && self.sym_at(self.pos + 1, "==") {
                    let n = self.ident()?;
                    self.bump();
                    Some(n)
                } else {
                    None
                };
                let statement = self.statement()?;
                let proof = if k != "AXIOM" && self.begins_proof(None) { Some(self.proof(None, 0)?) } else { None };
                Ok(Unit::Theorem(Theorem { keyword: k.to_string(), name, statement, proof, span: self.sp(t.start, self.prev_end()) }))
            }
            _ => Ok(self.definition(false)?.into_unit()),
        }
    }

    // ---------- the proof language (parsed, not checked) ----------

    fn eat_word(&mut self, w: &str) -> bool {
        if self.is_word(w) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn expect_word(&mut self, w: &str) -> R<&'a Token<'a>> {
        if self.is_word(w) { Ok(self.bump()) } else { self.unexpected(&format!("`{w}`")) }
    }

    /// `L :: ASSUME` or `ASSUME` at the cursor.
    fn at_assume(&self) -> bool {
        self.is_word("ASSUME") || (self.is_ident_at(self.pos) && self.sym_at(self.pos + 1, "::") && self.is_keyword_at(self.pos + 2, "ASSUME") && self.pos + 2 < self.end)
    }

    /// What a theorem or a step asserts: an expression or `ASSUME ... PROVE ...`.
    fn statement(&mut self) -> R<Statement> {
        if self.at_assume() { Ok(Statement::AssumeProve(self.assume_prove()?)) } else { Ok(Statement::Expr(self.expr()?)) }
    }

    fn assume_prove(&mut self) -> R<AssumeProve> {
        let start = self.raw().start;
        let label = if self.is_word("ASSUME") {
            None
        } else {
            let l = self.ident()?;
            self.bump(); // ::
            Some(l)
        };
        self.expect_word("ASSUME")?;
        let mut assumptions = Vec::new();
        loop {
            let a = if self.at_assume() {
                Assumption::AssumeProve(self.assume_prove()?)
            } else if ["NEW", "CONSTANT", "VARIABLE", "STATE", "ACTION", "TEMPORAL"].iter().any(|w| self.is_word(w)) {
                Assumption::New(self.new_decl()?)
            } else {
                Assumption::Expr(self.expr()?)
            };
            assumptions.push(a);
            if !self.eat_sym(",") {
                break;
            }
        }
        self.expect_word("PROVE")?;
        let prove = self.expr()?;
        Ok(AssumeProve { label, assumptions, prove, span: self.sp(start, self.prev_end()) })
    }

    /// `NEW x`, `NEW x \in S`, `[NEW] CONSTANT F(_)`, `[NEW] VARIABLE v`,
    /// `[NEW] STATE|ACTION|TEMPORAL A`.
    fn new_decl(&mut self) -> R<NewDecl> {
        let start = self.raw().start;
        let new = self.eat_word("NEW");
        let word = match self.peek().map(|t| t.text) {
            Some("CONSTANT") => Some(NewKind::Constant),
            Some("VARIABLE") => Some(NewKind::Variable),
            Some("STATE") => Some(NewKind::State),
            Some("ACTION") => Some(NewKind::Action),
            Some("TEMPORAL") => Some(NewKind::Temporal),
            _ => None,
        };
        let kind = match word {
            Some(k) => {
                self.bump();
                k
            }
            None if new => NewKind::Constant,
            None => return self.unexpected("`NEW`"),
        };
        let decl = if kind == NewKind::Variable { ConstDecl { name: self.ident()?, arity: 0 } } else { self.op_decl()? };
        let mut set = None;
        if kind == NewKind::Constant && self.is_sym("\\in") {
            if decl.arity > 0 {
                let span = self.tok_span(self.raw());
                self.error(
                    Diagnostic::error("E0101", span, format!("`{}` is declared with arguments: it cannot be bounded with `\\in`", decl.name.name))
                        .with_hint("write `NEW x \\in S` for a constant, `NEW F(_)` for an operator"),
                );
                return Err(());
            }
            self.bump();
            set = Some(self.expr()?);
        }
        Ok(NewDecl { kind, decl, set, span: self.sp(start, self.prev_end()) })
    }

    /// The level of a step label: `Some(n)` for `<n>...`, `None` for `<*>` and `<+>`.
    fn label_level(t: &Token) -> Option<u32> {
        let inner = t.text.get(1..t.text.find('>')?)?;
        inner.parse().ok()
    }

    /// Whether a step label token names a step (`<2>1`, usable as a fact), rather than begins
    /// one (`<2>1.`, `<2>`, `<2>.`), as SANY's lexer tells them apart.
    fn names_step(t: &Token) -> bool {
        t.text.find('>').is_some_and(|i| i + 1 < t.text.len()) && !t.text.ends_with('.')
    }

    /// Whether a proof begins at the cursor (SANY's `beginsProof`): `BY`, `PROOF`, `OBVIOUS`,
    /// `OMITTED`, `<+>`, `<*>` outside a proof, or a step label deeper than the proof the
    /// cursor is in (`level`: that proof's level, `None` outside any proof).
    fn begins_proof(&self, level: Option<u32>) -> bool {
        let Some(t) = self.peek() else { return false };
        match t.kind {
            Kind::Ident => ["BY", "PROOF", "OBVIOUS", "OMITTED"].contains(&t.text),
            Kind::Step if t.text.starts_with("<*>") => level.is_none(),
            Kind::Step if t.text.starts_with("<+>") => true,
            Kind::Step => match (level, Self::label_level(t)) {
                (None, _) => true,
                (Some(l), Some(n)) => n > l,
                (Some(_), None) => false,
            },
            _ => false,
        }
    }

    /// A proof, at the cursor where `begins_proof` said one begins; `parent`: the level of the
    /// proof that holds it (`None` for a theorem's proof); `nesting`: how many proofs hold it.
    fn proof(&mut self, parent: Option<u32>, nesting: u32) -> R<Proof> {
        let start = self.raw().start;
        if nesting >= MAX_PROOF_DEPTH {
            let span = self.tok_span(self.raw());
            self.error(Diagnostic::error("E0116", span, "proof nested too deeply"));
            return Err(());
        }
        let proof_kw = self.is_word("PROOF");
        let after = if proof_kw { self.ahead(1) } else { self.peek() };
        match after.filter(|t| t.kind == Kind::Ident).map(|t| t.text) {
            Some("BY") => {
                if proof_kw {
                    self.bump();
                }
                self.bump();
                return Ok(Proof::By(self.use_items()?));
            }
            Some(w @ ("OBVIOUS" | "OMITTED")) => {
                if proof_kw {
                    self.bump();
                }
                self.bump();
                let span = self.sp(start, self.prev_end());
                return Ok(if w == "OBVIOUS" { Proof::Obvious(span) } else { Proof::Omitted(span) });
            }
            _ => {}
        }
        if proof_kw {
            self.bump();
        }
        // The proof's level: set by its first step, as SANY's `correctLevel` does.
        let mut level: Option<u32> = None;
        let lowest = parent.map_or(0, |l| l + 1);
        let mut steps = Vec::new();
        loop {
            let Some(t) = self.peek().filter(|t| t.kind == Kind::Step) else {
                return self.unexpected(if steps.is_empty() { "a proof step such as `<1>1.`" } else { "the next proof step, or `QED` to end the proof" });
            };
            let ok = match (Self::label_level(t), level) {
                (None, None) => {
                    level = Some(lowest);
                    true
                }
                (None, Some(_)) => t.text.starts_with("<*>"),
                (Some(n), None) => {
                    level = Some(n);
                    parent.is_none_or(|p| n > p)
                }
                (Some(n), Some(l)) => n == l,
            };
            let level_now = level.unwrap_or(lowest);
            let span = self.tok_span(t);
            if !ok {
                let want = if t.text.starts_with("<+>") { "`<+>` may only begin a proof".to_string() } else { format!("this proof's steps are at level {level_now}") };
                self.error(
                    Diagnostic::error("E0101", span, format!("step `{}` has the wrong level: {want}", t.text))
                        .with_hint("number a proof's steps `<n>` with one n, deeper than the step they prove"),
                );
                return Err(());
            }
            self.bump();
            let label = Ident { name: t.text.to_string(), span };
            let (body, may_have_proof) = self.step_body()?;
            let proof = if self.begins_proof(Some(level_now)) {
                if !may_have_proof {
                    let span = self.tok_span(self.raw());
                    self.error(
                        Diagnostic::error("E0101", span, "this step takes no proof")
                            .with_hint("USE, HIDE, DEFINE, INSTANCE, HAVE, TAKE and WITNESS steps have no proof"),
                    );
                    return Err(());
                }
                Some(self.proof(Some(level_now), nesting + 1)?)
            } else {
                None
            };
            let qed = matches!(body, StepBody::Qed);
            steps.push(ProofStep { label, level: level_now, body, proof, span: self.sp(span.start, self.prev_end()) });
            if qed {
                break;
            }
        }
        Ok(Proof::Steps { steps, span: self.sp(start, self.prev_end()) })
    }

    /// What follows a step's label, and whether it may have a proof of its own.
    fn step_body(&mut self) -> R<(StepBody, bool)> {
        let t = self.raw();
        let word = if t.kind == Kind::Ident && !self.at_end() { t.text } else { "" };
        Ok(match word {
            "QED" => {
                self.bump();
                (StepBody::Qed, true)
            }
            "USE" | "HIDE" => {
                self.bump();
                (StepBody::Use { hide: word == "HIDE", items: self.use_items()? }, false)
            }
            "INSTANCE" => (StepBody::Instance(self.instance()?), false),
            "HAVE" => {
                self.bump();
                (StepBody::Have(self.expr()?), false)
            }
            "TAKE" => {
                self.bump();
                (StepBody::Take(self.bounds(true)?), false)
            }
            "WITNESS" => {
                self.bump();
                let mut v = vec![self.expr()?];
                while self.eat_sym(",") {
                    v.push(self.expr()?);
                }
                (StepBody::Witness(v), false)
            }
            "PICK" => {
                self.bump();
                let bounds = self.bounds(true)?;
                self.expect_sym(":")?;
                (StepBody::Pick { bounds, pred: self.expr()? }, true)
            }
            "CASE" => {
                self.bump();
                (StepBody::Case(self.expr()?), true)
            }
            "SUFFICES" => {
                self.bump();
                (StepBody::Assert { suffices: true, statement: self.statement()? }, true)
            }
            _ if word == "DEFINE" || self.is_def_header(self.pos) => {
                self.eat_word("DEFINE");
                let mut defs = vec![self.definition(false)?.into_unit()];
                while !self.at_end() && self.is_def_header(self.pos) {
                    defs.push(self.definition(false)?.into_unit());
                }
                (StepBody::Define(defs), false)
            }
            _ => (StepBody::Assert { suffices: false, statement: self.statement()? }, true),
        })
    }

    /// The facts and definitions after `BY`, `USE` or `HIDE`: `[ONLY] f1, ..., MODULE M
    /// [DEF d1, ...]`, at least one of them.
    fn use_items(&mut self) -> R<UseItems> {
        let start = self.raw().start;
        let only = self.eat_word("ONLY");
        let ends = |p: &Self| p.peek().is_none_or(|t| (t.kind == Kind::Step && !Self::names_step(t)) || t.is_word("DEF") || t.is_word("DEFS"));
        let mut facts = Vec::new();
        if !ends(self) {
            loop {
                facts.push(self.fact()?);
                if !self.eat_sym(",") {
                    break;
                }
            }
        }
        let mut defs = Vec::new();
        if self.eat_word("DEF") || self.eat_word("DEFS") {
            loop {
                defs.push(self.fact()?);
                if !self.eat_sym(",") {
                    break;
                }
            }
        }
        if facts.is_empty() && defs.is_empty() {
            // SANY: "Empty BY, USE, or HIDE".
            return self.unexpected("a fact, `MODULE` or `DEF` (a BY, USE or HIDE names at least one)");
        }
        Ok(UseItems { only, facts, defs, span: self.sp(start, self.prev_end()) })
    }

    /// One item of a BY, USE or HIDE list: `MODULE M` or an expression (a step's name, a
    /// theorem's name, a definition's name, an operator symbol in DEF lists, a formula).
    fn fact(&mut self) -> R<Fact> {
        if self.eat_word("MODULE") {
            return Ok(Fact::Module(self.ident()?));
        }
        let t = self.raw();
        // `DEF +`, `DEF \prec`: an operator symbol names its definition.
        if t.kind == Kind::Sym
            && !self.at_end()
            && (ops::infix(&t.text).is_some() || ops::postfix(&t.text).is_some() || t.text == "-.")
            && self.toks.get(self.pos + 1).is_none_or(|n| n.is_sym(",") || self.pos + 1 >= self.end || n.kind == Kind::Step || n.is_word("DEF") || n.is_word("DEFS"))
        {
            self.bump();
            let span = self.tok_span(t);
            return Ok(Fact::Expr(Expr::new(
                ExprKind::OpApp { op: OpName { path: vec![], name: t.text.to_string(), span, sel: vec![] }, args: vec![] },
                span,
            )));
        }
        Ok(Fact::Expr(self.expr()?))
    }

    fn recursive_decls(&mut self) -> R<Vec<OpDecl>> {
        let mut v = vec![self.op_decl()?];
        while self.eat_sym(",") {
            v.push(self.op_decl()?);
        }
        Ok(v)
    }

    /// `N`, `F(_, _)`, `_ + _`, `-. _`, `_ ^+`
    fn op_decl(&mut self) -> R<ConstDecl> {
        if self.is_sym("_") {
            let u = self.bump();
            let Some(op) = self.peek().filter(|t| t.kind == Kind::Sym) else { return self.unexpected("an operator symbol") };
            self.bump();
            let name = Ident { name: op.text.to_string(), span: self.tok_span(op) };
            if ops::postfix(&op.text).is_some() {
                return Ok(ConstDecl { name, arity: 1 });
            }
            self.expect_sym("_")?;
            let _ = u;
            return Ok(ConstDecl { name, arity: 2 });
        }
        if let Some(t) = self.peek().filter(|t| t.kind == Kind::Sym && (t.text == "-." || ops::prefix(&t.text).is_some())) {
            self.bump();
            self.expect_sym("_")?;
            return Ok(ConstDecl { name: Ident { name: t.text.to_string(), span: self.tok_span(t) }, arity: 1 });
        }
        let name = self.ident()?;
        let mut arity = 0;
        if self.is_sym("(") {
            let open = self.bump();
            loop {
                self.expect_sym("_")?;
                arity += 1;
                if !self.eat_sym(",") {
                    break;
                }
            }
            self.close(open, ")")?;
        }
        Ok(ConstDecl { name, arity })
    }

    fn instance(&mut self) -> R<Instance> {
        let kw = self.bump(); // INSTANCE
        let module = self.ident()?;
        let mut substs = Vec::new();
        if self.is_word("WITH") {
            self.bump();
            loop {
                let name = match self.peek() {
                    Some(t) if t.kind == Kind::Sym && t.text != "(" => {
                        self.bump();
                        Ident { name: t.text.to_string(), span: self.tok_span(t) }
                    }
                    _ => self.ident()?,
                };
                self.expect_sym("<-")?;
                let expr = self.arg_expr()?;
                substs.push(Subst { name, expr });
                if !self.eat_sym(",") {
                    break;
                }
            }
        }
        Ok(Instance { module, substs, local: false, span: self.sp(kw.start, self.prev_end()) })
    }

    fn params(&mut self) -> R<Vec<OpParam>> {
        let open = self.expect_sym("(")?;
        let mut ps = Vec::new();
        loop {
            let p = self.op_decl()?;
            ps.push(OpParam { name: p.name, arity: p.arity });
            if !self.eat_sym(",") {
                break;
            }
        }
        self.close(open, ")")?;
        Ok(ps)
    }

    fn definition(&mut self, local: bool) -> R<Def> {
        let start = self.raw().start;
        let t0 = self.raw();
        let mut params = Vec::new();
        let name;
        if t0.kind == Kind::Sym && (t0.text == "-." || t0.text == "-" || ops::prefix(&t0.text).is_some()) && self.pos < self.end {
            // prefix operator definition `-. a == e`
            self.bump();
            let n = if t0.text == "-" { "-.".to_string() } else { t0.text.to_string() };
            name = Ident { name: n, span: self.tok_span(t0) };
            let a = self.ident()?;
            params.push(OpParam { name: a, arity: 0 });
        } else {
            if self.pos < self.end && t0.kind == Kind::Ident && ops::is_keyword(&t0.text) {
                return self.unexpected("a name for a definition");
            }
            let first = self.ident()?;
            match self.peek() {
                Some(t) if t.is_sym("==") => name = first,
                Some(t) if t.is_sym("(") => {
                    name = first;
                    params = self.params()?;
                }
                Some(t) if t.is_sym("[") => {
                    let open = self.bump();
                    let bounds = self.bounds(false)?;
                    self.close(open, "]")?;
                    self.def_eq()?;
                    let body = self.expr()?;
                    return Ok(Def::Fun(FunDef { name: first, bounds, body, local, span: self.sp(start, self.prev_end()) }));
                }
                Some(t) if t.kind == Kind::Sym && ops::postfix(&t.text).is_some() => {
                    self.bump();
                    name = Ident { name: t.text.to_string(), span: self.tok_span(t) };
                    params.push(OpParam { name: first, arity: 0 });
                }
                Some(t) if t.kind == Kind::Sym && ops::infix(&t.text).is_some() && self.is_ident_at(self.pos + 1) => {
                    self.bump();
                    name = Ident { name: t.text.to_string(), span: self.tok_span(t) };
                    params.push(OpParam { name: first, arity: 0 });
                    let b = self.ident()?;
                    params.push(OpParam { name: b, arity: 0 });
                }
                _ => {
                    self.def_eq()?;
                    return self.unexpected("`==`");
                }
            }
        }
        self.def_eq()?;
        if self.is_word("INSTANCE") {
            let instance = self.instance()?;
            return Ok(Def::Module(ModuleDef { name, params, instance, local, span: self.sp(start, self.prev_end()) }));
        }
        let body = self.expr()?;
        Ok(Def::Op(OpDef { name, params, body, local, span: self.sp(start, self.prev_end()) }))
    }

    fn def_eq(&mut self) -> R<()> {
        if self.eat_sym("==") {
            return Ok(());
        }
        if let Some(t) = self.peek().filter(|t| t.is_sym("=") || t.is_sym(":=") || t.is_sym("::=")) {
            let span = self.tok_span(t);
            self.error(
                Diagnostic::error("E0112", span, format!("a definition is written with `==`, not `{}`", t.text))
                    .with_hint("write `Name == expression`"),
            );
            return Err(());
        }
        self.unexpected("`==`")
    }

    // ---------- expressions ----------

    pub(crate) fn expr(&mut self) -> R<Expr> {
        self.binary(0)
    }

    fn peek_infix(&self) -> Option<(OpInfo, &'a Token<'a>)> {
        let t = self.peek()?;
        if t.kind != Kind::Sym {
            return None;
        }
        ops::infix(&t.text).map(|i| (i, t))
    }

    fn binary(&mut self, min: u8) -> R<Expr> {
        if self.depth >= MAX_DEPTH {
            let span = self.tok_span(self.raw());
            self.error(Diagnostic::error("E0116", span, "expression nested too deeply"));
            return Err(());
        }
        self.depth += 1;
        let r = self.binary_inner(min);
        self.depth -= 1;
        r
    }

    fn binary_inner(&mut self, min: u8) -> R<Expr> {
        let mut lhs = self.unary()?;
        let mut prev: Option<(OpInfo, Span)> = None;
        // `lhs` is a chain (junction / times) built at this level that may be extended
        let mut chain = false;
        loop {
            if let Some(t) = self.peek() {
                if t.is_sym("!=") || t.is_sym("==") {
                    return self.unexpected("an operator");
                }
            }
            let Some((info, t)) = self.peek_infix() else { break };
            if info.lo <= min {
                break;
            }
            let tspan = self.tok_span(t);
            if let Some((p, pspan)) = prev {
                if p.name == info.name {
                    if !p.assoc {
                        self.error(
                            Diagnostic::error("E0108", tspan, format!("`{}` is not associative and cannot be chained", info.name))
                                .with_label(pspan, "first use here")
                                .with_hint(format!("add parentheses: `(a {0} b) {0} c` or `a {0} (b {0} c)`", info.name)),
                        );
                        return Err(());
                    }
                } else if info.hi >= p.lo {
                    self.error(
                        Diagnostic::error(
                            "E0107",
                            tspan,
                            format!(
                                "`{}` and `{}` have conflicting precedence and cannot be mixed without parentheses",
                                p.name, info.name
                            ),
                        )
                        .with_label(pspan, format!("`{}` here", p.name))
                        .with_hint("add parentheses to say which operator applies first"),
                    );
                    return Err(());
                }
            }
            // a misaligned bullet: `/\` starting a line right after a bullet list it does not belong to
            if (info.name == "/\\" || info.name == "\\/")
                && matches!(&*lhs.kind, ExprKind::Junction { bulleted: true, .. })
                && self.pos > 0
                && self.toks[self.pos - 1].line < t.line
            {
                if let Some(col) = self.junction_col(&lhs) {
                    if col != t.col {
                        let (l, c) = (self.line_of(&lhs), col + 1);
                        self.error(
                            Diagnostic::warning("E0110", tspan, format!("`{}` is not aligned with the bullet list above", info.name))
                                .with_hint(format!(
                                    "align it with the bullet at line {l} col {c} to add an item, or indent it further to continue the item"
                                )),
                        );
                    }
                }
            }
            self.bump();
            // SANY: prefix minus cannot be the operand of a tighter operator (`a * -b`)
            if let Some(m) = self.peek().filter(|m| m.is_sym("-")) {
                if info.lo > 12 {
                    let mspan = self.tok_span(m);
                    self.error(
                        Diagnostic::error(
                            "E0107",
                            mspan,
                            format!("prefix `-` cannot be the operand of `{}` without parentheses", info.name),
                        )
                        .with_label(tspan, format!("`{}` here", info.name))
                        .with_hint("write the negation in parentheses: `a * (-b)`"),
                    );
                    return Err(());
                }
            }
            let rhs = self.binary(info.hi)?;
            let span = lhs.span.to(rhs.span);
            let same_chain = chain && prev.is_some_and(|(p, _)| p.name == info.name);
            lhs = match info.name {
                "/\\" | "\\/" => {
                    let kind = if info.name == "/\\" { JunctionKind::And } else { JunctionKind::Or };
                    if same_chain {
                        if let ExprKind::Junction { items, .. } = &mut *lhs.kind {
                            items.push(rhs);
                        }
                        lhs.span = span;
                        lhs
                    } else {
                        Expr::new(ExprKind::Junction { kind, items: vec![lhs, rhs], bulleted: false }, span)
                    }
                }
                "\\X" => {
                    if same_chain {
                        if let ExprKind::Times(items) = &mut *lhs.kind {
                            items.push(rhs);
                        }
                        lhs.span = span;
                        lhs
                    } else {
                        Expr::new(ExprKind::Times(vec![lhs, rhs]), span)
                    }
                }
                name => Expr::new(
                    ExprKind::OpApp { op: OpName { path: vec![], name: name.to_string(), span: tspan, sel: vec![] }, args: vec![lhs, rhs] },
                    span,
                ),
            };
            chain = true;
            prev = Some((info, tspan));
        }
        Ok(lhs)
    }

    fn junction_col(&self, e: &Expr) -> Option<u32> {
        let i = self.toks.iter().position(|t| t.start == e.span.start)?;
        Some(self.toks[i].col)
    }
    fn line_of(&self, e: &Expr) -> u32 {
        self.toks.iter().find(|t| t.start == e.span.start).map(|t| t.line + 1).unwrap_or(0)
    }

    fn opapp(&self, name: &str, tspan: Span, args: Vec<Expr>, span: Span) -> Expr {
        Expr::new(ExprKind::OpApp { op: OpName { path: vec![], name: name.to_string(), span: tspan, sel: vec![] }, args }, span)
    }

    /// Whether the parentheses that open `k` tokens ahead hold a comma outside any inner
    /// brackets.
    fn comma_inside(&self, k: usize) -> bool {
        let mut depth = 0usize;
        let mut i = k;
        while let Some(t) = self.ahead(i) {
            if t.kind == Kind::Sym {
                match t.text {
                    "(" | "[" | "{" | "<<" => depth += 1,
                    ")" | "]" | "}" | ">>" | ">>_" => {
                        depth -= 1;
                        if depth == 0 {
                            return false;
                        }
                    }
                    "," if depth == 1 => return true,
                    _ => {}
                }
            }
            i += 1;
        }
        false
    }

    fn unary(&mut self) -> R<Expr> {
        let Some(t) = self.peek() else { return self.unexpected("an expression") };
        if t.kind == Kind::Sym && (t.text == "/\\" || t.text == "\\/") {
            return self.bullets();
        }
        // An infix operator applied as a prefix one, `+(a, b)` or `\cup(S, T)`: SANY reads it
        // as `a + b`. Not `-`, which SANY reads as the negation there.
        if t.kind == Kind::Sym
            && let Some(info) = ops::infix(t.text).filter(|i| !matches!(i.name, "\\X" | "\\times" | "-"))
            && self.ahead(1).is_some_and(|n| n.is_sym("("))
            && self.comma_inside(1)
        {
            self.bump();
            let open = self.bump();
            let a = self.expr()?;
            self.expect_sym(",")?;
            let b = self.expr()?;
            let c = self.close(open, ")")?;
            let e = self.opapp(info.name, self.tok_span(t), vec![a, b], self.sp(t.start, c.end));
            return self.postfix(e);
        }
        let pre = if t.kind == Kind::Sym && t.text == "-" {
            ops::prefix("-.")
        } else if t.kind == Kind::Sym || (t.kind == Kind::Ident && matches!(t.text, "ENABLED" | "UNCHANGED" | "SUBSET" | "UNION" | "DOMAIN")) {
            ops::prefix(&t.text)
        } else {
            None
        };
        if let Some(info) = pre {
            self.bump();
            let tspan = self.tok_span(t);
            // the operand takes every operator that binds tighter than the prefix operator
            let arg = self.binary(info.hi)?;
            // a postfix operator (precedence 15) inside the range of ENABLED, UNCHANGED, [] or <>
            if let ExprKind::OpApp { op, args } = &*arg.kind {
                if info.hi >= 15 && args.len() == 1 && ops::postfix(&op.name).is_some() && arg.span.end == op.span.end {
                    self.error(
                        Diagnostic::error(
                            "E0107",
                            op.span,
                            format!("`{}` and `{}` have conflicting precedence and cannot be mixed without parentheses", info.name, op.name),
                        )
                        .with_label(tspan, format!("`{}` here", info.name))
                        .with_hint(format!("write `{}(...)` with parentheses around its operand", t.text)),
                    );
                    return Err(());
                }
            }
            if let Some((next, nt)) = self.peek_infix() {
                // SANY: the prefix operator applies first when its range is not below the
                // infix one (`SUBSET a \cup b`); overlapping otherwise is a conflict (`[]a = b`)
                if next.hi > info.lo {
                    let nspan = self.tok_span(nt);
                    self.error(
                        Diagnostic::error(
                            "E0107",
                            nspan,
                            format!(
                                "`{}` and `{}` have conflicting precedence and cannot be mixed without parentheses",
                                info.name, next.name
                            ),
                        )
                        .with_label(tspan, format!("`{}` here", info.name))
                        .with_hint(format!("write `{0}(...)` with parentheses around its operand", t.text)),
                    );
                    return Err(());
                }
            }
            let span = tspan.to(arg.span);
            return Ok(self.opapp(info.name, tspan, vec![arg], span));
        }
        let e = self.primary()?;
        self.postfix(e)
    }

    fn postfix(&mut self, mut e: Expr) -> R<Expr> {
        loop {
            let Some(t) = self.peek() else { break };
            if t.is_sym("[") {
                let open = self.bump();
                let args = self.expr_list()?;
                let c = self.close(open, "]")?;
                let span = e.span.to(self.tok_span(c));
                e = Expr::new(ExprKind::FunApp { fun: e, args }, span);
            } else if t.is_sym(".") && self.ahead(1).is_some_and(|n| n.kind == Kind::Ident) {
                self.bump();
                let f = self.bump();
                let field = Ident { name: f.text.to_string(), span: self.tok_span(f) };
                let span = e.span.to(field.span);
                e = Expr::new(ExprKind::Field { record: e, field }, span);
            } else if t.kind == Kind::Sym && ops::postfix(&t.text).is_some() {
                self.bump();
                let tspan = self.tok_span(t);
                let span = e.span.to(tspan);
                e = self.opapp(&t.text, tspan, vec![e], span);
            } else {
                break;
            }
        }
        Ok(e)
    }

    fn expr_list(&mut self) -> R<Vec<Expr>> {
        let mut v = vec![self.expr()?];
        while self.eat_sym(",") {
            v.push(self.expr()?);
        }
        Ok(v)
    }

    fn bullets(&mut self) -> R<Expr> {
        let first = self.raw();
        let col = first.col;
        let op = first.text.to_string();
        let kind = if op == "/\\" { JunctionKind::And } else { JunctionKind::Or };
        let mut items = Vec::new();
        loop {
            self.bump();
            self.fences.push(col);
            let item = self.expr();
            self.fences.pop();
            items.push(item?);
            match self.peek() {
                Some(t) if t.is_sym(&op) && t.col == col => continue,
                _ => break,
            }
        }
        let span = self.tok_span(first).to(items.last().map(|e| e.span).unwrap_or_default());
        Ok(Expr::new(ExprKind::Junction { kind, items, bulleted: true }, span))
    }

    /// An operator's argument or an instance's substitution: an expression, or an operator
    /// symbol standing alone (`Op(+, x)`, `WITH G <- +`): one followed by `,`, `)`, the end
    /// of the unit or a word that cannot begin an operand (`IN`, `THEN`, ...).
    fn arg_expr(&mut self) -> R<Expr> {
        const OPERAND_WORDS: &[&str] =
            &["IF", "CASE", "LET", "CHOOSE", "TRUE", "FALSE", "ENABLED", "UNCHANGED", "SUBSET", "UNION", "DOMAIN", "LAMBDA", "BOOLEAN", "STRING"];
        if let Some(t) = self.peek() {
            if t.kind == Kind::Sym
                && (ops::infix(&t.text).is_some() || t.text == "-.")
                && self.ahead(1).is_none_or(|n| {
                    n.is_sym(",")
                        || n.is_sym(")")
                        || matches!(n.kind, Kind::Eof | Kind::EqLine | Kind::DashLine)
                        || self.fenced(n)
                        || (n.kind == Kind::Ident && ops::is_keyword(&n.text) && !OPERAND_WORDS.contains(&n.text))
                })
            {
                self.bump();
                let s = self.tok_span(t);
                return Ok(self.opapp(&t.text, s, vec![], s));
            }
        }
        self.expr()
    }

    fn args(&mut self) -> R<(Vec<Expr>, u32)> {
        let open = self.expect_sym("(")?;
        let mut v = vec![self.arg_expr()?];
        while self.eat_sym(",") {
            v.push(self.arg_expr()?);
        }
        let c = self.close(open, ")")?;
        Ok((v, c.end))
    }

    fn primary(&mut self) -> R<Expr> {
        let Some(t) = self.peek() else { return self.unexpected("an expression") };
        let tspan = self.tok_span(t);
        match &t.kind {
            Kind::Num(v) => {
                self.bump();
                let n = match v {
                    Some(n) => *n,
                    None => {
                        self.error(Diagnostic::error("E0115", tspan, format!("number `{}` is too large", t.text)));
                        0
                    }
                };
                return Ok(Expr::new(ExprKind::Num(n), tspan));
            }
            Kind::Decimal => {
                self.bump();
                return Ok(Expr::new(ExprKind::Decimal(t.text.to_string()), tspan));
            }
            // A proof step's name (`<4>4`) stands for what the step asserts, inside proofs.
            Kind::Step if Self::names_step(t) => {
                self.bump();
                let op = OpName { path: vec![], name: t.text.to_string(), span: tspan, sel: vec![] };
                return Ok(Expr::new(ExprKind::OpApp { op, args: vec![] }, tspan));
            }
            Kind::Str(s) => {
                self.bump();
                return Ok(Expr::new(ExprKind::Str(s.clone()), tspan));
            }
            Kind::Fair => {
                self.bump();
                let kind = if t.text == "WF" { Fairness::Weak } else { Fairness::Strong };
                let sub = self.subscript()?;
                let open = self.expect_sym("(")?;
                let action = self.expr()?;
                let c = self.close(open, ")")?;
                return Ok(Expr::new(ExprKind::Fair { kind, sub, action }, self.sp(t.start, c.end)));
            }
            Kind::Ident => return self.word(t),
            Kind::Sym => {}
            _ => return self.unexpected("an expression"),
        }
        match t.text {
            "(" => {
                self.bump();
                let e = self.expr()?;
                let c = self.close(t, ")")?;
                Ok(Expr::new(*e.kind, self.sp(t.start, c.end)))
            }
            "@" => {
                self.bump();
                Ok(Expr::new(ExprKind::At, tspan))
            }
            "{" => self.braces(),
            "[" => self.brackets(),
            "<<" => self.tuple_or_angle(t),
            "\\A" | "\\E" | "\\AA" | "\\EE" => self.quantifier(t),
            "!=" | "==" => self.unexpected("an expression"),
            _ => self.unexpected("an expression"),
        }
    }

    #[inline(never)]
    fn tuple_or_angle(&mut self, t: &'a Token<'a>) -> R<Expr> {
        let tspan = self.tok_span(t);
                self.bump();
                let items = if self.is_sym(">>") || self.is_sym(">>_") { vec![] } else { self.expr_list()? };
                if self.is_sym(">>_") {
                    let c = self.bump();
                    let sub = self.subscript()?;
                    if items.len() != 1 {
                        self.error(Diagnostic::error("E0101", self.tok_span(c), "`<<A>>_v` takes exactly one action"));
                        return Err(());
                    }
                    let span = self.sp(t.start, sub.span.end);
                    let action = items.into_iter().next().unwrap_or_else(|| Expr::new(ExprKind::Error, tspan));
                    return Ok(Expr::new(ExprKind::AngleAction { action, sub }, span));
                }
                let c = self.close(t, ">>")?;
                Ok(Expr::new(ExprKind::Tuple(items), self.sp(t.start, c.end)))
    }

    #[inline(never)]
    fn quantifier(&mut self, t: &'a Token<'a>) -> R<Expr> {
        let tspan = self.tok_span(t);
                self.bump();
                let kind = if t.text.starts_with("\\A") { QuantKind::Forall } else { QuantKind::Exists };
                if t.text.len() == 3 {
                    let mut vars = vec![self.ident()?];
                    while self.eat_sym(",") {
                        vars.push(self.ident()?);
                    }
                    self.expect_sym(":")?;
                    let body = self.expr()?;
                    let span = tspan.to(body.span);
                    return Ok(Expr::new(ExprKind::TemporalQuant { kind, vars, body }, span));
                }
                let bounds = self.bounds(true)?;
                self.expect_sym(":")?;
                let body = self.expr()?;
                let span = tspan.to(body.span);
                Ok(Expr::new(ExprKind::Quant { kind, bounds, body }, span))
    }

    /// The subscript of `[A]_v`, `<<A>>_v`, `WF_v(A)`: a name, a tuple or a parenthesised expression.
    fn subscript(&mut self) -> R<Expr> {
        match self.peek() {
            Some(t) if t.kind == Kind::Ident && !ops::is_keyword(&t.text) => {
                self.bump();
                let s = self.tok_span(t);
                let mut e = self.opapp(&t.text, s, vec![], s);
                if self.is_sym("!") && self.ahead(1).is_some_and(|n| n.kind == Kind::Ident) {
                    self.bump();
                    let n = self.bump();
                    let ns = self.tok_span(n);
                    e = Expr::new(
                        ExprKind::OpApp {
                            op: OpName { path: vec![PathStep { name: Ident { name: t.text.to_string(), span: s }, args: vec![] }], name: n.text.to_string(), span: s.to(ns), sel: vec![] },
                            args: vec![],
                        },
                        s.to(ns),
                    );
                }
                Ok(e)
            }
            Some(t) if t.is_sym("<<") || t.is_sym("(") => self.primary(),
            _ => self.unexpected("a subscript (a variable, or a tuple `<<x, y>>`)"),
        }
    }

    /// Identifiers and keywords in expression position.
    #[inline(never)]
    fn word(&mut self, t: &'a Token<'a>) -> R<Expr> {
        let tspan = self.tok_span(t);
        match t.text {
            "TRUE" | "FALSE" => {
                self.bump();
                return Ok(Expr::new(ExprKind::Bool(t.text == "TRUE"), tspan));
            }
            "BOOLEAN" | "STRING" => {
                self.bump();
                return Ok(self.opapp(&t.text, tspan, vec![], tspan));
            }
            "IF" => {
                self.bump();
                let cond = self.expr()?;
                if !self.is_word("THEN") {
                    return self.unexpected("`THEN`");
                }
                self.bump();
                let then = self.expr()?;
                if !self.is_word("ELSE") {
                    return self.unexpected("`ELSE` (every IF needs an ELSE)");
                }
                self.bump();
                let els = self.expr()?;
                let span = tspan.to(els.span);
                return Ok(Expr::new(ExprKind::If { cond, then, els }, span));
            }
            "CASE" => {
                self.bump();
                let mut arms = Vec::new();
                let mut other = None;
                let mut end;
                loop {
                    if self.is_word("OTHER") && arms.is_empty() {
                        return self.unexpected("a CASE arm `guard -> value` (OTHER may only follow `[]`)");
                    }
                    if self.is_word("OTHER") {
                        self.bump();
                        self.expect_sym("->")?;
                        let e = self.expr()?;
                        end = e.span;
                        other = Some(e);
                        break;
                    }
                    let guard = self.expr()?;
                    self.expect_sym("->")?;
                    let body = self.expr()?;
                    end = body.span;
                    arms.push(CaseArm { guard, body });
                    if !self.eat_sym("[]") {
                        break;
                    }
                }
                return Ok(Expr::new(ExprKind::Case { arms, other }, tspan.to(end)));
            }
            "LET" => {
                self.bump();
                let mut defs = Vec::new();
                while !self.is_word("IN") {
                    if self.peek().is_none() {
                        return self.unexpected("`IN` (a LET needs `IN` before its body)");
                    }
                    if self.is_word("RECURSIVE") {
                        self.bump();
                        defs.push(LetDef::Recursive(self.recursive_decls()?));
                        continue;
                    }
                    defs.push(match self.definition(false)? {
                        Def::Op(d) => LetDef::Op(d),
                        Def::Fun(d) => LetDef::Fun(d),
                        Def::Module(d) => LetDef::ModuleDef(d),
                    });
                }
                self.bump();
                let body = self.expr()?;
                let span = tspan.to(body.span);
                return Ok(Expr::new(ExprKind::Let { defs, body }, span));
            }
            "CHOOSE" => {
                self.bump();
                let bound = self.one_bound()?;
                self.expect_sym(":")?;
                let body = self.expr()?;
                let span = tspan.to(body.span);
                return Ok(Expr::new(ExprKind::Choose { bound, body }, span));
            }
            "LAMBDA" => {
                self.bump();
                let mut params = vec![self.ident()?];
                while self.eat_sym(",") {
                    params.push(self.ident()?);
                }
                self.expect_sym(":")?;
                let body = self.expr()?;
                let span = tspan.to(body.span);
                return Ok(Expr::new(ExprKind::Lambda { params, body }, span));
            }
            _ => {}
        }
        if ops::is_keyword(&t.text) {
            return self.unexpected("an expression");
        }
        // name, application, instance path, label
        self.bump();
        let mut path: Vec<PathStep> = Vec::new();
        let mut name = Ident { name: t.text.to_string(), span: tspan };
        let mut args = Vec::new();
        let mut end = tspan.end;
        if self.is_sym("(") {
            // a label with parameters `lbl(a, b) :: e`?
            let (a, e) = self.args()?;
            args = a;
            end = e;
        }
        if self.is_sym("::") {
            self.bump();
            let mut params = Vec::new();
            for a in &args {
                match &*a.kind {
                    ExprKind::OpApp { op, args } if args.is_empty() && op.path.is_empty() => {
                        params.push(Ident { name: op.name.clone(), span: a.span })
                    }
                    _ => return self.unexpected("a label parameter"),
                }
            }
            let body = self.expr()?;
            let span = tspan.to(body.span);
            return Ok(Expr::new(ExprKind::Label { name, params, body }, span));
        }
        while self.is_sym("!") {
            let bang = self.bump();
            match self.peek() {
                Some(n) if n.kind == Kind::Ident && !ops::is_keyword(&n.text) => {
                    path.push(PathStep { name, args: std::mem::take(&mut args) });
                    self.bump();
                    name = Ident { name: n.text.to_string(), span: self.tok_span(n) };
                    end = n.end;
                }
                Some(n) if n.kind == Kind::Sym && Self::selector_kind(&n.text).is_none() && (ops::infix(&n.text).is_some() || ops::prefix(&n.text).is_some()) => {
                    path.push(PathStep { name, args: std::mem::take(&mut args) });
                    self.bump();
                    name = Ident { name: n.text.to_string(), span: self.tok_span(n) };
                    end = n.end;
                }
                Some(n) if matches!(n.kind, Kind::Num(_)) || (n.kind == Kind::Sym && (Self::selector_kind(&n.text).is_some() || n.text == "(")) => {
                    // A subexpression name: `Inv!2`, `Q!:`, `Op!<<`, `Op!@`, `Op!(x)`.
                    path.push(PathStep { name, args: std::mem::take(&mut args) });
                    let _ = bang;
                    let sel = self.selectors()?;
                    let span = self.sp(tspan.start, self.prev_end());
                    let op = OpName { path, name: String::new(), span, sel };
                    return Ok(Expr::new(ExprKind::OpApp { op, args: vec![] }, span));
                }
                _ => {
                    let _ = bang;
                    return self.unexpected("a name after `!`");
                }
            }
            if self.is_sym("(") {
                let (a, e) = self.args()?;
                args = a;
                end = e;
            }
        }
        let op = OpName { path, name: name.name, span: self.sp(tspan.start, if args.is_empty() { end } else { name.span.end }), sel: vec![] };
        Ok(Expr::new(ExprKind::OpApp { op, args }, self.sp(tspan.start, end)))
    }

    /// The selector a symbol token stands for after `!`.
    fn selector_kind(sym: &str) -> Option<SelKind> {
        match sym {
            "<<" => Some(SelKind::First),
            ">>" => Some(SelKind::Last),
            ":" => Some(SelKind::Colon),
            "@" => Some(SelKind::At),
            _ => None,
        }
    }

    /// The selectors of a subexpression name, the first `!` already read: `2!lbl(a)!:`.
    fn selectors(&mut self) -> R<Vec<Selector>> {
        let mut out = Vec::new();
        loop {
            let Some(t) = self.peek() else { return self.unexpected("a selector after `!`") };
            let start = t.start;
            let kind = match t.kind {
                Kind::Num(n) => {
                    self.bump();
                    match n.and_then(|n| u32::try_from(n).ok()) {
                        Some(k) if k >= 1 => SelKind::Pos(k),
                        _ => {
                            self.error(Diagnostic::error("E0101", self.tok_span(t), format!("`{}` is not an operand number: they start at 1", t.text)));
                            SelKind::Pos(1)
                        }
                    }
                }
                Kind::Ident if !ops::is_keyword(&t.text) => {
                    self.bump();
                    SelKind::Name(t.text.to_string())
                }
                Kind::Sym if t.text == "(" => SelKind::Null,
                Kind::Sym => match Self::selector_kind(&t.text) {
                    Some(k) => {
                        self.bump();
                        k
                    }
                    None => return self.unexpected("a selector after `!` (a name, a number, `<<`, `>>`, `:`, `@` or `(...)`)"),
                },
                _ => return self.unexpected("a selector after `!` (a name, a number, `<<`, `>>`, `:`, `@` or `(...)`)"),
            };
            let args = if self.is_sym("(") && matches!(kind, SelKind::Name(_) | SelKind::Null) { self.args()?.0 } else { vec![] };
            out.push(Selector { kind, args, span: self.sp(start, self.prev_end()) });
            if !self.is_sym("!") {
                return Ok(out);
            }
            self.bump();
        }
    }

    /// One binder for CHOOSE: `x`, `x \in S`, `<<x, y>> \in S`.
    fn one_bound(&mut self) -> R<Bound> {
        let vars = self.binder_vars(false)?;
        let set = if self.eat_sym("\\in") { Some(self.expr()?) } else { None };
        Ok(Bound { vars, set })
    }

    fn binder_vars(&mut self, many: bool) -> R<BoundVars> {
        if self.is_sym("<<") {
            let open = self.bump();
            let mut v = vec![self.ident()?];
            while self.eat_sym(",") {
                v.push(self.ident()?);
            }
            self.close(open, ">>")?;
            return Ok(BoundVars::Tuple(v));
        }
        let mut v = vec![self.ident()?];
        while many && self.is_sym(",") && self.is_ident_at(self.pos + 1) {
            self.bump();
            v.push(self.ident()?);
        }
        Ok(BoundVars::Names(v))
    }

    /// `x, y \in S, <<a, b>> \in T` (or unbounded `x, y` when allowed).
    fn bounds(&mut self, allow_unbounded: bool) -> R<Vec<Bound>> {
        let mut out = Vec::new();
        loop {
            let vars = self.binder_vars(true)?;
            if self.eat_sym("\\in") {
                let set = self.expr()?;
                out.push(Bound { vars, set: Some(set) });
                if self.is_sym(",") {
                    self.bump();
                    continue;
                }
                break;
            }
            if allow_unbounded {
                out.push(Bound { vars, set: None });
                break;
            }
            return self.unexpected("`\\in`");
        }
        Ok(out)
    }

    #[inline(never)]
    fn braces(&mut self) -> R<Expr> {
        let open = self.bump();
        if self.is_sym("}") {
            let c = self.bump();
            return Ok(Expr::new(ExprKind::SetEnum(vec![]), self.sp(open.start, c.end)));
        }
        let first = self.expr()?;
        if self.is_sym(":") {
            self.bump();
            // `{x \in S : P}` when the element is a binder, else `{e : x \in S}`
            if let Some(bound) = as_bound(&first) {
                let pred = self.expr()?;
                let c = self.close(open, "}")?;
                return Ok(Expr::new(ExprKind::SetFilter { bound, pred }, self.sp(open.start, c.end)));
            }
            let bounds = self.bounds(false)?;
            let c = self.close(open, "}")?;
            return Ok(Expr::new(ExprKind::SetMap { body: first, bounds }, self.sp(open.start, c.end)));
        }
        let mut items = vec![first];
        while self.eat_sym(",") {
            items.push(self.expr()?);
        }
        let c = self.close(open, "}")?;
        Ok(Expr::new(ExprKind::SetEnum(items), self.sp(open.start, c.end)))
    }

    /// Whether tokens from the cursor look like `x, y \in` or `<<x, y>> \in`.
    fn looks_like_bounds(&self) -> bool {
        let mut i = self.pos;
        if self.sym_at(i, "<<") {
            i += 1;
            loop {
                if !self.is_ident_at(i) {
                    return false;
                }
                i += 1;
                if self.sym_at(i, ",") {
                    i += 1;
                } else {
                    break;
                }
            }
            return self.sym_at(i, ">>") && self.sym_at(i + 1, "\\in");
        }
        loop {
            if !self.is_ident_at(i) {
                return false;
            }
            i += 1;
            if self.sym_at(i, ",") {
                i += 1;
            } else {
                break;
            }
        }
        self.sym_at(i, "\\in")
    }

    #[inline(never)]
    fn brackets(&mut self) -> R<Expr> {
        let open = self.bump();
        // records `[a |-> e]` and record sets `[a : S]`
        if self.is_ident_at(self.pos) && (self.sym_at(self.pos + 1, "|->") || self.sym_at(self.pos + 1, ":")) {
            let set = self.sym_at(self.pos + 1, ":");
            let sep = if set { ":" } else { "|->" };
            let mut fields = Vec::new();
            loop {
                let f = match self.peek() {
                    Some(t) if t.kind == Kind::Ident => {
                        self.bump();
                        Ident { name: t.text.to_string(), span: self.tok_span(t) }
                    }
                    _ => return self.unexpected("a field name"),
                };
                if !self.is_sym(sep) {
                    if self.is_sym("->") || self.is_sym("|->") || self.is_sym(":") {
                        let t = self.raw();
                        let span = self.tok_span(t);
                        self.error(
                            Diagnostic::error("E0113", span, format!("`{}` where `{sep}` was expected", t.text))
                                .with_hint("a record is `[a |-> 1, b |-> 2]`; a set of records is `[a : S, b : T]`; do not mix them"),
                        );
                        return Err(());
                    }
                    return self.unexpected(&format!("`{sep}`"));
                }
                self.bump();
                let e = self.expr()?;
                fields.push((f, e));
                if !self.eat_sym(",") {
                    break;
                }
            }
            let c = self.close(open, "]")?;
            let span = self.sp(open.start, c.end);
            return Ok(Expr::new(if set { ExprKind::RecordSet(fields) } else { ExprKind::Record(fields) }, span));
        }
        if self.looks_like_bounds() {
            let bounds = self.bounds(false)?;
            if self.is_sym("->") {
                let t = self.raw();
                let span = self.tok_span(t);
                self.error(
                    Diagnostic::error("E0113", span, "`->` after bound variables: a function is written with `|->`")
                        .with_hint("write `[x \\in S |-> e]` for a function; `[S -> T]` is the set of functions from S to T"),
                );
                return Err(());
            }
            self.expect_sym("|->")?;
            let body = self.expr()?;
            let c = self.close(open, "]")?;
            return Ok(Expr::new(ExprKind::FunCons { bounds, body }, self.sp(open.start, c.end)));
        }
        let first = self.expr()?;
        if self.is_sym("->") {
            let arrow = self.bump();
            let range = self.expr()?;
            if self.is_sym(",") && is_name(&first) {
                let span = self.tok_span(arrow);
                self.error(
                    Diagnostic::error("E0113", span, "`->` in what looks like a record: a record field is written with `|->`")
                        .with_hint("write `[a |-> 1, b |-> 2]` for a record; `[S -> T]` is the set of functions from S to T"),
                );
                return Err(());
            }
            let c = self.close(open, "]")?;
            return Ok(Expr::new(ExprKind::FunSet { domain: first, range }, self.sp(open.start, c.end)));
        }
        if self.is_word("EXCEPT") {
            self.bump();
            let mut updates = Vec::new();
            loop {
                self.expect_sym("!")?;
                let mut path = Vec::new();
                loop {
                    if self.is_sym(".") {
                        self.bump();
                        let f = match self.peek() {
                            Some(t) if t.kind == Kind::Ident => {
                                self.bump();
                                Ident { name: t.text.to_string(), span: self.tok_span(t) }
                            }
                            _ => return self.unexpected("a field name"),
                        };
                        path.push(ExceptStep::Field(f));
                    } else if self.is_sym("[") {
                        let o = self.bump();
                        let idx = self.expr_list()?;
                        self.close(o, "]")?;
                        path.push(ExceptStep::Index(idx));
                    } else {
                        break;
                    }
                }
                if path.is_empty() {
                    return self.unexpected("`[` or `.` after `!`");
                }
                self.expect_sym("=")?;
                let value = self.expr()?;
                updates.push(ExceptUpdate { path, value });
                if !self.eat_sym(",") {
                    break;
                }
            }
            let c = self.close(open, "]")?;
            return Ok(Expr::new(ExprKind::Except { base: first, updates }, self.sp(open.start, c.end)));
        }
        if self.is_sym("]_") {
            self.bump();
            let sub = self.subscript()?;
            let span = self.sp(open.start, sub.span.end);
            return Ok(Expr::new(ExprKind::BoxAction { action: first, sub }, span));
        }
        if self.is_sym("|->") {
            let t = self.raw();
            let span = self.tok_span(t);
            self.error(
                Diagnostic::error("E0113", span, "`|->` needs a field name or bound variables on its left")
                    .with_hint("`[S -> T]` is the set of functions from S to T; a function is `[x \\in S |-> e]`"),
            );
            return Err(());
        }
        if self.is_sym("]") {
            let t = self.raw();
            let span = self.tok_span(t);
            self.error(
                Diagnostic::error("E0101", span, "`[A]` needs a subscript")
                    .with_hint("write `[A]_vars` for an action, or `[S -> T]`, `[x \\in S |-> e]`, `[a |-> e]`"),
            );
            return Err(());
        }
        self.close(open, "]").map(|_| first)
    }
}

fn is_name(e: &Expr) -> bool {
    matches!(&*e.kind, ExprKind::OpApp { op, args } if args.is_empty() && op.path.is_empty())
}

/// `x \in S` or `<<x, y>> \in S` read as a binder.
fn as_bound(e: &Expr) -> Option<Bound> {
    let ExprKind::OpApp { op, args } = &*e.kind else { return None };
    if op.name != "\\in" || args.len() != 2 || !op.path.is_empty() {
        return None;
    }
    let name_of = |x: &Expr| match &*x.kind {
        ExprKind::OpApp { op, args } if args.is_empty() && op.path.is_empty() => {
            Some(Ident { name: op.name.clone(), span: x.span })
        }
        _ => None,
    };
    let vars = match &*args[0].kind {
        ExprKind::Tuple(items) => BoundVars::Tuple(items.iter().map(name_of).collect::<Option<Vec<_>>>()?),
        _ => BoundVars::Names(vec![name_of(&args[0])?]),
    };
    Some(Bound { vars, set: Some(args[1].clone()) })
}

impl Def {
    fn into_unit(self) -> Unit {
        match self {
            Def::Op(d) => Unit::OpDef(d),
            Def::Fun(d) => Unit::FunDef(d),
            Def::Module(d) => Unit::ModuleDef(d),
        }
    }
}
