//! `sysmo tasks [--json]`: the tasks built into the binary (sysmo-tasks), one per line.

use serde_json::json;
use std::process::ExitCode;
use sysmo_grade::TaskSpec;

pub fn run(args: &[String]) -> Result<ExitCode, String> {
    let mut as_json = false;
    for a in args {
        match a.as_str() {
            "--json" => as_json = true,
            other => return Err(format!("unknown argument `{other}` for `sysmo tasks`")),
        }
    }
    for t in sysmo_tasks::tasks() {
        let spec = TaskSpec::parse(t.task_toml());
        let (module, title) = match &spec {
            Ok(s) => (s.module.clone(), s.title.clone()),
            Err(e) => (String::new(), format!("(task.toml cannot be read: {e})")),
        };
        let tutorial = t.task_toml().lines().any(|l| l.replace(' ', "") == "tutorial=true");
        if as_json {
            println!("{}", json!({"id": t.id, "title": title, "module": module, "traces": t.traces.len(), "tutorial": tutorial}));
        } else {
            println!("{:<12} {:<11} {:>3} traces  {}{}", t.id, module, t.traces.len(), title, if tutorial { "  [tutorial]" } else { "" });
        }
    }
    Ok(ExitCode::SUCCESS)
}
