//! A mutex that puts waiting threads to sleep: an `AtomicBool` taken with a compare-exchange, and
//! a wait queue. `lock` tests the lock and, when it is taken, sleeps in the queue until woken;
//! `try_lock` tests it once; dropping the guard stores `false` and wakes one waiter.
//!
//! Observable state (the task's pinned names): `locked` (bool), `waiters` (the wait queue, front
//! first), `pc` (thread -> "idle" | "cs" | "waiting" | "woken" | "waking").
//! Actions, each reported at its linearisation point: `Lock(t)` (a test by `lock`: acquires, or
//! enqueues `t` and sleeps), `TryLock(t)` (acquires, or returns), `Unlock(t)` (releases the lock
//! word), `WakeOne(t)` (wakes the first waiter, if any, and returns from unlock).
//!
//! Historical bug switch: [`Mutex::new_with_try_lock_bug`] brings back the Asterinas mutex whose
//! failed `try_lock` built a guard anyway and dropped it, releasing a lock it did not hold.

use core::cell::UnsafeCell;
use core::ops::{Deref, DerefMut};
use task_probe::rt::sync::atomic::{AtomicBool, Ordering};
use task_probe::{Actor, Observed, Probe, per_thread};

pub mod wait;
use wait::WaitQueue;

/// The observable state of the mutex.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MutexState {
    pub locked: bool,
    pub waiters: Vec<usize>,
    pub pc: Vec<&'static str>,
}

impl MutexState {
    pub fn new(threads: usize) -> Self {
        MutexState { locked: false, waiters: Vec::new(), pc: vec!["idle"; threads] }
    }
}

impl Observed for MutexState {
    fn to_json(&self) -> serde_json::Value {
        serde_json::json!({ "locked": self.locked, "waiters": self.waiters, "pc": per_thread(&self.pc) })
    }
}

/// A mutex protecting a `T`.
pub struct Mutex<T: ?Sized> {
    lock: AtomicBool,
    queue: WaitQueue,
    try_lock_bug: bool,
    probe: Probe<MutexState>,
    val: UnsafeCell<T>,
}

// SAFETY: only the holder of the lock reaches `val`.
unsafe impl<T: ?Sized + Send> Send for Mutex<T> {}
unsafe impl<T: ?Sized + Send> Sync for Mutex<T> {}

impl<T> Mutex<T> {
    pub fn new(val: T) -> Self {
        Self::build(val, false, Probe::off())
    }

    pub fn with_probe(val: T, probe: Probe<MutexState>) -> Self {
        Self::build(val, false, probe)
    }

    /// The historical bug: a failed `try_lock` unlocks the mutex.
    pub fn new_with_try_lock_bug(val: T, probe: Probe<MutexState>) -> Self {
        Self::build(val, true, probe)
    }

    fn build(val: T, try_lock_bug: bool, probe: Probe<MutexState>) -> Self {
        Mutex { lock: AtomicBool::new(false), queue: WaitQueue::new(), try_lock_bug, probe, val: UnsafeCell::new(val) }
    }
}

impl<T: ?Sized> Mutex<T> {
    /// Acquires the mutex, sleeping while it is held by another thread.
    pub fn lock(&self) -> MutexGuard<'_, T> {
        let me = Actor::current().index();
        self.queue.wait_until(me, || {
            let ok = self.acquire_lock();
            self.probe.step("Lock", |s, t| {
                if ok {
                    s.locked = true;
                    s.pc[t] = "cs";
                } else {
                    s.waiters.push(t);
                    s.pc[t] = "waiting";
                }
            });
            ok.then(|| MutexGuard { mutex: self })
        })
    }

    /// Tries once to acquire the mutex.
    pub fn try_lock(&self) -> Option<MutexGuard<'_, T>> {
        let ok = self.acquire_lock();
        self.probe.step("TryLock", |s, t| {
            if ok {
                s.locked = true;
                s.pc[t] = "cs";
            } else {
                s.pc[t] = "idle";
            }
        });
        if self.try_lock_bug {
            // The guard is built before the outcome is known; on failure it is dropped, and its
            // drop unlocks the mutex.
            let guard = MutexGuard { mutex: self };
            return ok.then_some(guard);
        }
        ok.then(|| MutexGuard { mutex: self })
    }

    /// Whether the lock word is set now.
    pub fn is_locked(&self) -> bool {
        self.lock.load(Ordering::Acquire)
    }

    pub fn get_mut(&mut self) -> &mut T {
        self.val.get_mut()
    }

    fn unlock(&self) {
        self.release_lock();
        self.queue.wake_one(|woken| {
            self.probe.step("WakeOne", |s, t| {
                if let Some(u) = woken {
                    s.waiters.retain(|w| *w != u);
                    s.pc[u] = "woken";
                }
                s.pc[t] = "idle";
            })
        });
    }

    fn acquire_lock(&self) -> bool {
        self.lock.compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed).is_ok()
    }

    fn release_lock(&self) {
        self.lock.store(false, Ordering::Release);
        self.probe.step("Unlock", |s, t| {
            s.locked = false;
            s.pc[t] = "waking";
        });
    }
}

/// Exclusive access to the data; dropping it unlocks the mutex.
pub struct MutexGuard<'a, T: ?Sized> {
    mutex: &'a Mutex<T>,
}

impl<T: ?Sized> Deref for MutexGuard<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        // SAFETY: the guard exists only while the lock is held.
        unsafe { &*self.mutex.val.get() }
    }
}

impl<T: ?Sized> DerefMut for MutexGuard<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: as above, and the guard is unique.
        unsafe { &mut *self.mutex.val.get() }
    }
}

impl<T: ?Sized> Drop for MutexGuard<'_, T> {
    fn drop(&mut self) {
        self.mutex.unlock();
    }
}

pub mod workload;
