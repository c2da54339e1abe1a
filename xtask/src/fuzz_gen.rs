//! The spec generator of `cargo xtask fuzz-tlc`: small random TLA+ specs, each from a seed.
//!
//! Every spec is finite by construction (integers wrap with `%`, sequences are bounded by their
//! guards, functions and records have small ranges), assigns every variable in every branch of
//! every action, and is meant to be accepted by SANY. What varies is the way a spec is written:
//! guards, `\E` and `\A`, EXCEPT on functions, records and sequences, operators whose parameters
//! stand for variables (primed, UNCHANGED, in guards), LET, an INSTANCE with substitutions, a
//! disjunction inside an action, a LET function and a LET condition used as guards, `x' \in S`,
//! conditions on primed variables, recursive operators and functions (a LET function reading
//! the state among them), CONSTRAINT,
//! ACTION_CONSTRAINT, invariants (a type invariant among them, over the infinite sets models
//! write: `Nat`, `Seq(..)`, `SUBSET Nat`, ...) and temporal properties under weak and strong
//! fairness.
//! A module is `Fuzz` (with `FuzzInner` beside it when it has an instance) and its `.cfg`.

use crate::bench_module::Rng;

/// What a variable holds; `k` bounds the integers (`0..k-1`).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Ty {
    Int { k: u64 },
    Bool,
    /// A subset of `0..k-1`.
    Set { k: u64 },
    /// A sequence of `0..k-1`, at most `len` long.
    Seq { k: u64, len: u64 },
    /// A function `[1..N -> 0..k-1]` (N is the constant).
    Fun { k: u64 },
    /// A record `[a: 0..k-1, b: BOOLEAN]`.
    Rec { k: u64 },
}

#[derive(Clone, Debug)]
struct Var {
    name: String,
    ty: Ty,
}

/// A generated spec: the modules (name, text) and the .cfg text.
pub struct Spec {
    pub modules: Vec<(String, String)>,
    pub cfg: String,
}

struct Gen<'r> {
    rng: &'r mut Rng,
    vars: Vec<Var>,
    /// The constant N (the functions' domain is 1..N).
    n: u64,
    /// Integer names in scope: bound by `\E`, LET or an operator's parameters.
    ints: Vec<String>,
    /// The instance's name, when the spec has one, and the integer variable it stands on.
    inst: Option<(String, usize, u64)>,
    fresh: u32,
}

