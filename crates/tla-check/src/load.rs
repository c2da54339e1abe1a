//! Loading a model: the root module's text and the modules of a [`Library`], analysed; the
//! `.cfg` read against them; the [`Model`] built; its ASSUMEs checked. Every front end (the
//! CLI, the grader, the trace replayer, the web app) and the tests load a model this way, and
//! a failure on the way is a [`LoadFailure`] whose kind is the one TLC's exit code tells.

use tla_sema::{Analysis, Library};
use tla_syntax::cfg::Config;
use tla_syntax::{Diagnostic, FileId, SourceMap, Span};

use crate::model::{self, model_codes, Model, ModelError};

/// What a model is built from: its sources (the root module, the modules it uses and the
/// `.cfg`), their analysis and the configuration.
pub struct Inputs {
    pub sources: SourceMap,
    pub analysis: Analysis,
    pub config: Config,
    /// The environment variables `IOEnv` answers, when the host gives them (the CLI does; the
    /// engine reads none itself).
    pub environment: Option<Vec<(String, String)>>,
    /// The files and processes the I/O operators use, when the host gives them (see
    /// `tla_eval::host`: the CLI's `check` and `simulate` do; the grader and the web app do not).
    pub host: Option<std::sync::Arc<dyn tla_eval::host::Host>>,
}

/// Why a model could not be loaded, told apart as TLC's exit codes tell it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailureKind {
    /// The module (or a module it uses) has errors.
    Parse,
    /// The `.cfg` has errors, or names what the module cannot give (no behaviour, a constant
    /// without a value, a formula that cannot be used where the `.cfg` puts it).
    Config,
    /// An ASSUME is false.
    Assumption,
    /// An `Assert` failed while the model was built or its ASSUMEs evaluated.
    Assertion,
    /// Evaluation failed while the model was built or its ASSUMEs evaluated.
    Eval,
}

/// A model that could not be loaded: the kind, and the diagnostics that say why (never empty).
#[derive(Clone, Debug)]
pub struct LoadFailure {
    pub kind: FailureKind,
    pub diagnostics: Vec<Diagnostic>,
    /// The error of a failing ASSUME, when that is the failure.
    pub error: Option<ModelError>,
}

impl LoadFailure {
    /// The first error on one line (`CODE: message (file:line:column)`).
    pub fn first_line(&self, sources: &SourceMap) -> String {
        let first = self.diagnostics.iter().find(|d| d.is_error()).or(self.diagnostics.first());
        first.map(|d| tla_syntax::diag::one_line(sources, d)).unwrap_or_else(|| "the model cannot be built".into())
    }

    /// The failure of a model error met before exploring (an ASSUME).
    pub fn of_error(error: ModelError) -> LoadFailure {
        let kind = match &error {
            ModelError::AssumptionFalse { .. } | ModelError::PostconditionFalse { .. } | ModelError::PostconditionFailed { .. } => {
                FailureKind::Assumption
            }
            ModelError::Eval(v) if v.code == tla_eval::error::codes::ASSERT => FailureKind::Assertion,
            ModelError::Eval(_) | ModelError::ActionProperty { .. } => FailureKind::Eval,
        };
        LoadFailure { kind, diagnostics: vec![error.to_diagnostic(Span::default())], error: Some(error) }
    }
}

/// A root module analysed, with the sources its diagnostics point into: the syntax stage's
/// input, before any `.cfg`.
pub struct Analyzed {
    pub sources: SourceMap,
    /// The root module's file in `sources`.
    pub root: FileId,
    pub analysis: Analysis,
}

impl Analyzed {
    /// Analyse the module `text`, shown as `file_name`, with the modules of `library`.
    pub fn new(file_name: impl Into<String>, text: impl Into<String>, library: &Library) -> Analyzed {
        let mut sources = SourceMap::new();
        let root = sources.add(file_name.into(), text.into());
        let analysis = tla_sema::analyze(&mut sources, root, library);
        Analyzed { sources, root, analysis }
    }

