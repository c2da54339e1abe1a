//! An hour clock: `hr` runs 1, 2, ..., 12, 1, ... one tick at a time.
//!
//! Observable state (pinned names): `hr`. Action: `Tick`.

#![forbid(unsafe_code)]

use task_probe::rt::sync::atomic::{AtomicUsize, Ordering};
use task_probe::{Observed, Probe};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClockState {
    pub hr: usize,
}

impl Observed for ClockState {
    fn to_json(&self) -> serde_json::Value {
        serde_json::json!({ "hr": self.hr })
    }
}

pub struct HourClock {
    hr: AtomicUsize,
    probe: Probe<ClockState>,
}

impl HourClock {
    /// A clock showing `hr` (1..=12).
    pub fn new(hr: usize, probe: Probe<ClockState>) -> Self {
        assert!((1..=12).contains(&hr), "an hour is 1..=12");
        HourClock { hr: AtomicUsize::new(hr), probe }
    }

    /// Advances one hour, from 12 back to 1.
    pub fn tick(&self) {
        let next = self.hr.load(Ordering::SeqCst) % 12 + 1;
        self.hr.store(next, Ordering::SeqCst);
        self.probe.step("Tick", |s, _| s.hr = next);
    }

    pub fn hr(&self) -> usize {
        self.hr.load(Ordering::SeqCst)
    }
}

pub mod workload;