impl Gen<'_> {
    fn fresh(&mut self, base: &str) -> String {
        self.fresh += 1;
        format!("{base}{}", self.fresh)
    }

    fn int_vars(&self) -> Vec<usize> {
        (0..self.vars.len()).filter(|&i| matches!(self.vars[i].ty, Ty::Int { .. })).collect()
    }

    /// An integer expression (any sign), depth-bounded.
    fn int(&mut self, depth: u32) -> String {
        let leaf = depth == 0 || self.rng.chance(35);
        if leaf {
            let mut options: Vec<String> = vec![self.rng.range(0, 3).to_string(), "N".into()];
            options.extend(self.ints.iter().cloned());
            for v in &self.vars {
                match v.ty {
                    Ty::Int { .. } => options.push(v.name.clone()),
                    Ty::Set { .. } => {
                        options.push(format!("Cardinality({})", v.name));
                        options.push(format!("SetSum({})", v.name));
                    }
                    Ty::Seq { .. } => {
                        options.push(format!("Len({})", v.name));
                        options.push(format!("SeqSum({})", v.name));
                    }
                    Ty::Fun { .. } => options.push(format!("{}[1]", v.name)),
                    Ty::Rec { .. } => options.push(format!("{}.a", v.name)),
                    Ty::Bool => {}
                }
            }
            return self.rng.pick(&options).clone();
        }
        match self.rng.range(0, 12) {
            // A recursive function of the module, at an argument the state decides.
            11 => format!("Fact[({}) % 5]", self.int(depth - 1)),
            // A recursive function defined in a LET whose body reads the state: its values
            // belong to one evaluation, never kept for the next state.
            12 => {
                let (g, i) = (self.fresh("g"), self.fresh("i"));
                let base = self.int(depth - 1);
                let n = self.rng.range(0, 3);
                format!("(LET {g}[{i} \\in 0..3] == IF {i} = 0 THEN {base} ELSE {g}[{i} - 1] + {i} IN {g}[{n}])")
            }
            // A fresh name: SANY rejects a CHOOSE inside another of the same bound name.
            8 => {
                let e = self.fresh("e");
                format!("(CHOOSE {e} \\in 0..3 : {e} >= ({}) % 4)", self.int(depth - 1))
            }
            9 => {
                let (c1, c2) = (self.boolean(depth - 1), self.boolean(depth - 1));
                format!("(CASE {c1} -> {} [] {c2} -> {} [] OTHER -> {})", self.int(depth - 1), self.int(depth - 1), self.int(depth - 1))
            }
            10 => {
                let sets: Vec<String> =
                    self.vars.iter().filter(|v| matches!(v.ty, Ty::Set { .. })).map(|v| v.name.clone()).collect();
                if sets.is_empty() {
                    format!("Cardinality({{<<a, b>> : a \\in 0..1, b \\in 0..(({}) % 3)}})", self.int(depth - 1))
                } else {
                    let s = self.rng.pick(&sets).clone();
                    match self.rng.range(0, 2) {
                        0 => format!("Cardinality(SUBSET {s})"),
                        1 => format!("Cardinality(UNION {{{s}, {{{}}}}})", self.int(0)),
                        _ => format!("Cardinality({{<<a, b>> : a \\in {s}, b \\in {s}}})"),
                    }
                }
            }
            0 | 1 => format!("({} + {})", self.int(depth - 1), self.int(depth - 1)),
            2 => format!("({} - {})", self.int(depth - 1), self.int(depth - 1)),
            3 => format!("({} % {})", self.int(depth - 1), self.rng.range(2, 4)),
            4 => format!("(IF {} THEN {} ELSE {})", self.boolean(depth - 1), self.int(depth - 1), self.int(depth - 1)),
            5 => {
                let funs: Vec<String> =
                    self.vars.iter().filter(|v| matches!(v.ty, Ty::Fun { .. })).map(|v| v.name.clone()).collect();
                if funs.is_empty() {
                    format!("({} * {})", self.int(depth - 1), self.rng.range(0, 2))
                } else {
                    let f = self.rng.pick(&funs).clone();
                    format!("{f}[{}]", self.index())
                }
            }
            6 => {
                let seqs: Vec<String> =
                    self.vars.iter().filter(|v| matches!(v.ty, Ty::Seq { .. })).map(|v| v.name.clone()).collect();
                if seqs.is_empty() {
                    format!("Max2({}, {})", self.int(depth - 1), self.int(depth - 1))
                } else {
                    let q = self.rng.pick(&seqs).clone();
                    format!("(IF {q} = <<>> THEN 0 ELSE Head({q}))")
                }
            }
            _ => {
                let v = self.fresh("t");
                let e = self.int(depth - 1);
                self.ints.push(v.clone());
                let body = self.int(depth - 1);
                self.ints.pop();
                format!("(LET {v} == {e} IN {body})")
            }
        }
    }

    /// An integer in `0..k-1`.
    fn ranged(&mut self, k: u64, depth: u32) -> String {
        if self.rng.chance(30) {
            return self.rng.range(0, k - 1).to_string();
        }
        format!("(({}) % {k})", self.int(depth))
    }

    /// An index into the functions' domain 1..N.
    fn index(&mut self) -> String {
        let mut options: Vec<String> = vec!["1".into(), "N".into()];
        // `i` is an action's parameter, drawn from 1..N.
        if self.ints.iter().any(|i| i == "i") {
            options.push("i".into());
        }
        self.rng.pick(&options).clone()
    }

    /// A Boolean state expression (unprimed).
    fn boolean(&mut self, depth: u32) -> String {
        let leaf = depth == 0 || self.rng.chance(30);
        if leaf || self.rng.chance(50) {
            let v = self.rng.pick(&self.vars).clone();
            return match v.ty {
                Ty::Int { .. } => {
                    let op = *self.rng.pick(&["<", "<=", "=", "#", ">"]);
                    format!("{} {op} {}", v.name, self.int(depth.saturating_sub(1)))
                }
                Ty::Bool => {
                    if self.rng.chance(50) {
                        v.name.clone()
                    } else {
                        format!("~{}", v.name)
                    }
                }
                Ty::Set { k } => match self.rng.range(0, 3) {
                    0 => format!("{} \\in {}", self.ranged(k, 0), v.name),
                    1 => format!("{} = {{}}", v.name),
                    2 => format!("(\\A e \\in {} : e < {})", v.name, self.int(0)),
                    _ => format!("Cardinality({}) >= {}", v.name, self.rng.range(0, 2)),
                },
                Ty::Seq { len, .. } => match self.rng.range(0, 2) {
                    0 => format!("Len({}) < {len}", v.name),
                    1 => format!("{} # <<>>", v.name),
                    _ => format!("(\\E j \\in 1..Len({}) : {}[j] = {})", v.name, v.name, self.int(0)),
                },
                Ty::Fun { .. } => match self.rng.range(0, 2) {
                    0 => format!("{}[{}] = {}", v.name, self.index(), self.int(0)),
                    1 => format!("(\\A j \\in 1..N : {}[j] <= {})", v.name, self.int(0)),
                    _ => format!("(\\E j \\in DOMAIN {} : {}[j] > 0)", v.name, v.name),
                },
                Ty::Rec { .. } => {
                    if self.rng.chance(50) {
                        format!("{}.b", v.name)
                    } else {
                        format!("{}.a # {}", v.name, self.int(0))
                    }
                }
            };
        }
        match self.rng.range(0, 4) {
            0 => format!("({} /\\ {})", self.boolean(depth - 1), self.boolean(depth - 1)),
            1 => format!("({} \\/ {})", self.boolean(depth - 1), self.boolean(depth - 1)),
            2 => format!("~({})", self.boolean(depth - 1)),
            3 => format!("({} => {})", self.boolean(depth - 1), self.boolean(depth - 1)),
            _ => {
                let v = self.fresh("b");
                self.ints.push(v.clone());
                let body = self.boolean(depth - 1);
                self.ints.pop();
                let q = if self.rng.chance(50) { "\\E" } else { "\\A" };
                format!("({q} {v} \\in 0..{} : {body})", self.rng.range(1, 2))
            }
        }
    }

    /// A value of type `ty` for the initial state.
    fn literal(&mut self, ty: Ty) -> String {
        match ty {
            Ty::Int { k } => self.rng.range(0, k - 1).to_string(),
            Ty::Bool => self.rng.pick(&["TRUE", "FALSE"]).to_string(),
            Ty::Set { k } => {
                let elems: Vec<String> = (0..k).filter(|_| self.rng.chance(40)).map(|e| e.to_string()).collect();
                format!("{{{}}}", elems.join(", "))
            }
            Ty::Seq { k, len } => {
                let n = self.rng.range(0, len.min(2));
                let elems: Vec<String> = (0..n).map(|_| self.rng.range(0, k - 1).to_string()).collect();
                format!("<<{}>>", elems.join(", "))
            }
            Ty::Fun { k } => format!("[j \\in 1..N |-> {}]", self.rng.range(0, k - 1)),
            Ty::Rec { k } => format!("[a |-> {}, b |-> {}]", self.rng.range(0, k - 1), self.rng.pick(&["TRUE", "FALSE"])),
        }
    }

    /// The set of all values of `ty`, small enough for `\in`.
    fn domain(&self, ty: Ty) -> String {
        match ty {
            Ty::Int { k } => format!("0..{}", k - 1),
            Ty::Bool => "BOOLEAN".into(),
            Ty::Set { k } => format!("SUBSET (0..{})", k - 1),
            Ty::Seq { .. } => "{<<>>}".into(),
            Ty::Fun { k } => format!("[1..N -> 0..{}]", (k - 1).min(1)),
            Ty::Rec { k } => format!("[a: 0..{}, b: BOOLEAN]", (k - 1).min(1)),
        }
    }

    /// A set a type invariant (`TypeOK`) puts `ty`'s values in, as models write them: exact,
    /// infinite (`Nat`, `Seq(..)`, `SUBSET Nat`, function and record sets over `Nat`, a filter
    /// over `Seq`), or one value too narrow, so that the invariant may fail.
    fn type_set(&mut self, ty: Ty) -> String {
        let narrow = |k: u64| if k >= 2 { format!("0..{}", k - 2) } else { "{}".to_string() };
        let options: Vec<String> = match ty {
            Ty::Int { k } => vec![format!("0..{}", k - 1), "Nat".into(), narrow(k)],
            Ty::Bool => vec!["BOOLEAN".into()],
            Ty::Set { k } => vec![format!("SUBSET (0..{})", k - 1), "SUBSET Nat".into(), format!("SUBSET ({})", narrow(k))],
            Ty::Seq { k, len } => vec![
                format!("Seq(0..{})", k - 1),
                "Seq(Nat)".into(),
                format!("Seq({})", narrow(k)),
                format!("{{s \\in Seq(0..{}) : Len(s) <= {}}}", k - 1, len.saturating_sub(1)),
            ],
            Ty::Fun { k } => vec![format!("[1..N -> 0..{}]", k - 1), "[1..N -> Nat]".into(), format!("[1..N -> {}]", narrow(k))],
            Ty::Rec { k } => vec![format!("[a: 0..{}, b: BOOLEAN]", k - 1), "[b: BOOLEAN, a: Nat]".into(), format!("[a: {}, b: BOOLEAN]", narrow(k))],
        };
        self.rng.pick(&options).clone()
    }

    /// A new value for variable `v` (an expression of the next state's value, unprimed inputs).
    fn update(&mut self, v: usize) -> String {
        let Var { name, ty } = self.vars[v].clone();
        match ty {
            Ty::Int { k } => match self.rng.range(0, 2) {
                0 => format!("({name} + 1) % {k}"),
                _ => self.ranged(k, 2),
            },
            Ty::Bool => match self.rng.range(0, 2) {
                0 => format!("~{name}"),
                _ => self.boolean(1),
            },
            Ty::Set { k } => match self.rng.range(0, 3) {
                0 => format!("{name} \\cup {{{}}}", self.ranged(k, 1)),
                1 => format!("{name} \\ {{{}}}", self.ranged(k, 1)),
                2 => {
                    let e = self.fresh("e");
                    format!("{{{e} \\in {name} : {e} # {}}}", self.int(1))
                }
                _ => format!("{{(e + 1) % {k} : e \\in {name}}}"),
            },
            // Sequences grow only under a guard: the caller adds it.
            Ty::Seq { k, .. } => match self.rng.range(0, 4) {
                3 => format!("IF Len({name}) < 2 THEN {name} \\o <<{}>> ELSE SubSeq({name}, 2, Len({name}))", self.ranged(k, 0)),
                4 => format!("SelectSeq({name}, LAMBDA e : e # {})", self.int(0)),
                0 => format!("IF Len({name}) < 2 THEN Append({name}, {}) ELSE {name}", self.ranged(k, 1)),
                1 => format!("IF {name} = <<>> THEN {name} ELSE Tail({name})"),
                _ => format!("IF {name} = <<>> THEN {name} ELSE [{name} EXCEPT ![1] = {}]", self.ranged(k, 1)),
            },
            Ty::Fun { k } => match self.rng.range(0, 3) {
                3 => format!("[{name} EXCEPT ![{}] = (@ + 1) % {k}, ![1] = {}]", self.index(), self.ranged(k, 0)),
                0 => format!("[{name} EXCEPT ![{}] = {}]", self.index(), self.ranged(k, 1)),
                1 => format!("[{name} EXCEPT ![{}] = (@ + 1) % {k}]", self.index()),
                _ => format!("[j \\in 1..N |-> IF j = {} THEN {} ELSE {name}[j]]", self.index(), self.ranged(k, 1)),
            },
            Ty::Rec { k } => match self.rng.range(0, 3) {
                3 => format!("[{name} EXCEPT !.a = (@ + 1) % {k}, !.b = ~@]"),
                0 => format!("[{name} EXCEPT !.a = {}]", self.ranged(k, 1)),
                1 => format!("[{name} EXCEPT !.b = ~@]"),
                _ => format!("[a |-> {}, b |-> {}]", self.ranged(k, 1), self.boolean(1)),
            },
        }
    }

    /// One conjunct giving variable `v` its next value, in one of several forms.
    fn assign(&mut self, v: usize) -> String {
        let name = self.vars[v].name.clone();
        let ty = self.vars[v].ty;
        if let (Some((inst, iv, _)), Ty::Int { .. }) = (self.inst.clone(), ty) {
            if iv == v && self.rng.chance(40) {
                return format!("{inst}!{}", self.rng.pick(&["Up", "Reset", "Step(1)", "Step(2)"]));
            }
        }
        match self.rng.range(0, 11) {
            9 => {
                let c = self.boolean(1);
                let (a, b) = (self.update(v), self.update(v));
                format!("(IF {c} THEN {name}' = ({a}) ELSE {name}' = ({b}))")
            }
            10 => {
                let c = self.boolean(1);
                let a = self.update(v);
                format!("(CASE {c} -> {name}' = ({a}) [] OTHER -> UNCHANGED {name})")
            }
            0 => format!("UNCHANGED {name}"),
            1 => format!("{name}' = {name}"),
            2 => {
                let (a, b) = (self.update(v), self.update(v));
                format!("{name}' \\in {{{a}, {b}}}")
            }
            3 if matches!(ty, Ty::Int { .. } | Ty::Bool) => format!("{name}' \\in {}", self.domain(ty)),
            4 => format!("SetTo({name}, {})", self.update(v)),
            5 if matches!(ty, Ty::Int { .. }) => format!("Bump({name}, {})", match ty { Ty::Int { k } => k, _ => 2 }),
            6 if matches!(ty, Ty::Fun { .. }) => {
                let k = match ty { Ty::Fun { k } => k, _ => 2 };
                format!("Shift({name}, {}, {k})", self.index())
            }
            7 => format!("Keep({name})"),
            _ => format!("{name}' = ({})", self.update(v)),
        }
    }

    /// The body of an action: guards and an assignment of every variable.
    fn action_body(&mut self, indent: usize) -> String {
        let pad = " ".repeat(indent);
        let let_name = if self.rng.chance(20) {
            let t = self.fresh("t");
            let e = self.int(1);
            self.ints.push(t.clone());
            Some((t, e))
        } else {
            None
        };
        let mut conj: Vec<String> = vec![];
        for _ in 0..self.rng.range(0, 2) {
            conj.push(self.boolean(2));
        }
        let n = self.vars.len();
        let mut order: Vec<usize> = (0..n).collect();
        // Some variables assigned in a disjunction (each branch assigns the same ones).
        let in_disj: Vec<usize> = if n >= 1 && self.rng.chance(35) {
            let k = self.rng.range(1, n.min(2) as u64) as usize;
            order.drain(..k).collect()
        } else {
            vec![]
        };
        let unchanged_together = order.len() >= 2 && self.rng.chance(25);
        if unchanged_together {
            let names: Vec<String> = order.iter().map(|&v| self.vars[v].name.clone()).collect();
            conj.push(format!("UNCHANGED <<{}>>", names.join(", ")));
        } else {
            for &v in &order {
                let a = self.assign(v);
                conj.push(a);
            }
        }
        if !in_disj.is_empty() {
            let mut branches = vec![];
            for _ in 0..self.rng.range(2, 3) {
                let mut parts = vec![];
                if self.rng.chance(40) {
                    parts.push(self.boolean(1));
                }
                for &v in &in_disj {
                    let a = self.assign(v);
                    parts.push(a);
                }
                branches.push(parts.join(" /\\ "));
            }
            conj.push(format!("\\/ {}", branches.join(&format!("\n{pad}   \\/ "))));
        }
        // A condition on the next state, after the assignments.
        if self.rng.chance(20) {
            let ints = self.int_vars();
            let v = *self.rng.pick(&ints);
            let name = self.vars[v].name.clone();
            conj.push(format!("{name}' # {}", self.int(0)));
        }
        // A condition on every element of a function's next value.
        let funs: Vec<String> = self.vars.iter().filter(|v| matches!(v.ty, Ty::Fun { .. })).map(|v| v.name.clone()).collect();
        if !funs.is_empty() && self.rng.chance(15) {
            let f = self.rng.pick(&funs).clone();
            conj.push(format!("\\A j \\in 1..N : {f}'[j] <= {f}[j] + 1"));
        }
        // A LET function applied as a guard, its body a disjunction (recursive at times): TLC
        // enumerates the body of such a function as an action, so each disjunct that holds
        // gives the successor once more (states generated).
        if self.rng.chance(15) {
            let (g, j, w) = (self.fresh("g"), self.fresh("j"), self.fresh("w"));
            self.ints.push(j.clone());
            let b = self.boolean(1);
            self.ints.pop();
            let rec = if self.rng.chance(50) { format!("({j} > 0 /\\ {g}[{j} - 1])") } else { format!("\\E {w} \\in 0..{j} : {w} = 1") };
            let at = self.int(1);
            conj.push(format!("LET {g}[{j} \\in 0..3] == {j} = 0 \\/ {rec} \\/ {b} IN {g}[({at}) % 4]"));
        }
        // A LET condition with a disjunction, used as a conjunct: TLC enumerates its body there.
        if self.rng.chance(15) {
            let h = self.fresh("h");
            let (b1, b2) = (self.boolean(1), self.boolean(1));
            conj.push(format!("LET {h} == {b1} \\/ {b2} IN {h}"));
        }
        // Whether an action of the instance could fire, as a guard.
        if let Some((inst, _, _)) = self.inst.clone()
            && self.rng.chance(15)
        {
            let neg = if self.rng.chance(50) { "~" } else { "" };
            conj.insert(0, format!("{neg}ENABLED {inst}!Up"));
        }
        let body = conj.iter().map(|c| format!("/\\ {c}")).collect::<Vec<_>>().join(&format!("\n{pad}"));
        match let_name {
            Some((t, e)) => {
                self.ints.pop();
                format!("LET {t} == {e} IN\n{pad}{body}")
            }
            None => body,
        }
    }
}

