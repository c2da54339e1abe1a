//! Traces of small systems simulated in Rust, for the tests and the benchmark: a three-phase
//! lock (request, acquire, release) over numbered threads and a two-slot queue.

/// A deterministic pseudo-random sequence (64-bit LCG).
pub struct Lcg(u64);

impl Lcg {
    pub fn new(seed: u64) -> Lcg {
        Lcg(seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407))
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// How the lock's `held` flag is written in the trace.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum HeldAs {
    Bool,
    Words,
}

/// A trace of `threads` threads running request/acquire/release on one lock, `steps` steps.
pub fn lock_trace(threads: usize, steps: usize, seed: u64, held_as: HeldAs) -> String {
    let mut rng = Lcg::new(seed);
    let mut held = false;
    let mut pc = vec!["idle"; threads];
    let consts: Vec<String> = (0..threads).map(|t| t.to_string()).collect();
    let mut out = format!(
        "{{\"kind\":\"header\",\"task\":\"lock\",\"version\":1,\"constants\":{{\"Threads\":[{}]}},\"seed\":{},\"scheduler\":\"random\",\"source\":\"lock.rs@0000000000000000\"}}\n",
        consts.join(","),
        seed
    );
    let state = |held: bool, pc: &[&str]| {
        let h = match held_as {
            HeldAs::Bool => held.to_string(),
            HeldAs::Words => if held { "\"locked\"".into() } else { "\"free\"".into() },
        };
        let pcs: Vec<String> = pc.iter().enumerate().map(|(t, p)| format!("\"{}\":\"{}\"", t, p)).collect();
        format!("{{\"held\":{},\"pc\":{{{}}}}}", h, pcs.join(","))
    };
    out.push_str(&format!("{{\"kind\":\"init\",\"state\":{}}}\n", state(held, &pc)));
    for seq in 1..=steps {
        loop {
            let t = rng.below(threads as u64) as usize;
            let action = match pc[t] {
                "idle" => {
                    pc[t] = "waiting";
                    "Request"
                }
                "waiting" if !held => {
                    pc[t] = "cs";
                    held = true;
                    "Acquire"
                }
                "cs" => {
                    pc[t] = "idle";
                    held = false;
                    "Release"
                }
                _ => continue,
            };
            out.push_str(&format!(
                "{{\"kind\":\"step\",\"seq\":{},\"action\":\"{}\",\"actor\":{},\"args\":{{\"t\":{}}},\"state\":{}}}\n",
                seq,
                action,
                t,
                t,
                state(held, &pc)
            ));
            break;
        }
    }
    out
}

/// A trace of a queue of capacity 2: `Enq` of 1 or 2 when not full, `Deq` when not empty.
/// With `with_size`, the state also shows the queue's length as `size`.
pub fn queue_trace(steps: usize, seed: u64, with_size: bool) -> String {
    let mut rng = Lcg::new(seed);
    let mut q: Vec<i64> = Vec::new();
    let mut out = String::from("{\"kind\":\"header\",\"task\":\"queue\",\"version\":1,\"constants\":{},\"seed\":1,\"scheduler\":\"random\",\"source\":\"queue.rs@0000000000000000\"}\n");
    let state = |q: &[i64]| {
        let items: Vec<String> = q.iter().map(|x| x.to_string()).collect();
        if with_size { format!("{{\"q\":[{}],\"size\":{}}}", items.join(","), q.len()) } else { format!("{{\"q\":[{}]}}", items.join(",")) }
    };
    out.push_str(&format!("{{\"kind\":\"init\",\"state\":{}}}\n", state(&q)));
    for seq in 1..=steps {
        let enq = q.is_empty() || (q.len() < 2 && rng.below(2) == 0);
        let (action, args) = if enq {
            let v = 1 + rng.below(2) as i64;
            q.push(v);
            ("Enq", format!("{{\"v\":{}}}", v))
        } else {
            q.remove(0);
            ("Deq", "{}".to_string())
        };
        out.push_str(&format!(
            "{{\"kind\":\"step\",\"seq\":{},\"action\":\"{}\",\"actor\":\"{}\",\"args\":{},\"state\":{}}}\n",
            seq,
            action,
            if enq { "producer" } else { "consumer" },
            args,
            state(&q)
        ));
    }
    out
}
