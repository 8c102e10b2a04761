//! The pool every search borrows its transposition table from: a few idle tables kept for the
//! next searches, more made when more searches run at once, and the extra ones freed when they
//! end, so memory grows with the searches running at once and never with their number over
//! time.
//!
//! A table is emptied in O(1) when it is borrowed, by moving to a new generation; the
//! generation lives inside the table's storage ([`Renew`]), so a table always comes back with
//! its own generation, never another's (under which entries of an earlier search would read as
//! current). The solver's and the big-board engine's table ([`super::table`]) and the gravity
//! solver's (`engine::gravity::table`) and the proof-number search's each have a pool of their
//! own storage type.
//!
//! A server that runs at most `n` searches at once says so with [`keep_tables_for`]: every pool
//! then keeps up to `n` idle storages (or its own number, if larger). A search holds at most one
//! storage of each pool, so no pool ever holds more than `n` storages, and none is freed and made
//! again: the tables are made once, as searches first need them, and the memory they take is
//! bounded by `n` times the sizes of one of each (what docs/operations.md adds up), with nothing
//! left behind by the allocator from freeing and reallocating large tables.

use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

/// The searches a server runs at once (0 until one says, see [`keep_tables_for`]).
static SEARCHES_AT_ONCE: AtomicUsize = AtomicUsize::new(0);

/// Makes every pool keep up to `searches` idle storages, so that a server running at most
/// `searches` searches at once never frees a table it would have to make again.
///
/// ```
/// // A server with two search slots: at most two tables of each kind, made once.
/// minimax_move::engine::keep_tables_for(2);
/// ```
pub fn keep_tables_for(searches: usize) {
    SEARCHES_AT_ONCE.store(searches, Ordering::Relaxed);
}

/// Storage a [`Pool`] lends: made when no idle one is left, emptied for each search.
///
/// `Default` is a placeholder without room (no allocation): what a [`Pooled`] guard holds
/// after giving its storage back.
pub trait Renew: Default {
    /// A new storage, ready for [`Renew::renew`].
    fn fresh() -> Self;

    /// Empties the storage for the next search, in O(1) by moving to the next of the
    /// generations it keeps with itself (clearing itself when they wrap).
    fn renew(&mut self);
}

/// Idle storages, each with its own generation, under one lock.
pub struct Pool<T> {
    idle: Mutex<Vec<T>>,
    max_idle: usize,
}

impl<T: Renew> Pool<T> {
    /// An empty pool that keeps at most `max_idle` storages for reuse.
    pub const fn new(max_idle: usize) -> Self {
        Self {
            idle: Mutex::new(Vec::new()),
            max_idle,
        }
    }

    /// An empty storage for one search: an idle one when there is one, a fresh one otherwise.
    /// It goes back to the pool when the guard is dropped.
    pub fn borrow(&self) -> Pooled<'_, T> {
        let idle = self.lock().pop();
        #[cfg(test)]
        between_taking_and_renewing();
        let mut storage = idle.unwrap_or_else(T::fresh);
        storage.renew();
        Pooled {
            storage,
            pool: self,
        }
    }

    /// How many idle storages are kept: the pool's own number, or the searches run at once
    /// when larger.
    fn keep(&self) -> usize {
        self.max_idle.max(SEARCHES_AT_ONCE.load(Ordering::Relaxed))
    }

    /// Keeps `storage` for the next search, or frees it (outside the lock) when enough are idle.
    fn give_back(&self, storage: T) {
        let mut idle = self.lock();
        if idle.len() < self.keep() {
            idle.push(storage);
        } else {
            drop(idle);
            drop(storage);
        }
    }

    /// The idle storages. A thread that panicked while holding the lock left the vector whole
    /// (a push or a pop), so a poisoned lock is used as it is.
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<T>> {
        self.idle.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// How many storages are idle.
    #[cfg(test)]
    pub fn idle(&self) -> usize {
        self.lock().len()
    }
}

/// A storage borrowed from a [`Pool`] for one search; it goes back when dropped.
pub struct Pooled<'a, T: Renew> {
    storage: T,
    pool: &'a Pool<T>,
}

impl<T: Renew> Deref for Pooled<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.storage
    }
}

impl<T: Renew> DerefMut for Pooled<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.storage
    }
}

impl<T: Renew> Drop for Pooled<'_, T> {
    fn drop(&mut self) {
        self.pool.give_back(std::mem::take(&mut self.storage));
    }
}

impl<T: Renew + std::fmt::Debug> std::fmt::Debug for Pooled<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.storage.fmt(f)
    }
}

#[cfg(test)]
thread_local! {
    /// What this thread's next borrow runs between taking a storage and renewing it.
    static IN_THE_MIDDLE: std::cell::Cell<Option<Box<dyn FnOnce()>>> =
        const { std::cell::Cell::new(None) };
}

/// Makes this thread's next borrow run `f` between taking a storage from the pool (the lock
/// released) and renewing it: how tests put a give-back in the middle of a borrow, where
/// another thread's could fall.
#[cfg(test)]
pub fn during_the_next_borrow(f: impl FnOnce() + 'static) {
    IN_THE_MIDDLE.set(Some(Box::new(f)));
}

/// Runs what [`during_the_next_borrow`] asked for, if anything.
#[cfg(test)]
pub(crate) fn between_taking_and_renewing() {
    if let Some(f) = IN_THE_MIDDLE.take() {
        f();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A storage that is its own name and its generation.
    #[derive(Debug, Default, PartialEq, Eq)]
    struct Numbered {
        name: u32,
        generation: u32,
    }

    static MADE: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

    impl Renew for Numbered {
        fn fresh() -> Self {
            Self {
                name: 1 + MADE.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
                generation: 0,
            }
        }

        fn renew(&mut self) {
            self.generation += 1;
        }
    }

    #[test]
    fn a_storage_given_back_in_the_middle_of_a_borrow_changes_nothing_of_the_borrowed_one() {
        static POOL: Pool<Numbered> = Pool::new(4);
        let other = POOL.borrow();
        let mut used = POOL.borrow();
        for _ in 0..3 {
            let name = used.name;
            drop(used);
            used = POOL.borrow();
            assert_eq!(used.name, name);
        }
        assert_eq!((other.generation, used.generation), (1, 4));
        let (name, generation) = (used.name, used.generation);
        drop(used);
        during_the_next_borrow(move || drop(other));
        let again = POOL.borrow();
        assert_eq!((again.name, again.generation), (name, generation + 1));
    }

    #[test]
    fn a_storage_comes_back_with_its_own_generation_and_the_extra_ones_are_freed() {
        let pool = Pool::<Numbered>::new(2);
        let (a, b, c) = (pool.borrow(), pool.borrow(), pool.borrow());
        let names = [a.name, b.name, c.name];
        assert!(
            [a.generation, b.generation, c.generation] == [1, 1, 1],
            "fresh storages start at the first generation"
        );
        // Given back in another order than borrowed; the third is one too many and is freed.
        drop(b);
        drop(a);
        drop(c);
        assert_eq!(pool.idle(), 2);
        let again = [pool.borrow(), pool.borrow()];
        let mut seen: Vec<(u32, u32)> = again.iter().map(|s| (s.name, s.generation)).collect();
        seen.sort_unstable();
        assert_eq!(seen, vec![(names[0], 2), (names[1], 2)]);
        drop(again);
        let (first, second, extra) = (pool.borrow(), pool.borrow(), pool.borrow());
        assert_eq!((first.generation, second.generation), (3, 3));
        assert_eq!(extra.generation, 1, "made anew: nothing else is idle");
        assert!(!names.contains(&extra.name));
    }
}
