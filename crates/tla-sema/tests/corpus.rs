//! Every module of the public models in `../shared/corpus` analyses with no error (each
//! model's root is the `spec_module` of `index.tsv`; other modules are loaded from the files
//! beside it). Skipped, with a note, when the corpus is not there.

use std::path::{Path, PathBuf};

use tla_sema::{analyze, check_against_config, Library, LoadedModule};
use tla_syntax::SourceMap;

/// The modules beside the root file.
fn modules_in(dir: PathBuf) -> Library {
    Library::reading(move |name| {
        let p = dir.join(format!("{name}.tla"));
        let text = std::fs::read_to_string(&p).ok()?;
        Some(LoadedModule { file_name: p.display().to_string(), text })
    })
}

fn corpus() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    p.join("index.tsv").exists().then_some(p)
}

/// Analyse `file` (root) with a loader of its folder; return rendered errors.
fn errors_of(file: &Path) -> (Vec<String>, Vec<String>) {
    let text = std::fs::read_to_string(file).unwrap();
    let mut sources = SourceMap::new();
    let root = sources.add(file.display().to_string(), text);
    let a = analyze(&mut sources, root, &modules_in(file.parent().unwrap().to_path_buf()));
    let mut errs = vec![];
    let mut warns = vec![];
    for d in &a.diagnostics {
        let f = sources.get(d.span.file);
        let (l, c) = f.line_col(d.span.start);
        let line = format!("{}:{}:{} {} {}", f.name, l, c, d.code, d.message);
        if d.is_error() { errs.push(line) } else { warns.push(line) }
    }
    (errs, warns)
}

#[test]
fn corpus_models_check_without_errors() {
    let Some(dir) = corpus() else {
        println!("note: ../shared/corpus not found; corpus test skipped");
        return;
    };
    let index = std::fs::read_to_string(dir.join("index.tsv")).unwrap();
    let mut header = index.lines().next().unwrap().split('\t');
    let col = header.position(|h| h == "spec_module").expect("spec_module column");
    let mut failures = vec![];
    let mut roots = 0;
    let mut files = 0;
    for line in index.lines().skip(1) {
        let cells: Vec<&str> = line.split('\t').collect();
        let (model, spec) = (cells[0], cells[col]);
        let folder = dir.join(model);
        // The root first; then every other module of the folder on its own.
        let mut tla: Vec<PathBuf> = std::fs::read_dir(&folder)
            .unwrap()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "tla"))
            .collect();
        tla.sort();
        let root = folder.join(format!("{spec}.tla"));
        tla.retain(|p| p != &root);
        tla.insert(0, root);
        roots += 1;
        for f in tla {
            files += 1;
            let (errs, warns) = errors_of(&f);
            for w in warns {
                println!("warning: {w}");
            }
            failures.extend(errs);
        }
    }
    println!("{roots} models, {files} files analysed, {} errors", failures.len());
    assert!(failures.is_empty(), "errors in the corpus:\n{}", failures.join("\n"));
}

#[test]
fn corpus_configs_match_their_modules() {
    let Some(dir) = corpus() else {
        println!("note: ../shared/corpus not found; corpus config test skipped");
        return;
    };
    let index = std::fs::read_to_string(dir.join("index.tsv")).unwrap();
    let header: Vec<&str> = index.lines().next().unwrap().split('\t').collect();
    let spec_col = header.iter().position(|h| *h == "spec_module").expect("spec_module column");
    let cfg_col = header.iter().position(|h| *h == "cfg").expect("cfg column");
    let mut failures = vec![];
    let mut checked = 0;
    for line in index.lines().skip(1) {
        let cells: Vec<&str> = line.split('\t').collect();
        let folder = dir.join(cells[0]);
        let root = folder.join(format!("{}.tla", cells[spec_col]));
        let Ok(cfg_text) = std::fs::read_to_string(folder.join(cells[cfg_col])) else { continue };
        let text = std::fs::read_to_string(&root).unwrap();
        let mut sources = SourceMap::new();
        let root_id = sources.add(root.display().to_string(), text);
        let a = analyze(&mut sources, root_id, &modules_in(folder.clone()));
        let cfg_id = sources.add(folder.join(cells[cfg_col]).display().to_string(), cfg_text.clone());
        let cfg = tla_syntax::cfg::parse_cfg(cfg_id, &cfg_text);
        checked += 1;
        for d in check_against_config(&a, &cfg.config) {
            let f = sources.get(d.span.file);
            let (l, c) = f.line_col(d.span.start);
            failures.push(format!("{}:{}:{} {} {}", f.name, l, c, d.code, d.message));
        }
    }
    println!("{checked} configurations checked");
    assert!(checked > 0);
    assert!(failures.is_empty(), "configuration errors in the corpus:\n{}", failures.join("\n"));
}
