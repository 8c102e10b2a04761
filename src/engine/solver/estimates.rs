//! [`Estimates`]: the count of static evaluations behind a result, which tells proven results
//! from estimated ones.

/// Static evaluations (and unproven table entries) used so far: a result whose search did not
/// move this counter is proven.
#[derive(Default)]
pub struct Estimates(u64);

impl Estimates {
    /// Counts one estimate.
    pub fn count(&mut self) {
        self.0 += 1;
    }

    /// The count now, to compare with later.
    pub fn mark(&self) -> u64 {
        self.0
    }

    /// Whether no estimate was counted since `mark`.
    pub fn none_since(&self, mark: u64) -> bool {
        self.0 == mark
    }
}
