//! A reader-writer mutex whose waiters sleep. One `AtomicUsize` holds a writer bit, an
//! upgradeable-reader bit, a being-upgraded bit and the reader count. Readers add one and back
//! out if a writer or an upgrade is present; a writer swaps 0 for the writer bit; an upgradeable
//! reader sets its bit and backs out if a writer holds the lock. An upgradeable reader upgrades by
//! announcing the upgrade (new readers then back out) and spinning until it is the only holder; a
//! writer downgrades to an upgradeable reader. The last reader wakes one waiter; a writer, and an
//! upgradeable reader leaving an otherwise free lock, wake all.
//!
//! Observable state (pinned names): `writer`, `upreader`, `being_upgraded` (bools), `readers`
//! (count), `waiters` (wait queue, front first), `pc` (thread -> label, see `task.toml`).
//! Every atomic operation on the lock word is one step, reported right after it; the state is
//! decoded from the word the operation wrote.

use core::cell::UnsafeCell;
use core::ops::{Deref, DerefMut};
use task_mutex::wait::WaitQueue;
use task_probe::rt::hint::spin_loop;
use task_probe::rt::sync::atomic::{AtomicUsize, Ordering};
use task_probe::{Actor, Observed, Probe, per_thread};

const READER: usize = 1;
const WRITER: usize = 1 << (usize::BITS - 1);
const UPGRADEABLE_READER: usize = 1 << (usize::BITS - 2);
const BEING_UPGRADED: usize = 1 << (usize::BITS - 3);
const MAX_READER: usize = 1 << (usize::BITS - 4);

/// The observable state of the reader-writer mutex.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RwState {
    pub writer: bool,
    pub upreader: bool,
    pub being_upgraded: bool,
    pub readers: usize,
    pub waiters: Vec<usize>,
    pub pc: Vec<&'static str>,
}

impl RwState {
    pub fn new(threads: usize) -> Self {
        RwState {
            writer: false,
            upreader: false,
            being_upgraded: false,
            readers: 0,
            waiters: Vec::new(),
            pc: vec!["idle"; threads],
        }
    }

    /// Takes the lock-word fields from `word`.
    fn set_word(&mut self, word: usize) {
        self.writer = word & WRITER != 0;
        self.upreader = word & UPGRADEABLE_READER != 0;
        self.being_upgraded = word & BEING_UPGRADED != 0;
        self.readers = word & (MAX_READER - 1);
    }
}

impl Observed for RwState {
    fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "writer": self.writer,
            "upreader": self.upreader,
            "being_upgraded": self.being_upgraded,
            "readers": self.readers,
            "waiters": self.waiters,
            "pc": per_thread(&self.pc),
        })
    }
}

/// Whether a failed attempt sleeps in the queue (`read`, `write`, `upread`) or returns (`try_`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Wait,
    Try,
}

/// A reader-writer mutex protecting a `T`.
pub struct RwMutex<T: ?Sized> {
    lock: AtomicUsize,
    queue: WaitQueue,
    probe: Probe<RwState>,
    val: UnsafeCell<T>,
}

// SAFETY: readers share `&T`, the single writer has `&mut T`.
unsafe impl<T: ?Sized + Send> Send for RwMutex<T> {}
unsafe impl<T: ?Sized + Send + Sync> Sync for RwMutex<T> {}

impl<T> RwMutex<T> {
    pub fn new(val: T) -> Self {
        Self::with_probe(val, Probe::off())
    }

    pub fn with_probe(val: T, probe: Probe<RwState>) -> Self {
        RwMutex { lock: AtomicUsize::new(0), queue: WaitQueue::new(), probe, val: UnsafeCell::new(val) }
    }
}

