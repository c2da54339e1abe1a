//! Library modules that come with the checker, as TLC and the Toolbox have them on their
//! library path: a spec may EXTEND or INSTANCE them with no file beside it. Each is TLA+ text
//! (`crates/tla-sema/library/`), loaded as a user module would be, after the caller's
//! [`crate::Library`], so a file of the same name beside the spec wins.

/// (module name, text) of every bundled module.
const MODULES: &[(&str, &str)] = &[("TLAPS", include_str!("../library/TLAPS.tla"))];

/// The bundled module `name`: the file name to show in diagnostics and its text.
pub fn bundled_module(name: &str) -> Option<(String, &'static str)> {
    MODULES.iter().find(|(n, _)| *n == name).map(|(n, text)| (format!("<library>/{n}.tla"), *text))
}

/// The names of the bundled modules.
pub fn bundled_names() -> impl Iterator<Item = &'static str> {
    MODULES.iter().map(|(n, _)| *n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{analyze, Library};
    use tla_syntax::SourceMap;

    #[test]
    fn every_bundled_module_analyses_with_no_diagnostic() {
        for name in bundled_names() {
            let (file, text) = bundled_module(name).expect("listed");
            let mut sources = SourceMap::new();
            let root = sources.add(format!("{name}.tla"), text.to_string());
            let a = analyze(&mut sources, root, &Library::new());
            let shown: Vec<String> = a.diagnostics.iter().map(|d| format!("{file}: {} {}", d.code, d.message)).collect();
            assert!(shown.is_empty(), "{shown:?}");
        }
    }

    #[test]
    fn a_spec_extends_tlaps_with_no_file_beside_it() {
        let mut sources = SourceMap::new();
        let text = "---- MODULE M ----\nEXTENDS Naturals, TLAPS\nVARIABLE x\nInit == x = 0\nTHEOREM T == Init => x \\in Nat\n  BY SMT, Zenon DEF Init\n====\n";
        let root = sources.add("M.tla", text);
        let a = analyze(&mut sources, root, &Library::new());
        assert!(a.diagnostics.is_empty(), "{:?}", a.diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>());
    }
}
