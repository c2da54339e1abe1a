//! The shared slice behind sets, sequences and domains ([`crate::value::Elems`]), with a
//! reference count that is atomic only when values may be shared between threads.
//!
//! A model checker clones and drops values all the time: each successor copies the state's
//! variables, each EXCEPT the slices on its path, and a successor already seen is dropped with
//! all it built. With an atomic count, every one of those is a locked instruction, which costs
//! many times a plain increment. Most runs touch values from one thread only (`sysmo check`
//! with one worker, the browser): for those, [`single_thread`] makes the count a plain
//! load and store. Everything else (tests, the grader's threads, parallel workers) keeps the
//! atomic count, the default.
//!
//! Layout: one allocation holding the count, the elements' fingerprint once computed
//! ([`FpCell`]), the length (at most `u32::MAX`), one kept membership answer ([`MemoCell`]),
//! a function's domain (for the values of a function, [`crate::value::FcnVal`], so that a
//! function is one allocation), then the elements. A value is one pointer. [`Counted`] is the
//! same count in front of one value (a function, a string, a model value).

use std::alloc::{Layout, alloc, dealloc, handle_alloc_error};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering, fence};

use crate::value::{Elems, FpCell, MemoCell, Value};

/// Whether values may be touched by more than one thread (then counts are atomic).
static SHARED: AtomicBool = AtomicBool::new(true);

/// Counts of shared slices become plain (`on`) or atomic again (`!on`).
///
/// # Safety
/// While counts are plain, values must be cloned and dropped by one thread only: call this
/// with `true` only when no other thread holds a value (none was sent to one, or all that
/// did have been joined), and call it with `false` before any value is sent to another thread.
/// Starting and joining a thread orders what happened before, so counts are exact across a
/// change.
pub unsafe fn single_thread(on: bool) {
    SHARED.store(!on, Ordering::SeqCst);
}

#[repr(C)]
struct Inner {
    count: AtomicUsize,
    fp: FpCell,
    len: u32,
    memo: MemoCell,
    /// A function's domain (its values are the elements); None for a set or a sequence.
    ext: Option<Elems>,
    data: [Value; 0],
}

fn layout(len: usize) -> Layout {
    match Layout::array::<Value>(len).and_then(|a| Layout::new::<Inner>().extend(a)) {
        Ok((l, _)) if u32::try_from(len).is_ok() => l.pad_to_align(),
        _ => panic!("a set or sequence of {len} elements is too large to allocate"),
    }
}

/// An immutable slice of values shared by reference count, with a fingerprint cell.
pub(crate) struct Shared(NonNull<Inner>);

// The count is atomic whenever values may cross threads (see `single_thread`); the elements
// are values, which are themselves shareable.
unsafe impl Send for Shared {}
unsafe impl Sync for Shared {}

impl Shared {
    /// The values of `it`, which yields exactly `it.len()` of them, in one allocation.
    pub fn from_iter_exact(it: impl ExactSizeIterator<Item = Value>) -> Shared {
        Shared::from_iter_with(None, it)
    }

    /// `from_iter_exact`, with `ext` kept in the header (a function's domain).
    pub(crate) fn from_iter_with(ext: Option<Elems>, mut it: impl ExactSizeIterator<Item = Value>) -> Shared {
        let n = it.len();
        let lay = layout(n);
        // SAFETY: the layout has a non-zero size (the header).
        let p = unsafe { alloc(lay) } as *mut Inner;
        let Some(nn) = NonNull::new(p) else { handle_alloc_error(lay) };
        // SAFETY: `p` is a fresh allocation for the header and `n` values. The length counts
        // the values written so far: if the iterator panics, the allocation is leaked whole,
        // never read nor freed.
        unsafe {
            p.write(Inner { count: AtomicUsize::new(1), fp: FpCell::default(), len: 0, memo: MemoCell::default(), ext, data: [] });
            let data = std::ptr::addr_of_mut!((*p).data) as *mut Value;
            for i in 0..n {
                let Some(v) = it.next() else { panic!("an iterator yielded fewer values than its length") };
                data.add(i).write(v);
                // `layout` checked that `n` fits.
                (*p).len = (i + 1) as u32;
            }
        }
        Shared(nn)
    }

    #[inline]
    fn inner(&self) -> &Inner {
        // SAFETY: the allocation lives as long as a count is held, and `self` holds one.
        unsafe { self.0.as_ref() }
    }

    /// The same allocation.
    #[inline]
    pub fn ptr_eq(a: &Shared, b: &Shared) -> bool {
        a.0 == b.0
    }

    #[inline]
    pub(crate) fn fp(&self) -> &FpCell {
        &self.inner().fp
    }

    #[inline]
    pub(crate) fn memo(&self) -> &MemoCell {
        &self.inner().memo
    }

