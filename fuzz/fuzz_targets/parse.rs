//! Parse and analyse arbitrary UTF-8 text: the front end must never panic, and every
//! diagnostic it returns must be renderable (its span lies inside its file).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let mut sources = tla_syntax::SourceMap::new();
    let root = sources.add("Fuzz.tla", text);
    let analysis = tla_sema::analyze(&mut sources, root, &tla_sema::Library::new());
    for d in &analysis.diagnostics {
        let file = sources.get(d.span.file);
        assert!(d.span.start <= d.span.end, "span {:?} is reversed: {d:?}", d.span);
        assert!(d.span.end as usize <= file.text.len(), "span {:?} past the end of the file: {d:?}", d.span);
        let _ = tla_syntax::diag::to_json(&sources, d);
    }
    let _ = tla_syntax::diag::render_terminal(&sources, &analysis.diagnostics, false);
    let s = &analysis.score;
    assert!(s.parsed <= s.total && (0.0..=1.0).contains(&s.score), "score out of range: {s:?}");
});
