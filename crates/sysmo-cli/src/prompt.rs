//! `sysmo prompt --task ID`: the text a user gives an LLM to model a task.
//!
//! The prompt holds the task (title, original system, description), the system's code — the
//! files of the task crate's `src/` that produced the task's traces (the folder of the traces'
//! header `source`), without `workload.rs`, the harness that starts the threads and records the
//! runs —, what to model and what to leave out, the pinned names, and the expected output: one
//! TLA+ module named as pinned, with Init, Next, vars and Spec (fairness where liveness needs
//! it), plus a .cfg with the task's constants.
//!
//! [`prompt`] (in `sysmo_tasks::prompt`) is a pure function of the `task.toml` text and the code
//! files; the files come from `sysmo-tasks`, which embeds them, so the command works from any
//! directory.

use crate::EXIT_USAGE;
use std::process::ExitCode;
#[cfg(test)]
use sysmo_tasks::prompt::prompt;
#[cfg(test)]
use toml::Value;

pub struct PromptArgs {
    pub task: String,
    /// `--no-hints`: no action list; the model's author writes the mapping.
    pub no_hints: bool,
}

impl PromptArgs {
    pub fn from_args(args: &[String]) -> Result<PromptArgs, String> {
        let no_hints = args.iter().any(|a| a == "--no-hints");
        let rest: Vec<&String> = args.iter().filter(|a| *a != "--no-hints").collect();
        match rest.as_slice() {
            [flag, id] if *flag == "--task" => Ok(PromptArgs { task: (*id).clone(), no_hints }),
            [flag] if *flag == "--task" => Err("--task needs a value".to_string()),
            _ => Err("prompt takes --task ID [--no-hints]".to_string()),
        }
    }
}

pub fn run(a: &PromptArgs) -> ExitCode {
    let Some(task) = sysmo_tasks::task(&a.task) else {
        let ids: Vec<&str> = sysmo_tasks::tasks().iter().map(|t| t.id).collect();
        eprintln!("error: no task `{}` (tasks: {})", a.task, ids.join(", "));
        return ExitCode::from(EXIT_USAGE);
    };
    let text = if a.no_hints { task.prompt_no_hints() } else { task.prompt() };
    match text {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(msg) => {
            eprintln!("error: task `{}`: {msg}", a.task);
            ExitCode::from(EXIT_USAGE)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prompt_of(id: &str) -> String {
        let t = sysmo_tasks::task(id).unwrap();
        let code: Vec<(String, String)> = t.code.iter().map(|(p, t)| (p.to_string(), t.to_string())).collect();
        prompt(t.task_toml(), &code).unwrap()
    }

    #[test]
    fn every_prompt_names_every_pinned_action_and_variable() {
        let tasks = sysmo_tasks::tasks();
        assert!(tasks.len() >= 7, "{}", tasks.len());
        for task in tasks {
            let id = task.id;
            let t: Value = toml::from_str(task.task_toml()).unwrap();
            let p = prompt_of(id);
            let pinned = &t["pinned"];
            let module = pinned["module"].as_str().unwrap();
            assert!(p.contains(&format!("---- MODULE {module} ----")), "{id}: module");
            assert!(p.contains(&format!("`{module}.cfg`")), "{id}: cfg");
            let vars_line = p.lines().find(|l| l.contains("`vars == <<")).unwrap();
            for v in pinned["variables"].as_table().unwrap().keys() {
                assert!(p.contains(&format!("- `{v}`: ")), "{id}: variable {v}");
                assert!(vars_line.contains(v.as_str()), "{id}: vars {v}");
            }
            for a in pinned["actions"].as_array().unwrap() {
                let name = a["name"].as_str().unwrap();
                let params: Vec<&str> = a["params"].as_array().unwrap().iter().map(|x| x.as_str().unwrap()).collect();
                let head = if params.is_empty() { name.to_string() } else { format!("{name}({})", params.join(", ")) };
                assert!(p.contains(&format!("- `{head}`: ")), "{id}: action {head}");
            }
            for c in t["check"]["constants"].as_table().unwrap().keys() {
                assert!(p.contains(&format!("CONSTANT {c} = ")), "{id}: constant {c}");
            }
            // The code that ran is shown, never the harness.
            for (path, _) in task.code {
                assert!(p.contains(&format!("### {path}\n")), "{id}: {path} not shown");
            }
            assert!(!task.code.is_empty() && p.contains("```rust"), "{id}: no code");
            assert!(!p.contains("workload.rs"), "{id}: harness shown");
        }
    }

    /// Without hints: no pinned action is named as one to write, every step name of the
    /// traces is listed, and the mapping is asked for.
    #[test]
    fn no_hints_prompts_list_the_trace_steps_and_ask_for_the_mapping() {
        for task in sysmo_tasks::tasks() {
            let id = task.id;
            let p = task.prompt_no_hints().unwrap();
            let t: Value = toml::from_str(task.task_toml()).unwrap();
            for a in t["pinned"]["actions"].as_array().unwrap() {
                let meaning = a["meaning"].as_str().unwrap_or_default();
                assert!(meaning.is_empty() || !p.contains(meaning), "{id}: the meaning of {:?} is a hint", a["name"].as_str());
                assert!(!p.contains(&format!("- `{}(", a["name"].as_str().unwrap())), "{id}: {:?} listed as an action to write", a["name"].as_str());
            }
            for (_, text) in task.traces {
                for l in text.lines().filter(|l| l.contains("\"kind\":\"step\"")) {
                    let v: serde_json::Value = serde_json::from_str(l).unwrap();
                    let a = v["action"].as_str().unwrap();
                    assert!(p.contains(&format!("- `{a}` (")), "{id}: step {a} not listed");
                }
            }
            assert!(p.contains("3. `mapping.json`") && p.contains("three files"), "{id}: the mapping is asked for");
            assert!(p.contains(&format!("---- MODULE {} ----", t["pinned"]["module"].as_str().unwrap())), "{id}: module");
        }
        let a = PromptArgs::from_args(&["--task".into(), "spin".into(), "--no-hints".into()]).unwrap();
        assert!(a.no_hints && a.task == "spin");
    }

    #[test]
    fn the_code_is_the_folder_the_traces_came_from() {
        let paths = |id: &str| sysmo_tasks::task(id).unwrap().code.iter().map(|(p, _)| *p).collect::<Vec<_>>();
        assert_eq!(paths("spin-split"), ["tasks/spin/src/lib.rs"]);
        assert_eq!(paths("mutex"), ["tasks/mutex/src/lib.rs", "tasks/mutex/src/wait.rs"]);
        // The harness's modules (`src/workload/`) are not the system's code either.
        assert_eq!(paths("rwmutex"), ["tasks/rwmutex/src/lib.rs"]);
    }

    #[test]
    fn bad_task_toml_is_an_error() {
        assert!(prompt("id = ", &[]).is_err());
        assert!(prompt("id = \"x\"\n", &[]).unwrap_err().contains("pinned"));
        assert!(PromptArgs::from_args(&["--task".to_string()]).is_err());
        assert!(PromptArgs::from_args(&[]).is_err());
    }

    #[test]
    fn hourclock_prompt_snapshot() {
        expect_test::expect_file!["../tests/snapshots/prompt-hourclock.txt"].assert_eq(&prompt_of("hourclock"));
    }
}