/// The spec for `seed`.
pub fn generate(seed: u64) -> Spec {
    let mut rng = Rng::new(seed);
    let mut g = Gen { rng: &mut rng, vars: vec![], n: 0, ints: vec![], inst: None, fresh: 0 };
    g.n = g.rng.range(1, 2);
    let nvars = g.rng.range(1, 3) as usize;
    // The first variable is an integer, so every spec has one (the instance stands on it).
    for i in 0..nvars {
        let k = g.rng.range(2, 3);
        let ty = if i == 0 {
            Ty::Int { k: g.rng.range(2, 4) }
        } else {
            match g.rng.range(0, 5) {
                0 => Ty::Int { k: g.rng.range(2, 4) },
                1 => Ty::Bool,
                2 => Ty::Set { k },
                3 => Ty::Seq { k: 2, len: 2 },
                4 => Ty::Fun { k },
                _ => Ty::Rec { k },
            }
        };
        g.vars.push(Var { name: ["x", "y", "z"][i].to_string(), ty });
    }
    let mut modules = vec![];
    let mut defs = vec![];
    if g.rng.chance(35) {
        let lim = match g.vars[0].ty { Ty::Int { k } => k - 1, _ => 1 };
        // The instance by name (`C == INSTANCE FuzzInner WITH c <- x`), or with a parameter that
        // stands for the variable (`C(w) == INSTANCE FuzzInner WITH c <- w`, used as `C(x)!Up`).
        let by_param = g.rng.chance(40);
        let name = if by_param { format!("C({})", g.vars[0].name) } else { "C".to_string() };
        g.inst = Some((name, 0, lim));
        let inner = "---- MODULE FuzzInner ----\nEXTENDS Naturals\nCONSTANT Lim, Ok(_)\nVARIABLE c\n\
             Low == c < Lim\nUp == c < Lim /\\ Ok(c) /\\ c' = c + 1\nReset == c' = 0\n\
             Step(d) == IF c + d <= Lim THEN c' = c + d ELSE c' = Lim\n\
             ====\n"
            .to_string();
        // A module of its own, or nested in the spec's module (first, so that it sees only
        // the constant and the variables before it).
        if g.rng.chance(40) {
            defs.push(inner.trim_end().to_string());
        } else {
            modules.push(("FuzzInner".to_string(), inner));
        }
        // The operator constant Ok: a LAMBDA, or a definition of this module.
        let ok = match g.rng.range(0, 2) {
            0 => "LAMBDA v : TRUE".to_string(),
            1 => format!("LAMBDA v : v # {}", g.rng.range(0, lim)),
            _ => {
                defs.push(format!("OkDef(v) == v < {}", g.rng.range(1, lim.max(1))));
                "OkDef".to_string()
            }
        };
        if by_param {
            defs.push(format!("C(w) == INSTANCE FuzzInner WITH c <- w, Lim <- {lim}, Ok <- {ok}"));
        } else {
            defs.push(format!("C == INSTANCE FuzzInner WITH c <- {}, Lim <- {lim}, Ok <- {ok}", g.vars[0].name));
        }
    }
    let names: Vec<String> = g.vars.iter().map(|v| v.name.clone()).collect();
    let vars_tuple = format!("<<{}>>", names.join(", "));
    defs.push(format!("vars == {vars_tuple}"));
    defs.push("Max2(a, b) == IF a > b THEN a ELSE b".into());
    defs.push("RECURSIVE SetSum(_)".into());
    defs.push("SetSum(s) == IF s = {} THEN 0 ELSE LET m == CHOOSE el \\in s : TRUE IN m + SetSum(s \\ {m})".into());
    defs.push("RECURSIVE SeqSum(_)".into());
    defs.push("SeqSum(q) == IF q = <<>> THEN 0 ELSE Head(q) + SeqSum(Tail(q))".into());
    defs.push("Fact[n \\in 0..4] == IF n = 0 THEN 1 ELSE n * Fact[n - 1]".into());
    defs.push("SetTo(v, e) == v' = e".into());
    defs.push("Bump(v, k) == v' = (v + 1) % k".into());
    defs.push("Shift(f, i, k) == f[i] < k - 1 /\\ f' = [f EXCEPT ![i] = f[i] + 1]".into());
    defs.push("Keep(v) == UNCHANGED v".into());
    let init_parts: Vec<String> = (0..g.vars.len())
        .map(|i| {
            let Var { name, ty } = g.vars[i].clone();
            if g.rng.chance(25) && !matches!(ty, Ty::Seq { .. }) {
                format!("{name} \\in {}", g.domain(ty))
            } else {
                format!("{name} = {}", g.literal(ty))
            }
        })
        .collect();
    defs.push(format!("Init == {}", init_parts.iter().map(|p| format!("/\\ {p}")).collect::<Vec<_>>().join("\n        ")));
    let nactions = g.rng.range(1, 4);
    let mut next = vec![];
    let mut action_names = vec![];
    let mut param_actions: Vec<String> = vec![];
    for a in 0..nactions {
        let name = format!("A{a}");
        let kind = g.rng.range(0, 3);
        match kind {
            // With a parameter, quantified in Next.
            0 => {
                g.ints.push("i".into());
                let body = g.action_body(8);
                g.ints.pop();
                defs.push(format!("{name}(i) ==\n        {body}"));
                next.push(format!("\\E i \\in 1..N : {name}(i)"));
                action_names.push(format!("\\E i \\in 1..N : {name}(i)"));
                param_actions.push(name);
            }
            // An existential inside the action.
            1 => {
                let w = format!("i{a}");
                g.ints.push(w.clone());
                let body = g.action_body(8);
                g.ints.pop();
                defs.push(format!("{name} ==\n    \\E {w} \\in 0..{} :\n        {body}", g.rng.range(1, 2)));
                next.push(name.clone());
                action_names.push(name);
            }
            _ => {
                let body = g.action_body(8);
                defs.push(format!("{name} ==\n        {body}"));
                next.push(name.clone());
                action_names.push(name);
            }
        }
    }
    if g.rng.chance(15) {
        next.push(format!("UNCHANGED {vars_tuple}"));
    }
    defs.push(format!("Next == {}", next.iter().map(|n| format!("\\/ {n}")).collect::<Vec<_>>().join("\n        ")));
    let mut fairness = vec![];
    let temporal = g.rng.chance(30);
    if temporal {
        for an in &action_names {
            if g.rng.chance(60) {
                let wf = if g.rng.chance(70) { "WF" } else { "SF" };
                fairness.push(format!("{wf}_vars({an})"));
            }
        }
        // Fairness for each value of an action's parameter.
        for an in &param_actions {
            if g.rng.chance(40) {
                let wf = if g.rng.chance(70) { "WF" } else { "SF" };
                fairness.push(format!("(\\A i \\in 1..N : {wf}_vars({an}(i)))"));
            }
        }
    }
    let spec = std::iter::once("Init".to_string())
        .chain(std::iter::once("[][Next]_vars".to_string()))
        .chain(fairness)
        .collect::<Vec<_>>()
        .join(" /\\ ");
    defs.push(format!("Spec == {spec}"));
    let mut cfg = format!("CONSTANT N = {}\nSPECIFICATION Spec\n", g.n);
    let ninv = g.rng.range(0, 2);
    for k in 0..ninv {
        let e = g.boolean(2);
        defs.push(format!("Inv{k} == {e}"));
        cfg.push_str(&format!("INVARIANT Inv{k}\n"));
    }
    if g.rng.chance(40) {
        let vars = g.vars.clone();
        let parts: Vec<String> = vars.iter().map(|v| format!("/\\ {} \\in {}", v.name, g.type_set(v.ty))).collect();
        defs.push(format!("TypeOK ==\n    {}", parts.join("\n    ")));
        cfg.push_str("INVARIANT TypeOK\n");
    }
    if let Some((inst, _, _)) = g.inst.clone()
        && g.rng.chance(50)
    {
        defs.push(format!("InvInst == {inst}!Low \\/ x = 0 \\/ x > 0"));
        cfg.push_str("INVARIANT InvInst\n");
    }
    if g.rng.chance(20) {
        let e = g.boolean(1);
        defs.push(format!("Bound == {e}"));
        cfg.push_str("CONSTRAINT Bound\n");
    }
    if g.rng.chance(10) {
        defs.push("Moves == x' # x \\/ x' = 0".into());
        cfg.push_str("ACTION_CONSTRAINT Moves\n");
    }
    if temporal {
        let p = g.boolean(1);
        let q = g.boolean(1);
        let prop = match g.rng.range(0, 5) {
            0 => format!("<>({p})"),
            1 => format!("[]<>({p})"),
            2 => format!("<>[]({p})"),
            3 => format!("({p}) ~> ({q})"),
            4 => format!("[]<><<{}>>_vars", g.rng.pick(&action_names).clone()),
            _ => format!("[]({p} => <>({q}))"),
        };
        defs.push(format!("Prop == {prop}"));
        cfg.push_str("PROPERTY Prop\n");
    }
    // An action property: steps of some of Next's actions, or a condition on every step.
    if g.rng.chance(20) {
        let step = if g.rng.chance(50) {
            let k = g.rng.range(1, action_names.len() as u64) as usize;
            action_names[..k].iter().map(|a| format!("({a})")).collect::<Vec<_>>().join(" \\/ ")
        } else {
            format!("x' >= x \\/ x' = {}", g.rng.range(0, 1))
        };
        defs.push(format!("Steps == [][{step}]_vars"));
        cfg.push_str("PROPERTY Steps\n");
    }
    // ENABLED in an invariant.
    if g.rng.chance(10) {
        let a = g.rng.pick(&action_names).clone();
        let p = g.boolean(1);
        defs.push(format!("InvEnabled == (ENABLED ({a})) \\/ {p}"));
        cfg.push_str("INVARIANT InvEnabled\n");
    }
    let text = format!(
        "---- MODULE Fuzz ----\n\\* seed {seed}\nEXTENDS Naturals, Sequences, FiniteSets\nCONSTANT N\nVARIABLES {}\n\n{}\n\n====\n",
        names.join(", "),
        defs.join("\n\n")
    );
    modules.insert(0, ("Fuzz".to_string(), text));
    Spec { modules, cfg }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_spec_and_seeds_differ() {
        let (a, b, c) = (generate(7), generate(7), generate(8));
        assert_eq!(a.modules, b.modules);
        assert_eq!(a.cfg, b.cfg);
        assert_ne!(a.modules[0].1, c.modules[0].1);
    }

    #[test]
    fn instances_come_by_name_by_parameter_and_nested() {
        let specs: Vec<Spec> = (0..300).map(generate).collect();
        let text = |s: &Spec| s.modules[0].1.clone();
        let by_param = specs.iter().filter(|s| text(s).contains("C(w) == INSTANCE FuzzInner")).count();
        let by_name = specs.iter().filter(|s| text(s).contains("C == INSTANCE FuzzInner")).count();
        let nested = specs.iter().filter(|s| text(s).contains("---- MODULE FuzzInner ----")).count();
        let separate = specs.iter().filter(|s| s.modules.iter().any(|(n, _)| n == "FuzzInner")).count();
        assert!(by_param > 10 && by_name > 10 && nested > 10 && separate > 10, "{by_param} {by_name} {nested} {separate}");
        // A parameterized instance is used with the variable as its argument.
        assert!(specs.iter().any(|s| text(s).contains("C(x)!")));
    }

    #[test]
    fn recursive_operators_and_functions_are_used() {
        let specs: Vec<String> = (0..300).map(|s| generate(s).modules[0].1.clone()).collect();
        // `SetSum(` and `SeqSum(` appear three times in every module's definitions (RECURSIVE,
        // the definition, its recursive call); a use is a fourth.
        let uses = |pat: &str| specs.iter().filter(|t| t.matches(pat).count() > 3).count();
        let (set_sum, seq_sum, fact) = (uses("SetSum("), uses("SeqSum("), specs.iter().filter(|t| t.contains("Fact[(")).count());
        let let_fun = specs.iter().filter(|t| t.contains("(LET g") && t.contains(" \\in 0..3] == IF i")).count();
        assert!(set_sum > 5 && seq_sum > 5 && fact > 5 && let_fun > 5, "{set_sum} {seq_sum} {fact} {let_fun}");
    }

    #[test]
    fn every_variable_is_declared_and_initialised() {
        for seed in 0..200 {
            let s = generate(seed);
            let text = &s.modules[0].1;
            let decl = text.lines().find(|l| l.starts_with("VARIABLES ")).expect("VARIABLES line");
            let init = text.split("Init ==").nth(1).expect("Init").split("\n\n").next().unwrap_or("");
            for v in decl["VARIABLES ".len()..].split(", ") {
                assert!(init.contains(&format!("/\\ {v} ")), "seed {seed}: {v} not initialised:\n{text}");
            }
            assert!(s.cfg.contains("SPECIFICATION Spec"));
        }
    }
}
