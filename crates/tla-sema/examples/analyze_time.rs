//! Time the whole front end (`tla_sema::analyze`: parsing, loading, checking) on a `.tla`
//! file, as `sysmo parse` runs it, and `tla_syntax::parse_file` alone:
//! `cargo run --release -p tla-sema --example analyze_time -- FILE [RUNS]`.
//! Modules the file extends are looked up beside it. Prints the best and median wall-clock
//! times over RUNS runs (default 10) and the number of diagnostics.
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use tla_sema::{Library, LoadedModule};

/// The modules beside the file.
fn folder(dir: PathBuf) -> Library {
    Library::reading(move |name| {
        let path = dir.join(format!("{name}.tla"));
        let text = std::fs::read_to_string(&path).ok()?;
        Some(LoadedModule { file_name: path.display().to_string(), text })
    })
}

fn best_median(mut v: Vec<Duration>) -> (Duration, Duration) {
    v.sort();
    (v[0], v[v.len() / 2])
}

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: analyze_time FILE.tla [RUNS]");
        std::process::exit(2);
    };
    let runs: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(10).max(1);
    let text = std::fs::read_to_string(&path).expect("readable file");
    let dir = Path::new(&path).parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let loader = folder(dir.to_path_buf());
    let (mut parse, mut analyze) = (vec![], vec![]);
    let mut diags = 0;
    for _ in 0..runs {
        let t0 = Instant::now();
        let out = tla_syntax::parse_file(tla_syntax::FileId(0), &text);
        parse.push(t0.elapsed());
        std::mem::forget(out);
        let mut sources = tla_syntax::SourceMap::new();
        let root = sources.add(path.clone(), text.clone());
        let t0 = Instant::now();
        let a = tla_sema::analyze(&mut sources, root, &loader);
        analyze.push(t0.elapsed());
        diags = a.diagnostics.len();
        std::mem::forget(a);
    }
    let (pb, pm) = best_median(parse);
    let (ab, am) = best_median(analyze);
    println!("{path}: {} lines, {} bytes, {diags} diagnostics", text.lines().count(), text.len());
    println!("parse_file: best {pb:.2?}, median {pm:.2?}; analyze (parse+check): best {ab:.2?}, median {am:.2?} over {runs} runs");
}
