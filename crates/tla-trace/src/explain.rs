//! Explaining why an action does not take a model state to an observed one: the action's body
//! is evaluated conjunct by conjunct on the step (candidate state → observed state), through
//! action operators, IF and labels, and the first FALSE conjunct is reported with the values of
//! its operands; a disjunction none of whose branches holds is reported with each branch's
//! first FALSE conjunct.

use serde_json::{json, Value as Json};
use tla_check::model::Model;
use tla_eval::{Bindings, State, Value};
use tla_syntax::ast::*;
use tla_syntax::SourceMap;

/// One failing conjunct.
#[derive(Clone, Debug)]
pub struct Conjunct {
    /// The conjunct's source text (when the sources are known).
    pub text: String,
    /// `file:line:col` of the conjunct (when the sources are known).
    pub at: String,
    /// `false`, `error` (evaluation failed) or `no_branch` (a disjunction with no true branch).
    pub kind: &'static str,
    /// Operands of the conjunct and their values (`x'` is the observed value).
    pub operands: Vec<(String, String)>,
    /// The evaluation error, for `error`.
    pub error: Option<String>,
    /// For `no_branch`: each branch's first failing conjunct.
    pub branches: Vec<Conjunct>,
}

impl Conjunct {
    pub fn to_json(&self) -> Json {
        json!({
            "text": self.text, "at": self.at, "kind": self.kind,
            "operands": self.operands.iter().map(|(t, v)| json!({"expr": t, "value": v})).collect::<Vec<_>>(),
            "error": self.error,
            "branches": self.branches.iter().map(Conjunct::to_json).collect::<Vec<_>>(),
        })
    }

    /// Rendered for humans, indented by `indent` spaces.
    pub fn render(&self, indent: usize, out: &mut String) {
        let pad = " ".repeat(indent);
        let what = match self.kind {
            "no_branch" => "no branch of this disjunction holds",
            "error" => "evaluating this conjunct failed",
            _ => "this conjunct is FALSE",
        };
        out.push_str(&format!("{pad}{what}{}:\n", if self.at.is_empty() { String::new() } else { format!(" ({})", self.at) }));
        for l in self.text.lines() {
            out.push_str(&format!("{pad}  | {}\n", l));
        }
        for (t, v) in &self.operands {
            out.push_str(&format!("{pad}  {} = {}\n", t, v));
        }
        if let Some(e) = &self.error {
            out.push_str(&format!("{pad}  error: {}\n", e));
        }
        for b in &self.branches {
            b.render(indent + 4, out);
        }
    }
}

pub(crate) struct Explainer<'m, 'a> {
    pub model: &'m Model<'a>,
    pub sources: Option<&'m SourceMap>,
}

fn text_of(sources: Option<&SourceMap>, e: &Expr) -> (String, String) {
    match sources {
        Some(s) if (e.span.file.0 as usize) < s.files().count() && !e.span.is_empty() => {
            let f = s.get(e.span.file);
            let (l, c) = f.line_col(e.span.start);
            (s.snippet(e.span).to_string(), format!("{}:{}:{}", f.name, l, c))
        }
        _ => (String::new(), String::new()),
    }
}

impl<'m, 'a> Explainer<'m, 'a> {
    fn eval(&self, e: &'a Expr, b: &Bindings<'a>, pre: &State, post: &State) -> Result<Value, String> {
        self.model.evaluator().eval_with(e, b, pre, Some(post)).map_err(|x| x.to_string())
    }

    fn leaf(&self, e: &'a Expr, b: &Bindings<'a>, pre: &State, post: &State) -> Option<Conjunct> {
        let (text, at) = text_of(self.sources, e);
        match self.eval(e, b, pre, post) {
            Ok(Value::Bool(true)) => None,
            Ok(Value::Bool(false)) => {
                let mut operands = Vec::new();
                if let ExprKind::OpApp { op, args } = &*e.kind {
                    if op.name == "UNCHANGED" && args.len() == 1 {
                        let (t, _) = text_of(self.sources, &args[0]);
                        if let Ok(v) = self.eval(&args[0], b, pre, post) {
                            operands.push((t.clone(), v.to_string()));
                        }
                        if let Ok(v) = self.model.evaluator().eval_with(&args[0], b, post, None) {
                            operands.push((format!("({})'", t), v.to_string()));
                        }
                    } else {
                        for a in args {
                            let (t, _) = text_of(self.sources, a);
                            let v = self.eval(a, b, pre, post).map(|v| v.to_string()).unwrap_or_else(|x| format!("<error: {}>", x));
                            operands.push((t, v));
                        }
                    }
                }
                Some(Conjunct { text, at, kind: "false", operands, error: None, branches: vec![] })
            }
            Ok(v) => Some(Conjunct { text, at, kind: "error", operands: vec![], error: Some(format!("expected a boolean, found {}", v)), branches: vec![] }),
            Err(x) => Some(Conjunct { text, at, kind: "error", operands: vec![], error: Some(x), branches: vec![] }),
        }
    }

