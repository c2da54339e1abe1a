//! Counterexamples as ITF JSON, the Informal Trace Format of Apalache and Quint:
//! `{"#meta": {...}, "vars": [...], "states": [{"#meta": {"index": i}, "x": ...}, ...]}`.
//!
//! Values: booleans, strings and integers as JSON (integers beyond ±2^53 as
//! `{"#bigint": "..."}`), sets as `{"#set": [...]}`, sequences and tuples (TLA+ does not tell
//! them apart) as `{"#tup": [...]}`, records as objects, other functions as
//! `{"#map": [[key, value], ...]}`, model values as their name (a string, as Apalache writes
//! uninterpreted constants), and infinite sets, which have no finite form, as
//! `{"#unserializable": "<TLA+ text>"}`. Elements keep TLC's order.

use serde_json::{json, Map, Value as Json};
use tla_eval::Value;

/// Largest integer magnitude a JSON number carries exactly in every reader (2^53 - 1).
const MAX_SAFE: i64 = (1 << 53) - 1;

fn int(i: i64) -> Json {
    if (-MAX_SAFE..=MAX_SAFE).contains(&i) { json!(i) } else { json!({ "#bigint": i.to_string() }) }
}

/// One TLA+ value as ITF.
pub fn value(v: &Value) -> Json {
    match v {
        Value::Bool(b) => Json::Bool(*b),
        Value::Int(i) => int(*i as i64),
        Value::Str(s) => Json::String(s.as_str().to_string()),
        Value::Model(m) => Json::String(m.name().as_str().to_string()),
        Value::Set(s) => json!({ "#set": s.elems().iter().map(value).collect::<Vec<_>>() }),
        Value::Seq(s) => json!({ "#tup": s.iter().map(value).collect::<Vec<_>>() }),
        Value::Fcn(f) if f.is_record() => {
            let mut m = Map::new();
            for (d, x) in f.domain().iter().zip(f.values()) {
                if let Value::Str(k) = d {
                    m.insert(k.as_str().to_string(), value(x));
                }
            }
            Json::Object(m)
        }
        Value::Fcn(f) => json!({
            "#map": f.domain().iter().zip(f.values()).map(|(d, x)| json!([value(d), value(x)])).collect::<Vec<_>>()
        }),
        Value::Lazy(l) if l.is_finite() => match l.to_set() {
            Ok(s) => value(&Value::Set(s)),
            Err(_) => json!({ "#unserializable": v.to_string() }),
        },
        Value::Lazy(_) => json!({ "#unserializable": v.to_string() }),
    }
}

/// One state of a trace: the variables' values, and the action that led to it (`None` for an
/// initial state).
pub struct ItfState<'a> {
    pub action: Option<&'a str>,
    pub values: &'a [Value],
}

