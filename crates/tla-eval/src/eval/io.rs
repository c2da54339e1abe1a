//! The library operators TLC runs as Java with I/O, through the [`Host`] the front end gives
//! (see `crate::host`): Json's `JsonSerialize`, `JsonDeserialize`, `ndJsonSerialize` and
//! `ndJsonDeserialize`; CSV's `CSVWrite`, `CSVWriteRecord`, `CSVRead` and `CSVRecords`;
//! IOUtils' `IOExec`, `IOEnvExec`, `IOExecTemplate` and `IOEnvExecTemplate`. Each does what
//! CommunityModules' Java override does (`tlc2/overrides/{Json,CSV,IOUtils}.java`), and where
//! that Java would answer in a way we do not reproduce (a JSON number that is not a 32-bit
//! integer, a `String.format` conversion other than `%s`, a delimiter that is a regular
//! expression), the operator fails with an error that says so, never with another answer.

use std::sync::Arc;

use super::{err, ConstEval};
use crate::error::{codes, VResult, ValueError};
use crate::host::Host;
use crate::value::{Elems, Value};

/// How many arguments each operator here takes (`None`: not one of them).
pub(super) fn arity(name: &str) -> Option<usize> {
    Some(match name {
        "JsonDeserialize" | "ndJsonDeserialize" | "IOExec" | "CSVRecords" => 1,
        "JsonSerialize" | "ndJsonSerialize" | "IOEnvExec" | "IOExecTemplate" => 2,
        "IOEnvExecTemplate" | "CSVWrite" | "CSVRead" => 3,
        "CSVWriteRecord" => 4,
        _ => return None,
    })
}

fn fail(op: &str, msg: impl std::fmt::Display) -> ValueError {
    err(codes::TYPE, format!("{op}: {msg}"))
}

fn io_fail(op: &str, msg: impl std::fmt::Display) -> ValueError {
    err(codes::UNSUPPORTED, format!("{op}: {msg}"))
}

fn string<'v>(op: &str, what: &str, v: &'v Value) -> VResult<&'v str> {
    match v {
        Value::Str(s) => Ok(s.as_str()),
        _ => Err(fail(op, format!("the {what} must be a string, not {v}"))),
    }
}

fn strings(op: &str, what: &str, v: &Value) -> VResult<Vec<String>> {
    let items = v.as_seq(op).map_err(|_| fail(op, format!("the {what} must be a sequence of strings, not {v}")))?;
    items.iter().map(|x| string(op, what, x).map(str::to_string)).collect()
}

/// A record's fields and values (TLC's `toRcd`: a record, or a function from strings).
fn fields<'v>(op: &str, what: &str, v: &'v Value) -> VResult<Vec<(&'v str, &'v Value)>> {
    let bad = || fail(op, format!("the {what} must be a record, not {v}"));
    match v {
        Value::Fcn(f) => f.domain().iter().zip(f.values()).map(|(d, x)| match d {
            Value::Str(s) => Ok((s.as_str(), x)),
            _ => Err(bad()),
        }).collect(),
        _ => Err(bad()),
    }
}

/// Java's `String.format(template, args)` for the conversions `%s`, `%N$s`, `%n` and `%%`.
pub(super) fn format(op: &str, template: &str, args: &[String]) -> VResult<String> {
    let mut out = String::new();
    let mut next = 0usize;
    let mut chars = template.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let mut digits = String::new();
        while let Some(d) = chars.peek().copied().filter(char::is_ascii_digit) {
            digits.push(d);
            chars.next();
        }
        let index = if !digits.is_empty() && chars.peek() == Some(&'$') {
            chars.next();
            digits.parse::<usize>().ok().filter(|i| *i > 0).map(|i| i - 1)
        } else if digits.is_empty() {
            None
        } else {
            return Err(io_fail(op, format!("the format `{template}` has a width or flag, and only `%s`, `%N$s`, `%n` and `%%` are supported")));
        };
        match chars.next() {
            Some('s') => {
                let i = index.unwrap_or_else(|| {
                    next += 1;
                    next - 1
                });
                let a = args.get(i).ok_or_else(|| fail(op, format!("the format `{template}` reads argument {} of {}", i + 1, args.len())))?;
                out.push_str(a);
            }
            Some('n') if index.is_none() => out.push('\n'),
            Some('%') if index.is_none() => out.push('%'),
            other => {
                let c = other.map(|c| format!("%{c}")).unwrap_or_else(|| "a lone %".into());
                return Err(io_fail(op, format!("the format `{template}` has {c}, and only `%s`, `%N$s`, `%n` and `%%` are supported")));
            }
        }
    }
    Ok(out)
}

