fn main() {
    for s in task_traces::graphs::specs() {
        let t0 = std::time::Instant::now();
        let text = task_traces::graphs::build(&s).unwrap();
        let head = text.lines().next().unwrap().to_string();
        println!("{} {:?} {} lines {} bytes gz {}", s.dir, t0.elapsed(), text.lines().count(), text.len(), task_traces::graphs::compress(&text).len());
        println!("{head}");
    }
}
