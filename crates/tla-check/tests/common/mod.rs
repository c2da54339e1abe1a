//! What the tests of models written inline share.

use tla_check::model::{self, Model};
use tla_syntax::SourceMap;

/// Calls `f` with the model of module `text` (named M) under the configuration `cfg`; panics
/// when the module has errors or the model does not load.
pub fn with_model<R>(text: &str, cfg: &str, f: impl FnOnce(&mut Model) -> R) -> R {
    let mut sources = SourceMap::new();
    let root = sources.add("M.tla".to_string(), text.to_string());
    let analysis = tla_sema::analyze(&mut sources, root, &tla_sema::NoLoader);
    let errors: Vec<String> = analysis.diagnostics.iter().filter(|d| d.is_error()).map(|d| d.message.clone()).collect();
    assert!(errors.is_empty(), "{errors:?}");
    let (config, cfg_diagnostics) = tla_sema::read_config(&mut sources, &analysis, "M.cfg".to_string(), cfg);
    let cfg_errors: Vec<String> = cfg_diagnostics.iter().filter(|d| d.is_error()).map(|d| d.message.clone()).collect();
    assert!(cfg_errors.is_empty(), "{cfg_errors:?}");
    let mut m = model::load(&analysis, &config).unwrap_or_else(|e| panic!("model does not load: {:?}", e.iter().map(|d| &d.message).collect::<Vec<_>>()));
    f(&mut m)
}