impl<'a> ConstEval<'a> {
    /// The files and processes the I/O operators use (see `crate::host`). Without one, they
    /// are an error that says this run has none.
    pub fn set_host(&self, host: Arc<dyn Host>) {
        *self.tlc.host.borrow_mut() = Some(host);
    }

    fn host(&self, op: &str) -> VResult<Arc<dyn Host>> {
        self.tlc.host.borrow().clone().ok_or_else(|| {
            err(
                codes::UNSUPPORTED,
                format!(
                    "{op} reads or writes files or runs programs, and this run has no access to them: the web \
                     playground has none and grading gives none; `sysmo check` and `sysmo simulate` run it"
                ),
            )
        })
    }

    fn str_value(&self, s: &str) -> Value {
        Value::Str(self.program.interner.get(s))
    }

    /// Apply the I/O operator `op` to the values `vals` (as many as [`arity`] says).
    pub(super) fn call_io(&self, op: &str, vals: &[Value]) -> VResult<Value> {
        let host = self.host(op)?;
        let io = |e: String| io_fail(op, e);
        match op {
            "JsonSerialize" | "ndJsonSerialize" => {
                let path = string(op, "file name", &vals[0])?;
                let v = &vals[1];
                let mut text = String::new();
                if op == "JsonSerialize" {
                    if !matches!(v, Value::Seq(_)) && fields(op, "value", v).is_err() {
                        return Err(fail(op, format!("the value must be a sequence or a record, not {v}")));
                    }
                    super::overrides::to_json(v, &mut text).map_err(|e| fail(op, e))?;
                } else {
                    for x in v.as_seq(op).map_err(|_| fail(op, format!("the value must be a sequence, not {v}")))? {
                        super::overrides::to_json(x, &mut text).map_err(|e| fail(op, e))?;
                        text.push('\n');
                    }
                }
                host.write_file(path, &text, false, true).map_err(io)?;
                Ok(Value::Bool(true))
            }
            "JsonDeserialize" | "ndJsonDeserialize" => {
                let path = string(op, "file name", &vals[0])?;
                let text = host.read_file(path).map_err(io)?.ok_or_else(|| io(format!("there is no file {path}")))?;
                if op == "JsonDeserialize" {
                    let node: serde_json::Value = serde_json::from_str(&text).map_err(|e| fail(op, format!("{path} is not JSON: {e}")))?;
                    return self.from_json(op, &node);
                }
                let mut items = Vec::new();
                for (i, line) in text.lines().enumerate() {
                    let line = line.trim();
                    if line.is_empty() {
                        continue;
                    }
                    let node: serde_json::Value = serde_json::from_str(line).map_err(|e| fail(op, format!("line {} of {path} is not JSON: {e}", i + 1)))?;
                    items.push(self.from_json(op, &node)?);
                }
                Ok(Value::Seq(Elems::from(items)))
            }
            "IOExec" | "IOEnvExec" | "IOExecTemplate" | "IOEnvExecTemplate" => {
                let with_env = op.starts_with("IOEnv");
                let rest = if with_env { &vals[1..] } else { vals };
                let env: Vec<(String, String)> = if with_env {
                    fields(op, "environment", &vals[0])?.into_iter().map(|(k, v)| (k.to_string(), unquoted(v))).collect()
                } else {
                    Vec::new()
                };
                let mut command = strings(op, "command", &rest[0])?;
                if op.ends_with("Template") {
                    let params = strings(op, "parameters", &rest[1])?;
                    for c in &mut command {
                        *c = format(op, c, &params)?;
                    }
                }
                if command.is_empty() {
                    return Err(fail(op, "the command is empty"));
                }
                let out = host.exec(&command, &env).map_err(io)?;
                let rec = vec![
                    (self.program.interner.get("exitValue"), Value::Int(out.exit)),
                    (self.program.interner.get("stdout"), self.str_value(&out.stdout)),
                    (self.program.interner.get("stderr"), self.str_value(&out.stderr)),
                ];
                Value::record(rec)
            }
            "CSVWrite" => {
                let template = string(op, "template", &vals[0])?;
                let items = vals[1].as_seq(op).map_err(|_| fail(op, format!("the values must be a sequence, not {}", vals[1])))?;
                let args: Vec<String> = items.iter().map(|v| v.to_string()).collect();
                let line = format(op, template, &args)? + "\n";
                host.write_file(string(op, "file name", &vals[2])?, &line, true, false).map_err(io)?;
                Ok(Value::Bool(true))
            }
            "CSVWriteRecord" => {
                let rec = fields(op, "value", &vals[0])?;
                let delim = string(op, "delimiter", &vals[1])?;
                let headers = vals[2].as_bool()?;
                let path = string(op, "file name", &vals[3])?;
                let mut text = String::new();
                if headers {
                    text.push_str(&rec.iter().map(|(k, _)| *k).collect::<Vec<_>>().join(delim));
                    text.push('\n');
                }
                text.push_str(&rec.iter().map(|(_, v)| v.to_string()).collect::<Vec<_>>().join(delim));
                text.push('\n');
                host.write_file(path, &text, true, false).map_err(io)?;
                Ok(Value::Bool(true))
            }
            "CSVRead" => {
                let names = strings(op, "columns", &vals[0])?;
                let delim = string(op, "delimiter", &vals[1])?;
                let path = string(op, "file name", &vals[2])?;
                // Java splits on a regular expression; a delimiter with none of its
                // metacharacters splits on itself.
                if delim.is_empty() || delim.chars().any(|c| ".$|()[]{}^?*+\\".contains(c)) {
                    return Err(io_fail(op, format!("the delimiter \"{delim}\" is a regular expression for TLC, and only plain delimiters are supported")));
                }
                let Some(text) = host.read_file(path).map_err(io)? else { return Ok(Value::Seq(Elems::from(Vec::new()))) };
                let mut records = Vec::new();
                for (i, line) in java_lines(&text).into_iter().enumerate() {
                    let mut cells: Vec<&str> = line.split(delim).collect();
                    // Java's split drops trailing empty strings.
                    while cells.len() > 1 && cells.last() == Some(&"") {
                        cells.pop();
                    }
                    if cells.len() != names.len() {
                        return Err(fail(op, format!("line {} of {path} has {} fields, and {} columns are named", i + 1, cells.len(), names.len())));
                    }
                    let rec = names.iter().zip(cells).map(|(n, c)| (self.program.interner.get(n), self.str_value(c))).collect();
                    records.push(Value::record(rec)?);
                }
                Ok(Value::Seq(Elems::from(records)))
            }
            "CSVRecords" => {
                let path = string(op, "file name", &vals[0])?;
                let n = host.read_file(path).map_err(io)?.map_or(0, |t| java_lines(&t).len());
                i32::try_from(n).map(Value::Int).map_err(|_| fail(op, "too many lines"))
            }
            _ => Err(err(codes::UNSUPPORTED, format!("{op} has no native implementation"))),
        }
    }

