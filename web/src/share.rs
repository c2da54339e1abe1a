//! Share links: a graded model and the scores it got, carried in the URL fragment, so anyone
//! who opens the link sees the model re-graded in their own browser and whether the scores
//! agree with the claimed ones.
//!
//! The fragment is `#/share/<version>/<payload>`. The version is [`FORMAT_VERSION`]; the
//! payload is a JSON object compressed with raw DEFLATE (RFC 1951) and written in base64url
//! without padding (RFC 4648 §5):
//!
//! ```json
//! {"task": "spin", "model": "---- MODULE spin ----\n...", "cfg": null, "mapping": null,
//!  "claimed": {"syntax": 1, "runtime": 1, "conformance": 1, "invariants": 1, "overall": 1,
//!              "precision": 1, "combined": 1}}
//! ```
//!
//! `precision` and `combined` are claimed when the grade had them (a task with a system graph);
//! a link made before the precision stage existed has neither, still opens, and is compared on
//! the scores it claims.
//!
//! `cfg` and `mapping` are the user's overrides of the task's configuration and mapping (absent
//! or null when the task's own are used). Decoding is bounded: a fragment longer than
//! [`MAX_LINK_CHARS`] or a payload that inflates past [`MAX_PAYLOAD_BYTES`] is refused before
//! more memory is spent on it. Every failure is a [`ShareError`] with a message for the page.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde_json::{json, Map, Value as Json};

use crate::grading::Scorecard;

/// The format written by [`encode_fragment`]; [`decode_fragment`] reads only this one.
pub const FORMAT_VERSION: u32 = 1;
/// The fragment's prefix before the version.
pub const PREFIX: &str = "#/share/";
/// The longest fragment read (characters, prefix included).
pub const MAX_LINK_CHARS: usize = 256 * 1024;
/// The largest payload (the JSON text, after inflating) read or written.
pub const MAX_PAYLOAD_BYTES: usize = 512 * 1024;
/// Two scores closer than this are equal (scores are fractions in 0..=1 that went through JSON).
pub const SCORE_TOLERANCE: f64 = 1e-9;
/// The stages in the order the scorecard shows them, then the overall score, then precision
/// and the combined score (those two may be absent).
pub const SCORE_NAMES: [&str; 7] = ["syntax", "runtime", "conformance", "invariants", "overall", "precision", "combined"];
/// The scores every link claims.
const REQUIRED: usize = 5;

/// The four stage scores and the overall score; precision and the combined score when the
/// grade had them.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Scores {
    pub syntax: f64,
    pub runtime: f64,
    pub conformance: f64,
    pub invariants: f64,
    pub overall: f64,
    pub precision: Option<f64>,
    pub combined: Option<f64>,
}

impl Scores {
    /// The scores a scorecard shows.
    pub fn from_card(card: &Scorecard) -> Scores {
        let stage = |k: &str| card.stages.iter().find(|s| s.key == k).map(|s| s.score).unwrap_or(0.0);
        Scores {
            syntax: stage("syntax"),
            runtime: stage("runtime"),
            conformance: stage("conformance"),
            invariants: stage("invariants"),
            overall: card.overall,
            precision: card.combined.map(|_| stage("precision")),
            combined: card.combined,
        }
    }

    /// The score named `name` (one of [`SCORE_NAMES`]).
    pub fn get(&self, name: &str) -> Option<f64> {
        Some(match name {
            "syntax" => self.syntax,
            "runtime" => self.runtime,
            "conformance" => self.conformance,
            "invariants" => self.invariants,
            "overall" => self.overall,
            "precision" => return self.precision,
            "combined" => return self.combined,
            _ => return None,
        })
    }

    fn set(&mut self, name: &str, v: f64) {
        match name {
            "syntax" => self.syntax = v,
            "runtime" => self.runtime = v,
            "conformance" => self.conformance = v,
            "invariants" => self.invariants = v,
            "precision" => self.precision = Some(v),
            "combined" => self.combined = Some(v),
            _ => self.overall = v,
        }
    }

    fn to_json(self) -> Json {
        let mut m = Map::new();
        for name in SCORE_NAMES {
            if let Some(v) = self.get(name) {
                m.insert(name.to_string(), json!(v));
            }
        }
        Json::Object(m)
    }
}

