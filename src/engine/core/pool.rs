//! The tables every search borrows from ([`Tables`]): one set per engine, under one memory
//! budget that the kinds of table share, so memory grows with the searches running at once and
//! never with their number over time, whatever mix of games they play.
//!
//! A table is emptied in O(1) when it is borrowed, by moving to a new generation; the
//! generation lives inside the table's storage ([`Renew`]), so a table always comes back with
//! its own generation, never another's (under which entries of an earlier search would read as
//! current). The solver's and the big-board engine's transposition table ([`super::table`]),
//! the gravity solver's (`engine::gravity::table`) and the proof-number search's are all kinds of
//! [`Renew`] storage, kept on the same shelf.
//!
//! The budget is what one search slot needs at most (the largest of the kinds a single search
//! holds at once: the gravity solver's table, or the solver's transposition and proof-number
//! tables together) times the searches an engine is built for. A table is kept idle for the next
//! search of its kind while everything made fits in the budget; a search that needs a kind no
//! idle table is of first frees idle tables of other kinds until the new one fits. So an engine
//! built for `n` searches never holds more than `n` slots' worth of tables (unless more than `n`
//! searches run at once, and then only until they end), and a server that plays one game keeps
//! its tables made once.

use std::any::Any;
use std::ops::{Deref, DerefMut};
use std::sync::{Arc, Mutex, PoisonError};

/// Storage a search borrows from [`Tables`]: made when no idle one of its kind is left, emptied
/// for each search.
///
/// `Default` is a placeholder without room (no allocation): what a [`Pooled`] guard holds
/// after giving its storage back.
pub trait Renew: Default + Send + 'static {
    /// The bytes a storage made by [`Renew::fresh`] takes.
    const BYTES: usize;

    /// A new storage, ready for [`Renew::renew`].
    fn fresh() -> Self;

    /// Empties the storage for the next search, in O(1) by moving to the next of the
    /// generations it keeps with itself (clearing itself when they wrap).
    fn renew(&mut self);
}

/// The tables of one engine: idle storages of every kind, under one memory budget. Cloning
/// shares them.
#[derive(Clone, Debug)]
pub struct Tables {
    shelf: Arc<Mutex<Shelf>>,
    budget: usize,
}

/// What the tables hold: the idle storages, each with its size, and the bytes of every storage
/// made and not freed yet (idle or lent).
#[derive(Debug, Default)]
struct Shelf {
    idle: Vec<Idle>,
    made: usize,
}

struct Idle {
    bytes: usize,
    storage: Box<dyn Any + Send>,
}

impl std::fmt::Debug for Idle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Idle").field("bytes", &self.bytes).finish()
    }
}

impl Tables {
    /// Tables that keep at most `budget` bytes made while no more is lent than that.
    #[must_use]
    pub fn with_budget(budget: usize) -> Self {
        Self {
            shelf: Arc::new(Mutex::new(Shelf::default())),
            budget,
        }
    }

    /// The memory budget, in bytes.
    #[must_use]
    pub const fn budget(&self) -> usize {
        self.budget
    }

    /// The bytes of every storage made and not freed, idle or lent.
    #[must_use]
    pub fn made(&self) -> usize {
        self.lock().made
    }

    /// An empty storage of kind `T` for one search: an idle one when there is one, a fresh one
    /// otherwise (after freeing idle storages of other kinds while the new one would not fit in
    /// the budget). It goes back when the guard is dropped.
    pub fn borrow<T: Renew>(&self) -> Pooled<T> {
        let mut shelf = self.lock();
        let position = shelf.idle.iter().position(|idle| idle.storage.is::<T>());
        let idle = position.map(|i| shelf.idle.swap_remove(i));
        let mut freed = Vec::new();
        if idle.is_none() {
            while shelf.made + T::BYTES > self.budget && !shelf.idle.is_empty() {
                let other = shelf.idle.swap_remove(0);
                shelf.made -= other.bytes;
                freed.push(other);
            }
            shelf.made += T::BYTES;
        }
        drop(shelf);
        drop(freed);
        #[cfg(test)]
        between_taking_and_renewing();
        let mut storage = idle.map_or_else(T::fresh, |idle| {
            *idle
                .storage
                .downcast::<T>()
                .expect("an idle storage is of the kind it was found for")
        });
        storage.renew();
        Pooled {
            storage,
            tables: self.clone(),
        }
    }

    /// Keeps `storage` for the next search of its kind while everything made fits in the
    /// budget, or frees it (outside the lock).
    fn give_back<T: Renew>(&self, storage: T) {
        let mut shelf = self.lock();
        if shelf.made <= self.budget {
            shelf.idle.push(Idle {
                bytes: T::BYTES,
                storage: Box::new(storage),
            });
        } else {
            shelf.made -= T::BYTES;
            drop(shelf);
            drop(storage);
        }
    }

    /// The shelf. A thread that panicked while holding the lock left it whole (a push, a pop
    /// and a count), so a poisoned lock is used as it is.
    fn lock(&self) -> std::sync::MutexGuard<'_, Shelf> {
        self.shelf.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// How many storages of kind `T` are idle.
    #[cfg(test)]
    pub fn idle<T: Renew>(&self) -> usize {
        self.lock()
            .idle
            .iter()
            .filter(|idle| idle.storage.is::<T>())
            .count()
    }
}

