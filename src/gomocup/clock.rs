//! Time management: the manager's `INFO` clock turned into the engine's search limits.

use std::time::{Duration, Instant};

use super::BrainOptions;
use crate::engine::{Geometry, SearchLimits};

/// The longest a move ever thinks, whatever the manager allows: the protocol's default
/// `timeout_turn`. A manager may send any number (`INFO timeout_turn 999999999`, or a match
/// clock of days); the brain still answers within this, so a mistyped or "unlimited" setting
/// cannot make one search run for hours.
pub const MAX_THINK_TIME: Duration = Duration::from_secs(30);

/// The time settings the manager sends with `INFO`, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    /// Longest a move may take; 0 asks for moves as fast as possible.
    pub turn_ms: u64,
    /// The whole game's time for the brain; 0 means no limit.
    pub match_ms: u64,
    /// What is left of `match_ms`, if the manager said.
    pub left_ms: Option<u64>,
}

impl Default for Timing {
    /// The protocol's defaults: 30 s a move, no match limit.
    fn default() -> Self {
        Self {
            turn_ms: 30_000,
            match_ms: 0,
            left_ms: None,
        }
    }
}

impl Timing {
    /// How long to think about a move with `empty` cells left on the board: at most the turn
    /// time and at most an even share of the match time left over the moves still expected,
    /// minus a safety margin (a tenth, at least 20 ms) for reading, writing and the process
    /// being scheduled late; never more than [`MAX_THINK_TIME`], and never less than 1 ms (the
    /// search always completes depth 1). `time_left` counts only under a match limit.
    ///
    /// ```
    /// use std::time::Duration;
    /// use minimax_move::gomocup::{MAX_THINK_TIME, Timing};
    /// let per_move = Timing { turn_ms: 500, match_ms: 0, left_ms: None };
    /// assert_eq!(per_move.think_time(200), Duration::from_millis(450));
    /// let match_clock = Timing { turn_ms: 5_000, match_ms: 60_000, left_ms: Some(30_000) };
    /// assert_eq!(match_clock.think_time(200), Duration::from_millis(900));
    /// let unlimited = Timing { turn_ms: 999_999_999, match_ms: 0, left_ms: None };
    /// assert_eq!(unlimited.think_time(200), MAX_THINK_TIME);
    /// ```
    #[must_use]
    pub fn think_time(&self, empty: usize) -> Duration {
        let mut limit = self.turn_ms;
        if self.match_ms > 0 {
            let left = self.left_ms.unwrap_or(self.match_ms);
            let moves_expected = (empty as u64 / 2).clamp(5, 30);
            limit = limit.min(left / moves_expected);
        }
        let margin = (limit / 10).max(20);
        Duration::from_millis(limit.saturating_sub(margin).max(1)).min(MAX_THINK_TIME)
    }

    /// The engine's limits for a move on `geometry`'s board with `empty` cells left, started at
    /// `started`: the [`think_time`](Self::think_time) as the deadline, and a work budget at the
    /// brain's work rate as the HTTP API grants (see [`SearchLimits::work_at_rate`]).
    #[must_use]
    pub fn limits(
        &self,
        geometry: Geometry,
        empty: usize,
        started: Instant,
        options: BrainOptions,
    ) -> SearchLimits {
        let think_time = self.think_time(empty);
        let millis = u64::try_from(think_time.as_millis()).unwrap_or(u64::MAX);
        SearchLimits {
            max_depth: None,
            deadline: Some(started + think_time),
            max_work: Some(SearchLimits::work_at_rate(
                geometry,
                millis,
                options.work_rate,
            )),
            all_moves: false,
            ..SearchLimits::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn think_time_obeys_the_turn_and_the_match_clock() {
        for (timing, empty, expected_ms) in [
            // As fast as possible.
            ((0, 0, None), 225, 1),
            // No match limit: what is left does not count.
            ((2_000, 0, Some(10)), 225, 1_800),
            // Short of time: 1,000 ms over 30 moves, less the 20 ms margin.
            ((2_000, 100_000, Some(1_000)), 225, 13),
            // The endgame: at least 5 moves are expected.
            ((10_000, 100_000, Some(10_000)), 4, 1_800),
            // Nothing said of the time left: the whole match is.
            ((10_000, 60_000, None), 225, 1_800),
        ] {
            let (turn_ms, match_ms, left_ms) = timing;
            let timing = Timing {
                turn_ms,
                match_ms,
                left_ms,
            };
            assert_eq!(
                timing.think_time(empty),
                Duration::from_millis(expected_ms),
                "{timing:?} with {empty} empty cells"
            );
        }
    }

    #[test]
    fn a_huge_turn_or_match_time_is_capped_at_thirty_seconds() {
        for (turn_ms, match_ms, left_ms) in [
            (999_999_999, 0, None),
            (u64::MAX, 0, None),
            (u64::MAX, u64::MAX, None),
            (u64::MAX, u64::MAX, Some(u64::MAX)),
            (3_600_000, 0, Some(10)),
            (999_999_999, 86_400_000, Some(86_400_000)),
        ] {
            let timing = Timing {
                turn_ms,
                match_ms,
                left_ms,
            };
            assert_eq!(
                timing.think_time(225),
                Duration::from_secs(30),
                "{timing:?}"
            );
        }
        assert_eq!(MAX_THINK_TIME, Duration::from_secs(30));
    }

    #[test]
    fn limits_put_the_deadline_at_the_think_time_and_budget_the_work_at_the_rate() {
        let geometry = Geometry::new(15, 15, 5).expect("gomoku");
        let started = Instant::now();
        let options = BrainOptions { work_rate: 225_000 };
        let huge = Timing {
            turn_ms: u64::MAX,
            match_ms: 0,
            left_ms: None,
        };
        let limits = huge.limits(geometry, 225, started, options);
        assert_eq!(limits.deadline, Some(started + MAX_THINK_TIME));
        assert_eq!(limits.max_work, Some(30_000 * 1_000), "30 s at 1,000 a ms");
        assert!(!limits.all_moves && limits.max_depth.is_none());
    }
}
