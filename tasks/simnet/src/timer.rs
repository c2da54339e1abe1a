//! Timers counted in ticks.

/// A countdown owned by a process: armed for a number of ticks, it fires on the tick that
/// brings it to zero, once, and is then disarmed until armed again. A simulation has no clock:
/// a tick is a step the driver chooses, like a delivery.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Timer {
    remaining: Option<u32>,
}

impl Timer {
    /// A disarmed timer.
    pub fn new() -> Timer {
        Timer { remaining: None }
    }

    /// Fires after `ticks` more ticks (on the next tick when `ticks` is 0 or 1).
    pub fn arm(&mut self, ticks: u32) {
        self.remaining = Some(ticks.max(1));
    }

    pub fn disarm(&mut self) {
        self.remaining = None;
    }

    pub fn is_armed(&self) -> bool {
        self.remaining.is_some()
    }

    /// Ticks left before it fires, when armed.
    pub fn remaining(&self) -> Option<u32> {
        self.remaining
    }

    /// One tick: true when the timer fires now (it is then disarmed).
    pub fn tick(&mut self) -> bool {
        match self.remaining {
            Some(1) => {
                self.remaining = None;
                true
            }
            Some(n) => {
                self.remaining = Some(n - 1);
                false
            }
            None => false,
        }
    }
}