/// A storage borrowed from [`Tables`] for one search; it goes back when dropped.
pub struct Pooled<T: Renew> {
    storage: T,
    tables: Tables,
}

impl<T: Renew> Pooled<T> {
    /// The tables this storage was borrowed from: where a search borrows the other tables it
    /// needs.
    pub fn tables(&self) -> &Tables {
        &self.tables
    }
}

impl<T: Renew> Deref for Pooled<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.storage
    }
}

impl<T: Renew> DerefMut for Pooled<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.storage
    }
}

impl<T: Renew> Drop for Pooled<T> {
    fn drop(&mut self) {
        self.tables.give_back(std::mem::take(&mut self.storage));
    }
}

impl<T: Renew + std::fmt::Debug> std::fmt::Debug for Pooled<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.storage.fmt(f)
    }
}

#[cfg(test)]
thread_local! {
    /// What this thread's next borrow runs between taking a storage from the shelf and
    /// renewing it.
    static IN_THE_MIDDLE: std::cell::Cell<Option<Box<dyn FnOnce()>>> =
        const { std::cell::Cell::new(None) };
}

/// Makes this thread's next borrow run `f` between taking a storage from the shelf (the lock
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

    static MADE: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

    /// A storage that is its own name and its generation, of `BYTES` bytes.
    #[derive(Debug, Default, PartialEq, Eq)]
    struct Numbered<const BYTES: usize> {
        name: u32,
        generation: u32,
    }

    impl<const N: usize> Renew for Numbered<N> {
        const BYTES: usize = N;

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

    type Small = Numbered<16>;
    type Large = Numbered<64>;

    #[test]
    fn a_storage_given_back_in_the_middle_of_a_borrow_changes_nothing_of_the_borrowed_one() {
        let tables = Tables::with_budget(64);
        let other = tables.borrow::<Small>();
        let mut used = tables.borrow::<Small>();
        for _ in 0..3 {
            let name = used.name;
            drop(used);
            used = tables.borrow::<Small>();
            assert_eq!(used.name, name);
        }
        assert_eq!((other.generation, used.generation), (1, 4));
        let (name, generation) = (used.name, used.generation);
        drop(used);
        during_the_next_borrow(move || drop(other));
        let again = tables.borrow::<Small>();
        assert_eq!((again.name, again.generation), (name, generation + 1));
    }

    #[test]
    fn a_storage_comes_back_with_its_own_generation_and_the_extra_ones_are_freed() {
        let tables = Tables::with_budget(32);
        let (a, b, c) = (
            tables.borrow::<Small>(),
            tables.borrow::<Small>(),
            tables.borrow::<Small>(),
        );
        let names = [a.name, b.name, c.name];
        assert!(
            [a.generation, b.generation, c.generation] == [1, 1, 1],
            "fresh storages start at the first generation"
        );
        assert_eq!(
            tables.made(),
            48,
            "three lent, over the budget while they are"
        );
        // Given back in another order than borrowed; the first back is one too many and is freed.
        drop(b);
        drop(a);
        drop(c);
        assert_eq!((tables.idle::<Small>(), tables.made()), (2, 32));
        let again = [tables.borrow::<Small>(), tables.borrow::<Small>()];
        let mut seen: Vec<(u32, u32)> = again.iter().map(|s| (s.name, s.generation)).collect();
        seen.sort_unstable();
        let mut kept = vec![(names[0], 2), (names[2], 2)];
        kept.sort_unstable();
        assert_eq!(seen, kept);
        drop(again);
        let (first, second, extra) = (
            tables.borrow::<Small>(),
            tables.borrow::<Small>(),
            tables.borrow::<Small>(),
        );
        assert_eq!((first.generation, second.generation), (3, 3));
        assert_eq!(extra.generation, 1, "made anew: nothing else is idle");
        assert!(!names.contains(&extra.name));
    }

    #[test]
    fn a_kind_that_does_not_fit_frees_idle_storages_of_other_kinds_first() {
        let tables = Tables::with_budget(64);
        drop((tables.borrow::<Small>(), tables.borrow::<Small>()));
        assert_eq!((tables.idle::<Small>(), tables.made()), (2, 32));
        let large = tables.borrow::<Large>();
        assert_eq!(tables.idle::<Small>(), 0, "both freed to make room");
        assert_eq!(tables.made(), 64);
        let small = tables.borrow::<Small>();
        assert_eq!(
            tables.made(),
            80,
            "over the budget only while both are lent"
        );
        drop(large);
        assert_eq!(
            (tables.idle::<Large>(), tables.made()),
            (0, 16),
            "freed on its way back"
        );
        drop(small);
        assert_eq!((tables.idle::<Small>(), tables.made()), (1, 16));
        drop(tables.borrow::<Small>());
        assert_eq!(
            tables.made(),
            16,
            "an idle one of the kind is reused, nothing made"
        );
    }
}
