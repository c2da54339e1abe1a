//! Parse arbitrary text as a TLC `.cfg` file: never a panic, every diagnostic inside the file.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let mut sources = tla_syntax::SourceMap::new();
    let file = sources.add("Fuzz.cfg", text);
    let out = tla_syntax::cfg::parse_cfg(file, text);
    for d in &out.diagnostics {
        assert!(d.span.start <= d.span.end, "span {:?} is reversed: {d:?}", d.span);
        assert!(d.span.end as usize <= text.len(), "span {:?} past the end of the file: {d:?}", d.span);
    }
    let _ = tla_syntax::diag::render_terminal(&sources, &out.diagnostics, false);
});
