//! How many helper threads a big-board search may start: never more than the machine has idle
//! cores, counting every search (on any board) and helper already running in the process, so a
//! busy service runs one thread a search and an idle one lends its spare cores to the one search.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Searches (on any board) and their helpers running now.
static BUSY: AtomicUsize = AtomicUsize::new(0);

/// The machine's cores, as the standard library sees them (1 when it cannot tell).
fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, usize::from))
}

/// The threads one search holds: itself and its helpers; given back when dropped.
#[derive(Debug)]
pub struct Helpers {
    count: usize,
}

impl Helpers {
    /// Counts a search as running and grants it up to `wanted` helpers, as many as cores are
    /// idle.
    pub fn claim(wanted: usize) -> Self {
        Self::claim_on(wanted, cores())
    }

    fn claim_on(wanted: usize, cores: usize) -> Self {
        let mut count = 0;
        // The closure always returns Some, so the update cannot fail.
        let _ = BUSY.fetch_update(Ordering::AcqRel, Ordering::Acquire, |busy| {
            count = wanted.min(cores.saturating_sub(busy + 1));
            Some(busy + 1 + count)
        });
        Self { count }
    }

    /// Helpers granted.
    pub fn count(&self) -> usize {
        self.count
    }
}

impl Drop for Helpers {
    fn drop(&mut self) {
        BUSY.fetch_sub(1 + self.count, Ordering::AcqRel);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers_take_only_idle_cores_and_give_them_back() {
        // Other tests run searches meanwhile, so only what these claims add up to is checked.
        let first = Helpers::claim_on(3, usize::MAX);
        assert_eq!(first.count(), 3);
        let none = Helpers::claim_on(3, 0);
        assert_eq!(none.count(), 0, "no idle core: the search runs alone");
        let wanted_none = Helpers::claim_on(0, usize::MAX);
        assert_eq!(wanted_none.count(), 0);
        let busy = BUSY.load(Ordering::Acquire);
        assert!(busy >= 6);
        let last = Helpers::claim_on(5, busy + 3);
        assert!(last.count() <= 2);
    }
}