impl<T: ?Sized> RwMutex<T> {
    /// Acquires a read guard, sleeping while a writer holds the lock or an upgrade is under way.
    pub fn read(&self) -> RwMutexReadGuard<'_, T> {
        let me = Actor::current().index();
        self.queue.wait_until(me, || self.attempt_read(Mode::Wait))
    }

    /// Acquires the write guard, sleeping while anyone else holds the lock.
    pub fn write(&self) -> RwMutexWriteGuard<'_, T> {
        let me = Actor::current().index();
        self.queue.wait_until(me, || self.attempt_write(Mode::Wait))
    }

    /// Acquires the upgradeable read guard, sleeping while a writer or another upgradeable reader
    /// holds the lock.
    pub fn upread(&self) -> RwMutexUpgradeableGuard<'_, T> {
        let me = Actor::current().index();
        self.queue.wait_until(me, || self.attempt_upread(Mode::Wait))
    }

    pub fn try_read(&self) -> Option<RwMutexReadGuard<'_, T>> {
        self.attempt_read(Mode::Try)
    }

    pub fn try_write(&self) -> Option<RwMutexWriteGuard<'_, T>> {
        self.attempt_write(Mode::Try)
    }

    pub fn try_upread(&self) -> Option<RwMutexUpgradeableGuard<'_, T>> {
        self.attempt_upread(Mode::Try)
    }

    /// The lock word now (writer, upgradeable, upgrading bits and reader count).
    pub fn word(&self) -> usize {
        self.lock.load(Ordering::Acquire)
    }

    pub fn get_mut(&mut self) -> &mut T {
        self.val.get_mut()
    }

    fn attempt_read(&self, mode: Mode) -> Option<RwMutexReadGuard<'_, T>> {
        let prev = self.lock.fetch_add(READER, Ordering::Acquire);
        let ok = prev & (WRITER | BEING_UPGRADED | MAX_READER) == 0;
        let name = if mode == Mode::Wait { "Read" } else { "TryRead" };
        self.probe.step(name, |s, t| {
            s.set_word(prev + READER);
            s.pc[t] = if ok { "read" } else { "read_undo" };
        });
        if ok {
            return Some(RwMutexReadGuard { inner: self });
        }
        let prev = self.lock.fetch_sub(READER, Ordering::Release);
        self.probe.step("ReadUndo", |s, t| {
            s.set_word(prev - READER);
            self.fail(s, t, mode);
        });
        None
    }

    fn attempt_write(&self, mode: Mode) -> Option<RwMutexWriteGuard<'_, T>> {
        let res = self.lock.compare_exchange(0, WRITER, Ordering::Acquire, Ordering::Relaxed);
        let name = if mode == Mode::Wait { "Write" } else { "TryWrite" };
        self.probe.step(name, |s, t| match res {
            Ok(_) => {
                s.set_word(WRITER);
                s.pc[t] = "write";
            }
            Err(_) => self.fail(s, t, mode),
        });
        res.is_ok().then(|| RwMutexWriteGuard { inner: self })
    }

    fn attempt_upread(&self, mode: Mode) -> Option<RwMutexUpgradeableGuard<'_, T>> {
        let prev = self.lock.fetch_or(UPGRADEABLE_READER, Ordering::Acquire);
        let held = prev & (WRITER | UPGRADEABLE_READER);
        let name = if mode == Mode::Wait { "UpRead" } else { "TryUpRead" };
        self.probe.step(name, |s, t| {
            s.set_word(prev | UPGRADEABLE_READER);
            if held == 0 {
                s.pc[t] = "upread";
            } else if held == WRITER {
                s.pc[t] = "upread_undo";
            } else {
                self.fail(s, t, mode);
            }
        });
        if held == 0 {
            return Some(RwMutexUpgradeableGuard { inner: self });
        }
        if held == WRITER {
            let prev = self.lock.fetch_sub(UPGRADEABLE_READER, Ordering::Release);
            self.probe.step("UpReadUndo", |s, t| {
                s.set_word(prev - UPGRADEABLE_READER);
                self.fail(s, t, mode);
            });
        }
        None
    }

    /// The shadow effect of a failed attempt: a waiting attempt is enqueued (the queue is locked
    /// while it runs, see `WaitQueue::wait_until`), a `try_` attempt returns.
    fn fail(&self, s: &mut RwState, t: usize, mode: Mode) {
        match mode {
            Mode::Wait => {
                s.waiters.push(t);
                s.pc[t] = "waiting";
            }
            Mode::Try => s.pc[t] = "idle",
        }
    }

    fn wake_one(&self) {
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

    /// Wakes every waiter; the waker then goes on at `next`.
    fn wake_all(&self, next: &'static str) {
        self.queue.wake_all(|woken| {
            self.probe.step("WakeAll", |s, t| {
                for u in woken {
                    s.waiters.retain(|w| w != u);
                    s.pc[*u] = "woken";
                }
                s.pc[t] = next;
            })
        });
    }
}

/// Shared read access.
pub struct RwMutexReadGuard<'a, T: ?Sized> {
    inner: &'a RwMutex<T>,
}

impl<T: ?Sized> Deref for RwMutexReadGuard<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        // SAFETY: no writer while a read guard exists.
        unsafe { &*self.inner.val.get() }
    }
}

impl<T: ?Sized> Drop for RwMutexReadGuard<'_, T> {
    fn drop(&mut self) {
        let prev = self.inner.lock.fetch_sub(READER, Ordering::Release);
        let last = prev == READER;
        self.inner.probe.step("ReadUnlock", |s, t| {
            s.set_word(prev - READER);
            s.pc[t] = if last { "wake_one" } else { "idle" };
        });
        // The last reader wakes one waiter (a writer may be sleeping).
        if last {
            self.inner.wake_one();
        }
    }
}

/// Exclusive write access.
pub struct RwMutexWriteGuard<'a, T: ?Sized> {
    inner: &'a RwMutex<T>,
}

impl<T: ?Sized> Deref for RwMutexWriteGuard<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        // SAFETY: the write guard is the only holder.
        unsafe { &*self.inner.val.get() }
    }
}

impl<T: ?Sized> DerefMut for RwMutexWriteGuard<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: as above.
        unsafe { &mut *self.inner.val.get() }
    }
}

