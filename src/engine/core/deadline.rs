//! [`Deadline`]: when a search must stop whatever its work budget says: the request's deadline,
//! or its caller's [`Cancel`].

use std::time::Instant;

use crate::engine::cancel::Cancel;
use crate::engine::limits::SearchLimits;

/// The hard stop of a search: a point in time, a cancel handle, both or neither.
#[derive(Clone, Debug, Default)]
pub struct Deadline {
    at: Option<Instant>,
    cancel: Cancel,
}

impl Deadline {
    /// The deadline and cancel handle of `limits`.
    pub fn of(limits: &SearchLimits) -> Self {
        Self {
            at: limits.deadline,
            cancel: limits.cancel.clone(),
        }
    }

    /// A deadline at `at` (none when `None`) that nobody can cancel.
    #[cfg(test)]
    pub fn at(at: Option<Instant>) -> Self {
        Self {
            at,
            cancel: Cancel::default(),
        }
    }

    /// Whether the search must stop: the time has come or the caller cancelled.
    pub fn passed(&self) -> bool {
        self.at.is_some_and(|d| Instant::now() >= d) || self.cancel.is_cancelled()
    }
}
