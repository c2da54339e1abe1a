//! A course: several tasks in one file, in the order a teacher gives them. A folder holding a
//! `course.toml` ([`CourseToml`]) names its tasks' folders; `sysmo task pack` writes each as a
//! [`Pack`] into one course file, and the web app opens every task of it.
//!
//! On disk a course is gzipped JSON, `{"format": "sysmo-course/1", "title": text,
//! "description": text, "packs": [pack, ...]}`. [`Course::from_bytes`] reads a course, or a
//! single pack as a course of one task, so that whoever opens a file need not know which it is.
//!
//! A course may carry built-in tasks (the playground's tutorials, say), whole: the web app
//! opens such a pack as the built-in task when their content is the same.
//!
//! No I/O: builds for `wasm32-unknown-unknown`.

use crate::pack::{self, Pack, MAX_UNPACKED};
use serde::{Deserialize, Serialize};

/// The `format` of a course this version reads and writes.
pub const FORMAT: &str = "sysmo-course/1";

/// The file in a folder that makes it a course.
pub const COURSE_TOML: &str = "course.toml";

/// A `course.toml`: the course's title, a sentence or two about it, and its tasks' folders,
/// relative to the course's folder, in order.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CourseToml {
    pub title: String,
    #[serde(default)]
    pub description: String,
    pub tasks: Vec<String>,
}

impl CourseToml {
    /// Reads a course.toml; the error names the line.
    pub fn parse(text: &str) -> Result<CourseToml, String> {
        let c: CourseToml = toml::from_str(text).map_err(|e| format!("{COURSE_TOML}: {e}"))?;
        if c.tasks.is_empty() {
            return Err(format!("{COURSE_TOML}: `tasks` names no task folder"));
        }
        Ok(c)
    }
}

/// Several tasks in one file (see the module's docs).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Course {
    pub format: String,
    pub title: String,
    #[serde(default)]
    pub description: String,
    pub packs: Vec<Pack>,
}

/// Only the `format` of a file, to tell a course from a pack.
#[derive(Deserialize)]
struct Format {
    format: String,
}

impl Course {
    /// An empty course of this version's format.
    pub fn new(title: &str, description: &str) -> Course {
        Course { format: FORMAT.into(), title: title.into(), description: description.into(), packs: vec![] }
    }

    /// The course as JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The course's file: its JSON, gzipped.
    pub fn to_bytes(&self) -> Vec<u8> {
        pack::gzip(&self.to_json())
    }

    /// Reads a course's file, or a pack's as a course of one task with no title (gzipped JSON;
    /// plain JSON is read too); the error says what is wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Course, String> {
        let text = pack::unpack(bytes, MAX_UNPACKED)?;
        let format = serde_json::from_str::<Format>(&text).map(|f| f.format).map_err(|e| format!("not a task pack or course: {e}"))?;
        if format == pack::FORMAT {
            return Ok(Course { packs: vec![Pack::from_json(&text)?], ..Course::new("", "") });
        }
        if format != FORMAT {
            return Err(format!("the file's format is `{format}`; this version reads `{}` and `{FORMAT}`", pack::FORMAT));
        }
        let course: Course = serde_json::from_str(&text).map_err(|e| format!("not a course: {e}"))?;
        course.checked()
    }

    /// A link's fragment that carries the course (as [`Pack::to_fragment`] carries a pack).
    pub fn to_fragment(&self) -> Result<String, String> {
        pack::fragment_of(&self.to_bytes())
    }

    /// The course, or the pack, a link's fragment carries; the error says what is wrong.
    pub fn from_fragment(fragment: &str) -> Result<Course, String> {
        Course::from_bytes(&pack::bytes_of_fragment(fragment)?)
    }

    /// Whether the file held a course (a pack read alone has no title).
    pub fn is_course(&self) -> bool {
        !self.title.is_empty()
    }

    /// The course once each pack is read as [`Pack::from_json`] reads one, and no two tasks
    /// share an id.
    fn checked(self) -> Result<Course, String> {
        if self.title.is_empty() {
            return Err("the course has no title".into());
        }
        let mut ids: Vec<String> = vec![];
        for (i, p) in self.packs.iter().enumerate() {
            if p.format != pack::FORMAT {
                return Err(format!("the course's task {} is of format `{}`; this version reads `{}`", i + 1, p.format, pack::FORMAT));
            }
            let id = p.task_toml().map_err(|e| format!("the course's task {}: {e}", i + 1))?.id;
            if ids.contains(&id) {
                return Err(format!("the course holds two tasks with the id `{id}`"));
            }
            ids.push(id);
        }
        if ids.is_empty() {
            return Err("the course holds no task".into());
        }
        Ok(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(id: &str) -> Pack {
        let mut p = Pack::new();
        p.files.insert("task.toml".into(), format!("id = \"{id}\"\n[pinned]\nmodule = \"{id}\"\n"));
        p
    }

    #[test]
    fn a_course_reads_back_and_a_pack_reads_as_a_course_of_one() {
        let mut c = Course::new("Concurrency", "Locks first.");
        c.packs = vec![task("a"), task("b")];
        assert_eq!(Course::from_bytes(&c.to_bytes()).unwrap(), c);
        assert_eq!(Course::from_bytes(c.to_json().as_bytes()).unwrap(), c);
        let one = Course::from_bytes(&task("a").to_bytes()).unwrap();
        assert_eq!((one.is_course(), one.packs.as_slice()), (false, [task("a")].as_slice()));
        assert!(c.is_course());
        // A link carries either.
        assert_eq!(Course::from_fragment(&c.to_fragment().unwrap()).unwrap(), c);
        assert_eq!(Course::from_fragment(&task("a").to_fragment().unwrap()).unwrap(), one);
    }

    #[test]
    fn a_bad_course_says_what_is_wrong() {
        let err = |c: &Course| Course::from_bytes(&c.to_bytes()).unwrap_err();
        let mut c = Course::new("C", "");
        assert_eq!(err(&c), "the course holds no task");
        c.packs = vec![task("a"), task("a")];
        assert_eq!(err(&c), "the course holds two tasks with the id `a`");
        c.packs = vec![task("a"), Pack::new()];
        assert_eq!(err(&c), "the course's task 2: the pack has no task.toml");
        c.packs[1].format = "sysmo-pack/9".into();
        assert!(err(&c).contains("task 2 is of format `sysmo-pack/9`"));
        c.format = "sysmo-course/7".into();
        assert!(err(&c).starts_with("the file's format is `sysmo-course/7`"));
        assert!(Course::from_bytes(b"[1]").unwrap_err().starts_with("not a task pack or course"));
        assert_eq!(CourseToml::parse("title = \"x\"\ntasks = []\n").unwrap_err(), "course.toml: `tasks` names no task folder");
        assert!(CourseToml::parse("title = \"x\"\ntasks = [\"a\"]\nlevel = 3\n").unwrap_err().contains("unknown field `level`"));
    }
}
