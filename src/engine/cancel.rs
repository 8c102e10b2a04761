//! [`Cancel`]: a flag a caller raises to stop a search that nobody waits for any more.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A handle that stops a search from another thread: the caller keeps a clone, puts one in
/// [`SearchLimits::cancel`](super::SearchLimits::cancel), and calls [`cancel`](Self::cancel)
/// when the answer is no longer wanted (the HTTP client went away). The search notices within a
/// few thousand nodes, as it notices its deadline, and returns what it has; that answer is
/// meant to be dropped.
///
/// The default handle can never be cancelled and costs nothing to check. Two handles are equal
/// when they are clones of one another.
///
/// ```
/// use minimax_move::engine::Cancel;
/// let cancel = Cancel::new();
/// let held_by_the_search = cancel.clone();
/// assert!(!held_by_the_search.is_cancelled());
/// cancel.cancel();
/// assert!(held_by_the_search.is_cancelled());
/// assert!(!Cancel::default().is_cancelled());
/// ```
#[derive(Clone, Debug, Default)]
pub struct Cancel(Option<Arc<AtomicBool>>);

impl Cancel {
    /// A handle that can be cancelled.
    #[must_use]
    pub fn new() -> Self {
        Self(Some(Arc::new(AtomicBool::new(false))))
    }

    /// Stops every search holding a clone of this handle.
    pub fn cancel(&self) {
        if let Some(flag) = &self.0 {
            flag.store(true, Ordering::Relaxed);
        }
    }

    /// Whether [`cancel`](Self::cancel) was called on this handle or a clone of it.
    #[must_use]
    pub fn is_cancelled(&self) -> bool {
        self.0
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    }
}

impl PartialEq for Cancel {
    fn eq(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        }
    }
}

impl Eq for Cancel {}
