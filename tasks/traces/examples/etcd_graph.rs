fn main() {
    let t0 = std::time::Instant::now();
    let spec = task_traces::graphs::specs().into_iter().find(|s| s.dir == "etcd").unwrap();
    let text = task_traces::graphs::build(&spec).unwrap();
    let gz = task_traces::graphs::compress(&text);
    let g = tla_trace::parse_graph("g", &text).unwrap();
    let fr = g.frontier.iter().filter(|f| **f).count();
    let visits: u64 = g.visits.iter().sum();
    println!("{} states ({fr} frontier), {} edges, {visits} expanded, {} bytes, {} gz, {:?}", g.states.len(), g.edges.len(), text.len(), gz.len(), t0.elapsed());
    if let Some(p) = std::env::args().nth(1) { std::fs::write(p, gz).unwrap(); }
}
