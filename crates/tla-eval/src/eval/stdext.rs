//! TLC's `SortSeq` and the operators of the community modules Folds, Functions, FiniteSetsExt
//! and SequencesExt, computed natively.
//!
//! Each operator gives what its TLA+ definition gives when TLC evaluates it: where a definition
//! picks elements with CHOOSE (the folds over sets, `Max`, `Inverse`, `SetToSeq`, ...), the
//! element picked is the first one in TLC's order of values, the order our sets are kept in.
//! Errors are the ones evaluating the definition would raise (a CHOOSE that finds nothing, an
//! integer operator applied to a non-integer, an application outside a domain), raised as
//! [`ValueError`]s with their usual codes.
//!
//! Operator parameters (`SortSeq(s, Op(_, _))`) take a LAMBDA, the name of an operator, or a
//! standard operator: a built-in one written as its symbol (`SortSeq(s, <)`, `FoldSet(+, 0,
//! S)`), or one of the operators here by its name (`MapThenSumSet(Max, S)`).

use tla_syntax::ast::*;

use super::{err, konst, Binding, ConstEval, Env};
use crate::error::{codes, VResult, ValueError};
use crate::value::{kind_name, SetVal, Value};

/// Most values a set-building operator here enumerates before giving up (TLC would run out
/// of memory or time long before).
const ENUM_LIMIT: u64 = 1 << 22;

/// An operator passed to one of these operators.
enum OpArg<'a> {
    /// A LAMBDA, a defined operator, or an operator parameter.
    Bound(Binding<'a>),
    /// A standard operator named by its symbol or name (`<`, `+`, `\cup`, `Append`, `Max`,
    /// ...): one of `strict_builtin`'s or of `std_ext_values`'s.
    Builtin(&'a str),
}

/// Which element a fold over a set takes next.
enum Pick<'p, 'a> {
    /// The first in TLC's order (`CHOOSE x \in s : TRUE`, and `Min` over integers).
    First,
    /// The last in TLC's order (`Max` over integers).
    Last,
    /// What a user's operator chooses.
    With(&'p OpArg<'a>),
}

/// The error for a set too large to build.
fn too_large(what: &str) -> ValueError {
    err(codes::TOO_LARGE, format!("{} is too large to enumerate", what))
}

/// The error of a CHOOSE in a definition that finds no element of `set` (`what` says which).
fn choose_none(set: &SetVal, what: &str) -> ValueError {
    err(
        codes::CHOOSE_NONE,
        format!("Attempted to compute the value of CHOOSE x \\in S : P ({}), but no element of S = {} satisfies P", what, Value::Set(set.clone())),
    )
}

/// The elements of the sequence `v` (an error naming `op` for anything else).
fn seq<'v>(v: &'v Value, op: &str) -> VResult<&'v [Value]> {
    v.as_seq(op)
}

/// `Len(s)` as an integer index bound.
fn len_i32(s: &[Value]) -> i32 {
    s.len().min(i32::MAX as usize) as i32
}

/// The domain of the function `f` as a sorted set, with the values in the same order.
fn fcn_pairs(f: &Value) -> VResult<(SetVal, Vec<Value>)> {
    let dom = f.domain()?.to_set()?;
    let vals = dom.elems().iter().map(|x| f.apply(x)).collect::<VResult<Vec<_>>>()?;
    Ok((dom, vals))
}

/// `Max(S)` or `Min(S)` of FiniteSetsExt: the greatest (least) integer of a non-empty set.
fn extreme(set: &Value, max: bool) -> VResult<Value> {
    let s = set.to_set()?;
    let name = if max { "Max" } else { "Min" };
    let mut best: Option<i32> = None;
    for v in s.elems() {
        let i = v.as_int().map_err(|_| {
            err(codes::TYPE, format!("{} applies to a set of integers, but the set contains the {} {}", name, kind_name(v), v))
        })?;
        best = Some(match best {
            Some(b) if max => b.max(i),
            Some(b) => b.min(i),
            None => i,
        });
    }
    match best {
        Some(b) => Ok(Value::Int(b)),
        None => Err(choose_none(&s, &format!("{} of the empty set", name))),
    }
}

/// Every function from `dom` to `rng`, filtered as asked: one-to-one (`inj`) and onto
/// (`surj`), as TLC's `{M \in [S -> T] : ...}` gives them.
fn functions_between(dom: &SetVal, rng: &SetVal, inj: bool, surj: bool) -> VResult<Vec<Value>> {
    let (n, m) = (dom.len(), rng.len());
    let mut out = Vec::new();
    let mut pick = vec![0usize; n];
    let mut used = vec![0usize; m];
    let mut steps: u64 = 0;
    // Depth-first over the positions of the domain; `uncovered` counts values of `rng` not
    // taken yet (an onto function needs them all in the remaining positions).
    #[allow(clippy::too_many_arguments)]
    fn go(
        k: usize,
        n: usize,
        m: usize,
        inj: bool,
        surj: bool,
        pick: &mut [usize],
        used: &mut [usize],
        uncovered: usize,
        steps: &mut u64,
        emit: &mut dyn FnMut(&[usize]) -> VResult<()>,
    ) -> VResult<()> {
        *steps += 1;
        if *steps > ENUM_LIMIT {
            return Err(too_large("The set of functions"));
        }
        if surj && uncovered > n - k {
            return Ok(());
        }
        if k == n {
            return emit(pick);
        }
        for j in 0..m {
            if inj && used[j] > 0 {
                continue;
            }
            pick[k] = j;
            used[j] += 1;
            let unc = if used[j] == 1 { uncovered - 1 } else { uncovered };
            let r = go(k + 1, n, m, inj, surj, pick, used, unc, steps, emit);
            used[j] -= 1;
            r?;
        }
        Ok(())
    }
    let mut emit = |p: &[usize]| -> VResult<()> {
        out.push(Value::fcn_over(dom, p.iter().map(|&j| rng.elems()[j].clone()).collect())?);
        Ok(())
    };
    go(0, n, m, inj, surj, &mut pick, &mut used, m, &mut steps, &mut emit)?;
    Ok(out)
}

/// The sequences of distinct elements of `elems` of length `k` (every order of every
/// `k`-subset), appended to `out`.
fn arrangements(elems: &[Value], k: usize, out: &mut Vec<Value>) -> VResult<()> {
    fn go(elems: &[Value], k: usize, cur: &mut Vec<Value>, used: &mut [bool], out: &mut Vec<Value>) -> VResult<()> {
        if cur.len() == k {
            if out.len() as u64 >= ENUM_LIMIT {
                return Err(too_large("The set of sequences"));
            }
            out.push(Value::tuple(cur.clone())?);
            return Ok(());
        }
        for i in 0..elems.len() {
            if !used[i] {
                used[i] = true;
                cur.push(elems[i].clone());
                let r = go(elems, k, cur, used, out);
                cur.pop();
                used[i] = false;
                r?;
            }
        }
        Ok(())
    }
    go(elems, k, &mut Vec::with_capacity(k), &mut vec![false; elems.len()], out)
}

