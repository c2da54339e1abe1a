//! The standard module Bags: a bag is a function from its elements to their (positive) numbers
//! of copies, so its operators are computed on the function's pairs, with the meaning the
//! module's definitions give them.

use tla_syntax::ast::Expr;

use super::{ConstEval, Env};
use crate::arith;
use super::err;
use crate::error::{codes, VResult};
use crate::value::Value;

/// The (element, copies) pairs of `b`, which must be a function (a sequence is one: its
/// domain is `1..n`).
fn pairs(b: &Value, op: &str) -> VResult<Vec<(Value, Value)>> {
    match b {
        Value::Seq(s) => Ok(s.iter().enumerate().map(|(i, v)| (Value::Int(i as i32 + 1), v.clone())).collect()),
        Value::Fcn(f) => Ok(f.domain().iter().cloned().zip(f.values().iter().cloned()).collect()),
        _ => Err(err(codes::TYPE, format!("{} expects a bag (a function from elements to numbers of copies), but got {}", op, b))),
    }
}

/// Where `e` is among the elements of a bag's pairs.
fn find(ps: &[(Value, Value)], e: &Value) -> VResult<Option<usize>> {
    for (i, (d, _)) in ps.iter().enumerate() {
        if d.tlc_eq(e)? {
            return Ok(Some(i));
        }
    }
    Ok(None)
}

/// The number of copies of `e` in the pairs of a bag (0 when absent).
fn copies(ps: &[(Value, Value)], e: &Value) -> VResult<i32> {
    match find(ps, e)? {
        Some(i) => ps[i].1.as_int(),
        None => Ok(0),
    }
}

/// `B1 (+) B2`: every element of either, with its copies added.
fn sum(a: &[(Value, Value)], b: &[(Value, Value)]) -> VResult<Value> {
    let mut out: Vec<(Value, Value)> = Vec::with_capacity(a.len() + b.len());
    for (e, n) in a {
        out.push((e.clone(), Value::Int(arith::add(n.as_int()?, copies(b, e)?)?)));
    }
    for (e, n) in b {
        if find(a, e)?.is_none() {
            out.push((e.clone(), n.clone()));
        }
    }
    Value::fcn(out)
}

/// Whether `name` with `n` arguments is an operator of Bags that takes values only (all but
/// `BagOfAll`): a function of its arguments.
pub(super) fn value_op(name: &str, n: usize) -> bool {
    matches!(
        (name, n),
        ("EmptyBag", 0)
            | ("IsABag" | "BagToSet" | "SetToBag" | "BagUnion" | "SubBag" | "BagCardinality", 1)
            | ("BagIn" | "(+)" | "(-)" | "\\sqsubseteq" | "CopiesIn", 2)
    )
}

impl<'a> ConstEval<'a> {
    /// The operators of Bags, or None for another name (`builtin` goes on with it).
    pub(super) fn bags_op(&self, name: &str, args: &'a [Expr], env: &Env<'a>) -> Option<VResult<Value>> {
        let n = args.len();
        if !value_op(name, n) && (name, n) != ("BagOfAll", 2) {
            return None;
        }
        Some(self.bags_eval(name, args, env))
    }

