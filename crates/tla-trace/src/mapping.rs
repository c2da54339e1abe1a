//! The mapping from a system's trace vocabulary to a model's (docs/mapping.md): actions and
//! their arguments, observed fields as variables or expressions, value translations, hidden
//! variables, internal actions. An absent mapping is the identity.

use crate::trace::{codes, InputError};
use serde_json::Value as Json;
use std::collections::BTreeMap;

/// What an observed field is in the model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FieldTarget {
    /// A state variable.
    Var(String),
    /// A state-level TLA+ expression over the variables.
    Expr(String),
    /// Not compared.
    Ignore,
}

/// A trace action's counterpart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionMap {
    /// The model's action operator.
    pub action: String,
    /// Trace argument name → the operator's parameter name (unlisted arguments keep their name).
    pub args: BTreeMap<String, String>,
}

/// A translated value: written in JSON (converted as trace values are), or a model value.
#[derive(Clone, Debug, PartialEq)]
pub enum Target {
    Json(Json),
    ModelValue(String),
}

/// A parsed mapping.
#[derive(Clone, Debug, Default)]
pub struct Mapping {
    pub task: Option<String>,
    pub actions: BTreeMap<String, ActionMap>,
    pub fields: BTreeMap<String, FieldTarget>,
    pub hidden: Vec<String>,
    /// Scope (`*`, a field name, or `args.<name>`) → (JSON text of a scalar → target).
    pub values: BTreeMap<String, BTreeMap<String, Target>>,
    pub internal: Vec<String>,
    pub max_silent: usize,
    /// Constant of the trace's header → the model's name for it, or `None`: not compared.
    pub constants: BTreeMap<String, Option<String>>,
}

fn bad(file: &str, msg: impl Into<String>) -> InputError {
    InputError::new(codes::BAD_MAPPING, file, 0, msg)
}

fn target(v: &Json, file: &str, at: &str) -> Result<Target, InputError> {
    if let Json::Object(o) = v {
        if let Some(m) = o.get("model_value") {
            let name = m.as_str().filter(|s| !s.is_empty()).ok_or_else(|| bad(file, format!("{}: \"model_value\" must be a name", at)))?;
            if o.len() != 1 {
                return Err(bad(file, format!("{}: a model value is written {{\"model_value\": \"name\"}} alone", at)));
            }
            return Ok(Target::ModelValue(name.to_string()));
        }
    }
    Ok(Target::Json(v.clone()))
}

impl Mapping {
    /// The identity mapping.
    pub fn identity() -> Mapping {
        Mapping::default()
    }