/// What a share link carries.
#[derive(Clone, Debug, PartialEq)]
pub struct SharePayload {
    pub task: String,
    pub model: String,
    /// The configuration override (`None`: the task's constants).
    pub cfg: Option<String>,
    /// The mapping override (`None`: the task's mapping).
    pub mapping: Option<String>,
    pub claimed: Scores,
    /// The content hash of the task pack the task comes from, for a task opened from a pack.
    pub pack: Option<String>,
}

/// Why a link cannot be made or read.
#[derive(Clone, Debug, PartialEq)]
pub enum ShareError {
    /// The fragment does not start with [`PREFIX`] and a version.
    NotAShareLink,
    /// A version this page does not read.
    UnknownVersion(String),
    /// The fragment (or, when encoding, the payload) is over its limit.
    /// `size` is `None` when decoding stopped at the limit, before the end.
    Oversize { what: &'static str, size: Option<usize>, limit: usize },
    /// The payload is not base64url: the byte offset and what is wrong there.
    BadBase64(String),
    /// The payload does not inflate.
    BadDeflate(String),
    /// The payload inflates but is not the expected JSON.
    BadPayload(String),
    /// The link names a task this page does not have (of the task pack with this content
    /// hash, when it comes from one).
    UnknownTask { task: String, pack: Option<String> },
    /// The link is for a task of another version of a pack than the one this browser opened.
    OtherPack { task: String, link: String, here: String },
}

impl std::fmt::Display for ShareError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ShareError::NotAShareLink => write!(f, "this is not a share link: it should start with `{PREFIX}{FORMAT_VERSION}/`"),
            ShareError::UnknownVersion(v) => write!(
                f,
                "this share link has format version `{v}`, but this page reads only version {FORMAT_VERSION}"
            ),
            ShareError::Oversize { what, size: Some(size), limit } => {
                write!(f, "this share link is too large: the {what} is {size} bytes, over the limit of {limit}")
            }
            ShareError::Oversize { what, size: None, limit } => {
                write!(f, "this share link is too large: the {what} would be over the limit of {limit} bytes")
            }
            ShareError::BadBase64(e) => write!(f, "this share link is damaged: its data is not valid base64url ({e})"),
            ShareError::BadDeflate(e) => write!(f, "this share link is damaged: its data does not decompress ({e})"),
            ShareError::BadPayload(e) => write!(f, "this share link is damaged: {e}"),
            ShareError::UnknownTask { task, pack: None } => write!(f, "this share link is for the task `{task}`, which this playground does not have"),
            ShareError::UnknownTask { task, pack: Some(h) } => write!(
                f,
                "this share link is for the task `{task}` of the task pack {h}, which this browser has not opened: open that pack in the gallery, then this link again"
            ),
            ShareError::OtherPack { task, link, here } => write!(
                f,
                "this share link is for the task `{task}` of the task pack {link}, but this browser opened another version of it ({here}): open the link's version in the gallery, then this link again"
            ),
        }
    }
}

impl std::error::Error for ShareError {}

/// Blank text counts as no override.
fn non_blank(s: &Option<String>) -> Option<&str> {
    s.as_deref().filter(|t| !t.trim().is_empty())
}

/// The payload's JSON text.
pub fn payload_json(p: &SharePayload) -> String {
    json!({
        "task": p.task,
        "model": p.model,
        "cfg": non_blank(&p.cfg),
        "mapping": non_blank(&p.mapping),
        "claimed": p.claimed.to_json(),
        "pack": p.pack,
    })
    .to_string()
}

/// Compress and encode a JSON text as a fragment of the given version.
pub fn fragment_of_json(version: &str, json_text: &str) -> String {
    let deflated = miniz_oxide::deflate::compress_to_vec(json_text.as_bytes(), 9);
    format!("{PREFIX}{version}/{}", URL_SAFE_NO_PAD.encode(deflated))
}

