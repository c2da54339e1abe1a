//! Print the AST dump and diagnostics of a `.tla` (or `.cfg`) file: `cargo run -p tla-syntax --example tla_dump -- FILE`.
fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: tla_dump FILE.tla");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(&path).expect("readable file");
    let mut map = tla_syntax::SourceMap::new();
    let id = map.add(path.clone(), text.clone());
    let out = tla_syntax::parse_file(id, &text);
    for m in &out.modules {
        print!("{}", tla_syntax::dump(m));
    }
    print!("{}", tla_syntax::diag::render_terminal(&map, &out.diagnostics, false));
}
