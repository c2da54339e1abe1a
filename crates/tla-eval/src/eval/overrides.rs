//! Library operators TLC does not evaluate from their module's TLA+ text: it runs Java in their
//! place (its "overrides", by module and operator name). Where the text would give another
//! answer (a placeholder such as `SVGElemToString(e) == TRUE`, I/O, an enumeration of an
//! infinite set where TLC computes the result directly), the definition is replaced here too:
//! by a native implementation of what the text defines, or by an error that names the
//! operator and says why it is not supported. Overrides whose text gives TLC's answer
//! (Combinatorics' `factorial`, say) are left to the text.
//!
//! Like TLC, an override applies to any module of that name, wherever its file comes from.

use tla_syntax::ast::Expr;

use super::{err, ConstEval, Env, Global, Register};
use crate::error::{codes, VResult};
use crate::value::{Elems, SetVal, Value};

/// What replaces a definition.
#[derive(Debug)]
pub(crate) enum What {
    /// Computed natively ([`ConstEval::call_override`]).
    Native,
    /// Computed natively with the host's files or processes (`io.rs`).
    Io,
    /// Computed natively from its unevaluated argument, which it evaluates when and where it
    /// decides, as TLC's `@Evaluation` methods do ([`ConstEval::call_lazy_override`]).
    Lazy,
    /// Evaluating it is an error, for this reason.
    Unsupported(&'static str),
}

/// One replaced definition.
#[derive(Debug)]
pub(crate) struct Override {
    pub module: &'static str,
    pub name: &'static str,
    pub what: What,
    /// Whether its value depends on its arguments alone (no register, file, process, clock
    /// or behaviour read, no effect): only then may compiled code keep or share its value.
    pub pure: bool,
}

const IO: &str = "it reads or writes TLC's binary serialization of values, which this checker does not write";
const SERIALIZE: &str = "its options record (format, charset, open options) is read by TLC's Java, which this checker does not reproduce; JsonSerialize, CSVWrite or IOExec do the same jobs";
const TRACE: &str = "it reads TLC's own run (its counterexample or trace), which this checker does not expose to specs";
const LAYOUT: &str = "TLC computes it in Java and its TLA+ definition is only a placeholder";

const fn native(module: &'static str, name: &'static str) -> Override {
    Override { module, name, what: What::Native, pure: true }
}
/// Computed natively, from more than its arguments (TLC's registers, the environment, the
/// behaviour being checked).
const fn native_reading(module: &'static str, name: &'static str) -> Override {
    Override { module, name, what: What::Native, pure: false }
}
/// Takes its argument unevaluated (see [`What::Lazy`]).
const fn lazy(module: &'static str, name: &'static str) -> Override {
    Override { module, name, what: What::Lazy, pure: false }
}
const fn io(module: &'static str, name: &'static str) -> Override {
    Override { module, name, what: What::Io, pure: false }
}
const fn unsupported(module: &'static str, name: &'static str, why: &'static str) -> Override {
    Override { module, name, what: What::Unsupported(why), pure: false }
}

static OVERRIDES: &[Override] = &[
    // The text overflows TLC's 32-bit integers in factorial[n] where the binomial itself
    // fits (choose(20, 10)), and fails on factorial[-1] where TLC's Java answers 0 (k > n).
    native("Combinatorics", "choose"),
    // The text recurses bit by bit, slowly (seconds for a test over 0..255): computed here
    // with the text's answers (see `bitwise`).
    native("Bitwise", "And"),
    native("Bitwise", "Or"),
    native("Bitwise", "Xor"),
    native("Bitwise", "Not"),
    native("Bitwise", "shiftR"),
    native("UndirectedGraphs", "SimplePath"),
    native("UndirectedGraphs", "AreConnectedIn"),
    native("UndirectedGraphs", "ConnectedComponents"),
    native("UndirectedGraphs", "IsStronglyConnected"),
    native("Graphs", "SimplePath"),
    native("Graphs", "AreConnectedIn"),
    native("Graphs", "IsStronglyConnected"),
    native("IOUtils", "atoi"),
    unsupported("IOUtils", "IOSerialize", IO),
    unsupported("IOUtils", "IODeserialize", IO),
    unsupported("IOUtils", "Serialize", SERIALIZE),
    unsupported("IOUtils", "Deserialize", SERIALIZE),
    io("IOUtils", "IOExec"),
    io("IOUtils", "IOEnvExec"),
    io("IOUtils", "IOExecTemplate"),
    io("IOUtils", "IOEnvExecTemplate"),
    // The environment the host gives (`ConstEval::set_environment`): the CLI gives its own.
    native_reading("IOUtils", "IOEnv"),
    io("CSV", "CSVWrite"),
    io("CSV", "CSVWriteRecord"),
    io("CSV", "CSVRead"),
    io("CSV", "CSVRecords"),
    io("Json", "JsonSerialize"),
    io("Json", "JsonDeserialize"),
    io("Json", "ndJsonSerialize"),
    io("Json", "ndJsonDeserialize"),
    native("Json", "ToJson"),
    native("Json", "ToJsonArray"),
    native("Json", "ToJsonObject"),
    native("SVG", "SVGElemToString"),
    native("SVG", "NodeOfRingNetwork"),
    unsupported("SVG", "NodesOfDirectedMultiGraph", LAYOUT),
    unsupported("GraphViz", "DotDiGraph", LAYOUT),
    unsupported("Statistics", "ChiSquare", LAYOUT),
    unsupported("VectorClocks", "CausalOrder", "TLC sorts the log in Java, and which of the causal orders it picks is not what the TLA+ definition's CHOOSE picks"),
    // The behaviour the explorer gives (`ConstEval::set_behaviour`).
    native_reading("TLCExt", "Trace"),
    unsupported("TLCExt", "CounterExample", TRACE),
    unsupported("TLCExt", "ToTrace", TRACE),
    // TRUE, the expression left unevaluated in a model-checking run, as TLC's breadth-first
    // search never runs what TLCDefer defers; refused elsewhere (see `call_override`).
    lazy("TLCExt", "TLCDefer"),
    lazy("TLCExt", "TLCEvalDefinition"),
    unsupported("TLCExt", "AssertError", "it compares TLC's own error messages"),
    unsupported("TLCExt", "TLCFP", "it gives TLC's fingerprint of a value, which this checker computes differently"),
    native_reading("TLCExt", "TLCGetOrDefault"),
    // TRUE where TLC answers TRUE without asking; refused where TLC would ask its user.
    lazy("TLCExt", "PickSuccessor"),
    native("TLCExt", "TLCModelValue"),
];

/// Combinatorics' `choose(n, k)`, as TLC's Java computes it: the binomial coefficient (0 when
/// `k > n`), an error when `n` or `k` is negative or the result exceeds TLC's integers.
fn binomial(n: &Value, k: &Value) -> VResult<Value> {
    let (n, k) = match (n, k) {
        (Value::Int(n), Value::Int(k)) if *n >= 0 && *k >= 0 => (*n as u64, *k as u64),
        _ => return Err(err(codes::TYPE, format!("choose(n, k) expects two natural numbers, not {n} and {k}"))),
    };
    if k > n {
        return Ok(Value::Int(0));
    }
    let k = k.min(n - k);
    // C(n, i) grows with i up to n/2: once a partial result is too large, so is the answer.
    let mut r: u128 = 1;
    for i in 0..k {
        r = r * u128::from(n - i) / u128::from(i + 1);
        if r > i32::MAX as u128 {
            return Err(err(codes::OVERFLOW, format!("Overflow when computing choose({n}, {k})")));
        }
    }
    Ok(Value::Int(r as i32))
}

/// The Bitwise operators, as their text defines them, where it gives an answer:
/// `And(x, y, n, m)` (and `Or`, `Xor`, each with `n = 0` and `m` the greater operand, behind
/// `&`, `|` and `^^`) combines bit `k` of `x` and `y` (`(x \div 2^k) % 2`, so a negative
/// number's two's-complement bits) for each `k` from `n` while `m \div 2^(k-n)` is not 0;
/// `Not(a)` flips the bits of `a` up to its highest; `shiftR(n, pos)` halves `n` `pos` times,
/// rounding down. Where the text never ends (a negative `m`, `a` or `pos`), TLC's Java
/// answers, and so does this: `x & y`, `x | y`, `x ^ y`, `0`, and an unsigned shift.
fn bitwise(name: &str, v: [i32; 4]) -> VResult<i32> {
    let [x, y, n, m] = v;
    match name {
        "shiftR" if y >= 0 => Ok(x >> y.min(31)),
        "shiftR" => Ok(((x as u32) >> (y & 31)) as i32),
        "Not" if x < 0 => Ok(0),
        "And" | "Or" | "Xor" if m < 0 => Ok(match name {
            "And" => x & y,
            "Or" => x | y,
            _ => x ^ y,
        }),
        _ => {
            let (y, n, mut m) = if name == "Not" { (0, 0, x) } else { (y, n, m) };
            let bit = |v: i32, k: u32| (i64::from(v) >> k.min(63)) & 1;
            let (mut k, mut out) = (n.max(0) as u32, 0i64);
            while m != 0 {
                let (a, b) = (bit(x, k), bit(y, k));
                let one = match name {
                    "And" => a & b,
                    "Or" => a | b,
                    "Xor" => a ^ b,
                    _ => 1 - a,
                };
                out += one << k.min(62);
                m /= 2;
                k += 1;
            }
            i32::try_from(out).map_err(|_| err(codes::OVERFLOW, format!("Overflow when computing {name}")))
        }
    }
}

/// The override of `module`'s definition `name`, if TLC has one that the text does not match.
pub(crate) fn of(module: &str, name: &str) -> Option<&'static Override> {
    OVERRIDES.iter().find(|o| o.module == module && o.name == name)
}