    fn bags_eval(&self, name: &str, args: &'a [Expr], env: &Env<'a>) -> VResult<Value> {
        if name == "BagOfAll" {
            // [e \in {F(d) : d \in BagToSet(B)} |-> the sum of B[d] over the d with F(d) = e]
            let f = self.op_arg(1, &args[0], env)?;
            let b = self.ev(&args[1], env)?;
            let mut out: Vec<(Value, Value)> = Vec::new();
            for (d, k) in pairs(&b, name)? {
                let e = self.apply_binding(&f, vec![d])?;
                let k = k.as_int()?;
                match find(&out, &e)? {
                    Some(i) => out[i].1 = Value::Int(arith::add(out[i].1.as_int()?, k)?),
                    None => out.push((e, Value::Int(k))),
                }
            }
            return Value::fcn(out);
        }
        let mut vals = Vec::with_capacity(args.len());
        for a in args {
            vals.push(self.ev(a, env)?);
        }
        match name {
            "EmptyBag" => Value::fcn(Vec::new()),
            "SetToBag" => Value::fcn(vals[0].to_set()?.elems().iter().map(|e| (e.clone(), Value::Int(1))).collect()),
            "BagToSet" => Value::set(pairs(&vals[0], name)?.into_iter().map(|(e, _)| e).collect()),
            "IsABag" => {
                // B \in [DOMAIN B -> {n \in Nat : n > 0}]: a function with positive integer values.
                let ok = match &vals[0] {
                    Value::Seq(_) | Value::Fcn(_) => pairs(&vals[0], name)?.iter().all(|(_, n)| matches!(n, Value::Int(k) if *k > 0)),
                    _ => false,
                };
                Ok(Value::Bool(ok))
            }
            "BagIn" => Ok(Value::Bool(find(&pairs(&vals[1], name)?, &vals[0])?.is_some())),
            "CopiesIn" => {
                let ps = pairs(&vals[1], name)?;
                Ok(Value::Int(copies(&ps, &vals[0])?))
            }
            "BagCardinality" => {
                let mut total = 0i32;
                for (_, k) in pairs(&vals[0], name)? {
                    total = arith::add(total, k.as_int()?)?;
                }
                Ok(Value::Int(total))
            }
            "(+)" => sum(&pairs(&vals[0], name)?, &pairs(&vals[1], name)?),
            "(-)" => {
                // The copies of B1 less those of B2, keeping the elements left with some.
                let (a, b) = (pairs(&vals[0], name)?, pairs(&vals[1], name)?);
                let mut out = Vec::with_capacity(a.len());
                for (e, k) in a {
                    let left = arith::sub(k.as_int()?, copies(&b, &e)?)?;
                    if left > 0 {
                        out.push((e, Value::Int(left)));
                    }
                }
                Value::fcn(out)
            }
            "\\sqsubseteq" => {
                let (a, b) = (pairs(&vals[0], name)?, pairs(&vals[1], name)?);
                for (e, k) in &a {
                    if find(&b, e)?.is_none() || k.as_int()? > copies(&b, e)? {
                        return Ok(Value::Bool(false));
                    }
                }
                Ok(Value::Bool(true))
            }
            "BagUnion" => {
                // The sum of the bags of a set (each bag once: it is a set).
                let mut acc: Vec<(Value, Value)> = Vec::new();
                for b in vals[0].to_set()?.elems() {
                    acc = pairs(&sum(&acc, &pairs(b, name)?)?, name)?;
                }
                Value::fcn(acc)
            }
            "SubBag" => {
                // Every bag B1 with B1 \sqsubseteq B: each element 0 to B[e] times.
                let ps = pairs(&vals[0], name)?;
                let mut counts = Vec::with_capacity(ps.len());
                let mut total: u64 = 1;
                for (_, k) in &ps {
                    let k = k.as_int()?.max(0);
                    total = total.saturating_mul(k as u64 + 1);
                    counts.push(k);
                }
                if total > 1_000_000 {
                    return Err(err(codes::TOO_LARGE, format!("SubBag of a bag with {} sub-bags is too large to enumerate", total)));
                }
                let mut out = Vec::with_capacity(total as usize);
                let mut pick = vec![0i32; ps.len()];
                loop {
                    out.push(Value::fcn(ps.iter().zip(&pick).filter(|(_, c)| **c > 0).map(|((e, _), c)| (e.clone(), Value::Int(*c))).collect())?);
                    // The next choice of copies, as an odometer.
                    let Some(i) = (0..ps.len()).find(|&i| pick[i] < counts[i]) else { break };
                    pick[i] += 1;
                    for p in pick.iter_mut().take(i) {
                        *p = 0;
                    }
                }
                Value::set(out)
            }
            _ => Err(err(codes::UNKNOWN, format!("unknown operator {} with {} argument(s)", name, args.len()))),
        }
    }
}
