//! What the tests of models written inline share.

use tla_check::load::Inputs;
use tla_check::model::Model;
use tla_sema::Library;

/// Calls `f` with the model of module `text` (named M) under the configuration `cfg`; panics
/// when the module has errors or the model does not load.
pub fn with_model<R>(text: &str, cfg: &str, f: impl FnOnce(&mut Model) -> R) -> R {
    let inputs = Inputs::read("M.tla", text, &Library::new(), "M.cfg", cfg).unwrap_or_else(|(e, _)| panic!("{e:?}"));
    let mut m = inputs.model().unwrap_or_else(|e| panic!("model does not load: {:?}", e.diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>()));
    f(&mut m)
}