    /// The analysis's errors, as a failure of kind `Parse`; `None` when there are none.
    pub fn failure(&self) -> Option<LoadFailure> {
        let diagnostics: Vec<Diagnostic> = self.analysis.diagnostics.iter().filter(|d| d.is_error()).cloned().collect();
        (!diagnostics.is_empty()).then_some(LoadFailure { kind: FailureKind::Parse, diagnostics, error: None })
    }

    /// Read the `.cfg` `text` (shown as `name`) against the module. Fails with the module's
    /// errors first, then the `.cfg`'s; either way the sources come back with the failure.
    pub fn configure(mut self, name: impl Into<String>, text: &str) -> Result<Inputs, (Box<LoadFailure>, SourceMap)> {
        if let Some(f) = self.failure() {
            return Err((Box::new(f), self.sources));
        }
        let (config, mut diagnostics) = tla_sema::read_config(&mut self.sources, &self.analysis, name.into(), text);
        diagnostics.retain(Diagnostic::is_error);
        if !diagnostics.is_empty() {
            return Err((Box::new(LoadFailure { kind: FailureKind::Config, diagnostics, error: None }), self.sources));
        }
        Ok(Inputs { sources: self.sources, analysis: self.analysis, config, environment: None, host: None })
    }
}

impl Inputs {
    /// The module `text` (shown as `file_name`) with the modules of `library`, and its `.cfg`
    /// `cfg_text` (shown as `cfg_name`).
    pub fn read(
        file_name: impl Into<String>,
        text: impl Into<String>,
        library: &Library,
        cfg_name: impl Into<String>,
        cfg_text: &str,
    ) -> Result<Inputs, (Box<LoadFailure>, SourceMap)> {
        Analyzed::new(file_name, text, library).configure(cfg_name, cfg_text)
    }

    /// The same inputs, `IOEnv` answering `vars`.
    pub fn with_environment(mut self, vars: Vec<(String, String)>) -> Inputs {
        self.environment = Some(vars);
        self
    }

    /// The same inputs, the I/O operators using `host`'s files and processes.
    pub fn with_host(mut self, host: std::sync::Arc<dyn tla_eval::host::Host>) -> Inputs {
        self.host = Some(host);
        self
    }

    /// Build the model (constants, overrides, the behaviour and the properties).
    pub fn model(&self) -> Result<Model<'_>, LoadFailure> {
        let model = build(&self.analysis, &self.config)?;
        if let Some(host) = &self.host {
            model.evaluator().set_host(host.clone());
        }
        if let Some(vars) = &self.environment {
            model.evaluator().set_environment(vars).map_err(|e| LoadFailure::of_error(ModelError::Eval(e)))?;
        }
        Ok(model)
    }

    /// Build the model and check its ASSUMEs: what must hold before exploring.
    pub fn checked_model(&self) -> Result<Model<'_>, LoadFailure> {
        let model = self.model()?;
        model.check_assumptions().map_err(LoadFailure::of_error)?;
        Ok(model)
    }

    /// A diagnostic of these sources on one line.
    pub fn line(&self, d: &Diagnostic) -> String {
        tla_syntax::diag::one_line(&self.sources, d)
    }
}

/// Build the model of an analysis under a configuration made by the caller (the grader checks
/// the task's properties under configurations it writes): what [`Inputs::model`] does.
pub fn build<'a>(analysis: &'a Analysis, config: &'a Config) -> Result<Model<'a>, LoadFailure> {
    model::load(analysis, config).map_err(|diagnostics| {
        let config_codes = [model_codes::NO_SPEC, model_codes::BAD_NAME, model_codes::MISSING_CONSTANT, model_codes::BAD_FORMULA];
        let kind = if diagnostics.iter().any(|d| config_codes.contains(&d.code)) {
            FailureKind::Config
        } else if diagnostics.iter().any(|d| d.code == model_codes::ASSUMPTION) {
            FailureKind::Assumption
        } else {
            FailureKind::Eval
        };
        LoadFailure { kind, diagnostics, error: None }
    })
}

/// [`build`], then the ASSUMEs checked.
pub fn build_checked<'a>(analysis: &'a Analysis, config: &'a Config) -> Result<Model<'a>, LoadFailure> {
    let model = build(analysis, config)?;
    model.check_assumptions().map_err(LoadFailure::of_error)?;
    Ok(model)
}