impl ConstEval<'_> {
    /// The graph `G` as its nodes and edges.
    fn graph(&self, g: &Value, op: &str) -> VResult<(SetVal, SetVal)> {
        let field = |f: &str| -> VResult<SetVal> {
            let v = g
                .field(&self.program.interner.get(f))
                .map_err(|_| err(codes::TYPE, format!("{op}: the graph must be a record with fields node and edge, not {g}")))?;
            v.to_set()
        };
        Ok((field("node")?, field("edge")?))
    }
}

impl ConstEval<'_> {
    /// The text of the SVG element `e` (a record `[name, attrs, children, innerText]`, as
    /// `SVGElem` makes it), as the SVG module's Java override writes it: `<name a='v' ...>`, an
    /// attribute's `_` written `-`, the inner text with `<<` and `>>` escaped, then the
    /// children's texts, then `</name>`.
    fn svg(&self, e: &Value, out: &mut String, depth: usize) -> Result<(), String> {
        if depth > 1000 {
            return Err("the element is nested too deeply".into());
        }
        let field = |f: &str| e.field(&self.program.interner.get(f)).map_err(|_| format!("an SVG element must be a record with field {f}, not {e}"));
        let text = |v: &Value, what: &str| match v {
            Value::Str(s) => Ok(s.as_str().to_string()),
            v => Err(format!("{what} must be a string, not {v}")),
        };
        let name = text(&field("name")?, "the name")?;
        out.push('<');
        out.push_str(&name);
        let attrs = field("attrs")?;
        // An empty record is the empty function, which is also the empty sequence.
        if !matches!(&attrs, Value::Seq(_)) || attrs.as_seq("SVGElemToString").is_ok_and(|s| !s.is_empty()) {
            let Value::Fcn(f) = &attrs else { return Err(format!("the attributes must be a record, not {attrs}")) };
            for (k, v) in f.domain().iter().zip(f.values()) {
                out.push(' ');
                out.push_str(&text(k, "an attribute's name")?.replace('_', "-"));
                out.push_str("='");
                out.push_str(&text(v, "an attribute's value")?);
                out.push('\'');
            }
        }
        out.push('>');
        out.push_str(&text(&field("innerText")?, "the inner text")?.replace("<<", "&lt;&lt;").replace(">>", "&gt;&gt;"));
        let children = field("children")?;
        let kids: &[Value] = match &children {
            Value::Seq(_) => children.as_seq("SVGElemToString").map_err(|e| e.to_string())?,
            Value::Fcn(f) => f.values(),
            v => return Err(format!("the children must be a sequence or a function, not {v}")),
        };
        for c in kids {
            self.svg(c, out, depth + 1)?;
        }
        out.push_str("</");
        out.push_str(&name);
        out.push('>');
        Ok(())
    }
}

