//! A spin lock: one `AtomicBool`, taken with a compare-exchange, released by storing `false` when
//! the guard is dropped. `lock` retries the compare-exchange in a busy loop; `try_lock` tries once.
//!
//! Every observable step is reported to the lock's probe at its linearisation point (right after
//! the atomic operation that decides it), with the task's pinned names:
//! variables `locked` (bool) and `pc` (thread -> "idle" | "spin" | "cs"); actions
//! `TryLock(t)`, `LockSpin(t)`, `LockAcquired(t)`, `Unlock(t)`.
//!
//! Historical bug switch: [`SpinLock::new_split`] builds a lock whose test-and-set is split into a
//! load and a store (two atomic operations); two threads can then both see `false` and both enter
//! the critical section. Its steps are `LockTest(t)`, `LockSet(t)`, `TryLockTest(t)`,
//! `TryLockSet(t)` and `Unlock(t)`, with the extra pc labels "set" and "tryset".

use core::cell::UnsafeCell;
use core::ops::{Deref, DerefMut};
use task_probe::rt::hint::spin_loop;
use task_probe::rt::sync::atomic::{AtomicBool, Ordering};
use task_probe::{Observed, Probe, per_thread};

/// The observable state: the lock word and each thread's place in the protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpinState {
    pub locked: bool,
    pub pc: Vec<&'static str>,
}

impl SpinState {
    /// All threads idle, lock free.
    pub fn new(threads: usize) -> Self {
        SpinState { locked: false, pc: vec!["idle"; threads] }
    }
}

impl Observed for SpinState {
    fn to_json(&self) -> serde_json::Value {
        serde_json::json!({ "locked": self.locked, "pc": per_thread(&self.pc) })
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Via {
    Lock,
    TryLock,
}

/// A spin lock protecting a `T`.
pub struct SpinLock<T: ?Sized> {
    lock: AtomicBool,
    split: bool,
    probe: Probe<SpinState>,
    val: UnsafeCell<T>,
}

// SAFETY: only the holder of the lock reaches `val`.
unsafe impl<T: ?Sized + Send> Send for SpinLock<T> {}
unsafe impl<T: ?Sized + Send> Sync for SpinLock<T> {}

impl<T> SpinLock<T> {
    /// A new, unlocked spin lock.
    pub fn new(val: T) -> Self {
        Self::build(val, false, Probe::off())
    }

    /// A new spin lock that reports its steps to `probe`.
    pub fn with_probe(val: T, probe: Probe<SpinState>) -> Self {
        Self::build(val, false, probe)
    }

    /// The historical bug: test-and-set split into a load and a store.
    pub fn new_split(val: T, probe: Probe<SpinState>) -> Self {
        Self::build(val, true, probe)
    }

    fn build(val: T, split: bool, probe: Probe<SpinState>) -> Self {
        SpinLock { lock: AtomicBool::new(false), split, probe, val: UnsafeCell::new(val) }
    }
}

impl<T: ?Sized> SpinLock<T> {
    /// Acquires the lock, spinning until it is free.
    pub fn lock(&self) -> SpinLockGuard<'_, T> {
        self.acquire_lock();
        SpinLockGuard { lock: self }
    }

    /// Tries once to acquire the lock.
    pub fn try_lock(&self) -> Option<SpinLockGuard<'_, T>> {
        if self.try_acquire_lock(Via::TryLock) {
            return Some(SpinLockGuard { lock: self });
        }
        None
    }

    /// A mutable reference without locking: `&mut self` already proves exclusive access.
    pub fn get_mut(&mut self) -> &mut T {
        self.val.get_mut()
    }

    /// Whether the lock word is set now.
    pub fn is_locked(&self) -> bool {
        self.lock.load(Ordering::Acquire)
    }

    fn acquire_lock(&self) {
        while !self.try_acquire_lock(Via::Lock) {
            spin_loop();
        }
    }

    fn try_acquire_lock(&self, via: Via) -> bool {
        if self.split {
            return self.split_test_and_set(via);
        }
        let ok = self
            .lock
            .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_ok();
        match (via, ok) {
            (Via::Lock, true) => self.probe.step("LockAcquired", |s, t| {
                s.locked = true;
                s.pc[t] = "cs";
            }),
            (Via::Lock, false) => self.probe.step("LockSpin", |s, t| s.pc[t] = "spin"),
            (Via::TryLock, true) => self.probe.step("TryLock", |s, t| {
                s.locked = true;
                s.pc[t] = "cs";
            }),
            (Via::TryLock, false) => self.probe.step("TryLock", |s, t| s.pc[t] = "idle"),
        }
        ok
    }

    /// The bug: between the load and the store another thread may take the lock.
    fn split_test_and_set(&self, via: Via) -> bool {
        let (test, set, go_on, give_up) = match via {
            Via::Lock => ("LockTest", "LockSet", "set", "spin"),
            Via::TryLock => ("TryLockTest", "TryLockSet", "tryset", "idle"),
        };
        let seen = self.lock.load(Ordering::Acquire);
        self.probe.step(test, |s, t| s.pc[t] = if seen { give_up } else { go_on });
        if seen {
            return false;
        }
        self.lock.store(true, Ordering::Release);
        self.probe.step(set, |s, t| {
            s.locked = true;
            s.pc[t] = "cs";
        });
        true
    }

    fn release_lock(&self) {
        self.lock.store(false, Ordering::Release);
        self.probe.step("Unlock", |s, t| {
            s.locked = false;
            s.pc[t] = "idle";
        });
    }
}

/// Exclusive access to the data; dropping it releases the lock.
pub struct SpinLockGuard<'a, T: ?Sized> {
    lock: &'a SpinLock<T>,
}

impl<T: ?Sized> Deref for SpinLockGuard<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        // SAFETY: the guard exists only while the lock is held.
        unsafe { &*self.lock.val.get() }
    }
}

impl<T: ?Sized> DerefMut for SpinLockGuard<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: as above, and the guard is unique.
        unsafe { &mut *self.lock.val.get() }
    }
}

impl<T: ?Sized> Drop for SpinLockGuard<'_, T> {
    fn drop(&mut self) {
        self.lock.release_lock();
    }
}

pub mod workload;