/// The fragment (with its `#`) for a payload.
pub fn encode_fragment(p: &SharePayload) -> Result<String, ShareError> {
    let text = payload_json(p);
    if text.len() > MAX_PAYLOAD_BYTES {
        return Err(ShareError::Oversize { what: "model", size: Some(text.len()), limit: MAX_PAYLOAD_BYTES });
    }
    let fragment = fragment_of_json(&FORMAT_VERSION.to_string(), &text);
    if fragment.len() > MAX_LINK_CHARS {
        return Err(ShareError::Oversize { what: "link", size: Some(fragment.len()), limit: MAX_LINK_CHARS });
    }
    Ok(fragment)
}

/// Is this fragment meant as a share link (whatever its state)?
pub fn is_share_fragment(fragment: &str) -> bool {
    fragment.starts_with(PREFIX) || fragment.starts_with(&PREFIX[1..])
}

fn describe_base64(e: base64::DecodeError) -> String {
    match e {
        base64::DecodeError::InvalidByte(at, b) => format!("character {:?} at position {at}", b as char),
        base64::DecodeError::InvalidLength(n) => format!("{n} characters cannot be base64 data"),
        base64::DecodeError::InvalidLastSymbol(at, b) => format!("last character {:?} at position {at} is not possible", b as char),
        base64::DecodeError::InvalidPadding => "padding is not allowed".to_string(),
    }
}

fn describe_inflate(e: &miniz_oxide::inflate::DecompressError) -> String {
    use miniz_oxide::inflate::TINFLStatus;
    match e.status {
        TINFLStatus::FailedCannotMakeProgress => "the data ends too early".to_string(),
        TINFLStatus::BadParam => "bad parameters".to_string(),
        TINFLStatus::Adler32Mismatch => "checksum mismatch".to_string(),
        _ => "it is not DEFLATE data".to_string(),
    }
}

fn read_scores(v: &Json) -> Result<Scores, ShareError> {
    let obj = v.get("claimed").and_then(Json::as_object).ok_or_else(|| ShareError::BadPayload("it has no claimed scores".into()))?;
    let mut s = Scores::default();
    for (i, name) in SCORE_NAMES.iter().enumerate() {
        match obj.get(*name) {
            None if i >= REQUIRED => {}
            Some(x) if x.as_f64().is_some() => s.set(name, x.as_f64().unwrap_or_default()),
            _ => return Err(ShareError::BadPayload(format!("the claimed `{name}` score is missing or not a number"))),
        }
    }
    Ok(s)
}

fn optional_text(v: &Json, key: &str) -> Result<Option<String>, ShareError> {
    match v.get(key) {
        None | Some(Json::Null) => Ok(None),
        Some(Json::String(t)) if t.trim().is_empty() => Ok(None),
        Some(Json::String(t)) => Ok(Some(t.clone())),
        Some(_) => Err(ShareError::BadPayload(format!("`{key}` is not text"))),
    }
}

/// Whether a task is here, as [`decode_fragment_with`] asks: `None` when it is not, else the
/// content hash of the pack it was opened from (`None` for a built-in task).
pub type TaskHere<'a> = &'a dyn Fn(&str) -> Option<Option<String>>;

