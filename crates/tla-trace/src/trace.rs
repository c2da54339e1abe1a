//! Reading a trace (NDJSON, docs/trace-format.md) into lines with their numbers. Every problem
//! is an [`InputError`] naming the file and the 1-based line.

use serde_json::{Map, Value as Json};

/// Codes of trace and mapping input errors (docs/diagnostics.md).
pub mod codes {
    /// A trace line is not valid JSON.
    pub const BAD_JSON: &str = "E0501";
    /// A trace line lacks a field or a field has the wrong JSON type.
    pub const BAD_LINE: &str = "E0502";
    /// The trace is empty or does not start with a header.
    pub const NO_HEADER: &str = "E0503";
    /// The trace was recorded for another task or with other constants.
    pub const OTHER_TASK: &str = "E0504";
    /// Step numbers are not 1, 2, 3, ... without gaps.
    pub const BAD_SEQ: &str = "E0505";
    /// A step's action is neither mapped nor an action of the model.
    pub const UNKNOWN_ACTION: &str = "E0506";
    /// An observed value has no TLA+ counterpart or not the type the model's variable has.
    pub const BAD_VALUE: &str = "E0507";
    /// An observed field is neither mapped nor a variable of the model.
    pub const UNKNOWN_FIELD: &str = "E0508";
    /// A constant of the trace's header is neither mapped nor a constant (or definition) of
    /// the model.
    pub const UNKNOWN_CONSTANT: &str = "E0509";
    /// The mapping file is not valid (JSON, shape, names it refers to).
    pub const BAD_MAPPING: &str = "E0510";
    /// A system graph file is not valid (its lines, its state ids).
    pub const BAD_GRAPH: &str = "E0511";
    /// A window or line of the trace has no matching model step (a divergence).
    pub const DIVERGENCE: &str = "E0520";
    /// The set of candidate model states outgrew its budget: the replay is inconclusive.
    pub const BUDGET: &str = "E0521";
    /// Evaluating the model failed while replaying.
    pub const EVAL: &str = "E0522";
}

/// A problem with an input file, at a line (0 when the whole file is concerned).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    pub code: &'static str,
    pub file: String,
    pub line: usize,
    pub message: String,
}

impl InputError {
    pub fn new(code: &'static str, file: &str, line: usize, message: impl Into<String>) -> InputError {
        InputError { code, file: file.to_string(), line, message: message.into() }
    }
    pub fn to_json(&self) -> Json {
        serde_json::json!({"code": self.code, "file": self.file, "line": self.line, "message": self.message})
    }
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line > 0 {
            write!(f, "{}:{}: {}: {}", self.file, self.line, self.code, self.message)
        } else {
            write!(f, "{}: {}: {}", self.file, self.code, self.message)
        }
    }
}

/// The observable state of one line.
#[derive(Clone, Debug)]
pub struct Observation {
    /// 1-based line number in the file.
    pub line: usize,
    pub state: Map<String, Json>,
}

/// One step line.
#[derive(Clone, Debug)]
pub struct Step {
    pub line: usize,
    pub seq: u64,
    pub action: String,
    pub actor: Json,
    pub args: Map<String, Json>,
    pub post: Observation,
}

/// A parsed trace.
#[derive(Clone, Debug)]
pub struct Trace {
    pub file: String,
    pub task: String,
    pub constants: Map<String, Json>,
    pub init: Option<Observation>,
    pub steps: Vec<Step>,
}

impl Trace {
    /// The observation before step `i` (0-based): the init line or the previous step's state.
    pub fn pre(&self, i: usize) -> Option<&Observation> {
        if i == 0 { self.init.as_ref() } else { self.steps.get(i - 1).map(|s| &s.post) }
    }
    /// Number of lines (header included).
    pub fn line_count(&self) -> usize {
        1 + usize::from(self.init.is_some()) + self.steps.len()
    }
}

fn field<'j>(obj: &'j Map<String, Json>, name: &str, file: &str, line: usize) -> Result<&'j Json, InputError> {
    obj.get(name).ok_or_else(|| InputError::new(codes::BAD_LINE, file, line, format!("the line has no field \"{}\"", name)))
}

