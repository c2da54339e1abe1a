//! A FIFO wait queue. A waiter tests its condition with the queue locked and, if the condition
//! fails, enqueues itself before the queue is unlocked; so a wake issued after the failed test
//! always finds it (no lost wake-up). A woken waiter leaves the queue at the moment it is woken,
//! so the queue holds exactly the threads that are asleep or about to sleep.

use std::collections::VecDeque;
use std::sync::Arc;
use task_probe::rt::sync::Mutex;
use task_probe::rt::sync::atomic::{AtomicBool, Ordering};
use task_probe::rt::thread::{self, Thread};

struct Waker {
    woken: AtomicBool,
    thread: Thread,
}

impl Waker {
    fn wake_up(&self) {
        self.woken.store(true, Ordering::Release);
        self.thread.unpark();
    }
}

/// Threads waiting for a condition, woken in FIFO order.
pub struct WaitQueue {
    wakers: Mutex<VecDeque<(usize, Arc<Waker>)>>,
}

impl Default for WaitQueue {
    fn default() -> Self {
        Self::new()
    }
}

impl WaitQueue {
    pub fn new() -> Self {
        WaitQueue { wakers: Mutex::new(VecDeque::new()) }
    }

    /// Returns `cond()`'s value once it is `Some`. Each test of `cond` runs with the queue locked;
    /// a failed test enqueues the caller (known to the queue as `me`) and puts it to sleep until a
    /// `wake_one` or `wake_all` takes it out of the queue.
    pub fn wait_until<R>(&self, me: usize, mut cond: impl FnMut() -> Option<R>) -> R {
        loop {
            let waker = {
                let mut q = self.wakers.lock().unwrap_or_else(|p| p.into_inner());
                if let Some(r) = cond() {
                    return r;
                }
                let w = Arc::new(Waker { woken: AtomicBool::new(false), thread: thread::current() });
                q.push_back((me, Arc::clone(&w)));
                w
            };
            while !waker.woken.swap(false, Ordering::Acquire) {
                thread::park();
            }
        }
    }

    /// Wakes the first waiter, if any. `on_wake` runs with the queue locked, right after the
    /// waiter left it (`None` when the queue was empty): that is the step's linearisation point.
    pub fn wake_one(&self, on_wake: impl FnOnce(Option<usize>)) {
        let mut q = self.wakers.lock().unwrap_or_else(|p| p.into_inner());
        let first = q.pop_front();
        on_wake(first.as_ref().map(|(id, _)| *id));
        drop(q);
        if let Some((_, w)) = first {
            w.wake_up();
        }
    }

    /// Wakes every waiter. `on_wake` receives the woken, in queue order, with the queue locked.
    pub fn wake_all(&self, on_wake: impl FnOnce(&[usize])) {
        let mut q = self.wakers.lock().unwrap_or_else(|p| p.into_inner());
        let all: Vec<(usize, Arc<Waker>)> = q.drain(..).collect();
        let ids: Vec<usize> = all.iter().map(|(id, _)| *id).collect();
        on_wake(&ids);
        drop(q);
        for (_, w) in all {
            w.wake_up();
        }
    }
}
