//! The editor's view model and the value fingerprints, run natively by `cargo test` and in wasm32 (node) by
//! `cargo test --target wasm32-unknown-unknown -p web --test wasm`.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test;

use tla_syntax::SourceFile;
use web::{analyze_text, SAMPLE_MODULE};

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
fn line_col_counts_characters_not_bytes() {
    // "∧" is three bytes in UTF-8; the column after it is the third character.
    let f = SourceFile::new("M.tla", "a\nx ∧ y\n");
    assert_eq!(f.line_col(0), (1, 1));
    assert_eq!(f.line_col(2), (2, 1));
    let y = "a\nx ∧ y\n".find('y').unwrap() as u32;
    assert_eq!(f.line_col(y), (2, 5));
    assert_eq!(f.line_starts(), &[0, 2, 10]);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
fn sample_module_is_clean_and_scores_one() {
    let v = analyze_text(SAMPLE_MODULE);
    assert!(v.clean, "{:?}", v.diagnostics);
    assert!(v.diagnostics.is_empty(), "{:?}", v.diagnostics);
    assert_eq!(v.syntax_score, 1.0);
    assert!(v.definitions_parsed <= v.definitions_total);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
fn diagnostics_point_inside_the_text() {
    let text = "---- MODULE Broken ----\nVARIABLE x\nInit == x = \nNext == x' = x +\n====\n";
    let v = analyze_text(text);
    let lines = text.lines().count() as u32;
    assert!(!v.clean, "a dangling `+` must be an error");
    assert!(v.syntax_score < 1.0);
    assert!(!v.diagnostics.is_empty());
    // The page agrees with the front end and places every diagnostic in the text.
    assert_eq!(v.clean, v.diagnostics.iter().all(|d| d.severity != tla_syntax::Severity::Error));
    assert!(v.syntax_score >= 0.0 && v.syntax_score <= 1.0);
    for d in &v.diagnostics {
        assert!(d.line >= 1 && d.line <= lines + 1, "{d:?}");
        assert!(d.column >= 1, "{d:?}");
        assert!(d.summary().starts_with(&d.code));
    }
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
fn file_is_named_after_its_module() {
    assert_eq!(web::file_name_for("---- MODULE Spin_Lock ----\n===="), "Spin_Lock.tla");
    assert_eq!(web::file_name_for("(* no module here *)"), "Main.tla");
    assert_eq!(web::file_name_for(SAMPLE_MODULE), "HourClock.tla");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
fn fingerprints_are_the_same_on_every_target() {
    // The native test in crates/tla-eval/tests/values.rs checks the same list against the same
    // file; run here under wasm32, equal numbers mean equal fingerprints on both targets.
    let got: String = tla_eval::testing::fingerprint_fixture()
        .iter()
        .map(|(text, fp)| format!("{fp:016x} {text}\n"))
        .collect();
    assert_eq!(got, include_str!("../../crates/tla-eval/tests/data/fingerprints.txt"));
}