    /// What `from_iter_with` kept in the header.
    #[inline]
    pub(crate) fn ext(&self) -> Option<&Elems> {
        self.inner().ext.as_ref()
    }

    /// The allocation's address.
    #[inline]
    pub(crate) fn addr(&self) -> *const u8 {
        self.0.as_ptr() as *const u8
    }
}

impl std::ops::Deref for Shared {
    type Target = [Value];
    #[inline]
    fn deref(&self) -> &[Value] {
        let p = self.0.as_ptr();
        // SAFETY: the first `len` values are initialised and live as long as the allocation.
        unsafe { std::slice::from_raw_parts(std::ptr::addr_of!((*p).data) as *const Value, (*p).len as usize) }
    }
}

impl Clone for Shared {
    #[inline]
    fn clone(&self) -> Shared {
        count_up(&self.inner().count);
        Shared(self.0)
    }
}

impl Drop for Shared {
    #[inline]
    fn drop(&mut self) {
        if count_down(&self.inner().count) {
            // SAFETY: this was the last count: nothing else reads the allocation.
            unsafe { drop_slow(self.0) }
        }
    }
}

#[inline(never)]
unsafe fn drop_slow(p: NonNull<Inner>) {
    let p = p.as_ptr();
    // SAFETY (caller): the last count; the first `len` values are initialised.
    unsafe {
        let len = (*p).len as usize;
        let data = std::ptr::addr_of_mut!((*p).data) as *mut Value;
        std::ptr::drop_in_place(std::ptr::slice_from_raw_parts_mut(data, len));
        std::ptr::drop_in_place(std::ptr::addr_of_mut!((*p).ext));
        dealloc(p as *mut u8, layout(len));
    }
}

/// One count more of `c` (see `single_thread`).
#[inline]
fn count_up(c: &AtomicUsize) {
    if SHARED.load(Ordering::Relaxed) {
        // As `Arc`: a count past isize::MAX (leaked clones) aborts rather than wraps.
        if c.fetch_add(1, Ordering::Relaxed) > isize::MAX as usize {
            std::process::abort();
        }
    } else {
        c.store(c.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
    }
}

/// One count less of `c`: whether it was the last.
#[inline]
fn count_down(c: &AtomicUsize) -> bool {
    if SHARED.load(Ordering::Relaxed) {
        if c.fetch_sub(1, Ordering::Release) != 1 {
            return false;
        }
        // As `Arc`: every use by other threads happens before what the caller drops.
        fence(Ordering::Acquire);
        true
    } else {
        let n = c.load(Ordering::Relaxed) - 1;
        c.store(n, Ordering::Relaxed);
        n == 0
    }
}

/// A value of type `T` shared by reference count, counted as [`Shared`] is: functions and
/// records, strings, model values.
pub struct Counted<T>(NonNull<CountedInner<T>>);

struct CountedInner<T> {
    count: AtomicUsize,
    value: T,
}

// As for `Shared`: the count is atomic whenever values may cross threads.
unsafe impl<T: Send + Sync> Send for Counted<T> {}
unsafe impl<T: Send + Sync> Sync for Counted<T> {}

impl<T> Counted<T> {
    pub(crate) fn new(value: T) -> Counted<T> {
        let b = Box::new(CountedInner { count: AtomicUsize::new(1), value });
        // SAFETY: a box is never null.
        Counted(unsafe { NonNull::new_unchecked(Box::into_raw(b)) })
    }

    #[inline]
    fn inner(&self) -> &CountedInner<T> {
        // SAFETY: the allocation lives as long as a count is held, and `self` holds one.
        unsafe { self.0.as_ref() }
    }

    /// The same allocation.
    #[inline]
    pub(crate) fn ptr_eq(a: &Counted<T>, b: &Counted<T>) -> bool {
        a.0 == b.0
    }

    /// The value's address: an identity while it is held.
    #[inline]
    pub(crate) fn as_ptr(a: &Counted<T>) -> *const T {
        &a.inner().value
    }
}

impl<T> std::ops::Deref for Counted<T> {
    type Target = T;
    #[inline]
    fn deref(&self) -> &T {
        &self.inner().value
    }
}

impl<T> Clone for Counted<T> {
    #[inline]
    fn clone(&self) -> Counted<T> {
        count_up(&self.inner().count);
        Counted(self.0)
    }
}

impl<T> Drop for Counted<T> {
    #[inline]
    fn drop(&mut self) {
        if count_down(&self.inner().count) {
            // SAFETY: this was the last count; the allocation came from `Box::into_raw`.
            drop(unsafe { Box::from_raw(self.0.as_ptr()) });
        }
    }
}

impl<T: std::fmt::Display> std::fmt::Display for Counted<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for Counted<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}