    /// The first conjunct of `e` that is not TRUE on the step `pre → post`, under `b`.
    pub fn first_false(&self, e: &'a Expr, b: &Bindings<'a>, pre: &State, post: &State, depth: u32) -> Option<Conjunct> {
        if depth > 40 {
            return self.leaf(e, b, pre, post);
        }
        match &*e.kind {
            ExprKind::Junction { kind: JunctionKind::And, items, .. } => items.iter().find_map(|x| self.first_false(x, b, pre, post, depth + 1)),
            ExprKind::OpApp { op, args } if op.path.is_empty() && op.name == "/\\" && args.len() == 2 => {
                args.iter().find_map(|x| self.first_false(x, b, pre, post, depth + 1))
            }
            ExprKind::Label { body, .. } => self.first_false(body, b, pre, post, depth + 1),
            ExprKind::If { cond, then, els } => match self.eval(cond, b, pre, post) {
                Ok(Value::Bool(true)) => self.first_false(then, b, pre, post, depth + 1),
                Ok(Value::Bool(false)) => self.first_false(els, b, pre, post, depth + 1),
                _ => self.leaf(cond, b, pre, post),
            },
            ExprKind::Junction { kind: JunctionKind::Or, items, .. } => self.disjunction(e, items, b, pre, post, depth),
            ExprKind::OpApp { op, args } if op.path.is_empty() && op.name == "\\/" && args.len() == 2 => self.disjunction(e, args, b, pre, post, depth),
            ExprKind::OpApp { op, args } if op.path.is_empty() => {
                // An action operator: explain its body with the arguments' values bound.
                if let Some(d) = self.model.action_definition(&op.name)
                    && d.params.len() == args.len() && d.params.iter().all(|p| p.arity == 0) && is_user_action(&d.body) {
                        let mut nb = Bindings::default();
                        for (p, a) in d.params.iter().zip(args.iter()) {
                            match self.eval(a, b, pre, post) {
                                Ok(v) => nb = nb.bind(&p.name.name, v),
                                Err(_) => return self.leaf(e, b, pre, post),
                            }
                        }
                        // Only descend when the call as a whole fails.
                        if matches!(self.eval(e, b, pre, post), Ok(Value::Bool(true))) {
                            return None;
                        }
                        return self.first_false(&d.body, &nb, pre, post, depth + 1).or_else(|| self.leaf(e, b, pre, post));
                    }
                self.leaf(e, b, pre, post)
            }
            _ => self.leaf(e, b, pre, post),
        }
    }

    fn disjunction(&self, e: &'a Expr, items: &'a [Expr], b: &Bindings<'a>, pre: &State, post: &State, depth: u32) -> Option<Conjunct> {
        if matches!(self.eval(e, b, pre, post), Ok(Value::Bool(true))) {
            return None;
        }
        let branches: Vec<Conjunct> = items.iter().filter_map(|x| self.first_false(x, b, pre, post, depth + 1)).collect();
        let (text, at) = text_of(self.sources, e);
        Some(Conjunct { text, at, kind: "no_branch", operands: vec![], error: None, branches })
    }
}

/// Whether a definition body is a conjunction/disjunction worth descending into (rather than a
/// plain predicate, whose operands say more).
fn is_user_action(e: &Expr) -> bool {
    matches!(&*e.kind, ExprKind::Junction { .. } | ExprKind::If { .. } | ExprKind::Label { .. })
        || matches!(&*e.kind, ExprKind::OpApp { op, .. } if op.name == "/\\" || op.name == "\\/")
}