/// A whole trace. `vars` names the variables in the order of each state's `values`.
pub fn trace(source: &str, description: &str, vars: &[String], states: &[ItfState<'_>]) -> Json {
    let states: Vec<Json> = states
        .iter()
        .enumerate()
        .map(|(i, st)| {
            let mut m = Map::new();
            let mut meta = Map::new();
            meta.insert("index".into(), json!(i));
            if let Some(a) = st.action {
                meta.insert("action".into(), json!(a));
            }
            m.insert("#meta".into(), Json::Object(meta));
            for (name, v) in vars.iter().zip(st.values) {
                m.insert(name.clone(), value(v));
            }
            Json::Object(m)
        })
        .collect();
    json!({
        "#meta": {
            "format": "ITF",
            "format-description": "https://apalache-mc.org/docs/adr/015adr-trace.html",
            "source": source,
            "description": description,
        },
        "vars": vars,
        "states": states,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use tla_eval::{Interner, ModelValue};

    #[test]
    fn values_map_to_itf_forms() {
        let mut i = Interner::new();
        let (a, b) = (i.intern("a"), i.intern("b"));
        let rec = Value::record(vec![(a.clone(), Value::Int(1)), (b.clone(), Value::Bool(true))]).unwrap();
        assert_eq!(value(&rec), json!({"a": 1, "b": true}));
        let set = Value::set(vec![Value::Int(3), Value::Int(1), Value::Int(3)]).unwrap();
        assert_eq!(value(&set), json!({"#set": [1, 3]}));
        let tup = Value::tuple(vec![Value::Str(a.clone()), Value::empty_set()]).unwrap();
        assert_eq!(value(&tup), json!({"#tup": ["a", {"#set": []}]}));
        let f = Value::fcn(vec![(Value::Int(0), Value::Int(5)), (Value::Int(7), Value::Int(6))]).unwrap();
        assert_eq!(value(&f), json!({"#map": [[0, 5], [7, 6]]}));
        let p = Value::Model(ModelValue::new(i.intern("p1")));
        assert_eq!(value(&p), json!("p1"));
        assert_eq!(int(1 << 60), json!({"#bigint": (1i64 << 60).to_string()}));
        assert_eq!(int(-42), json!(-42));
    }

    #[test]
    fn trace_has_meta_vars_and_indexed_states() {
        let vars = vec!["x".to_string(), "y".to_string()];
        let s0 = [Value::Int(0), Value::Bool(false)];
        let s1 = [Value::Int(1), Value::Bool(true)];
        let t = trace(
            "M.tla",
            "invariant Inv is violated",
            &vars,
            &[ItfState { action: None, values: &s0 }, ItfState { action: Some("Step"), values: &s1 }],
        );
        assert_eq!(t["#meta"]["format"], "ITF");
        assert_eq!(t["vars"], json!(["x", "y"]));
        assert_eq!(t["states"][0], json!({"#meta": {"index": 0}, "x": 0, "y": false}));
        assert_eq!(t["states"][1], json!({"#meta": {"index": 1, "action": "Step"}, "x": 1, "y": true}));
    }
}

/// A JSON value (ITF, or a trace's plain JSON) written the way TLA+ writes values: `TRUE`,
/// `"idle"`, `(0 :> "cs" @@ 1 :> "idle")`, `<<1, 2>>`, `{1, 2}`, `[a |-> 1]`.
pub fn text(v: &Json) -> String {
    match v {
        Json::Null => "null".into(),
        Json::Bool(b) => if *b { "TRUE" } else { "FALSE" }.into(),
        Json::Number(n) => n.to_string(),
        Json::String(s) => format!("{s:?}"),
        Json::Array(a) => format!("<<{}>>", a.iter().map(text).collect::<Vec<_>>().join(", ")),
        Json::Object(m) => {
            if let Some(s) = m.get("#set").and_then(Json::as_array) {
                return format!("{{{}}}", s.iter().map(text).collect::<Vec<_>>().join(", "));
            }
            if let Some(t) = m.get("#tup").and_then(Json::as_array) {
                return format!("<<{}>>", t.iter().map(text).collect::<Vec<_>>().join(", "));
            }
            if let Some(pairs) = m.get("#map").and_then(Json::as_array) {
                let items: Vec<String> = pairs
                    .iter()
                    .map(|p| match p.as_array().map(Vec::as_slice) {
                        Some([k, x]) => format!("{} :> {}", text(k), text(x)),
                        _ => text(p),
                    })
                    .collect();
                return if items.is_empty() { "<<>>".into() } else { format!("({})", items.join(" @@ ")) };
            }
            if let Some(b) = m.get("#bigint").and_then(Json::as_str) {
                return b.to_string();
            }
            if let Some(u) = m.get("#unserializable").and_then(Json::as_str) {
                return u.to_string();
            }
            let items: Vec<String> = m.iter().filter(|(k, _)| !k.starts_with('#')).map(|(k, x)| format!("{k} |-> {}", text(x))).collect();
            format!("[{}]", items.join(", "))
        }
    }
}