/// Read a fragment (with or without its `#`). `known_task` tells whether a task id exists, and
/// from which pack.
pub fn decode_fragment_with(fragment: &str, known_task: TaskHere<'_>) -> Result<SharePayload, ShareError> {
    let fragment = fragment.trim();
    let rest = fragment
        .strip_prefix(PREFIX)
        .or_else(|| fragment.strip_prefix(&PREFIX[1..]))
        .ok_or(ShareError::NotAShareLink)?;
    if fragment.len() > MAX_LINK_CHARS {
        return Err(ShareError::Oversize { what: "link", size: Some(fragment.len()), limit: MAX_LINK_CHARS });
    }
    let (version, data) = rest.split_once('/').unwrap_or((rest, ""));
    if version.is_empty() {
        return Err(ShareError::BadPayload("it has no format version".into()));
    }
    if version != FORMAT_VERSION.to_string() {
        let shown: String = version.chars().take(20).collect();
        return Err(ShareError::UnknownVersion(shown));
    }
    if data.is_empty() {
        return Err(ShareError::BadPayload("it carries no data after the version".into()));
    }
    let deflated = URL_SAFE_NO_PAD.decode(data).map_err(|e| ShareError::BadBase64(describe_base64(e)))?;
    let raw = miniz_oxide::inflate::decompress_to_vec_with_limit(&deflated, MAX_PAYLOAD_BYTES).map_err(|e| {
        if e.status == miniz_oxide::inflate::TINFLStatus::HasMoreOutput {
            ShareError::Oversize { what: "decompressed data", size: None, limit: MAX_PAYLOAD_BYTES }
        } else {
            ShareError::BadDeflate(describe_inflate(&e))
        }
    })?;
    let text = String::from_utf8(raw).map_err(|_| ShareError::BadPayload("its data is not UTF-8 text".into()))?;
    let v: Json = serde_json::from_str(&text).map_err(|e| ShareError::BadPayload(format!("its data is not JSON ({e})")))?;
    if !v.is_object() {
        return Err(ShareError::BadPayload("its data is not a JSON object".into()));
    }
    let task = v.get("task").and_then(Json::as_str).ok_or_else(|| ShareError::BadPayload("it names no task".into()))?.to_string();
    let model = v.get("model").and_then(Json::as_str).ok_or_else(|| ShareError::BadPayload("it carries no model text".into()))?.to_string();
    let cfg = optional_text(&v, "cfg")?;
    let mapping = optional_text(&v, "mapping")?;
    let claimed = read_scores(&v)?;
    let pack = optional_text(&v, "pack")?;
    let shown: String = task.chars().take(60).collect();
    match (known_task(&task), &pack) {
        (None, _) => return Err(ShareError::UnknownTask { task: shown, pack: pack.map(|h| h.chars().take(20).collect()) }),
        (Some(Some(here)), Some(link)) if here != *link => {
            return Err(ShareError::OtherPack { task: shown, link: link.chars().take(20).collect(), here });
        }
        _ => {}
    }
    Ok(SharePayload { task, model, cfg, mapping, claimed, pack })
}

/// Read a fragment against the embedded tasks.
pub fn decode_fragment(fragment: &str) -> Result<SharePayload, ShareError> {
    decode_fragment_with(fragment, &|id| sysmo_tasks::task(id).map(|t| t.pack_hash()))
}

/// One score that differs from its claim.
#[derive(Clone, Debug, PartialEq)]
pub struct ScoreDifference {
    /// One of [`SCORE_NAMES`].
    pub stage: &'static str,
    pub claimed: f64,
    pub got: f64,
}

