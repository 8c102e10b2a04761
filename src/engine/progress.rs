//! [`Progress`]: an optional report after each completed iteration of iterative deepening, for a
//! caller that shows a search as it deepens.

use std::fmt;
use std::sync::Arc;

use crate::engine::analysis::Evaluation;

/// What one completed iteration of iterative deepening found.
#[derive(Clone, Debug, PartialEq)]
pub struct Iteration {
    /// The iteration's depth in plies.
    pub depth: u32,
    /// Nodes searched so far, this iteration included.
    pub nodes: u64,
    /// The best move after this iteration.
    pub best: usize,
    /// Its value after this iteration, as a depth score or an estimate.
    pub evaluation: Evaluation,
    /// The expected line of play starting with `best`, as far as the search recorded it.
    pub pv: Vec<usize>,
}

/// A callback the search calls after each completed iteration, from the searching thread. The
/// default handle has no callback and costs one branch an iteration; the search's answer is the
/// same with or without one.
///
/// ```
/// use std::sync::{Arc, Mutex};
/// use minimax_move::engine::{Engine, Geometry, Position, Progress, Scoring, SearchLimits};
/// let depths = Arc::new(Mutex::new(Vec::new()));
/// let seen = Arc::clone(&depths);
/// let limits = SearchLimits {
///     max_depth: Some(3),
///     progress: Progress::new(move |iteration| seen.lock().unwrap().push(iteration.depth)),
///     ..SearchLimits::default()
/// };
/// let geometry = Geometry::new(4, 4, 4).unwrap();
/// let position = Position::new(geometry, vec![None; 16], None).unwrap();
/// let _ = Engine::default().analyze(&position, Scoring::Depth, &limits);
/// assert_eq!(*depths.lock().unwrap(), vec![1, 2, 3]);
/// ```
#[derive(Clone, Default)]
pub struct Progress(Option<Arc<Callback>>);

/// The callback a [`Progress`] holds.
type Callback = dyn Fn(&Iteration) + Send + Sync;

impl Progress {
    /// A handle that calls `report` after each completed iteration.
    pub fn new(report: impl Fn(&Iteration) + Send + Sync + 'static) -> Self {
        Self(Some(Arc::new(report)))
    }

    /// Whether a callback is set.
    #[must_use]
    pub fn is_set(&self) -> bool {
        self.0.is_some()
    }

    /// Calls the callback, if any, with the iteration `make` builds (only built when needed).
    pub fn report(&self, make: impl FnOnce() -> Iteration) {
        if let Some(report) = &self.0 {
            report(&make());
        }
    }
}

impl fmt::Debug for Progress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.is_set() {
            "Progress(set)"
        } else {
            "Progress(none)"
        })
    }
}

/// Two handles are equal when they are clones of one another (or both empty).
impl PartialEq for Progress {
    fn eq(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        }
    }
}

impl Eq for Progress {}
