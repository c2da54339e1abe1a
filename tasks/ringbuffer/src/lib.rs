//! A single-producer single-consumer ring buffer of capacity a power of two. `head` counts the
//! items read and `tail` the items written; both only grow (wrapping at the `usize` boundary) and
//! an item's slot is its counter modulo the capacity. The producer owns `tail`, the consumer owns
//! `head`; each reads the other's counter to know the free space or the items available.
//!
//! Observable state (pinned names): `head`, `tail`. Actions, each reported at its linearisation
//! point (the store that advances a counter, or the load of the other side's counter that shows
//! the operation cannot proceed): `Push`, `PushSlice(n)`, `Pop`, `PopSlice(n)`; a failed
//! operation leaves the state unchanged. Actors are "producer" and "consumer".

use core::cell::UnsafeCell;
use core::num::Wrapping;
use std::sync::Arc;
use task_probe::rt::sync::atomic::{AtomicUsize, Ordering};
use task_probe::{Observed, Probe};

/// The observable state of the ring buffer.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct RingState {
    pub head: usize,
    pub tail: usize,
}

impl Observed for RingState {
    fn to_json(&self) -> serde_json::Value {
        serde_json::json!({ "head": self.head, "tail": self.tail })
    }
}

/// The shared buffer.
pub struct RingBuffer<T> {
    slots: Box<[UnsafeCell<T>]>,
    capacity: usize,
    head: AtomicUsize,
    tail: AtomicUsize,
    probe: Probe<RingState>,
}

// SAFETY: a slot is written only by the producer while it is free and read only by the consumer
// while it is full; the counters' release stores and acquire loads order those accesses.
unsafe impl<T: Send> Sync for RingBuffer<T> {}

/// The producing side.
pub struct Producer<T> {
    rb: Arc<RingBuffer<T>>,
}

/// The consuming side.
pub struct Consumer<T> {
    rb: Arc<RingBuffer<T>>,
}

impl<T: Copy + Default> RingBuffer<T> {
    /// A buffer of `capacity` items. Panics unless `capacity` is a power of two.
    pub fn new(capacity: usize) -> Self {
        Self::with_probe(capacity, Probe::off())
    }

    pub fn with_probe(capacity: usize, probe: Probe<RingState>) -> Self {
        assert!(capacity.is_power_of_two(), "capacity must be a power of two");
        RingBuffer {
            slots: (0..capacity).map(|_| UnsafeCell::new(T::default())).collect(),
            capacity,
            head: AtomicUsize::new(0),
            tail: AtomicUsize::new(0),
            probe,
        }
    }

    /// Splits the buffer into its producer and its consumer.
    pub fn split(self) -> (Producer<T>, Consumer<T>) {
        let rb = Arc::new(self);
        (Producer { rb: Arc::clone(&rb) }, Consumer { rb })
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }

    fn head(&self) -> Wrapping<usize> {
        Wrapping(self.head.load(Ordering::Acquire))
    }

    fn tail(&self) -> Wrapping<usize> {
        Wrapping(self.tail.load(Ordering::Acquire))
    }

    fn slot(&self, counter: Wrapping<usize>) -> *mut T {
        self.slots[counter.0 & (self.capacity - 1)].get()
    }

    /// Stores the advanced tail and reports the step.
    fn advance_tail(&self, tail: Wrapping<usize>, len: usize, step: &str, args: &[(&str, serde_json::Value)]) {
        let new = tail + Wrapping(len);
        self.tail.store(new.0, Ordering::Release);
        self.probe.step_with(step, args, |s, _| s.tail = new.0);
    }

    fn advance_head(&self, head: Wrapping<usize>, len: usize, step: &str, args: &[(&str, serde_json::Value)]) {
        let new = head + Wrapping(len);
        self.head.store(new.0, Ordering::Release);
        self.probe.step_with(step, args, |s, _| s.head = new.0);
    }
}

impl<T: Copy + Default> Producer<T> {
    /// Pushes one item; `None` when the buffer is full.
    pub fn push(&mut self, item: T) -> Option<()> {
        self.push_slice_as("Push", &[item], &[])
    }

    /// Pushes all of `items`, or nothing (`None`) when they do not all fit.
    pub fn push_slice(&mut self, items: &[T]) -> Option<()> {
        self.push_slice_as("PushSlice", items, &[("n", serde_json::Value::from(items.len()))])
    }

    fn push_slice_as(&mut self, step: &str, items: &[T], args: &[(&str, serde_json::Value)]) -> Option<()> {
        let rb = &self.rb;
        let tail = rb.tail();
        let head = rb.head();
        let free = rb.capacity - (tail - head).0;
        if free < items.len() {
            // Decided by the load of `head` just above.
            rb.probe.step_with(step, args, |_, _| {});
            return None;
        }
        for (i, item) in items.iter().enumerate() {
            // SAFETY: the slot is free (see the type's safety note).
            unsafe { *rb.slot(tail + Wrapping(i)) = *item };
        }
        rb.advance_tail(tail, items.len(), step, args);
        Some(())
    }
}

impl<T: Copy + Default> Consumer<T> {
    /// Pops one item; `None` when the buffer is empty.
    pub fn pop(&mut self) -> Option<T> {
        let mut one = [T::default()];
        self.pop_slice_as("Pop", &mut one, &[])?;
        Some(one[0])
    }

    /// Fills all of `items`, or nothing (`None`) when fewer items are available.
    pub fn pop_slice(&mut self, items: &mut [T]) -> Option<()> {
        let n = items.len();
        self.pop_slice_as("PopSlice", items, &[("n", serde_json::Value::from(n))])
    }

    fn pop_slice_as(&mut self, step: &str, items: &mut [T], args: &[(&str, serde_json::Value)]) -> Option<()> {
        let rb = &self.rb;
        let head = rb.head();
        let tail = rb.tail();
        let len = (tail - head).0;
        if len < items.len() {
            // Decided by the load of `tail` just above.
            rb.probe.step_with(step, args, |_, _| {});
            return None;
        }
        for (i, item) in items.iter_mut().enumerate() {
            // SAFETY: the slot is full (see the type's safety note).
            *item = unsafe { *rb.slot(head + Wrapping(i)) };
        }
        rb.advance_head(head, items.len(), step, args);
        Some(())
    }
}

pub mod workload;