/// The scores that differ from the claimed ones (empty: verified).
pub fn differences(claimed: &Scores, got: &Scores) -> Vec<ScoreDifference> {
    SCORE_NAMES
        .iter()
        .filter_map(|name| {
            let (c, g) = (claimed.get(name)?, got.get(name)?);
            ((c - g).abs() > SCORE_TOLERANCE || c.is_nan() || g.is_nan()).then_some(ScoreDifference { stage: name, claimed: c, got: g })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn known(id: &str) -> Option<Option<String>> {
        match id {
            "spin" => Some(None),
            "buffer" => Some(Some("00000000000000aa".into())),
            _ => None,
        }
    }

    fn sample() -> SharePayload {
        SharePayload {
            task: "spin".into(),
            model: "---- MODULE spin ----\nVARIABLE x\nInit == x = 0\nNext == x' = x\n====\n".into(),
            cfg: None,
            mapping: None,
            claimed: Scores { syntax: 1.0, runtime: 0.75, conformance: 2.0 / 3.0, invariants: 0.0, overall: 0.6041666666666666, ..Scores::default() },
            pack: None,
        }
    }

    #[test]
    fn round_trip_keeps_everything() {
        let p = sample();
        let f = encode_fragment(&p).unwrap();
        assert!(f.starts_with("#/share/1/"), "{f}");
        assert!(f[10..].bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'), "{f}");
        assert_eq!(decode_fragment_with(&f, &known).unwrap(), p);
        // Without the `#` too (as pasted), and with overrides.
        let q = SharePayload { cfg: Some("CONSTANT Threads = {0, 1}\n".into()), mapping: Some("[actions]\n".into()), ..p };
        let f = encode_fragment(&q).unwrap();
        assert_eq!(decode_fragment_with(&f[1..], &known).unwrap(), q);
    }

    #[test]
    fn precision_is_claimed_when_graded_and_old_links_still_read() {
        let with = SharePayload { claimed: Scores { precision: Some(0.5), combined: Some(0.5833333333333333), ..sample().claimed }, ..sample() };
        let back = decode_fragment_with(&encode_fragment(&with).unwrap(), &known).unwrap();
        assert_eq!(back, with);
        // A link written before the precision stage: five scores, read with no precision claim,
        // and a grade that now has one differs only where the link claims something.
        let old = r#"{"task": "spin", "model": "m", "claimed": {"syntax": 1, "runtime": 0.75, "conformance": 1, "invariants": 1, "overall": 0.9375}}"#;
        let p = decode_fragment_with(&fragment_of_json("1", old), &known).unwrap();
        assert_eq!((p.claimed.precision, p.claimed.combined), (None, None));
        let got = Scores { precision: Some(0.2), combined: Some(0.79), ..p.claimed };
        assert!(differences(&p.claimed, &got).is_empty());
        // A precision claim that is not a number is an error.
        let bad = r#"{"task": "spin", "model": "m", "claimed": {"syntax": 1, "runtime": 1, "conformance": 1, "invariants": 1, "overall": 1, "precision": "high"}}"#;
        assert!(matches!(decode_fragment_with(&fragment_of_json("1", bad), &known), Err(ShareError::BadPayload(m)) if m.contains("precision")));
    }

    #[test]
    fn blank_overrides_are_none() {
        let p = SharePayload { cfg: Some("  \n".into()), ..sample() };
        let back = decode_fragment_with(&encode_fragment(&p).unwrap(), &known).unwrap();
        assert_eq!(back.cfg, None);
    }

    #[test]
    fn every_error_is_reported() {
        let good = encode_fragment(&sample()).unwrap();
        let data = good.strip_prefix("#/share/1/").unwrap();
        assert_eq!(decode_fragment_with("#/task/spin", &known), Err(ShareError::NotAShareLink));
        assert_eq!(decode_fragment_with(&format!("#/share/2/{data}"), &known), Err(ShareError::UnknownVersion("2".into())));
        assert!(matches!(decode_fragment_with("#/share/", &known), Err(ShareError::BadPayload(m)) if m.contains("version")));
        assert!(matches!(decode_fragment_with("#/share/1/", &known), Err(ShareError::BadPayload(_))));
        assert!(matches!(decode_fragment_with("#/share/1/ab$cd", &known), Err(ShareError::BadBase64(m)) if m.contains("'$'")));
        assert!(matches!(decode_fragment_with(&format!("#/share/1/{data}="), &known), Err(ShareError::BadBase64(_))));
        // Valid base64 of bytes that are not DEFLATE (block type 3 is reserved).
        let junk = URL_SAFE_NO_PAD.encode([0xffu8, 0xff, 0xff, 0xff]);
        assert!(matches!(decode_fragment_with(&format!("#/share/1/{junk}"), &known), Err(ShareError::BadDeflate(_))));
        // A cut link: the DEFLATE stream ends early.
        let cut = &data[..data.len() / 8 * 4];
        assert!(matches!(decode_fragment_with(&format!("#/share/1/{cut}"), &known), Err(ShareError::BadDeflate(m)) if m.contains("ends too early")), "cut");
        // A cut that leaves a length no base64 text has.
        let odd = &data[..data.len() / 4 * 4 - 3];
        assert!(matches!(decode_fragment_with(&format!("#/share/1/{odd}"), &known), Err(ShareError::BadBase64(m)) if m.contains("cannot be base64")));
        // Well-formed but not a payload.
        let f = fragment_of_json("1", "[1, 2]");
        assert!(matches!(decode_fragment_with(&f, &known), Err(ShareError::BadPayload(_))));
        let f = fragment_of_json("1", "{\"task\": \"spin\", \"model\": \"m\", \"claimed\": {\"syntax\": 1}}");
        assert!(matches!(decode_fragment_with(&f, &known), Err(ShareError::BadPayload(m)) if m.contains("runtime")));
        let f = fragment_of_json("1", "{\"task\": \"spin\", \"claimed\": {}}");
        assert!(matches!(decode_fragment_with(&f, &known), Err(ShareError::BadPayload(m)) if m.contains("model")));
        let f = fragment_of_json("1", "not json");
        assert!(matches!(decode_fragment_with(&f, &known), Err(ShareError::BadPayload(m)) if m.contains("not JSON")));
        let p = SharePayload { task: "nope".into(), ..sample() };
        assert_eq!(decode_fragment_with(&encode_fragment(&p).unwrap(), &known), Err(ShareError::UnknownTask { task: "nope".into(), pack: None }));
        // A task of a pack: the link names the pack by its content hash.
        let p = SharePayload { task: "buffer".into(), pack: Some("00000000000000aa".into()), ..sample() };
        assert_eq!(decode_fragment_with(&encode_fragment(&p).unwrap(), &known), Ok(p.clone()));
        let other = SharePayload { pack: Some("00000000000000bb".into()), ..p.clone() };
        let e = decode_fragment_with(&encode_fragment(&other).unwrap(), &known).unwrap_err();
        assert_eq!(e, ShareError::OtherPack { task: "buffer".into(), link: "00000000000000bb".into(), here: "00000000000000aa".into() });
        let missing = SharePayload { task: "gone".into(), ..p };
        let e = decode_fragment_with(&encode_fragment(&missing).unwrap(), &known).unwrap_err();
        assert!(e.to_string().contains("of the task pack 00000000000000aa, which this browser has not opened"), "{e}");
        // Each message says what is wrong, never empty.
        for e in [
            ShareError::NotAShareLink,
            ShareError::UnknownVersion("9".into()),
            ShareError::Oversize { what: "link", size: Some(10), limit: 5 },
            ShareError::Oversize { what: "link", size: None, limit: 5 },
            ShareError::BadBase64("x".into()),
            ShareError::BadDeflate("x".into()),
            ShareError::BadPayload("x".into()),
            ShareError::UnknownTask { task: "x".into(), pack: None },
            ShareError::UnknownTask { task: "x".into(), pack: Some("h".into()) },
            ShareError::OtherPack { task: "x".into(), link: "h".into(), here: "g".into() },
        ] {
            assert!(e.to_string().len() > 20, "{e}");
        }
    }

    #[test]
    fn limits_are_enforced_both_ways() {
        // A payload that inflates past the limit: highly compressible, so the link itself is small.
        let big = SharePayload { model: "\\* padding\n".repeat(MAX_PAYLOAD_BYTES / 11 + 10), ..sample() };
        assert!(matches!(encode_fragment(&big), Err(ShareError::Oversize { what: "model", .. })));
        let bomb = fragment_of_json("1", &payload_json(&big));
        assert!(bomb.len() < MAX_LINK_CHARS, "{}", bomb.len());
        assert!(matches!(decode_fragment_with(&bomb, &known), Err(ShareError::Oversize { what: "decompressed data", .. })));
        // A fragment over the character limit is refused before decoding.
        let long = format!("#/share/1/{}", "A".repeat(MAX_LINK_CHARS));
        assert!(matches!(decode_fragment_with(&long, &known), Err(ShareError::Oversize { what: "link", .. })));
        // Just under the payload limit still works.
        let fits = SharePayload { model: "x".repeat(MAX_PAYLOAD_BYTES - 400), ..sample() };
        assert_eq!(decode_fragment_with(&encode_fragment(&fits).unwrap(), &known).unwrap(), fits);
    }

    #[test]
    fn differences_name_the_stage_and_both_scores() {
        let claimed = sample().claimed;
        assert!(differences(&claimed, &claimed).is_empty());
        let mut got = claimed;
        got.runtime = 1.0;
        got.overall = 0.6666;
        assert_eq!(
            differences(&claimed, &got),
            vec![
                ScoreDifference { stage: "runtime", claimed: 0.75, got: 1.0 },
                ScoreDifference { stage: "overall", claimed: 0.6041666666666666, got: 0.6666 },
            ]
        );
        // JSON round trips do not count as differences.
        let mut near = claimed;
        near.conformance += 1e-15;
        assert!(differences(&claimed, &near).is_empty());
    }
}
