//! A task pack: a whole task in one file (`NAME.sysmo`), for a task that is not built in. It
//! holds what a task folder holds ([`crate::folder`] reads one): `task.toml`, the invariants
//! module and cfg, the reference and bug models (the files of [`crate::layout`]), the traces of
//! every folder task.toml names (normal and bug), the system's code shown read-only, and the
//! system graph when there is one.
//!
//! On disk a pack is gzipped JSON, `{"format": "sysmo-pack/1", "files": {path: text}, "traces":
//! {path: text}, "code": {path: text}, "graph": text or null}`, with its maps sorted, so the
//! same folder always gives the same bytes and the same [`Pack::content_hash`]. Reading one
//! ([`Pack::from_bytes`]) checks its shape and its task.toml, and refuses a pack that unpacks to
//! more than [`MAX_UNPACKED`] bytes (256 MiB); the task's own checks (traces, reference, bug model) are
//! `sysmo task check`'s.
//!
//! No I/O: builds for `wasm32-unknown-unknown`, where the web app opens a pack from a file.

use crate::TaskToml;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::{Read as _, Write as _};

/// The `format` of a pack this version reads and writes.
pub const FORMAT: &str = "sysmo-pack/1";

/// A link's fragment that carries a pack: `#/pack/1/` and the pack's file in base64url.
pub const LINK_PREFIX: &str = "#/pack/1/";

/// The longest fragment [`Pack::to_fragment`] writes: beyond it, share the file instead.
pub const MAX_LINK_CHARS: usize = 96 * 1024;

/// The largest pack, unpacked, that [`Pack::from_bytes`] reads (a gzip of a few kilobytes can
/// unpack to gigabytes).
pub const MAX_UNPACKED: u64 = 256 << 20;

/// A task in one file (see the module's docs).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pack {
    pub format: String,
    /// The task folder's files, by path in the folder: `task.toml`, `<Module>Invariants.tla`,
    /// `invariants.cfg`, `reference/<Module>.tla`, `bug/<Module>.tla`, ...
    pub files: BTreeMap<String, String>,
    /// Every trace, by `<folder as task.toml names it>/<file name>`: the folders of `traces`
    /// and of `bug_traces`.
    pub traces: BTreeMap<String, String>,
    /// The system's code that produced the traces, shown read-only, by path.
    #[serde(default)]
    pub code: BTreeMap<String, String>,
    /// The system graph (NDJSON, `docs/system-graph.md`), unpacked.
    #[serde(default)]
    pub graph: Option<String>,
}

impl Pack {
    /// An empty pack of this version's format.
    pub fn new() -> Pack {
        Pack { format: FORMAT.into(), ..Pack::default() }
    }

    /// The pack as JSON text, its maps sorted.
    pub fn to_json(&self) -> String {
        // A map of strings always serialises.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The pack's file: its JSON, gzipped.
    pub fn to_bytes(&self) -> Vec<u8> {
        gzip(&self.to_json())
    }

    /// Reads a pack's file (gzipped JSON; plain JSON is read too); the error says what is wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Pack, String> {
        Pack::from_bytes_within(bytes, MAX_UNPACKED)
    }

    fn from_bytes_within(bytes: &[u8], max_unpacked: u64) -> Result<Pack, String> {
        Pack::from_json(&unpack(bytes, max_unpacked)?)
    }

    /// Reads a pack's JSON; checks its format and that its task.toml reads.
    pub fn from_json(text: &str) -> Result<Pack, String> {
        let pack: Pack = serde_json::from_str(text).map_err(|e| format!("not a task pack: {e}"))?;
        if pack.format != FORMAT {
            return Err(format!("the pack's format is `{}`; this version reads `{FORMAT}`", pack.format));
        }
        pack.task_toml()?;
        Ok(pack)
    }

    /// A link's fragment that carries the pack ([`LINK_PREFIX`] and its file in base64url);
    /// an error when it would be longer than [`MAX_LINK_CHARS`].
    pub fn to_fragment(&self) -> Result<String, String> {
        fragment_of(&self.to_bytes())
    }

    /// Whether a link's fragment (with or without its `#`) carries a pack (or a course).
    pub fn is_fragment(fragment: &str) -> bool {
        fragment.trim_start_matches('#').starts_with(LINK_PREFIX.trim_start_matches('#'))
    }

