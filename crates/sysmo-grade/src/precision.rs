//! The fifth stage: precision against the system's behaviour graph (`tla_trace::precision`).
//! Run only on a model that conforms; its over-permissive steps come with a path of the model
//! from an initial state (ITF, playable like any counterexample).

use crate::progress::{Hooks, Progress};
use crate::report::{GraphInfo, OverPermissiveStep, PrecisionStage, Status};
use crate::{itf_of, mapping_of, ModelInput, TaskInput, TaskSpec};
use tla_check::load::Inputs;
use tla_check::TraceStep;
use tla_trace::precision::{check_precision, observation, PrecisionError, PrecisionOptions, StepClass};
use tla_trace::parse_graph;

/// Over-permissive steps reported with their paths.
const EXAMPLES: usize = 10;
/// Unreached system states shown.
const UNREACHED_SHOWN: usize = 5;

#[allow(clippy::too_many_arguments)]
pub(crate) fn stage(
    spec: &TaskSpec,
    task: &TaskInput<'_>,
    input: &ModelInput<'_>,
    inputs: &Inputs,
    name: &str,
    graph_text: &str,
    hooks: &Hooks<'_>,
    stopped: &mut Option<String>,
) -> PrecisionStage {
    let graph = match parse_graph("system-graph.ndjson", graph_text) {
        Ok(g) => g,
        Err(e) => return PrecisionStage::not_run(Status::Error, format!("the system graph cannot be read: {e}")),
    };
    let (mapping, exprs) = match mapping_of(task, input) {
        Ok(m) => m,
        Err(e) => return PrecisionStage::not_run(Status::Error, e),
    };
    let mut m = match inputs.model() {
        Ok(m) => m,
        Err(_) => return PrecisionStage::not_run(Status::Error, "the model cannot be built"),
    };
    let opts = PrecisionOptions { max_states: usize::try_from(spec.max_states).unwrap_or(usize::MAX), max_depth: spec.max_depth as usize, max_examples: EXAMPLES, ..PrecisionOptions::default() };
    let budget = spec.max_states;
    let mut cut = false;
    let mut should_stop = |explored: usize| {
        let at = Progress { states: explored as u64, distinct: explored as u64, max_states: budget, ..Progress::new("precision", "") };
        let stop = hooks.slice(&at);
        cut |= stop;
        stop
    };
    let interner = m.interner();
    let found = check_precision(&m, interner, &mapping, &exprs, Some(&inputs.sources), &graph, &spec.action_params, opts, &mut should_stop);
    if cut {
        *stopped = Some("precision".into());
    }
    let p = match found {
        Ok(p) => p,
        Err(PrecisionError::Input(e)) => return PrecisionStage::not_run(Status::Error, format!("the system graph does not fit the model: {e}")),
        Err(PrecisionError::Model(e)) => {
            let d = e.to_diagnostic(tla_syntax::Span::default());
            return PrecisionStage::not_run(Status::Error, format!("evaluating the model failed: {}", tla_syntax::diag::one_line(&inputs.sources, &d)));
        }
    };
    let source = format!("{name}.tla");
    let steps = p
        .over
        .iter()
        .map(|o| {
            let message = o.sentence();
            let trace: Vec<TraceStep<tla_eval::State>> = o.path.iter().map(|s| TraceStep { action: None, state: s.clone() }).collect();
            let mut cex = itf_of(&m, &source, &message, &trace);
            // The last step is the over-permissive one: named as judged (a step that changes
            // nothing could otherwise be named after another action that stutters the same).
            let params: serde_json::Map<String, serde_json::Value> = o.args.iter().map(|(n, v)| (n.clone(), crate::itf::value(v))).collect();
            if let Some(meta) = cex.get_mut("states").and_then(|s| s.as_array_mut()).and_then(|s| s.last_mut()).and_then(|s| s.get_mut("#meta")).and_then(|m| m.as_object_mut()) {
                meta.insert("step".into(), serde_json::json!({ "action": o.action, "params": params }));
            }
            OverPermissiveStep {
                step: o.label(),
                counterexample: cex,
                message,
                from: observation(&graph, o.from),
                code_steps: o.code_steps.clone(),
            }
        })
        .collect();
    let reason = (p.transitions == 0).then(|| "no step of the code's actions starts in a state the code reaches".to_string());
    PrecisionStage {
        score: p.score(),
        status: Status::Ran,
        reason,
        graph: Some(GraphInfo {
            states: graph.states.len(),
            steps: graph.edges.len(),
            runs: graph.exploration.runs,
            settled_runs: graph.exploration.settled_runs,
            exhaustive: graph.exploration.exhaustive,
            bounds: graph.exploration.bounds.clone(),
        }),
        transitions: p.transitions,
        matched: p.matched,
        over_permissive: p.over_total,
        steps,
        states_explored: p.states_explored,
        complete: p.complete,
        unknown_states: p.unknown_states,
        unsettled_states: p.unsettled_states,
        unreached: p.unreached.len(),
        system_states: p.system_states,
        unreached_examples: p.unreached.iter().take(UNREACHED_SHOWN).map(|&id| observation(&graph, id)).collect(),
        skipped_actions: p.skipped_actions.iter().map(|(a, why)| format!("{a}: {why}")).collect(),
    }
}

/// Every distinct projected step of the code's actions that the model allows within the task's
/// budget, from every state it reaches, each with where it departs from
/// ([`tla_trace::precision::PrecisionOptions::all_steps`]). For comparing the observable steps
/// of two models of a task (`cargo xtask mutate`), not for grading: it judges nothing.
pub fn projected_steps(task: &TaskInput<'_>, input: &ModelInput<'_>) -> Result<std::collections::BTreeMap<String, StepClass>, String> {
    let spec = TaskSpec::parse(task.task_toml).map_err(|e| format!("task.toml: {e}"))?;
    let graph_text = task.system_graph.ok_or("the task has no system graph")?;
    let graph = parse_graph("system-graph.ndjson", graph_text).map_err(|e| format!("the system graph cannot be read: {e}"))?;
    let name = crate::module_name(input.text).unwrap_or_else(|| spec.module.clone());
    let analyzed = tla_check::load::Analyzed::new(format!("{name}.tla"), input.text, &tla_sema::Library::new());
    let has_spec = analyzed.analysis.symbol("Spec").is_some_and(|s| s.arity == 0);
    let cfg_text = input.cfg.map(str::to_string).unwrap_or_else(|| spec.default_cfg(has_spec));
    let inputs = analyzed.configure(format!("{name}.cfg"), &cfg_text).map_err(|_| "the configuration has errors".to_string())?;
    let (mapping, exprs) = mapping_of(task, input)?;
    let mut m = inputs.model().map_err(|e| e.first_line(&inputs.sources))?;
    let opts = PrecisionOptions {
        max_states: usize::try_from(spec.max_states).unwrap_or(usize::MAX),
        max_depth: spec.max_depth as usize,
        max_examples: 0,
        all_steps: true,
        ..PrecisionOptions::default()
    };
    let interner = m.interner();
    match check_precision(&m, interner, &mapping, &exprs, Some(&inputs.sources), &graph, &spec.action_params, opts, &mut |_| false) {
        Ok(p) => Ok(p.projected),
        Err(PrecisionError::Input(e)) => Err(format!("the system graph does not fit the model: {e}")),
        Err(PrecisionError::Model(e)) => {
            let d = e.to_diagnostic(tla_syntax::Span::default());
            Err(format!("evaluating the model failed: {}", tla_syntax::diag::one_line(&inputs.sources, &d)))
        }
    }
}
