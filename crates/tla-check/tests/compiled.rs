//! The compiled evaluator (tla-eval's `compile`) must give the interpreter's answers: every
//! model of the project (the tasks' reference and wrong models, the CLI's test specs) and,
//! when ../shared/corpus exists, every model of the corpus is explored with compiling on and
//! off, and the outcomes must be the same: result, error message, trace, states found and
//! generated, per-action coverage.

use std::path::{Path, PathBuf};

use tla_check::load::Inputs;
use tla_check::model::ModelError;
use tla_check::{Explorer, Options, Outcome};
use tla_sema::{Library, LoadedModule};

/// The modules of the first of `dirs` that has them.
fn folders(dirs: Vec<PathBuf>) -> Library {
    Library::reading(move |name| {
        dirs.iter().find_map(|d| {
            let text = std::fs::read_to_string(d.join(format!("{name}.tla"))).ok()?;
            Some(LoadedModule { file_name: format!("{name}.tla"), text })
        })
    })
}

/// Everything an exploration of `module` under `cfg` says, in words; `None` when the model
/// does not load (nothing to compare).
fn explore(dirs: &[PathBuf], tla: &Path, cfg: &Path, compiling: bool, budget: u64) -> Option<String> {
    let text = std::fs::read_to_string(tla).ok()?;
    let cfg_text = std::fs::read_to_string(cfg).ok()?;
    let name = tla.file_name()?.to_string_lossy().to_string();
    let inputs = Inputs::read(name, text, &folders(dirs.to_vec()), "M.cfg", &cfg_text).ok()?;
    let mut model = inputs.model().ok()?;
    model.set_compiling(compiling);
    match model.check_assumptions() {
        Ok(()) => {}
        Err(ModelError::AssumptionFalse { .. }) => return Some("assumption false".into()),
        Err(e) => return Some(format!("assume: {e}")),
    }
    let opts = Options { check_deadlock: model.check_deadlock(), max_states: Some(budget), max_depth: None };
    let mut ex = Explorer::new(&model, opts);
    let out = ex.run_to_end();
    let st = ex.stats();
    let what = match out {
        Outcome::Success => "success".to_string(),
        Outcome::InvariantViolated { invariant, trace } => format!("invariant {invariant} violated, trace {:?}", trace.iter().map(|t| format!("{:?}", t.state)).collect::<Vec<_>>()),
        Outcome::Deadlock { trace } => format!("deadlock, trace {}", trace.len()),
        Outcome::Error { error, trace } => format!("error {error} ({:?}), trace {}", error, trace.len()),
        Outcome::BudgetExhausted(_) => "budget".to_string(),
    };
    Some(format!("{what}; {st:?}; {:?}", ex.coverage()))
}

/// `(module, config)` pairs: each `.cfg` with the `.tla` of the longest name it starts with
/// (`GridBad.cfg` checks `Grid.tla`), or the folder's only `.tla`.
fn pairs(dir: &Path) -> Vec<(PathBuf, PathBuf)> {
    let Ok(rd) = std::fs::read_dir(dir) else { return vec![] };
    let mut files: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    files.sort();
    let tlas: Vec<&PathBuf> = files.iter().filter(|p| p.extension().is_some_and(|x| x == "tla")).collect();
    let mut out = Vec::new();
    for cfg in files.iter().filter(|p| p.extension().is_some_and(|x| x == "cfg")) {
        let stem = cfg.file_stem().unwrap_or_default().to_string_lossy().to_string();
        let m = tlas
            .iter()
            .filter(|t| stem.starts_with(&*t.file_stem().unwrap_or_default().to_string_lossy()))
            .max_by_key(|t| t.as_os_str().len())
            .or(if tlas.len() == 1 { tlas.first() } else { None });
        if let Some(t) = m {
            out.push(((*t).clone(), cfg.clone()));
        }
    }
    out
}

fn compare(dirs: &[PathBuf], tla: &Path, cfg: &Path, budget: u64, failures: &mut Vec<String>) -> bool {
    let a = explore(dirs, tla, cfg, true, budget);
    let b = explore(dirs, tla, cfg, false, budget);
    if a != b {
        failures.push(format!("{} with {}:\n  compiled:    {a:?}\n  interpreted: {b:?}", tla.display(), cfg.display()));
    }
    a.is_some()
}

fn run() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut failures = Vec::new();
    let mut compared = 0;
    let mut dirs = vec![root.join("crates/sysmo-cli/tests/data")];
    if let Ok(rd) = std::fs::read_dir(root.join("tasks")) {
        let mut tasks: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
        tasks.sort();
        for t in tasks {
            dirs.push(t.join("reference"));
        }
    }
    for d in &dirs {
        for (tla, cfg) in pairs(d) {
            if compare(&[d.clone()], &tla, &cfg, 3_000, &mut failures) {
                compared += 1;
            }
        }
    }
    // Each task's wrong models, with the reference model's configuration.
    for d in dirs.iter().skip(1) {
        let refs = pairs(d);
        let Some((_, cfg)) = refs.first() else { continue };
        let wrong = d.parent().unwrap_or(d).join("wrong");
        let Ok(rd) = std::fs::read_dir(&wrong) else { continue };
        let mut ws: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
        ws.sort();
        for w in ws {
            let Ok(files) = std::fs::read_dir(&w) else { continue };
            for f in files.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "tla")) {
                if compare(&[w.clone(), d.clone()], &f, cfg, 3_000, &mut failures) {
                    compared += 1;
                }
            }
        }
    }
    assert!(compared >= 15, "only {compared} project models compared");
    let corpus = root.join("../shared/corpus");
    if let Ok(rd) = std::fs::read_dir(&corpus) {
        let mut models: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_dir()).collect();
        models.sort();
        for d in models {
            for (tla, cfg) in pairs(&d) {
                compare(&[d.clone()], &tla, &cfg, 5_000, &mut failures);
            }
        }
    } else {
        eprintln!("note: {} not found; compared the project's models only", corpus.display());
    }
    assert!(failures.is_empty(), "{} models differ:\n{}", failures.len(), failures.join("\n"));
    eprintln!("{compared} project models: compiled and interpreted agree");
}

#[test]
fn compiled_and_interpreted_evaluation_agree_on_every_model() {
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(run)
        .expect("spawn")
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e));
}
