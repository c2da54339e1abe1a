//! SYMMETRY: the permutations of model values a `.cfg` names, closed under composition as TLC
//! closes them, and states renamed by them.

use tla_eval::error::codes;
use tla_eval::{Value, ValueError};

pub(super) fn symmetry_maps(perms: &Value) -> Result<Vec<Vec<(Value, Value)>>, ValueError> {
    let mut out = Vec::new();
    for p in perms.elements()? {
        let p = p?;
        let dom = p.domain()?;
        let mut m = Vec::new();
        for x in dom.elements()? {
            let x = x?;
            let y = p.apply(&x)?;
            if !x.tlc_eq(&y)? {
                m.push((x, y));
            }
        }
        if !m.is_empty() {
            out.push(m);
        }
    }
    Ok(out)
}

/// The group the permutations generate (TLC closes the SYMMETRY set under composition:
/// `Permutations(A) \cup Permutations(B)` stands for every pair of a permutation of A and one
/// of B), without the identity. Errors beyond 100,000 permutations.
pub(super) fn permutation_group(gens: Vec<Vec<(Value, Value)>>) -> Result<Vec<Vec<(Value, Value)>>, ValueError> {
    fn key(m: &[(Value, Value)]) -> String {
        let mut parts: Vec<String> = m.iter().map(|(a, b)| format!("{}>{}", a, b)).collect();
        parts.sort();
        parts.join(",")
    }
    fn apply(m: &[(Value, Value)], x: &Value) -> Value {
        m.iter().find(|(a, _)| a.tlc_eq(x).unwrap_or(false)).map(|(_, b)| b.clone()).unwrap_or_else(|| x.clone())
    }
    let mut seen: std::collections::HashSet<String> = gens.iter().map(|g| key(g)).collect();
    let mut out = gens.clone();
    let mut i = 0;
    while i < out.len() {
        for g in &gens {
            // g after out[i].
            let mut dom: Vec<Value> = out[i].iter().map(|(a, _)| a.clone()).collect();
            for (a, _) in g {
                if !dom.iter().any(|d| d.tlc_eq(a).unwrap_or(false)) {
                    dom.push(a.clone());
                }
            }
            let comp: Vec<(Value, Value)> =
                dom.into_iter().map(|x| { let y = apply(g, &apply(&out[i], &x)); (x, y) }).filter(|(x, y)| !x.tlc_eq(y).unwrap_or(false)).collect();
            if comp.is_empty() {
                continue;
            }
            if seen.insert(key(&comp)) {
                out.push(comp);
                if out.len() > 100_000 {
                    return Err(ValueError::new(codes::TYPE, "the SYMMETRY set generates more than 100000 permutations"));
                }
            }
        }
        i += 1;
    }
    Ok(out)
}

pub(super) fn permute(v: &Value, map: &[(Value, Value)]) -> Result<Value, ValueError> {
    Ok(permute_changed(v, map)?.unwrap_or_else(|| v.clone()))
}

/// `v` with model values renamed by `map`, or `None` when nothing in it changes (most of a
/// state, for most permutations: no allocation then).
pub(super) fn permute_changed(v: &Value, map: &[(Value, Value)]) -> Result<Option<Value>, ValueError> {
    /// The items permuted, or `None` when none of them changes.
    fn items<'v>(
        it: impl Iterator<Item = &'v Value>,
        map: &[(Value, Value)],
    ) -> Result<Option<Vec<Value>>, ValueError> {
        let all: Vec<&Value> = it.collect();
        for (i, x) in all.iter().enumerate() {
            if let Some(first) = permute_changed(x, map)? {
                let mut out: Vec<Value> = all[..i].iter().map(|&y| y.clone()).collect();
                out.push(first);
                for y in &all[i + 1..] {
                    out.push(permute(y, map)?);
                }
                return Ok(Some(out));
            }
        }
        Ok(None)
    }
    Ok(match v {
        Value::Model(_) => {
            for (a, b) in map {
                if a.tlc_eq(v).unwrap_or(false) {
                    return Ok(if b.tlc_eq(v).unwrap_or(false) { None } else { Some(b.clone()) });
                }
            }
            None
        }
        Value::Bool(_) | Value::Int(_) | Value::Str(_) => None,
        Value::Set(s) => items(s.elems().iter(), map)?.map(Value::set).transpose()?,
        Value::Seq(s) => items(s.iter(), map)?.map(Value::tuple).transpose()?,
        Value::Fcn(f) => {
            let n = f.domain().len();
            match items(f.domain().iter().chain(f.values().iter()), map)? {
                None => None,
                Some(mut both) => {
                    let values = both.split_off(n);
                    Some(Value::fcn(both.into_iter().zip(values).collect())?)
                }
            }
        }
        Value::Lazy(_) => Some(permute(&v.canonical()?, map)?),
    })
}
