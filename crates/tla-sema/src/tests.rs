//! Tests (written on source text once the parser works).
