//! Command-line arguments (a small hand-written parser: the surface is tiny).

use std::path::PathBuf;

#[derive(Debug, PartialEq, Eq)]
pub struct ParseArgs {
    pub files: Vec<PathBuf>,
    pub json: bool,
    pub timing: bool,
}

impl ParseArgs {
    pub fn from_args(args: &[String]) -> Result<ParseArgs, String> {
        let mut out = ParseArgs { files: vec![], json: false, timing: false };
        let mut only_files = false;
        for a in args {
            if only_files || !a.starts_with('-') || a == "-" {
                out.files.push(PathBuf::from(a));
                continue;
            }
            match a.as_str() {
                "--json" => out.json = true,
                "--timing" => out.timing = true,
                "--" => only_files = true,
                _ => return Err(format!("unknown option `{a}` for `sysmo parse`")),
            }
        }
        if out.files.is_empty() {
            return Err("`sysmo parse` needs at least one .tla file".into());
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn flags_anywhere_files_in_order() {
        let a = ParseArgs::from_args(&s(&["A.tla", "--json", "B.tla", "--timing"])).unwrap();
        assert_eq!(a.files, vec![PathBuf::from("A.tla"), PathBuf::from("B.tla")]);
        assert!(a.json && a.timing);
    }

    #[test]
    fn double_dash_ends_options() {
        let a = ParseArgs::from_args(&s(&["--", "--json"])).unwrap();
        assert_eq!(a.files, vec![PathBuf::from("--json")]);
        assert!(!a.json);
    }

    #[test]
    fn rejects_unknown_option_and_no_file() {
        assert!(ParseArgs::from_args(&s(&["A.tla", "--jsn"])).unwrap_err().contains("--jsn"));
        assert!(ParseArgs::from_args(&s(&["--json"])).is_err());
    }
}