fn object<'j>(v: &'j Json, what: &str, file: &str, line: usize) -> Result<&'j Map<String, Json>, InputError> {
    v.as_object().ok_or_else(|| InputError::new(codes::BAD_LINE, file, line, format!("\"{}\" must be a JSON object, not {}", what, v)))
}

/// Parse the text of a trace file.
pub fn parse_trace(file: &str, text: &str) -> Result<Trace, InputError> {
    let mut lines: Vec<(usize, &str)> = text.split('\n').enumerate().map(|(i, l)| (i + 1, l.strip_suffix('\r').unwrap_or(l))).collect();
    while lines.last().is_some_and(|(_, l)| l.trim().is_empty()) {
        lines.pop();
    }
    if lines.is_empty() {
        return Err(InputError::new(codes::NO_HEADER, file, 0, "the trace is empty (a trace starts with a header line)"));
    }
    let mut objs = Vec::with_capacity(lines.len());
    for (n, l) in &lines {
        if l.trim().is_empty() {
            return Err(InputError::new(codes::BAD_LINE, file, *n, "empty line inside the trace"));
        }
        let v: Json = serde_json::from_str(l).map_err(|e| InputError::new(codes::BAD_JSON, file, *n, format!("not valid JSON: {}", e)))?;
        let Json::Object(o) = v else {
            return Err(InputError::new(codes::BAD_LINE, file, *n, "a trace line must be a JSON object"));
        };
        let kind = field(&o, "kind", file, *n)?.as_str().unwrap_or("").to_string();
        objs.push((*n, kind, o));
    }
    let (hl, hk, header) = &objs[0];
    if hk != "header" {
        return Err(InputError::new(codes::NO_HEADER, file, *hl, format!("the first line must be the header (kind \"header\"), found kind \"{}\"", hk)));
    }
    let task = field(header, "task", file, *hl)?
        .as_str()
        .ok_or_else(|| InputError::new(codes::BAD_LINE, file, *hl, "\"task\" must be a string"))?
        .to_string();
    match field(header, "version", file, *hl)?.as_i64() {
        Some(1) => {}
        _ => return Err(InputError::new(codes::BAD_LINE, file, *hl, "unsupported trace version (expected 1)")),
    }
    let constants = match header.get("constants") {
        Some(c) => object(c, "constants", file, *hl)?.clone(),
        None => Map::new(),
    };
    let mut init = None;
    let mut steps = Vec::new();
    for (idx, (n, kind, o)) in objs.iter().enumerate().skip(1) {
        match kind.as_str() {
            "init" if idx == 1 => {
                let st = object(field(o, "state", file, *n)?, "state", file, *n)?;
                init = Some(Observation { line: *n, state: st.clone() });
            }
            "init" => return Err(InputError::new(codes::BAD_LINE, file, *n, "the init line must come right after the header")),
            "step" => {
                let seq = field(o, "seq", file, *n)?
                    .as_u64()
                    .ok_or_else(|| InputError::new(codes::BAD_LINE, file, *n, "\"seq\" must be a positive integer"))?;
                let expected = steps.len() as u64 + 1;
                if seq != expected {
                    return Err(InputError::new(codes::BAD_SEQ, file, *n, format!("step number {} where {} was expected", seq, expected)));
                }
                let action = field(o, "action", file, *n)?
                    .as_str()
                    .filter(|s| !s.is_empty())
                    .ok_or_else(|| InputError::new(codes::BAD_LINE, file, *n, "\"action\" must be a non-empty string"))?
                    .to_string();
                let actor = o.get("actor").cloned().unwrap_or(Json::Null);
                let args = object(field(o, "args", file, *n)?, "args", file, *n)?.clone();
                let st = object(field(o, "state", file, *n)?, "state", file, *n)?.clone();
                steps.push(Step { line: *n, seq, action, actor, args, post: Observation { line: *n, state: st } });
            }
            "header" => return Err(InputError::new(codes::BAD_LINE, file, *n, "a second header line")),
            other => return Err(InputError::new(codes::BAD_LINE, file, *n, format!("unknown line kind \"{}\" (expected \"init\" or \"step\")", other))),
        }
    }
    Ok(Trace { file: file.to_string(), task, constants, init, steps })
}