/// Ask the processor to bring the line at `p` into the cache (a hint: it reads nothing and
/// cannot fault, whatever the address).
#[inline(always)]
pub fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch of any address is a hint that neither reads nor faults.
    unsafe {
        std::arch::x86_64::_mm_prefetch(p as *const i8, std::arch::x86_64::_MM_HINT_T0)
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_and_the_last_drop_frees_the_values() {
        let inner = Shared::from_iter_exact([Value::Int(1), Value::Int(2)].into_iter());
        let outer = Shared::from_iter_exact([Value::Seq(crate::value::Elems::from(vec![Value::Int(3)])), Value::Int(4)].into_iter());
        let a = inner.clone();
        assert!(Shared::ptr_eq(&a, &inner));
        assert!(matches!(a[1], Value::Int(2)));
        assert_eq!(a.inner().count.load(Ordering::Relaxed), 2);
        drop(inner);
        assert_eq!(a.inner().count.load(Ordering::Relaxed), 1);
        let b = outer.clone();
        drop(outer);
        assert_eq!(b.len(), 2);
        let empty = Shared::from_iter_exact(std::iter::empty());
        assert!(empty.is_empty());
        let c = Counted::new(vec![Value::Int(5)]);
        let d = c.clone();
        assert!(Counted::ptr_eq(&c, &d) && d.len() == 1);
        assert_eq!(c.inner().count.load(Ordering::Relaxed), 2);
        drop(c);
        assert_eq!(d.inner().count.load(Ordering::Relaxed), 1);
    }

    #[test]
    fn values_cloned_and_dropped_on_several_threads_are_freed_once() {
        // Counts are atomic unless `single_thread(true)` was called, which no test does (tests
        // of one binary share the process). Under Miri this checks the orderings of the count.
        let v = Shared::from_iter_exact([Value::Int(1), Value::Seq(crate::value::Elems::from(vec![Value::Int(2)]))].into_iter());
        let c = Counted::new(vec![Value::Int(3)]);
        std::thread::scope(|s| {
            for _ in 0..3 {
                let (v, c) = (v.clone(), c.clone());
                s.spawn(move || {
                    let more: Vec<(Shared, Counted<Vec<Value>>)> = (0..4).map(|_| (v.clone(), c.clone())).collect();
                    assert!(matches!(more[3].0[0], Value::Int(1)) && more[3].1.len() == 1);
                });
            }
        });
        assert_eq!(v.inner().count.load(Ordering::Relaxed), 1);
        assert_eq!(c.inner().count.load(Ordering::Relaxed), 1);
    }

    #[test]
    fn a_function_holds_its_domain_until_its_last_drop() {
        use crate::intern::Str;
        let rec = |v: i32| Value::record(vec![(Str::unranked("a"), Value::Int(v)), (Str::unranked("b"), Value::Int(v + 1))]).expect("a record");
        let (Value::Fcn(f), Value::Fcn(g)) = (rec(1), rec(2)) else { panic!("records are functions") };
        // One function built from another by replacing a value shares its domain.
        let Value::Fcn(h) = f.with_value_at(1, Value::Int(7)) else { panic!("a function") };
        let dom = h.domain_elems().clone();
        assert!(crate::value::Elems::ptr_eq(&dom, f.domain_elems()));
        assert_eq!(dom.0.inner().count.load(Ordering::Relaxed), 3);
        assert!(matches!(h.values(), [Value::Int(1), Value::Int(7)]) && matches!(f.values(), [Value::Int(1), Value::Int(2)]));
        assert_eq!(h.domain().len(), 2);
        drop(f);
        drop(h);
        assert_eq!(dom.0.inner().count.load(Ordering::Relaxed), 1);
        assert!(matches!(g.values(), [Value::Int(2), Value::Int(3)]) && g.is_record());
    }

    #[test]
    fn warming_reads_wide_and_deep_values_without_changing_them() {
        use crate::value::{Elems, warm};
        // More slices per level than `warm` follows (48), records, sets and nesting past three
        // levels.
        let rec = Value::record(vec![(crate::intern::Str::unranked("a"), Value::Int(1))]).expect("a record");
        let deep = (0..6).fold(Value::Int(0), |v, _| Value::Seq(Elems::from(vec![v, rec.clone()])));
        let row = Value::Seq(Elems::from((0..100).map(|i| Value::Seq(Elems::from(vec![Value::Int(i), deep.clone()]))).collect::<Vec<_>>()));
        let set = Value::Set(crate::value::SetVal::from_vec((0..60).map(Value::Int).collect()).expect("a set"));
        let state = vec![row, set, rec, Value::Bool(true)];
        let fps = |s: &[Value]| s.iter().map(|v| v.fingerprint().expect("a finite value")).collect::<Vec<_>>();
        let before = fps(&state);
        for depth in 0..5 {
            warm(&state, depth);
            warm(&[], depth);
        }
        assert_eq!(fps(&state), before);
    }
}