/// Whether an edge joins `a` to `b`: for an undirected graph an edge is the set `{a, b}` (`{a}`
/// for a loop); for a directed one the pair `<<a, b>>`.
fn joins(edges: &SetVal, a: &Value, b: &Value, directed: bool) -> VResult<bool> {
    let e = if directed { Value::tuple(vec![a.clone(), b.clone()])? } else { Value::set(vec![a.clone(), b.clone()])? };
    edges.contains(&e)
}

/// For each node (by index in `nodes`), the nodes one edge leads to.
fn successors(nodes: &[Value], edges: &SetVal, directed: bool) -> VResult<Vec<Vec<usize>>> {
    let mut out = vec![Vec::new(); nodes.len()];
    for (i, a) in nodes.iter().enumerate() {
        for (j, b) in nodes.iter().enumerate() {
            if joins(edges, a, b, directed)? {
                out[i].push(j);
            }
        }
    }
    Ok(out)
}

/// The nodes reachable from node `from` (itself included) along edges.
fn reachable(succ: &[Vec<usize>], from: usize) -> Vec<bool> {
    let mut seen = vec![false; succ.len()];
    let mut stack = vec![from];
    seen[from] = true;
    while let Some(i) = stack.pop() {
        for &j in &succ[i] {
            if !seen[j] {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    seen
}

impl<'a> ConstEval<'a> {
    /// An override of [`What::Lazy`]: it decides whether (and where) to evaluate its argument,
    /// as TLC's `@Evaluation` methods of TLCExt do.
    fn call_lazy_override(&self, name: &str, args: &'a [Expr], env: &Env<'a>) -> VResult<Value> {
        if args.len() != 1 {
            return Err(err(codes::ARITY, format!("{name} takes 1 argument(s), not {}", args.len())));
        }
        match name {
            "TLCDefer" => self.tlc_defer(),
            "TLCEvalDefinition" => self.eval_definition(&args[0], env),
            _ => self.pick_successor(&args[0], env),
        }
    }

    /// TLCExt's `TLCDefer(e)`: TRUE. TLC hands `e` to the successor state, and only its
    /// simulator runs it, once it has picked that successor; its breadth-first search never
    /// does. So in a model-checking run `e` is not evaluated at all (its `TLCSet` and `Print`
    /// have no effect), and anywhere else the call is refused rather than run at the wrong time.
    fn tlc_defer(&self) -> VResult<Value> {
        if self.tlc.config.borrow().is_some() {
            return Ok(Value::Bool(true));
        }
        Err(err(
            codes::UNSUPPORTED,
            "TLCDefer (module TLCExt) is supported in a model-checking run only (`sysmo check`), where TLC never \
             evaluates the deferred expression; TLC's simulator evaluates it once it has picked a successor, which \
             this checker does not reproduce",
        ))
    }

    /// TLCExt's `TLCEvalDefinition(name)`: the value of the root module's zero-argument
    /// definition `name` (its own or one it extends), evaluated outside any instance, in the
    /// current states.
    fn eval_definition(&self, arg: &'a Expr, env: &Env<'a>) -> VResult<Value> {
        let v = self.ev(arg, env)?;
        let Value::Str(s) = &v else {
            return Err(err(codes::TYPE, format!("TLCEvalDefinition expects a string, the name of a definition, not {v}")));
        };
        let name = s.as_str();
        match self.program.globals.get(name).cloned() {
            Some(Global::Op(d)) if d.params.is_empty() => self.in_closure_frames(0, || self.call_def(d, &[], &Env::default(), name)),
            Some(Global::Op(d)) => Err(err(
                codes::ARITY,
                format!("TLCEvalDefinition expects a definition without parameters, and {name} takes {}", d.params.len()),
            )),
            Some(Global::Fun(d)) => self.in_closure_frames(0, || self.fun_value(d, &Env::default())),
            Some(Global::Native(o)) => self.in_closure_frames(0, || self.call_override(o, &[], &Env::default())),
            _ => Err(err(
                codes::UNKNOWN,
                format!("TLCEvalDefinition: \"{name}\" is not the name of a definition of the root module or of a module it extends"),
            )),
        }
    }

    /// TLCExt's `PickSuccessor(cond)`: TRUE when `cond` holds, and also where there is no
    /// complete successor to pick (at constant or state level, in Init, or before every
    /// primed variable is assigned), as TLC answers. Where TLC would ask its user, on the
    /// terminal, whether to keep the successor, the call is refused: this checker asks no one.
    fn pick_successor(&self, arg: &'a Expr, env: &Env<'a>) -> VResult<Value> {
        let v = self.ev(arg, env)?;
        let Value::Bool(b) = v else {
            return Err(err(codes::TYPE, format!("PickSuccessor expects a boolean condition, not {v}")));
        };
        let complete = {
            let next = self.frame.next.borrow();
            !self.frame.init_mode.get() && !next.is_empty() && next.iter().all(Option::is_some)
        };
        if b || !complete {
            return Ok(Value::Bool(true));
        }
        Err(err(
            codes::UNSUPPORTED,
            "PickSuccessor's condition is FALSE on a successor: TLC would now ask its user, on the terminal, whether \
             to keep it, and this checker does not ask (make the condition hold, or leave PickSuccessor out)",
        ))
    }
}

/// Most simple paths `SimplePath` lists before giving up.
const PATH_LIMIT: usize = 1 << 22;

impl<'a> ConstEval<'a> {
    /// Apply the override `o` to `args`.
    pub(super) fn call_override(&self, o: &Override, args: &'a [Expr], env: &Env<'a>) -> VResult<Value> {
        if let What::Unsupported(why) = o.what {
            return Err(err(codes::UNSUPPORTED, format!("{} (module {}) is not supported: {why}", o.name, o.module)));
        }
        if let What::Io = o.what {
            let want = super::io::arity(o.name).unwrap_or(0);
            if args.len() != want {
                return Err(err(codes::ARITY, format!("{} takes {want} argument(s), not {}", o.name, args.len())));
            }
            let vals = args.iter().map(|a| self.ev(a, env)).collect::<VResult<Vec<_>>>()?;
            return self.call_io(o.name, &vals);
        }
        if o.name == "IOEnv" {
            return self.tlc.environment.borrow().clone().ok_or_else(|| {
                err(
                    codes::UNSUPPORTED,
                    "IOEnv (module IOUtils) is the environment variables of the process that runs the check, and this \
                     run has none (the web playground has no environment; `sysmo check` gives its own)",
                )
            });
        }
        if let What::Lazy = o.what {
            return self.call_lazy_override(o.name, args, env);
        }
        let mut vals = Vec::with_capacity(args.len());
        for a in args {
            vals.push(self.ev(a, env)?);
        }
        let want = match o.name {
            "Trace" => 0,
            "AreConnectedIn" => 3,
            "choose" | "shiftR" => 2,
            "And" | "Or" | "Xor" => 4,
            "TLCGetOrDefault" => 2,
            "NodeOfRingNetwork" => 5,
            _ => 1,
        };
        if vals.len() != want {
            return Err(err(codes::ARITY, format!("{} takes {want} argument(s), not {}", o.name, vals.len())));
        }
        let directed = o.module == "Graphs";
        match o.name {
            "ToJson" | "ToJsonArray" | "ToJsonObject" => {
                let shape = match o.name {
                    "ToJson" => Json::Any,
                    "ToJsonArray" => Json::Array,
                    _ => Json::Object,
                };
                let mut out = String::new();
                json(&vals[0], shape, &mut out).map_err(|e| err(codes::TYPE, format!("{}: {e}", o.name)))?;
                Ok(Value::Str(self.program.interner.get(&out)))
            }
            // TLCExt's Trace: the states of the behaviour to the one evaluated, each a record of
            // the variables.
            "Trace" => {
                let behaviour = self.tlc.behaviour.borrow();
                let Some(states) = behaviour.as_ref() else {
                    return Err(err(
                        codes::UNSUPPORTED,
                        "Trace (module TLCExt) is the behaviour to the state being checked, and none is known here: \
                         not while the initial states are computed (as in TLC), and only in a model-checking run \
                         (sysmo check, not simulate)",
                    ));
                };
                let names: Vec<_> = self.program.var_names.iter().map(|n| self.program.interner.get(n)).collect();
                let records = states
                    .iter()
                    .map(|s| Value::record(names.iter().cloned().zip(s.iter().cloned()).collect()))
                    .collect::<VResult<Vec<_>>>()?;
                Ok(Value::Seq(Elems::from(records)))
            }
            // The register's value, or the default when it is not set (or the key names none).
            "TLCGetOrDefault" => {
                let set = Register::of(&vals[0]).and_then(|r| self.tlc.registers.borrow().get(&r).cloned());
                Ok(set.unwrap_or_else(|| vals[1].clone()))
            }
            // The model value of that name, as if the .cfg had declared it.
            "TLCModelValue" => match &vals[0] {
                Value::Str(s) => Ok(Value::model(s.clone())),
                v => Err(err(codes::TYPE, format!("TLCModelValue expects a string, not {v}"))),
            },
            // SVG.java's ringNetwork: node n of m on the circle of radius r around (cx, cy), at
            // the angle 2*pi/m*n, each coordinate truncated to an integer as Java's (int) does
            // (toward zero, NaN to 0, saturating).
            "NodeOfRingNetwork" => {
                let mut v = [0i32; 5];
                for (i, x) in vals.iter().enumerate() {
                    v[i] = match x {
                        Value::Int(k) => *k,
                        _ => return Err(err(codes::TYPE, format!("NodeOfRingNetwork expects integers, not {x}"))),
                    };
                }
                let [cx, cy, r, n, m] = v.map(f64::from);
                let angle = (2.0 * std::f64::consts::PI / m) * n;
                let (x, y) = ((cx + r * angle.cos()) as i32, (cy + r * angle.sin()) as i32);
                Value::record(vec![(self.program.interner.get("x"), Value::Int(x)), (self.program.interner.get("y"), Value::Int(y))])
            }
            "SVGElemToString" => {
                let mut out = String::new();
                self.svg(&vals[0], &mut out, 0).map_err(|e| err(codes::TYPE, format!("SVGElemToString: {e}")))?;
                Ok(Value::Str(self.program.interner.get(&out)))
            }
            "choose" => binomial(&vals[0], &vals[1]),
            "And" | "Or" | "Xor" | "Not" | "shiftR" => {
                let mut v = [0i32; 4];
                for (i, x) in vals.iter().enumerate() {
                    v[i] = match x {
                        Value::Int(k) => *k,
                        _ => return Err(err(codes::TYPE, format!("{} (module Bitwise) expects integers, not {x}", o.name))),
                    };
                }
                Ok(Value::Int(bitwise(o.name, v)?))
            }
            "atoi" => match &vals[0] {
                Value::Str(s) => s.as_str().trim().parse::<i32>().map(Value::Int).map_err(|_| {
                    err(codes::TYPE, format!("atoi: \"{}\" is not the decimal text of an integer", s.as_str()))
                }),
                v => Err(err(codes::TYPE, format!("atoi expects a string, not {v}"))),
            },
            "AreConnectedIn" => {
                let (nodes, edges) = self.graph(&vals[2], o.name)?;
                let ns = nodes.elems();
                let (Some(m), Some(n)) = (ns.iter().position(|x| *x == vals[0]), ns.iter().position(|x| *x == vals[1])) else {
                    return Ok(Value::Bool(false));
                };
                let succ = successors(ns, &edges, directed)?;
                Ok(Value::Bool(reachable(&succ, m)[n]))
            }
            "IsStronglyConnected" => {
                let (nodes, edges) = self.graph(&vals[0], o.name)?;
                let ns = nodes.elems();
                let succ = successors(ns, &edges, directed)?;
                let all = (0..ns.len()).all(|i| reachable(&succ, i).iter().all(|r| *r));
                // UndirectedGraphs defines it as ConnectedComponents(G) = {G.node}: never for a
                // graph with no node, which has no component. Graphs: all pairs connected.
                Ok(Value::Bool(all && (directed || !ns.is_empty())))
            }
            "ConnectedComponents" => {
                let (nodes, edges) = self.graph(&vals[0], o.name)?;
                let ns = nodes.elems();
                let succ = successors(ns, &edges, directed)?;
                let mut comp: Vec<Option<usize>> = vec![None; ns.len()];
                let mut sets = Vec::new();
                for i in 0..ns.len() {
                    if comp[i].is_some() {
                        continue;
                    }
                    let r = reachable(&succ, i);
                    let members: Vec<Value> = (0..ns.len()).filter(|&j| r[j]).map(|j| ns[j].clone()).collect();
                    for (j, reach) in r.iter().enumerate() {
                        if *reach {
                            comp[j] = Some(sets.len());
                        }
                    }
                    sets.push(Value::set(members)?);
                }
                Value::set(sets)
            }
            "SimplePath" => {
                let (nodes, edges) = self.graph(&vals[0], o.name)?;
                let ns = nodes.elems();
                let succ = successors(ns, &edges, directed)?;
                let mut paths = Vec::new();
                let mut path = Vec::new();
                let mut on = vec![false; ns.len()];
                fn extend(succ: &[Vec<usize>], ns: &[Value], path: &mut Vec<usize>, on: &mut [bool], out: &mut Vec<Value>) -> bool {
                    if out.len() >= PATH_LIMIT {
                        return false;
                    }
                    out.push(Value::Seq(Elems::from(path.iter().map(|&i| ns[i].clone()).collect::<Vec<_>>())));
                    let last = *path.last().expect("non-empty");
                    for &j in &succ[last] {
                        if !on[j] {
                            on[j] = true;
                            path.push(j);
                            let ok = extend(succ, ns, path, on, out);
                            path.pop();
                            on[j] = false;
                            if !ok {
                                return false;
                            }
                        }
                    }
                    true
                }
                for i in 0..ns.len() {
                    on[i] = true;
                    path.push(i);
                    let ok = extend(&succ, ns, &mut path, &mut on, &mut paths);
                    path.pop();
                    on[i] = false;
                    if !ok {
                        return Err(err(codes::TOO_LARGE, format!("SimplePath: the graph has more than {PATH_LIMIT} simple paths")));
                    }
                }
                Value::set(paths)
            }
            _ => Err(err(codes::UNSUPPORTED, format!("{} (module {}) has no native implementation", o.name, o.module))),
        }
    }
}

/// What JSON a value is written as (the three entry points of TLC's Json override).
#[derive(Clone, Copy, PartialEq)]
enum Json {
    /// `ToJson`: records and functions as objects, sequences and sets as arrays, scalars.
    Any,
    /// `ToJsonArray`: a sequence or a set as an array (a function that is not a sequence as an
    /// object).
    Array,
    /// `ToJsonObject`: a record or function as an object.
    Object,
}

/// Write `v` as TLC's Json override does (compact, no spaces; object keys in the value's
/// order, which is TLC's; sets in TLC's order; strings escaped as Gson's JsonWriter does).
/// `v` as TLC's Json override writes it (`ToJson`, and the files of `JsonSerialize`).
pub(super) fn to_json(v: &Value, out: &mut String) -> Result<(), String> {
    json(v, Json::Any, out)
}

fn json(v: &Value, shape: Json, out: &mut String) -> Result<(), String> {
    let unsupported = || Err(format!("cannot convert the {} {v} to JSON", crate::value::kind_name(v)));
    match (v, shape) {
        (Value::Bool(b), Json::Any) => out.push_str(if *b { "true" } else { "false" }),
        (Value::Int(i), Json::Any) => out.push_str(&i.to_string()),
        (Value::Str(s), Json::Any) => json_string(s.as_str(), out),
        (Value::Model(_), Json::Any) => json_string(&v.to_string(), out),
        (Value::Seq(_), Json::Any | Json::Array) => {
            let items = v.as_seq("ToJson").map_err(|e| e.to_string())?;
            json_items(items, out)?;
        }
        // A tuple is written as an object with keys from "0", a function with domain 1..n as an
        // array: TLC tells them apart by how the value was built, which values here do not keep.
        (Value::Seq(_), Json::Object) => {
            return Err(format!(
                "the sequence {v} is an object keyed from \"0\" if TLC built it as a tuple, an array if as a function, and which one is not known here"
            ))
        }
        (Value::Fcn(f), _) => {
            out.push('{');
            for (i, (k, x)) in f.domain().iter().zip(f.values()).enumerate() {
                if i > 0 {
                    out.push(',');
                }
                match k {
                    Value::Str(s) => json_string(s.as_str(), out),
                    other => json_string(&other.to_string(), out),
                }
                out.push(':');
                json(x, Json::Any, out)?;
            }
            out.push('}');
        }
        (Value::Set(s), Json::Any | Json::Array) => json_items(s.elems(), out)?,
        (Value::Lazy(l), Json::Any | Json::Array) if l.is_finite() => {
            let elems = v.elements().and_then(|e| e.collect::<Result<Vec<_>, _>>()).map_err(|e| e.to_string())?;
            let set = Value::set(elems).map_err(|e| e.to_string())?;
            json(&set, shape, out)?;
        }
        _ => return unsupported(),
    }
    Ok(())
}

fn json_items(items: &[Value], out: &mut String) -> Result<(), String> {
    out.push('[');
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        json(x, Json::Any, out)?;
    }
    out.push(']');
    Ok(())
}

/// A JSON string literal, escaped as Gson's JsonWriter escapes (HTML-safe escaping off).
fn json_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\u{c}' => out.push_str("\\f"),
            '\u{2028}' | '\u{2029}' => out.push_str(&format!("\\u{:04x}", c as u32)),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn choose(n: i32, k: i32) -> Result<i32, &'static str> {
        match binomial(&Value::Int(n), &Value::Int(k)) {
            Ok(Value::Int(v)) => Ok(v),
            Ok(_) => Err("not an integer"),
            Err(e) => Err(e.code),
        }
    }

    /// What TLC's Java (tlc2.util.Combinatorics.choose, then Math.toIntExact) answers where the
    /// module's text overflows in factorial[n] or fails on factorial[n - k].
    #[test]
    fn choose_is_tlcs_binomial_where_the_text_overflows() {
        assert_eq!(choose(20, 10), Ok(184_756));
        assert_eq!(choose(30, 15), Ok(155_117_520));
        assert_eq!(choose(63, 1), Ok(63));
        assert_eq!(choose(2_000_000_000, 1), Ok(2_000_000_000));
        assert_eq!(choose(3, 5), Ok(0));
        assert_eq!(choose(0, 0), Ok(1));
        // C(34, 17) = 2,333,606,220 does not fit.
        assert_eq!(choose(34, 17), Err(codes::OVERFLOW));
        assert_eq!(choose(-1, 0), Err(codes::TYPE));
        assert_eq!(choose(1, -1), Err(codes::TYPE));
    }

    /// The text's answers (checked with TLC 2.15 on the CommunityModules' Bitwise.tla), and
    /// TLC's Java where the text's recursion never ends.
    #[test]
    fn bitwise_follows_the_text() {
        let b = |name: &str, x: i32, y: i32| {
            let m = x.max(y);
            bitwise(name, [x, y, 0, m]).map_err(|e| e.code)
        };
        assert_eq!(b("And", 12, 10), Ok(8));
        assert_eq!(b("Or", 12, 10), Ok(14));
        assert_eq!(b("Xor", 12, 10), Ok(6));
        assert_eq!(b("And", 5, -3), Ok(5));
        assert_eq!(b("Or", 12, -3), Ok(13));
        assert_eq!(b("Xor", 12, -3), Ok(1));
        assert_eq!(b("Or", -12, -3), Ok(-12 | -3));
        assert_eq!(bitwise("Not", [5, 0, 0, 0]).map_err(|e| e.code), Ok(2));
        assert_eq!(bitwise("Not", [0, 0, 0, 0]).map_err(|e| e.code), Ok(0));
        assert_eq!(bitwise("shiftR", [-5, 1, 0, 0]).map_err(|e| e.code), Ok(-3));
        assert_eq!(
            bitwise("shiftR", [-1, 40, 0, 0]).map_err(|e| e.code),
            Ok(-1)
        );
        assert_eq!(
            bitwise("And", [i32::MAX, i32::MAX, 0, i32::MAX]).map_err(|e| e.code),
            Ok(i32::MAX)
        );
    }
}