/// The contiguous pieces of `s` (`SubSeqs(s)`), the empty sequence included.
fn sub_seqs(s: &[Value]) -> VResult<Value> {
    let mut out = vec![Value::tuple(Vec::new())?];
    for i in 0..s.len() {
        for j in i + 1..=s.len() {
            out.push(Value::tuple(s[i..j].to_vec())?);
        }
    }
    Value::set(out)
}

/// Whether `s` is a prefix of `t` (elements compared with TLC's equality).
fn is_prefix(s: &[Value], t: &[Value]) -> VResult<bool> {
    if s.len() > t.len() {
        return Ok(false);
    }
    for (x, y) in s.iter().zip(t) {
        if !x.tlc_eq(y)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The first position (1-based) at which `s` occurs in `t`, if it does (`IndexFirstSubSeq`:
/// the occurrence that ends first).
fn index_first(s: &[Value], t: &[Value]) -> VResult<Option<usize>> {
    if s.is_empty() {
        return Ok(Some(1));
    }
    for start in 0..t.len().saturating_sub(s.len() - 1) {
        if is_prefix(s, &t[start..])? {
            return Ok(Some(start + 1));
        }
    }
    Ok(None)
}

/// `SubSeq(s, m, n) \o r \o SubSeq(s, k, Len(s))`, with the errors of SubSeq.
fn splice(t: &Value, m: i32, r: &[Value], k: i32) -> VResult<Value> {
    let n = len_i32(seq(t, "SubSeq")?);
    let mut out = seq(&t.subseq(1, m)?, "SubSeq")?.to_vec();
    out.extend_from_slice(r);
    out.extend_from_slice(seq(&t.subseq(k, n)?, "SubSeq")?);
    Value::tuple(out)
}

impl<'a> ConstEval<'a> {
    /// The operators of TLC's `SortSeq` and of the community modules; `None` for any other
    /// name (the caller tries the standard modules' other operators).
    pub(super) fn std_ext(&self, name: &str, args: &'a [Expr], env: &Env<'a>) -> Option<VResult<Value>> {
        // Every name here starts with a capital letter but kSubset (a cheap test first: this
        // runs before every standard operator the interpreter applies).
        if !name.starts_with(|c: char| c.is_ascii_uppercase() || c == 'k') {
            return None;
        }
        let n = args.len();
        if takes_operator(name, n) {
            return Some(self.std_ext_with_op(name, args, env));
        }
        if !is_value_op(name, n) {
            return None;
        }
        let mut vals = Vec::with_capacity(n);
        for a in args {
            match self.ev(a, env) {
                Ok(v) => vals.push(v),
                Err(e) => return Some(Err(e)),
            }
        }
        Some(self.std_ext_values(name, vals))
    }

    /// The operators of this module with an operator parameter (see [`takes_operator`]).
    fn std_ext_with_op(&self, name: &str, args: &'a [Expr], env: &Env<'a>) -> VResult<Value> {
        let n = args.len();
        match (name, n) {
            // Operators with an operator parameter.
            ("SortSeq", 2) => self.sort_seq(args, env),
            ("SetToSortSeq", 2) => {
                let s = self.ev(&args[0], env)?.to_set()?;
                let op = self.ext_op_arg(2, &args[1], env)?;
                self.insertion_sort(s.elems().to_vec(), &op)
            }
            ("FoldSet", 3) | ("ReduceSet", 3) => {
                let op = self.ext_op_arg(2, &args[0], env)?;
                let (base, set) = if name == "FoldSet" { (&args[1], &args[2]) } else { (&args[2], &args[1]) };
                let base = self.ev(base, env)?;
                let set = self.ev(set, env)?.to_set()?;
                self.fold(&op, base, set.elems().to_vec(), |x| Ok(x.clone()))
            }
            ("MapThenSumSet", 2) => {
                let f = self.ext_op_arg(1, &args[0], env)?;
                let set = self.ev(&args[1], env)?.to_set()?;
                let plus = OpArg::Builtin("+");
                self.fold(&plus, Value::Int(0), set.elems().to_vec(), |x| self.apply_op(&f, vec![x.clone()]))
            }
            ("MapThenFoldSet", 5) => {
                let op = self.ext_op_arg(2, &args[0], env)?;
                let base = self.ev(&args[1], env)?;
                let f = self.ext_op_arg(1, &args[2], env)?;
                let choose = self.ext_op_arg(1, &args[3], env)?;
                let set = self.ev(&args[4], env)?.to_set()?;
                let order = self.pick_order(set, Pick::With(&choose))?;
                self.fold(&op, base, order, |x| self.apply_op(&f, vec![x.clone()]))
            }
            ("Quantify", 2) => {
                let set = self.ev(&args[0], env)?.to_set()?;
                let p = self.ext_op_arg(1, &args[1], env)?;
                let mut count = 0;
                for x in set.elems() {
                    if self.test(&p, x)? {
                        count += 1;
                    }
                }
                Ok(Value::Int(count))
            }
            ("ChooseUnique", 2) => {
                let set = self.ev(&args[0], env)?.to_set()?;
                let p = self.ext_op_arg(1, &args[1], env)?;
                let mut found = Vec::new();
                for x in set.elems() {
                    if self.test(&p, x)? {
                        found.push(x.clone());
                    }
                }
                match <[Value; 1]>::try_from(found) {
                    Ok([x]) => Ok(x),
                    Err(_) => Err(choose_none(&set, "ChooseUnique: exactly one element must satisfy P")),
                }
            }
            ("RestrictDomain", 2) | ("RestrictValues", 2) => {
                let f = self.ev(&args[0], env)?;
                let test = self.ext_op_arg(1, &args[1], env)?;
                let (dom, vals) = fcn_pairs(&f)?;
                let mut pairs = Vec::new();
                for (x, fx) in dom.elems().iter().zip(vals) {
                    let arg = if name == "RestrictDomain" { x } else { &fx };
                    if self.test(&test, arg)? {
                        pairs.push((x.clone(), fx));
                    }
                }
                Value::fcn(pairs)
            }
            ("Pointwise", 3) => {
                let f = self.ev(&args[0], env)?;
                let g = self.ev(&args[1], env)?;
                let op = self.ext_op_arg(2, &args[2], env)?;
                let (dom, vals) = fcn_pairs(&f)?;
                let mut out = Vec::with_capacity(vals.len());
                for (x, fx) in dom.elems().iter().zip(vals) {
                    out.push(self.apply_op(&op, vec![fx, g.apply(x)?])?);
                }
                Value::fcn_over(&dom, out)
            }
            ("FoldFunction", 3) | ("FoldFunctionOnSet", 4) | ("FoldSeq", 3) => {
                let op = self.ext_op_arg(2, &args[0], env)?;
                let base = self.ev(&args[1], env)?;
                let fun = self.ev(&args[2], env)?;
                let indices = match args.get(3) {
                    Some(i) => self.ev(i, env)?.to_set()?,
                    None => fun.domain()?.to_set()?,
                };
                self.fold(&op, base, indices.elems().to_vec(), |i| fun.apply(i))
            }
            ("FoldLeft", 3) | ("FoldLeftDomain", 3) | ("FoldRight", 3) | ("FoldRightDomain", 3) => {
                let op = self.ext_op_arg(2, &args[0], env)?;
                let left = name.starts_with("FoldLeft");
                let (base, s) = if left { (&args[1], &args[2]) } else { (&args[2], &args[1]) };
                let base = self.ev(base, env)?;
                let s = self.ev(s, env)?;
                let by_index = name.ends_with("Domain");
                let dom = s.domain()?.to_set()?;
                let order = self.pick_order(dom, if left { Pick::Last } else { Pick::First })?;
                let item = |i: &Value| if by_index { Ok(i.clone()) } else { s.apply(i) };
                if left {
                    // FoldLeft folds with LAMBDA x, y : op(y, x), taking the greatest index first.
                    let mut acc = base;
                    for i in order.iter().rev() {
                        acc = self.apply_op(&op, vec![acc, item(i)?])?;
                    }
                    Ok(acc)
                } else {
                    self.fold(&op, base, order, item)
                }
            }
            ("IsSorted", 2) => {
                let v = self.ev(&args[0], env)?;
                let s = seq(&v, "IsSorted")?;
                let op = self.ext_op_arg(2, &args[1], env)?;
                for i in 0..s.len() {
                    for j in i + 1..s.len() {
                        if !self.apply_op(&op, vec![s[i].clone(), s[j].clone()])?.as_bool()? {
                            return Ok(Value::Bool(false));
                        }
                    }
                }
                Ok(Value::Bool(true))
            }
            ("SelectInSeq", 2) | ("SelectLastInSeq", 2) | ("SelectInSubSeq", 4) | ("SelectLastInSubSeq", 4) => {
                let mut v = self.ev(&args[0], env)?;
                if n == 4 {
                    let (from, to) = (self.ev(&args[1], env)?.as_int()?, self.ev(&args[2], env)?.as_int()?);
                    v = v.subseq(from, to)?;
                }
                let test = self.ext_op_arg(1, &args[n - 1], env)?;
                let mut found = Vec::new();
                for (i, x) in seq(&v, name)?.iter().enumerate() {
                    if self.test(&test, x)? {
                        found.push(i + 1);
                    }
                }
                let i = if name.starts_with("SelectLast") { found.last() } else { found.first() };
                Ok(Value::Int(i.map_or(0, |&i| i as i32)))
            }
            ("RemoveFirstMatch", 2) => {
                let v = self.ev(&args[0], env)?;
                let test = self.ext_op_arg(1, &args[1], env)?;
                let s = seq(&v, "RemoveFirstMatch")?;
                let mut first = None;
                for (i, x) in s.iter().enumerate() {
                    if self.test(&test, x)? && first.is_none() {
                        first = Some(i);
                    }
                }
                match first {
                    Some(i) => Value::tuple(s[..i].iter().chain(&s[i + 1..]).cloned().collect()),
                    None => Ok(v.clone()),
                }
            }
            _ => Err(err(codes::UNKNOWN, format!("unknown operator {} with {} argument(s)", name, n))),
        }
    }

    /// An operator argument of arity `arity`: what [`ConstEval::op_arg`] accepts, and also a
    /// built-in operator written as its symbol.
    fn ext_op_arg(&self, arity: usize, a: &'a Expr, env: &Env<'a>) -> VResult<OpArg<'a>> {
        if let ExprKind::OpApp { op, args } = &*a.kind
            && args.is_empty()
            && op.path.is_empty()
            && self.local(op, env).is_none()
            && self.global_at(op).is_none()
        {
            let name = op.name.as_str();
            if builtin_arg(name, arity) {
                return Ok(OpArg::Builtin(name));
            }
            if (1..=4).filter(|&k| k != arity).any(|k| konst::known_builtin(name, k) || is_value_op(name, k)) {
                return Err(err(codes::ARITY, format!("the operator {} does not take {} argument(s)", name, arity)).at(a.span));
            }
        }
        Ok(OpArg::Bound(self.op_arg(arity, a, env).map_err(|e| e.at(a.span))?))
    }

    /// `op(args...)`
    fn apply_op(&self, op: &OpArg<'a>, args: Vec<Value>) -> VResult<Value> {
        match op {
            OpArg::Bound(b) => self.apply_binding(b, args),
            OpArg::Builtin(name) => self.apply_builtin(name, args),
        }
    }

    /// A standard operator passed as an argument (see [`builtin_arg`]) applied to values.
    pub(super) fn apply_builtin(&self, name: &str, args: Vec<Value>) -> VResult<Value> {
        match (name, args.as_slice()) {
            ("/\\", [x, y]) => Ok(Value::Bool(x.as_bool()? && y.as_bool()?)),
            ("\\/", [x, y]) => Ok(Value::Bool(x.as_bool()? || y.as_bool()?)),
            ("=>", [x, y]) => Ok(Value::Bool(!x.as_bool()? || y.as_bool()?)),
            _ if is_value_op(name, args.len()) => self.std_ext_values(name, args),
            _ => self.strict_builtin(name, args),
        }
    }

    /// `P(x)` for a predicate `P`.
    fn test(&self, p: &OpArg<'a>, x: &Value) -> VResult<bool> {
        self.apply_op(p, vec![x.clone()])?.as_bool()
    }

    /// The elements of `set` in the order a fold over it takes them (the element picked first
    /// comes first).
    fn pick_order(&self, set: SetVal, pick: Pick<'_, 'a>) -> VResult<Vec<Value>> {
        let mut rest = set.elems().to_vec();
        match pick {
            Pick::First | Pick::Last => {
                for v in &rest {
                    v.as_int()?;
                }
                if matches!(pick, Pick::Last) {
                    rest.reverse();
                }
                Ok(rest)
            }
            Pick::With(op) => {
                let mut order = Vec::with_capacity(rest.len());
                while !rest.is_empty() {
                    let x = self.apply_op(op, vec![Value::Set(SetVal::from_sorted(rest.clone()))])?;
                    let mut at = None;
                    for (i, y) in rest.iter().enumerate() {
                        if y.tlc_eq(&x)? {
                            at = Some(i);
                            break;
                        }
                    }
                    let Some(i) = at else {
                        return Err(err(codes::TYPE, format!("the choice operator of MapThenFoldSet chose {}, which is not in the set", x)));
                    };
                    order.push(rest.remove(i));
                }
                Ok(order)
            }
        }
    }

    /// `op(f(x1), op(f(x2), ... op(f(xn), base)))` for `order` = x1, ..., xn: Folds'
    /// MapThenFoldSet once the order of the elements is known.
    fn fold(&self, op: &OpArg<'a>, base: Value, order: Vec<Value>, f: impl Fn(&Value) -> VResult<Value>) -> VResult<Value> {
        let mut acc = base;
        for x in order.iter().rev() {
            acc = self.apply_op(op, vec![f(x)?, acc])?;
        }
        Ok(acc)
    }

    /// `SortSeq(s, Op)`: TLC's insertion sort, each element moved before those it is `Op`-less
    /// than (so equal elements keep their order under a strict order).
    fn sort_seq(&self, args: &'a [Expr], env: &Env<'a>) -> VResult<Value> {
        let v = self.ev(&args[0], env)?;
        let s = match &v {
            Value::Seq(_) => seq(&v, "SortSeq")?.to_vec(),
            _ => {
                return Err(err(codes::TYPE, format!("The first argument of SortSeq should be a sequence, but instead it is the {} {}", kind_name(&v), v))
                    .at(args[0].span))
            }
        };
        let op = self.ext_op_arg(2, &args[1], env)?;
        self.insertion_sort(s, &op)
    }

    /// The insertion sort of TLC's `SortSeq` (its module's definition leaves the order of
    /// elements the operator does not order unspecified; this is what TLC does).
    fn insertion_sort(&self, elems: Vec<Value>, op: &OpArg<'a>) -> VResult<Value> {
        let mut out: Vec<Value> = Vec::with_capacity(elems.len());
        for x in elems {
            let mut j = out.len();
            while j > 0 {
                let less = self.apply_op(op, vec![x.clone(), out[j - 1].clone()])?;
                let less = less.as_bool().map_err(|_| {
                    err(codes::TYPE, format!("The second argument of SortSeq should be a boolean operator, but it gave {}", less))
                })?;
                if !less {
                    break;
                }
                j -= 1;
            }
            out.insert(j, x);
        }
        Value::tuple(out)
    }

    /// The operators of SequencesExt that TLC takes on strings: through its `Len`, `SubSeq` and
    /// `\o` of strings when it evaluates their text, or in its Java (IsPrefix and the
    /// replacements). On string arguments, what TLC gives (None: not one of them, or not
    /// strings). LongestCommonPrefix, whose argument is a set, takes strings where it is.
    fn strings_as_text(&self, name: &str, vals: &[Value]) -> Option<VResult<Value>> {
        let text = |i: usize| match vals.get(i) {
            Some(Value::Str(t)) => Some(t.as_str().chars().collect::<Vec<char>>()),
            _ => None,
        };
        let string = |cs: &[char]| Value::Str(self.program.interner.get(&cs.iter().collect::<String>()));
        let index = |i: usize| match vals.get(i) {
            Some(Value::Int(k)) => Some(*k),
            _ => None,
        };
        // SubSeq(t, m, n) as TLC takes a string: "" when n < m, else an error outside 1..Len(t).
        let sub = |t: &[char], m: i32, n: i32| -> VResult<Vec<char>> {
            if n < m {
                return Ok(vec![]);
            }
            if m < 1 || n as i64 > t.len() as i64 {
                return Err(err(codes::NOT_IN_DOMAIN, format!("The second and third arguments of SubSeq ({m}, {n}) are out of the domain of the string \"{}\"", t.iter().collect::<String>())));
            }
            Ok(t[m as usize - 1..n as usize].to_vec())
        };
        Some(match name {
            // {SubSeq(s, i+1, j) : i, j \in 0..Len(s)} and {SubSeq(s, 1, n) : n \in 0..Len(s)}
            "SubSeqs" | "Prefixes" => {
                let t = text(0)?;
                let mut out = vec![];
                for i in 0..=t.len() {
                    for j in i..=t.len() {
                        if name == "SubSeqs" || i == 0 {
                            out.push(string(&t[i..j]));
                        }
                    }
                }
                Value::set(out)
            }
            // SubSeq(s, 1, Len(s) - 1)
            "Front" => {
                let t = text(0)?;
                sub(&t, 1, t.len() as i32 - 1).map(|r| string(&r))
            }
            // SubSeq(s, 1, i - 1) \o SubSeq(s, i + 1, Len(s))
            "RemoveAt" => {
                let (t, i) = (text(0)?, index(1)?);
                (|| Ok(string(&[sub(&t, 1, i - 1)?, sub(&t, i.saturating_add(1), t.len() as i32)?].concat())))()
            }
            // The least index at which `s` occurs in `t` (none: CHOOSE has no choice).
            "IndexFirstSubSeq" => {
                let (a, b) = (text(0)?, text(1)?);
                match (0..=b.len().saturating_sub(a.len())).find(|&i| b.len() >= a.len() && b[i..i + a.len()] == a[..]) {
                    Some(i) => Ok(Value::Int(i as i32 + 1)),
                    None => Err(err(codes::CHOOSE_NONE, format!("IndexFirstSubSeq: \"{}\" does not occur in \"{}\"", a.iter().collect::<String>(), b.iter().collect::<String>()))),
                }
            }
            // SubSeq(t, 1, i - 1) \o r \o SubSeq(t, i + Len(s), Len(t))
            "ReplaceSubSeqAt" => {
                let (i, r, s, t) = (index(0)?, text(1)?, text(2)?, text(3)?);
                (|| Ok(string(&[sub(&t, 1, i - 1)?, r.clone(), sub(&t, i.saturating_add(s.len() as i32), t.len() as i32)?].concat())))()
            }
            // Strings, as TLC takes them in IsPrefix (and so in IsStrictPrefix, defined from
            // it): a prefix of the text.
            "IsPrefix" | "IsStrictPrefix" => {
                let (Some(Value::Str(a)), Some(Value::Str(b))) = (vals.first(), vals.get(1)) else { return None };
                Ok(Value::Bool(b.as_str().starts_with(a.as_str()) && (name == "IsPrefix" || a.as_str() != b.as_str())))
            }
            // Three strings, as TLC's Java takes them: the text with the first (or every)
            // occurrence of `s` replaced by `r`. An empty `s` puts `r` before the text
            // (ReplaceFirstSubSeq), or before each of its characters (ReplaceAllSubSeqs:
            // `r t1 r t2 ... r tn`, just `r` for an empty text).
            "ReplaceFirstSubSeq" | "ReplaceAllSubSeqs" => {
                let (Some(Value::Str(r)), Some(Value::Str(sub)), Some(Value::Str(t))) = (vals.first(), vals.get(1), vals.get(2)) else { return None };
                let (r, sub, t) = (r.as_str(), sub.as_str(), t.as_str());
                let out = match (name, sub.is_empty()) {
                    ("ReplaceFirstSubSeq", true) => format!("{r}{t}"),
                    ("ReplaceFirstSubSeq", false) => t.replacen(sub, r, 1),
                    (_, true) => {
                        let mut out = r.to_string();
                        for (i, c) in t.chars().enumerate() {
                            if i != 0 {
                                out.push_str(r);
                            }
                            out.push(c);
                        }
                        out
                    }
                    (_, false) => t.replace(sub, r),
                };
                Ok(Value::Str(self.program.interner.get(&out)))
            }
            // The text's `IF Len(seqs) = 0 THEN seqs`, with TLC's Len of a string.
            "FlattenSeq" if matches!(vals.first(), Some(Value::Str(t)) if t.as_str().is_empty()) => Ok(vals[0].clone()),
            _ => return None,
        })
    }

    /// The operators of this module whose arguments are all values.
    fn std_ext_values(&self, name: &str, vals: Vec<Value>) -> VResult<Value> {
        if vals.iter().any(|x| matches!(x, Value::Str(_)))
            && let Some(r) = self.strings_as_text(name, &vals)
        {
            return r;
        }
        let v = |i: usize| &vals[i];
        let int = |i: usize| vals[i].as_int();
        let set = |i: usize| vals[i].to_set();
        let s = |i: usize| seq(&vals[i], name);
        let tuple = Value::tuple;
        match name {
            // FiniteSetsExt.
            "SumSet" | "ProductSet" => {
                let (op, base) = if name == "SumSet" { ("+", 0) } else { ("*", 1) };
                self.fold(&OpArg::Builtin(op), Value::Int(base), set(0)?.elems().to_vec(), |x| Ok(x.clone()))
            }
            "FlattenSet" => Value::union_of(v(0).clone()),
            "SymDiff" => Value::cup(Value::diff(v(0).clone(), v(1).clone())?, Value::diff(v(1).clone(), v(0).clone())?),
            "kSubset" => {
                let k = int(0)?;
                let elems = set(1)?;
                let n = elems.len();
                if k < 0 || k as usize > n {
                    return Ok(Value::empty_set());
                }
                let k = k as usize;
                if binomial(n as u64, k as u64) > ENUM_LIMIT {
                    return Err(too_large(&format!("kSubset({}, ...) of a set of {} elements", k, n)));
                }
                // Combinations of sorted elements, each already sorted.
                let mut out = Vec::new();
                let mut idx: Vec<usize> = (0..k).collect();
                loop {
                    out.push(Value::Set(SetVal::from_sorted(idx.iter().map(|&i| elems.elems()[i].clone()).collect())));
                    let Some(p) = (0..k).rev().find(|&p| idx[p] < n - k + p) else { break };
                    idx[p] += 1;
                    for q in p + 1..k {
                        idx[q] = idx[q - 1] + 1;
                    }
                }
                Value::set(out)
            }
            "Max" | "Min" => extreme(v(0), name == "Max"),
            "Choices" => {
                let sets = set(0)?.elems().iter().map(|x| x.to_set()).collect::<VResult<Vec<_>>>()?;
                let mut total: u64 = 1;
                for x in &sets {
                    total = total.saturating_mul(x.len() as u64);
                }
                if total > ENUM_LIMIT {
                    return Err(too_large("Choices of these sets"));
                }
                // One element from each set, in every combination; each choice is a set.
                let mut out = Vec::new();
                let mut idx = vec![0usize; sets.len()];
                if total > 0 {
                    loop {
                        out.push(Value::set(sets.iter().zip(&idx).map(|(x, &i)| x.elems()[i].clone()).collect())?);
                        let Some(p) = (0..sets.len()).rev().find(|&p| idx[p] + 1 < sets[p].len()) else { break };
                        idx[p] += 1;
                        for q in idx.iter_mut().skip(p + 1) {
                            *q = 0;
                        }
                    }
                }
                Value::set(out)
            }
            // Functions.
            "Restrict" => {
                let dom = set(1)?;
                let vals2 = dom.elems().iter().map(|x| v(0).apply(x)).collect::<VResult<Vec<_>>>()?;
                Value::fcn_over(&dom, vals2)
            }
            "IsRestriction" => {
                let (narrow, wide) = (v(0), v(1));
                let nd = narrow.domain()?.to_set()?;
                let wd = wide.domain()?;
                for x in nd.elems() {
                    if !wd.member(x)? {
                        return Ok(Value::Bool(false));
                    }
                }
                for x in nd.elems() {
                    if !narrow.apply(x)?.tlc_eq(&wide.apply(x)?)? {
                        return Ok(Value::Bool(false));
                    }
                }
                Ok(Value::Bool(true))
            }
            "Range" | "ToSet" => Value::set(fcn_pairs(v(0))?.1),
            "Inverse" | "AntiFunction" => {
                let f = v(0);
                let (dom, range) = if name == "Inverse" {
                    (set(1)?, set(2)?)
                } else {
                    let (d, vs) = fcn_pairs(f)?;
                    (d, SetVal::from_vec(vs)?)
                };
                let image = SetVal::from_vec(fcn_pairs(f)?.1)?;
                let mut out = Vec::with_capacity(range.len());
                for t in range.elems() {
                    let in_range = image.contains(t)?;
                    let mut found = None;
                    for x in dom.elems() {
                        if !in_range || f.apply(x)?.tlc_eq(t)? {
                            found = Some(x.clone());
                            break;
                        }
                    }
                    out.push(found.ok_or_else(|| choose_none(&dom, &format!("the inverse of {} at {}", f, t)))?);
                }
                Value::fcn_over(&range, out)
            }
            "IsInjective" => {
                let vs = fcn_pairs(v(0))?.1;
                for i in 0..vs.len() {
                    for j in i + 1..vs.len() {
                        if vs[i].tlc_eq(&vs[j])? {
                            return Ok(Value::Bool(false));
                        }
                    }
                }
                Ok(Value::Bool(true))
            }
            "Injection" | "Surjection" | "Bijection" => {
                let inj = name != "Surjection";
                let surj = name != "Injection";
                Value::set(functions_between(&set(0)?, &set(1)?, inj, surj)?)
            }
            "ExistsInjection" | "ExistsSurjection" | "ExistsBijection" => {
                let (a, b) = (set(0)?.len(), set(1)?.len());
                Ok(Value::Bool(match name {
                    "ExistsInjection" => a <= b,
                    // Onto T needs as many arguments as values, and some value when S has an element.
                    "ExistsSurjection" => a >= b && (b > 0 || a == 0),
                    _ => a == b,
                }))
            }
            "SumFunction" | "SumFunctionOnSet" => {
                let f = v(0);
                let idx = if name == "SumFunction" { f.domain()?.to_set()? } else { set(1)? };
                self.fold(&OpArg::Builtin("+"), Value::Int(0), idx.elems().to_vec(), |i| f.apply(i))
            }
            // SequencesExt.
            "ToBag" => {
                let (_, vs) = fcn_pairs(v(0))?;
                let range = SetVal::from_vec(vs.clone())?;
                let mut counts = Vec::with_capacity(range.len());
                for x in range.elems() {
                    let mut c = 0;
                    for y in &vs {
                        if y.tlc_eq(x)? {
                            c += 1;
                        }
                    }
                    counts.push(Value::Int(c));
                }
                Value::fcn_over(&range, counts)
            }
            "SetToSeq" => tuple(set(0)?.elems().to_vec()),
            "SetToSeqs" | "SetToAllKPermutations" => {
                let elems = set(0)?;
                let mut out = Vec::new();
                let ks = if name == "SetToSeqs" { elems.len()..=elems.len() } else { 0..=elems.len() };
                for k in ks {
                    arrangements(elems.elems(), k, &mut out)?;
                }
                Value::set(out)
            }
            "TupleOf" => Value::fcn_set(Value::interval(1, int(1)?), v(0).clone()),
            "SeqOf" | "BoundedSeq" => {
                let n = int(1)?;
                let mut sets = Vec::new();
                for m in 0..=n.max(-1) {
                    sets.push(Value::fcn_set(Value::interval(1, m), v(0).clone())?);
                }
                Value::union_of(Value::set(sets)?)
            }
            "Contains" => {
                for x in s(0)? {
                    if x.tlc_eq(v(1))? {
                        return Ok(Value::Bool(true));
                    }
                }
                Ok(Value::Bool(false))
            }
            "Reverse" => tuple(s(0)?.iter().rev().cloned().collect()),
            "Remove" => {
                let mut out = Vec::new();
                for x in s(0)? {
                    if !x.tlc_eq(v(1))? {
                        out.push(x.clone());
                    }
                }
                tuple(out)
            }
            "ReplaceAll" => {
                let mut out = Vec::new();
                for x in s(0)? {
                    out.push(if x.tlc_eq(v(1))? { v(2).clone() } else { x.clone() });
                }
                tuple(out)
            }
            "InsertAt" => {
                let i = int(1)?;
                splice(v(0), i.saturating_sub(1), std::slice::from_ref(v(2)), i)
            }
            "ReplaceAt" => {
                s(0)?;
                v(0).except(v(1), v(2).clone())
            }
            "RemoveAt" => {
                let i = int(1)?;
                splice(v(0), i.saturating_sub(1), &[], i.saturating_add(1))
            }
            "RemoveFirst" => {
                let xs = s(0)?;
                for (i, x) in xs.iter().enumerate() {
                    if x.tlc_eq(v(1))? {
                        return tuple(xs[..i].iter().chain(&xs[i + 1..]).cloned().collect());
                    }
                }
                Ok(v(0).clone())
            }
            "Cons" => tuple(std::iter::once(v(0).clone()).chain(s(1)?.iter().cloned()).collect()),
            "Snoc" => v(1).append(v(0).clone()),
            "Front" => {
                let xs = s(0)?;
                v(0).subseq(1, len_i32(xs) - 1)
            }
            "Last" => {
                let xs = s(0)?;
                v(0).apply(&Value::Int(len_i32(xs)))
            }
            "IsPrefix" | "IsStrictPrefix" | "IsSuffix" | "IsStrictSuffix" => {
                let (a, b) = (s(0)?, s(1)?);
                let yes = if name.contains("Prefix") {
                    is_prefix(a, b)?
                } else {
                    let (ra, rb): (Vec<Value>, Vec<Value>) = (a.iter().rev().cloned().collect(), b.iter().rev().cloned().collect());
                    is_prefix(&ra, &rb)?
                };
                let strict = name.contains("Strict");
                Ok(Value::Bool(yes && (!strict || !v(0).tlc_eq(v(1))?)))
            }
            "Prefixes" => {
                let xs = s(0)?;
                Value::set((0..=xs.len()).map(|l| tuple(xs[..l].to_vec())).collect::<VResult<Vec<_>>>()?)
            }
            "Suffixes" => {
                let xs = s(0)?;
                Value::set((0..=xs.len()).map(|l| tuple(xs[l..].to_vec())).collect::<VResult<Vec<_>>>()?)
            }
            "CommonPrefixes" | "LongestCommonPrefix" => {
                let all = set(0)?;
                // Strings, as TLC takes them: the longest common prefix of their text.
                if name == "LongestCommonPrefix" && !all.elems().is_empty() && all.elems().iter().all(|x| matches!(x, Value::Str(_))) {
                    let texts: Vec<&str> = all.elems().iter().filter_map(|x| if let Value::Str(t) = x { Some(t.as_str()) } else { None }).collect();
                    let mut prefix = texts[0];
                    for t in &texts[1..] {
                        let common = prefix.char_indices().zip(t.chars()).find(|((_, a), b)| a != b).map_or(prefix.len().min(t.len()), |((i, _), _)| i);
                        prefix = &prefix[..common];
                    }
                    return Ok(Value::Str(self.program.interner.get(prefix)));
                }
                let seqs = all.elems().iter().map(|x| seq(x, name)).collect::<VResult<Vec<_>>>()?;
                let Some(first) = seqs.first() else {
                    return match name {
                        "CommonPrefixes" => Ok(Value::empty_set()),
                        _ => Err(choose_none(&all, "LongestCommonPrefix of the empty set")),
                    };
                };
                // The longest prefix of the first sequence that prefixes every one.
                let mut l = first.len();
                for t in &seqs[1..] {
                    l = l.min(t.len());
                    for i in 0..l {
                        if !first[i].tlc_eq(&t[i])? {
                            l = i;
                            break;
                        }
                    }
                }
                if name == "LongestCommonPrefix" {
                    return tuple(first[..l].to_vec());
                }
                Value::set((0..=l).map(|k| tuple(first[..k].to_vec())).collect::<VResult<Vec<_>>>()?)
            }
            "SeqMod" => {
                let r = self.strict_builtin("%", vec![v(0).clone(), v(1).clone()])?;
                Ok(if r.as_int()? == 0 { v(1).clone() } else { r })
            }
            "FlattenSeq" => {
                let xs = s(0)?;
                let Some(first) = xs.first() else { return Ok(v(0).clone()) };
                let mut acc = first.clone();
                for x in &xs[1..] {
                    acc = self.strict_builtin("\\o", vec![acc, x.clone()])?;
                }
                Ok(acc)
            }
            "Zip" => {
                let (a, b) = (s(0)?, s(1)?);
                tuple(a.iter().zip(b).map(|(x, y)| tuple(vec![x.clone(), y.clone()])).collect::<VResult<Vec<_>>>()?)
            }
            "Interleave" => {
                let (a, b) = (s(0)?, s(1)?);
                if a.len() != b.len() {
                    return Err(err(codes::CASE_NONE, format!("Interleave of sequences of different lengths ({} and {})", a.len(), b.len())));
                }
                if a.is_empty() {
                    return tuple(vec![tuple(vec![])?, tuple(vec![])?]);
                }
                let mut out = Vec::with_capacity(2 * a.len());
                for (x, y) in a.iter().zip(b) {
                    out.push(tuple(vec![x.clone()])?);
                    out.push(tuple(vec![y.clone()])?);
                }
                tuple(out)
            }
            "SubSeqs" => sub_seqs(s(0)?),
            "AllSubSeqs" => {
                let xs = s(0)?;
                if xs.len() > 20 {
                    return Err(too_large(&format!("AllSubSeqs of a sequence of length {}", xs.len())));
                }
                // The definition folds Snoc(elt, seq) == Append(seq, elt) over each set of
                // indices from the greatest index down: the elements come out in reverse order.
                let mut out = Vec::with_capacity(1 << xs.len());
                for mask in 0u32..(1u32 << xs.len()) {
                    out.push(tuple((0..xs.len()).rev().filter(|i| mask & (1 << i) != 0).map(|i| xs[i].clone()).collect())?);
                }
                Value::set(out)
            }
            "IndexFirstSubSeq" => {
                let (a, b) = (s(0)?, s(1)?);
                match index_first(a, b)? {
                    Some(i) => Ok(Value::Int(i as i32)),
                    None => Err(err(
                        codes::CHOOSE_NONE,
                        format!("IndexFirstSubSeq: {} does not occur in {} (no element of CHOOSE's set satisfies its predicate)", v(0), v(1)),
                    )),
                }
            }
            "ReplaceSubSeqAt" => {
                let i = int(0)?;
                let (r, sub) = (s(1)?, s(2)?);
                s(3)?;
                splice(v(3), i.saturating_sub(1), r, i.saturating_add(len_i32(sub)))
            }
            "ReplaceFirstSubSeq" => {
                let (r, sub, t) = (s(0)?, s(1)?, s(2)?);
                match index_first(sub, t)? {
                    Some(i) => splice(v(2), i as i32 - 1, r, i as i32 + len_i32(sub)),
                    None => Ok(v(2).clone()),
                }
            }
            "ReplaceAllSubSeqs" => self.replace_all_sub_seqs(v(0), v(1), v(2)),
            _ => Err(err(codes::UNKNOWN, format!("unknown operator {} with {} argument(s)", name, vals.len()))),
        }
    }

    /// `ReplaceAllSubSeqs(r, s, t)`. Its definition cuts `t` into pieces so that as many
    /// pieces as possible equal `s`, those pieces as early in the cut as possible, takes the
    /// first such cut in TLC's order (the fewest pieces) and puts `r` in place of those
    /// pieces: so of overlapping occurrences it does not always replace the leftmost one
    /// (`ReplaceAllSubSeqs(<<0>>, <<1, 1>>, <<2, 1, 1, 1>>)` is `<<2, 1, 0>>`).
    fn replace_all_sub_seqs(&self, r: &Value, s: &Value, t: &Value) -> VResult<Value> {
        let (rs, ss, ts) = (seq(r, "ReplaceAllSubSeqs")?, seq(s, "ReplaceAllSubSeqs")?, seq(t, "ReplaceAllSubSeqs")?);
        if s.tlc_eq(t)? {
            return Ok(r.clone());
        }
        if r.tlc_eq(s)? {
            return Ok(t.clone());
        }
        if ss.is_empty() {
            // r before every element of t.
            let mut out = Vec::new();
            for x in ts {
                out.extend_from_slice(rs);
                out.push(x.clone());
            }
            return Value::tuple(out);
        }
        let Some(cut) = best_cut(ss, ts)? else { return Ok(t.clone()) };
        let mut out = Vec::new();
        for (from, to, is_match) in cut {
            if is_match {
                out.extend_from_slice(rs);
            } else {
                out.extend_from_slice(&ts[from..to]);
            }
        }
        Value::tuple(out)
    }
}

/// A cut of a sequence: pieces `(from, to, is_match)` over `t[from..to]`, in order.
type Cut = Vec<(usize, usize, bool)>;

/// The cut of `t` that ReplaceAllSubSeqs's definition chooses (see `replace_all_sub_seqs`),
/// `None` when `s` (not empty) does not occur in `t`.
///
/// Of the cuts with the most pieces equal to `s`, the definition wants one whose matching
/// pieces' positions are, one by one, no later than those of every other. For a placement of
/// the occurrences the best positions come from one piece for each non-empty stretch between
/// them and no empty piece before the last one; the position of the `j`-th match is then `j`
/// plus the number of non-empty stretches before it. Among the placements with the least
/// positions, CHOOSE takes the first cut in TLC's order: the fewest pieces (the rest of `t`
/// after the last match in one piece), then piece by piece.
fn best_cut(s: &[Value], t: &[Value]) -> VResult<Option<Cut>> {
    let (n, k) = (t.len(), s.len());
    let mut occurs = vec![false; n + 1];
    for (p, o) in occurs.iter_mut().enumerate().take((n + 1).saturating_sub(k)) {
        *o = is_prefix(s, &t[p..])?;
    }
    // most[p]: the most non-overlapping occurrences starting at p or later.
    let mut most = vec![0usize; n + 2];
    for p in (0..n).rev() {
        most[p] = most[p + 1];
        if occurs[p] {
            most[p] = most[p].max(1 + most[p + k]);
        }
    }
    if most[0] == 0 {
        return Ok(None);
    }
    // Every placement of most[0] occurrences, with its positions and its shortest cut.
    let mut placements: Vec<(Vec<usize>, Cut)> = Vec::new();
    let mut starts = Vec::new();
    fn go(p: usize, need: usize, k: usize, occurs: &[bool], most: &[usize], starts: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) -> VResult<()> {
        if need == 0 {
            if out.len() as u64 >= ENUM_LIMIT {
                return Err(too_large("The ways to cut the sequence for ReplaceAllSubSeqs"));
            }
            out.push(starts.clone());
            return Ok(());
        }
        for q in p..occurs.len() {
            if most[q] < need {
                break;
            }
            if occurs[q] && 1 + most[q + k] >= need {
                starts.push(q);
                go(q + k, need - 1, k, occurs, most, starts, out)?;
                starts.pop();
            }
        }
        Ok(())
    }
    let mut all = Vec::new();
    go(0, most[0], k, &occurs, &most, &mut starts, &mut all)?;
    for st in all {
        let (mut pos, mut cut, mut at) = (Vec::new(), Cut::new(), 0);
        for &a in &st {
            if a > at {
                cut.push((at, a, false));
            }
            cut.push((a, a + k, true));
            pos.push(cut.len());
            at = a + k;
        }
        if at < n {
            cut.push((at, n, false));
        }
        placements.push((pos, cut));
    }
    let least: Vec<usize> = (0..most[0]).map(|j| placements.iter().map(|(p, _)| p[j]).min().unwrap_or(0)).collect();
    let mut best: Option<Cut> = None;
    for (pos, cut) in placements {
        if pos != least {
            continue;
        }
        let better = match &best {
            None => true,
            Some(b) => cmp_cuts(&cut, b, t)? == std::cmp::Ordering::Less,
        };
        if better {
            best = Some(cut);
        }
    }
    match best {
        Some(b) => Ok(Some(b)),
        None => Err(err(
            codes::CHOOSE_NONE,
            "ReplaceAllSubSeqs: no way of cutting the sequence places every replaced piece earliest (CHOOSE finds no element)",
        )),
    }
}

/// TLC's order on two cuts of `t` seen as sequences of sequences.
fn cmp_cuts(a: &Cut, b: &Cut, t: &[Value]) -> VResult<std::cmp::Ordering> {
    use std::cmp::Ordering;
    if a.len() != b.len() {
        return Ok(a.len().cmp(&b.len()));
    }
    for (x, y) in a.iter().zip(b) {
        let (px, py) = (&t[x.0..x.1], &t[y.0..y.1]);
        if px.len() != py.len() {
            return Ok(px.len().cmp(&py.len()));
        }
        for (u, v) in px.iter().zip(py) {
            let c = u.tlc_cmp(v)?;
            if c != Ordering::Equal {
                return Ok(c);
            }
        }
    }
    Ok(Ordering::Equal)
}

/// `n` choose `k`, saturating.
fn binomial(n: u64, k: u64) -> u64 {
    let k = k.min(n - k);
    let mut r: u64 = 1;
    for i in 0..k {
        r = r.saturating_mul(n - i) / (i + 1);
        if r > ENUM_LIMIT * 4 {
            return u64::MAX;
        }
    }
    r
}

/// The operators of [`ConstEval::std_ext_with_op`], by name and number of arguments.
fn takes_operator(name: &str, n: usize) -> bool {
    matches!(
        (name, n),
        ("SortSeq" | "SetToSortSeq" | "MapThenSumSet" | "Quantify" | "ChooseUnique" | "RestrictDomain" | "RestrictValues", 2)
            | ("IsSorted" | "SelectInSeq" | "SelectLastInSeq" | "RemoveFirstMatch", 2)
            | ("FoldSet" | "ReduceSet" | "Pointwise" | "FoldFunction" | "FoldSeq" | "FoldLeft" | "FoldLeftDomain", 3)
            | ("FoldRight" | "FoldRightDomain", 3)
            | ("FoldFunctionOnSet" | "SelectInSubSeq" | "SelectLastInSubSeq", 4)
            | ("MapThenFoldSet", 5)
    )
}

/// Whether the standard operator `name` may be passed as an argument of arity `arity` (by its
/// symbol, `<`, or its name, `Max`): one applied to values, without effects.
pub(super) fn builtin_arg(name: &str, arity: usize) -> bool {
    (konst::known_builtin(name, arity) && !konst::impure(name) && name != "SelectSeq") || is_value_op(name, arity)
}

/// The operators of [`ConstEval::std_ext_values`], by name and number of arguments: those
/// here that take values only (no operator argument), functions of their arguments.
pub(super) fn is_value_op(name: &str, n: usize) -> bool {
    matches!(
        (name, n),
        ("SumSet" | "ProductSet" | "FlattenSet" | "Max" | "Min" | "Choices" | "Range" | "AntiFunction" | "IsInjective", 1)
            | ("SumFunction" | "ToSet" | "ToBag" | "SetToSeq" | "SetToSeqs" | "SetToAllKPermutations" | "Reverse", 1)
            | ("Front" | "Last" | "Prefixes" | "CommonPrefixes" | "LongestCommonPrefix" | "Suffixes" | "FlattenSeq", 1)
            | ("SubSeqs" | "AllSubSeqs", 1)
            | ("SymDiff" | "kSubset" | "Restrict" | "IsRestriction" | "Injection" | "Surjection" | "Bijection", 2)
            | ("ExistsInjection" | "ExistsSurjection" | "ExistsBijection" | "SumFunctionOnSet" | "TupleOf" | "SeqOf", 2)
            | ("BoundedSeq" | "Contains" | "Remove" | "RemoveAt" | "RemoveFirst" | "Cons" | "Snoc" | "IsPrefix", 2)
            | ("IsStrictPrefix" | "IsSuffix" | "IsStrictSuffix" | "SeqMod" | "Zip" | "Interleave" | "IndexFirstSubSeq", 2)
            | ("Inverse" | "ReplaceAll" | "InsertAt" | "ReplaceAt" | "ReplaceFirstSubSeq" | "ReplaceAllSubSeqs", 3)
            | ("ReplaceSubSeqAt", 4)
    )
}
