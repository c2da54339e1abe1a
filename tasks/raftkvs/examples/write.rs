//! Writes the raftkvs traces under `traces/raftkvs` (as `cargo xtask traces` does for every
//! task), for trying the scenarios' weights quickly.
fn main() {
    let traces = task_raftkvs::workload::traces();
    for t in &traces {
        std::fs::write(format!("traces/{}/{}", t.dir, t.name), &t.text).expect("write a trace");
    }
    println!("{} traces", traces.len());
}