    /// Parse a mapping file's text.
    pub fn parse(file: &str, text: &str) -> Result<Mapping, InputError> {
        let v: Json = serde_json::from_str(text).map_err(|e| {
            InputError::new(codes::BAD_MAPPING, file, e.line(), format!("not valid JSON: {}", e))
        })?;
        let Json::Object(o) = v else { return Err(bad(file, "a mapping is a JSON object")) };
        let mut m = Mapping::default();
        for (k, v) in &o {
            match k.as_str() {
                "$schema" | "description" => {}
                "version" => {
                    if v.as_i64() != Some(1) {
                        return Err(bad(file, "\"version\" must be 1"));
                    }
                }
                "task" => m.task = Some(v.as_str().ok_or_else(|| bad(file, "\"task\" must be a string"))?.to_string()),
                "actions" => {
                    let a = v.as_object().ok_or_else(|| bad(file, "\"actions\" must be an object"))?;
                    for (name, spec) in a {
                        let am = match spec {
                            Json::String(s) => ActionMap { action: s.clone(), args: BTreeMap::new() },
                            Json::Object(so) => {
                                let action = match so.get("action") {
                                    Some(Json::String(s)) => s.clone(),
                                    None => name.clone(),
                                    Some(_) => return Err(bad(file, format!("actions.{}.action must be a string", name))),
                                };
                                let mut args = BTreeMap::new();
                                if let Some(ao) = so.get("args") {
                                    let ao = ao.as_object().ok_or_else(|| bad(file, format!("actions.{}.args must be an object", name)))?;
                                    for (an, p) in ao {
                                        let p = p.as_str().ok_or_else(|| bad(file, format!("actions.{}.args.{} must be a parameter name", name, an)))?;
                                        args.insert(an.clone(), p.to_string());
                                    }
                                }
                                for key in so.keys() {
                                    if key != "action" && key != "args" {
                                        return Err(bad(file, format!("actions.{}: unknown key \"{}\"", name, key)));
                                    }
                                }
                                ActionMap { action, args }
                            }
                            _ => return Err(bad(file, format!("actions.{} must be an action name or an object", name))),
                        };
                        m.actions.insert(name.clone(), am);
                    }
                }
                "variables" => {
                    let f = v.as_object().ok_or_else(|| bad(file, "\"variables\" must be an object"))?;
                    for (name, t) in f {
                        let ft = match t {
                            Json::String(s) => FieldTarget::Var(s.clone()),
                            Json::Null => FieldTarget::Ignore,
                            Json::Object(to) if to.len() == 1 && to.get("var").is_some_and(Json::is_string) => {
                                FieldTarget::Var(to["var"].as_str().unwrap_or_default().to_string())
                            }
                            Json::Object(to) if to.len() == 1 && to.get("expr").is_some_and(Json::is_string) => {
                                FieldTarget::Expr(to["expr"].as_str().unwrap_or_default().to_string())
                            }
                            _ => return Err(bad(file, format!("variables.{} must be a variable name, {{\"var\": ..}}, {{\"expr\": ..}} or null", name))),
                        };
                        m.fields.insert(name.clone(), ft);
                    }
                }
                "constants" => {
                    let c = v.as_object().ok_or_else(|| bad(file, "\"constants\" must be an object"))?;
                    for (name, t) in c {
                        let target = match t {
                            Json::String(s) if !s.is_empty() => Some(s.clone()),
                            Json::Null => None,
                            _ => return Err(bad(file, format!("constants.{} must be the model's name for it, or null", name))),
                        };
                        m.constants.insert(name.clone(), target);
                    }
                }
                "hidden" => m.hidden = string_list(v, file, "hidden")?,
                "internal" => m.internal = string_list(v, file, "internal")?,
                "max_silent" => {
                    m.max_silent = v.as_u64().filter(|n| *n <= 16).ok_or_else(|| bad(file, "\"max_silent\" must be an integer from 0 to 16"))? as usize
                }
                "values" => {
                    let s = v.as_object().ok_or_else(|| bad(file, "\"values\" must be an object"))?;
                    for (scope, table) in s {
                        let t = table.as_object().ok_or_else(|| bad(file, format!("values.{} must be an object", scope)))?;
                        let mut out = BTreeMap::new();
                        for (from, to) in t {
                            let key: Json = serde_json::from_str(from)
                                .map_err(|_| bad(file, format!("values.{}: the key {} is not a JSON scalar (write strings with their quotes: \"\\\"locked\\\"\")", scope, from)))?;
                            if key.is_object() || key.is_array() || key.is_null() {
                                return Err(bad(file, format!("values.{}: only scalars are translated, not {}", scope, from)));
                            }
                            out.insert(key.to_string(), target(to, file, &format!("values.{}.{}", scope, from))?);
                        }
                        m.values.insert(scope.clone(), out);
                    }
                }
                other => return Err(bad(file, format!("unknown key \"{}\" (expected task, actions, variables, constants, hidden, values, internal, max_silent)", other))),
            }
        }
        if !m.internal.is_empty() && m.max_silent == 0 {
            m.max_silent = 1;
        }
        Ok(m)
    }

    /// The model action and argument binding for a trace action (identity when unmapped).
    pub fn action(&self, trace_action: &str) -> ActionMap {
        self.actions.get(trace_action).cloned().unwrap_or_else(|| ActionMap { action: trace_action.to_string(), args: BTreeMap::new() })
    }

    /// The translation of a scalar (by its JSON text) in a scope, falling back to `*`.
    pub fn translate(&self, scope: &str, json_text: &str) -> Option<&Target> {
        self.values.get(scope).and_then(|t| t.get(json_text)).or_else(|| self.values.get("*").and_then(|t| t.get(json_text)))
    }
}

fn string_list(v: &Json, file: &str, what: &str) -> Result<Vec<String>, InputError> {
    let a = v.as_array().ok_or_else(|| bad(file, format!("\"{}\" must be an array of names", what)))?;
    a.iter().map(|x| x.as_str().map(str::to_string).ok_or_else(|| bad(file, format!("\"{}\" must be an array of names", what)))).collect()
}

/// Whether the mapping is the identity (no entries).
pub fn is_identity(m: &Mapping) -> bool {
    m.actions.is_empty() && m.fields.is_empty() && m.values.is_empty() && m.hidden.is_empty() && m.internal.is_empty() && m.constants.is_empty()
}