impl<'a, T: ?Sized> RwMutexWriteGuard<'a, T> {
    /// Turns the write guard into an upgradeable read guard. The exchange of the writer bit for
    /// the upgradeable bit fails while a reader or upgradeable reader is backing out; it retries.
    pub fn downgrade(self) -> RwMutexUpgradeableGuard<'a, T> {
        let inner = self.inner;
        core::mem::forget(self);
        loop {
            let res = inner.lock.compare_exchange(WRITER, UPGRADEABLE_READER, Ordering::AcqRel, Ordering::Relaxed);
            inner.probe.step("Downgrade", |s, t| match res {
                Ok(_) => {
                    s.set_word(UPGRADEABLE_READER);
                    s.pc[t] = "downgraded";
                }
                Err(_) => s.pc[t] = "downgrading",
            });
            if res.is_ok() {
                break;
            }
            spin_loop();
        }
        // What dropping the old write guard does: clear the writer bit (already clear) and wake
        // all waiters, who may now read.
        let prev = inner.lock.fetch_and(!WRITER, Ordering::Release);
        inner.probe.step("DowngradeRelease", |s, t| {
            s.set_word(prev & !WRITER);
            s.pc[t] = "downgrade_wake";
        });
        inner.wake_all("upread");
        RwMutexUpgradeableGuard { inner }
    }
}

impl<T: ?Sized> Drop for RwMutexWriteGuard<'_, T> {
    fn drop(&mut self) {
        let prev = self.inner.lock.fetch_and(!WRITER, Ordering::Release);
        self.inner.probe.step("WriteUnlock", |s, t| {
            s.set_word(prev & !WRITER);
            s.pc[t] = "wake_all";
        });
        self.inner.wake_all("idle");
    }
}

/// Read access that can be upgraded to write access.
pub struct RwMutexUpgradeableGuard<'a, T: ?Sized> {
    inner: &'a RwMutex<T>,
}

impl<T: ?Sized> Deref for RwMutexUpgradeableGuard<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        // SAFETY: no writer while the upgradeable guard exists.
        unsafe { &*self.inner.val.get() }
    }
}

impl<'a, T: ?Sized> RwMutexUpgradeableGuard<'a, T> {
    /// Upgrades to the write guard: announces the upgrade (new readers back out) and spins until
    /// the remaining readers are gone.
    pub fn upgrade(mut self) -> RwMutexWriteGuard<'a, T> {
        let prev = self.inner.lock.fetch_or(BEING_UPGRADED, Ordering::Acquire);
        self.inner.probe.step("UpgradeBegin", |s, t| {
            s.set_word(prev | BEING_UPGRADED);
            s.pc[t] = "upgrading";
        });
        loop {
            self = match self.attempt_upgrade("Upgrade") {
                Ok(guard) => return guard,
                Err(e) => e,
            };
            spin_loop();
        }
    }

    /// One attempt at the upgrade. It succeeds only once an upgrade has been announced (by
    /// `upgrade`) and no reader is left.
    pub fn try_upgrade(self) -> Result<RwMutexWriteGuard<'a, T>, Self> {
        self.attempt_upgrade("TryUpgrade")
    }

    fn attempt_upgrade(self, name: &str) -> Result<RwMutexWriteGuard<'a, T>, Self> {
        let res = self.inner.lock.compare_exchange(
            UPGRADEABLE_READER | BEING_UPGRADED,
            WRITER | UPGRADEABLE_READER,
            Ordering::AcqRel,
            Ordering::Relaxed,
        );
        let waiting_pc = if name == "Upgrade" { "upgrading" } else { "upread" };
        self.inner.probe.step(name, |s, t| match res {
            Ok(_) => {
                s.set_word(WRITER | UPGRADEABLE_READER);
                s.pc[t] = "upgraded";
            }
            Err(_) => s.pc[t] = waiting_pc,
        });
        if res.is_err() {
            return Err(self);
        }
        let inner = self.inner;
        core::mem::forget(self);
        // What dropping the upgradeable guard does; the writer bit is set, so nobody is woken.
        let prev = inner.lock.fetch_sub(UPGRADEABLE_READER, Ordering::Release);
        inner.probe.step("UpgradeRelease", |s, t| {
            s.set_word(prev - UPGRADEABLE_READER);
            s.pc[t] = "write";
        });
        if prev == UPGRADEABLE_READER {
            inner.wake_all("write");
        }
        Ok(RwMutexWriteGuard { inner })
    }
}

impl<T: ?Sized> Drop for RwMutexUpgradeableGuard<'_, T> {
    fn drop(&mut self) {
        let prev = self.inner.lock.fetch_sub(UPGRADEABLE_READER, Ordering::Release);
        let alone = prev == UPGRADEABLE_READER;
        self.inner.probe.step("UpReadUnlock", |s, t| {
            s.set_word(prev - UPGRADEABLE_READER);
            s.pc[t] = if alone { "wake_all" } else { "idle" };
        });
        if alone {
            self.inner.wake_all("idle");
        }
    }
}

pub mod workload;