    /// The pack a link's fragment carries ([`Pack::to_fragment`]); the error says what is wrong.
    pub fn from_fragment(fragment: &str) -> Result<Pack, String> {
        Pack::from_bytes(&bytes_of_fragment(fragment)?)
    }

    /// The pack's task.toml, read.
    pub fn task_toml(&self) -> Result<TaskToml, String> {
        let text = self.files.get("task.toml").ok_or("the pack has no task.toml")?;
        TaskToml::parse(text)
    }

    /// The traces of the folders `folders` (task.toml's `traces`, or its `bug_traces`): (path,
    /// text), sorted by path.
    pub fn traces_in<'a>(&'a self, folders: &[String]) -> Vec<(&'a str, &'a str)> {
        self.traces
            .iter()
            .filter(|(p, _)| p.rsplit_once('/').is_some_and(|(dir, _)| folders.iter().any(|f| f == dir)))
            .map(|(p, t)| (p.as_str(), t.as_str()))
            .collect()
    }

    /// A name for the pack's content: 16 hexadecimal digits of a 64-bit FNV-1a hash of its
    /// JSON. Two packs with the same files have the same hash.
    pub fn content_hash(&self) -> String {
        hash_of_json(&self.to_json())
    }
}

/// [`Pack::content_hash`] of the pack whose JSON ([`Pack::to_json`]) is `json`, without
/// reading it.
pub fn hash_of_json(json: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in json.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// A link's fragment that carries a file ([`LINK_PREFIX`] and the file in base64url); an
/// error when it would be longer than [`MAX_LINK_CHARS`].
pub(crate) fn fragment_of(bytes: &[u8]) -> Result<String, String> {
    use base64::Engine as _;
    let fragment = format!("{LINK_PREFIX}{}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes));
    if fragment.len() > MAX_LINK_CHARS {
        return Err(format!("the file is too large for a link ({} characters, over {MAX_LINK_CHARS}): share it as a file instead", fragment.len()));
    }
    Ok(fragment)
}

/// The file a link's fragment carries ([`fragment_of`]); the error says what is wrong.
pub(crate) fn bytes_of_fragment(fragment: &str) -> Result<Vec<u8>, String> {
    use base64::Engine as _;
    let data = fragment
        .trim()
        .trim_start_matches('#')
        .strip_prefix(LINK_PREFIX.trim_start_matches('#'))
        .ok_or_else(|| format!("not a link to a task pack: it should start with `{LINK_PREFIX}`"))?;
    if data.len() > MAX_LINK_CHARS {
        return Err(format!("the link is too long for a task pack ({} characters, over {MAX_LINK_CHARS})", data.len()));
    }
    base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(data).map_err(|e| format!("the link is damaged: its pack is not valid base64url ({e})"))
}

/// `text`, gzipped.
pub(crate) fn gzip(text: &str) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    // Writing into a Vec does not fail.
    let _ = gz.write_all(text.as_bytes());
    gz.finish().unwrap_or_default()
}

/// The text of a pack's or a course's file: gunzipped when it is gzip (at most `max_unpacked`
/// bytes), else as it is; the error says what is wrong.
pub(crate) fn unpack(bytes: &[u8], max_unpacked: u64) -> Result<String, String> {
    if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::new();
        let mut limited = flate2::read::GzDecoder::new(bytes).take(max_unpacked + 1);
        limited.read_to_end(&mut out).map_err(|e| format!("the file does not unpack (gzip): {e}"))?;
        if out.len() as u64 > max_unpacked {
            return Err(format!("the file unpacks to more than {max_unpacked} bytes"));
        }
        String::from_utf8(out).map_err(|e| format!("the file is not UTF-8 text once unpacked: {e}"))
    } else {
        String::from_utf8(bytes.to_vec()).map_err(|_| "not a task pack: neither gzip nor JSON text".to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Pack {
        let mut p = Pack::new();
        p.files.insert("task.toml".into(), "id = \"buf\"\n[pinned]\nmodule = \"buf\"\n".into());
        p.files.insert("reference/buf.tla".into(), "---- MODULE buf ----\n====\n".into());
        p.traces.insert("traces/buf/a.ndjson".into(), "{\"kind\":\"header\"}\n".into());
        p.traces.insert("traces/buf-bug/b.ndjson".into(), "{\"kind\":\"header\"}\n".into());
        p.code.insert("code/buffer.py".into(), "class Buffer: pass\n".into());
        p
    }

    #[test]
    fn a_pack_reads_back_the_same_and_its_hash_follows_its_content() {
        let p = sample();
        let bytes = p.to_bytes();
        assert_eq!(&bytes[..2], &[0x1f, 0x8b]);
        assert_eq!(Pack::from_bytes(&bytes).unwrap(), p);
        assert_eq!(Pack::from_bytes(p.to_json().as_bytes()).unwrap(), p, "plain JSON reads too");
        assert_eq!(p.to_bytes(), bytes, "the same pack, the same bytes");
        let mut q = p.clone();
        assert_eq!(q.content_hash(), p.content_hash());
        q.code.insert("code/other.py".into(), String::new());
        assert_ne!(q.content_hash(), p.content_hash());
        assert_eq!(p.content_hash().len(), 16);
    }

    #[test]
    fn a_pack_travels_in_a_links_fragment_when_small_enough() {
        let p = sample();
        let f = p.to_fragment().unwrap();
        assert!(f.starts_with("#/pack/1/") && Pack::is_fragment(&f) && Pack::is_fragment(&f[1..]));
        assert_eq!(Pack::from_fragment(&f).unwrap(), p);
        assert!(!Pack::is_fragment("#/share/1/abc"));
        assert!(Pack::from_fragment("#/share/1/abc").unwrap_err().starts_with("not a link to a task pack"));
        assert!(Pack::from_fragment("#/pack/1/%%%").unwrap_err().contains("not valid base64url"));
        assert!(Pack::from_fragment("#/pack/1/aGVsbG8").unwrap_err().contains("not a task pack"));
        // A pack whose file is larger than a link takes: random text does not compress.
        let mut big = sample();
        let mut x: u64 = 1;
        let noise: String = (0..2 * MAX_LINK_CHARS)
            .map(|_| {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                char::from(b'a' + (x >> 59) as u8 % 26)
            })
            .collect();
        big.code.insert("code/noise.txt".into(), noise);
        let err = big.to_fragment().err().unwrap_or_default();
        assert!(err.contains("too large for a link"), "a link of {} bytes of pack", big.to_bytes().len());
    }

    #[test]
    fn traces_are_split_by_the_folders_task_toml_names() {
        let p = sample();
        assert_eq!(p.traces_in(&["traces/buf".into()]), [("traces/buf/a.ndjson", "{\"kind\":\"header\"}\n")]);
        assert_eq!(p.traces_in(&["traces/buf-bug".into()]).len(), 1);
        assert!(p.traces_in(&["traces".into()]).is_empty());
    }

    #[test]
    fn a_bad_pack_says_what_is_wrong() {
        let err = |bytes: &[u8]| Pack::from_bytes(bytes).unwrap_err();
        assert!(err(&[0x1f, 0x8b, 1, 2, 3]).contains("does not unpack"));
        assert!(err(&[0xff, 0xfe]).contains("neither gzip nor JSON"));
        assert!(err(b"{\"format\": 3}").starts_with("not a task pack"));
        let mut p = sample();
        p.format = "sysmo-pack/9".into();
        assert!(err(p.to_json().as_bytes()).contains("this version reads `sysmo-pack/1`"));
        let mut p = sample();
        p.files.remove("task.toml");
        assert_eq!(err(&p.to_bytes()), "the pack has no task.toml");
        let mut p = sample();
        p.files.insert("task.toml".into(), "id = 3\n".into());
        assert!(err(&p.to_bytes()).starts_with("task.toml:"));
        // A gzip bomb: more bytes once unpacked than the reader takes.
        let bytes = sample().to_bytes();
        let unpacked = sample().to_json().len() as u64;
        assert!(Pack::from_bytes_within(&bytes, unpacked).is_ok());
        assert_eq!(Pack::from_bytes_within(&bytes, unpacked - 1).unwrap_err(), format!("the file unpacks to more than {} bytes", unpacked - 1));
    }
}