    /// A JSON value as TLC's Json override reads it: arrays as tuples, objects as records,
    /// numbers as integers, booleans, strings; `null` is an error.
    fn from_json(&self, op: &str, node: &serde_json::Value) -> VResult<Value> {
        use serde_json::Value as J;
        Ok(match node {
            J::Array(items) => Value::Seq(Elems::from(items.iter().map(|x| self.from_json(op, x)).collect::<VResult<Vec<_>>>()?)),
            J::Object(map) => {
                let rec = map.iter().map(|(k, v)| Ok((self.program.interner.get(k), self.from_json(op, v)?))).collect::<VResult<Vec<_>>>()?;
                Value::record(rec)?
            }
            J::Number(n) => match n.as_i64().and_then(|i| i32::try_from(i).ok()) {
                Some(i) => Value::Int(i),
                None => return Err(io_fail(op, format!("the number {n} is not a 32-bit integer, and TLC's conversion of it is not reproduced"))),
            },
            J::Bool(b) => Value::Bool(*b),
            J::String(s) => self.str_value(s),
            J::Null => return Err(fail(op, "cannot convert the JSON value null")),
        })
    }
}

/// A value as Java's `toUnquotedString` writes it (a string without its quotes).
fn unquoted(v: &Value) -> String {
    match v {
        Value::Str(s) => s.as_str().to_string(),
        v => v.to_string(),
    }
}

/// The lines of a file as Java's `readAllLines` gives them (ends `\n`, `\r\n` or `\r`).
fn java_lines(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        match rest.find(['\n', '\r']) {
            Some(i) => {
                out.push(&rest[..i]);
                let skip = if rest[i..].starts_with("\r\n") { 2 } else { 1 };
                rest = &rest[i + skip..];
            }
            None => {
                out.push(rest);
                break;
            }
        }
    }
    out
}
