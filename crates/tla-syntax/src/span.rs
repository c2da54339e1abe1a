//! Source files, byte spans and line/column lookup.

use serde::Serialize;

/// Index of a file in a [`SourceMap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize)]
pub struct FileId(pub u32);

/// A half-open byte range `[start, end)` in one file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize)]
pub struct Span {
    pub file: FileId,
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(file: FileId, start: usize, end: usize) -> Span {
        Span { file, start: start as u32, end: end as u32 }
    }
    /// The smallest span covering both (same file assumed).
    pub fn to(self, other: Span) -> Span {
        Span { file: self.file, start: self.start.min(other.start), end: self.end.max(other.end) }
    }
    pub fn len(self) -> u32 {
        self.end - self.start
    }
    pub fn is_empty(self) -> bool {
        self.end == self.start
    }
}

/// One source file: its name (as shown to users) and text.
#[derive(Clone, Debug)]
pub struct SourceFile {
    pub name: String,
    pub text: String,
    line_starts: Vec<u32>,
}

impl SourceFile {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> SourceFile {
        let text = text.into();
        let mut line_starts = vec![0u32];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(i as u32 + 1);
            }
        }
        SourceFile { name: name.into(), text, line_starts }
    }

    /// 1-based line and 1-based column (in characters) of a byte offset.
    pub fn line_col(&self, offset: u32) -> (u32, u32) {
        let offset = offset.min(self.text.len() as u32);
        let line = match self.line_starts.binary_search(&offset) {
            Ok(l) => l,
            Err(l) => l - 1,
        };
        let start = self.line_starts[line] as usize;
        let mut end = offset as usize;
        while !self.text.is_char_boundary(end) {
            end -= 1;
        }
        let col = self.text[start..end].chars().count() as u32 + 1;
        (line as u32 + 1, col)
    }

    /// 0-based column in characters of a byte offset (for the bullet column rule).
    pub fn column0(&self, offset: u32) -> u32 {
        self.line_col(offset).1 - 1
    }

    pub fn line_starts(&self) -> &[u32] {
        &self.line_starts
    }
}

/// All files of one run: the user's modules, modules found beside them, and built-in ones.
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    pub fn new() -> SourceMap {
        SourceMap::default()
    }
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> FileId {
        self.files.push(SourceFile::new(name, text));
        FileId(self.files.len() as u32 - 1)
    }
    pub fn get(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }
    pub fn files(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files.iter().enumerate().map(|(i, f)| (FileId(i as u32), f))
    }
    /// The text a span covers.
    pub fn snippet(&self, span: Span) -> &str {
        let t = &self.get(span.file).text;
        t.get(span.start as usize..span.end as usize).unwrap_or("")
    }

    /// A span's first and last characters as (line, column, line, column), 1-based, as TLC
    /// numbers them. `None` for a file not here.
    pub fn tlc_range(&self, span: Span) -> Option<(u32, u32, u32, u32)> {
        let f = self.files.get(span.file.0 as usize)?;
        let (l1, c1) = f.line_col(span.start);
        let (l2, c2) = f.line_col(span.end.saturating_sub(1).max(span.start));
        Some((l1, c1, l2, c2))
    }

    /// A span as TLC writes a location: `line 4, col 11 to line 4, col 44 of module M` (the
    /// module named after its file). `None` for a file not here.
    pub fn tlc_location(&self, span: Span) -> Option<String> {
        let (l1, c1, l2, c2) = self.tlc_range(span)?;
        let name = &self.files[span.file.0 as usize].name;
        let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
        let module = base.strip_suffix(".tla").unwrap_or(base);
        Some(format!("line {l1}, col {c1} to line {l2}, col {c2} of module {module}"))
    }
}
