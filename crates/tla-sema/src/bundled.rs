//! Library modules that come with the checker, as TLC and the Toolbox have them on their
//! library path: a spec may EXTEND or INSTANCE them with no file beside it. Each is TLA+ text
//! (`crates/tla-sema/library/`), loaded as a user module would be, after the caller's
//! [`crate::Library`], so a file of the same name beside the spec wins.

/// (module name, text) of every bundled module.
const MODULES: &[(&str, &str)] = &[
    ("TLAPS", include_str!("../library/TLAPS.tla")),
    ("Apalache", include_str!("../library/apalache/Apalache.tla")),
    ("Option", include_str!("../library/apalache/Option.tla")),
    ("Variants", include_str!("../library/apalache/Variants.tla")),
    ("TLCExt", include_str!("../library/tlc/TLCExt.tla")),
    ("Toolbox", include_str!("../library/tlc/Toolbox.tla")),
    ("FiniteSetTheorems", include_str!("../library/tlapm/FiniteSetTheorems.tla")),
    ("NaturalsInduction", include_str!("../library/tlapm/NaturalsInduction.tla")),
    ("SequenceTheorems", include_str!("../library/tlapm/SequenceTheorems.tla")),
    ("WellFoundedInduction", include_str!("../library/tlapm/WellFoundedInduction.tla")),
    ("BagsExt", include_str!("../library/community/BagsExt.tla")),
    ("Bitwise", include_str!("../library/community/Bitwise.tla")),
    ("CSV", include_str!("../library/community/CSV.tla")),
    ("Combinatorics", include_str!("../library/community/Combinatorics.tla")),
    ("DifferentialEquations", include_str!("../library/community/DifferentialEquations.tla")),
    ("DyadicRationals", include_str!("../library/community/DyadicRationals.tla")),
    ("FiniteSetsExtTheorems", include_str!("../library/community/FiniteSetsExtTheorems.tla")),
    ("FoldsTheorems", include_str!("../library/community/FoldsTheorems.tla")),
    ("FunctionTheorems", include_str!("../library/community/FunctionTheorems.tla")),
    ("GraphTheorems", include_str!("../library/community/GraphTheorems.tla")),
    ("GraphViz", include_str!("../library/community/GraphViz.tla")),
    ("Graphs", include_str!("../library/community/Graphs.tla")),
    ("HTML", include_str!("../library/community/HTML.tla")),
    ("IOUtils", include_str!("../library/community/IOUtils.tla")),
    ("Json", include_str!("../library/community/Json.tla")),
    ("Quorum", include_str!("../library/community/Quorum.tla")),
    ("QuorumTheorems", include_str!("../library/community/QuorumTheorems.tla")),
    ("Relation", include_str!("../library/community/Relation.tla")),
    ("SVG", include_str!("../library/community/SVG.tla")),
    ("SequencesExtTheorems", include_str!("../library/community/SequencesExtTheorems.tla")),
    ("ShiViz", include_str!("../library/community/ShiViz.tla")),
    ("Statistics", include_str!("../library/community/Statistics.tla")),
    ("UndirectedGraphs", include_str!("../library/community/UndirectedGraphs.tla")),
    ("VectorClocks", include_str!("../library/community/VectorClocks.tla")),
];

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
        let mut shown: Vec<String> = Vec::new();
        for name in bundled_names() {
            let (file, text) = bundled_module(name).expect("listed");
            let mut sources = SourceMap::new();
            let root = sources.add(format!("{name}.tla"), text.to_string());
            let a = analyze(&mut sources, root, &Library::new());
            shown.extend(a.diagnostics.iter().map(|d| {
                let at = sources.tlc_location(d.span).unwrap_or_default();
                format!("{file} {at}: {} {}", d.code, d.message)
            }));
        }
        assert!(shown.is_empty(), "{}", shown.join("\n"));
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
