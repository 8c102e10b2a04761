//! The search slots: a search waits for one on the bounded blocking pool ([`run_bounded`]), or
//! 503 when none frees up in time, holds it until it ends, and gets a deadline and a cancel
//! handle raised when its caller goes away. Every use case that searches runs through here.

use std::time::{Duration, Instant};

use tokio::sync::OwnedSemaphorePermit;

use crate::api::problem::ApiError;
use crate::api::state::AppState;
use crate::engine::Cancel;

/// A search slot reserved for a search that has not started yet.
#[derive(Debug)]
pub(crate) struct Reserved(OwnedSemaphorePermit);

/// Waits for a search slot: 503 `overloaded`, with the `Retry-After` of the first running search
/// to end, when none frees up within the queue wait.
pub(crate) async fn reserve_slot(state: &AppState) -> Result<Reserved, ApiError> {
    let queue_wait = state.settings().queue_wait;
    match tokio::time::timeout(queue_wait, state.searches().acquire_owned()).await {
        Ok(Ok(permit)) => Ok(Reserved(permit)),
        _ => {
            metrics::counter!("minimax_shed_total").increment(1);
            Err(ApiError::Overloaded {
                retry_after: state.seconds_until_a_search_ends(),
            })
        }
    }
}

/// Runs `work` on the bounded blocking pool: it waits for a search slot (503 when none frees up
/// within the queue wait), holds it until `work` returns, and gets the deadline `time_limit`
/// from now and a [`Cancel`] raised when this future is dropped (its client went away, or the
/// request timed out), which its searches must watch.
pub(crate) async fn run_bounded<T: Send + 'static>(
    state: &AppState,
    time_limit: Duration,
    work: impl FnOnce(Instant, Cancel) -> T + Send + 'static,
) -> Result<T, ApiError> {
    let slot = reserve_slot(state).await?;
    run_reserved(state, slot, time_limit, work).await
}

/// As [`run_bounded`], in a slot already reserved.
pub(crate) async fn run_reserved<T: Send + 'static>(
    state: &AppState,
    Reserved(permit): Reserved,
    time_limit: Duration,
    work: impl FnOnce(Instant, Cancel) -> T + Send + 'static,
) -> Result<T, ApiError> {
    let deadline = Instant::now() + time_limit;
    let slot = state.occupy_search_slot(permit, deadline);
    let cancel = Cancel::new();
    let _stop_when_dropped = StopWhenDropped(cancel.clone());
    let span = tracing::Span::current();
    let task = tokio::task::spawn_blocking(move || {
        let _entered = span.enter();
        // Counted inside the task: it runs until the search notices a cancellation.
        let _in_flight = InFlight::start(metrics::gauge!("minimax_searches_in_flight"));
        lower_search_priority();
        let started = Instant::now();
        let output = work(deadline, cancel);
        drop(slot);
        metrics::histogram!("minimax_search_seconds").record(started.elapsed().as_secs_f64());
        output
    });
    task.await.map_err(|e| {
        tracing::error!(error = %e, "search task failed");
        ApiError::Internal
    })
}

/// One search counted in a gauge (`minimax_searches_in_flight`) from [`InFlight::start`] until
/// it is dropped: a search that panics is uncounted as surely as one that answers.
struct InFlight(metrics::Gauge);

impl InFlight {
    fn start(gauge: metrics::Gauge) -> Self {
        gauge.increment(1.0);
        Self(gauge)
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.decrement(1.0);
    }
}

/// Cancels a search when the future waiting for it is dropped; after the search has answered,
/// cancelling does nothing.
struct StopWhenDropped(Cancel);

impl Drop for StopWhenDropped {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// Runs searches at a lower CPU priority (about nice 10) than the async workers, so that a flood of
/// large-board searches cannot delay the sub-microsecond 3 × 3 answers by more than a scheduling
/// slice. Set once per blocking-pool thread; only searches run on that pool.
fn lower_search_priority() {
    use std::cell::Cell;
    use thread_priority::{ThreadPriority, set_current_thread_priority};
    thread_local!(static LOWERED: Cell<bool> = const { Cell::new(false) });
    if !LOWERED.get() {
        LOWERED.set(true);
        // On Linux the cross-platform value 25 (of 0..=99) maps to nice 9 or 10.
        let low = ThreadPriority::Crossplatform(25_u8.try_into().expect("25 is in 0..=99"));
        if let Err(error) = set_current_thread_priority(low) {
            tracing::debug!(?error, "could not lower the search thread's priority");
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU64, Ordering};

    use super::InFlight;

    fn read(gauge: &AtomicU64) -> f64 {
        f64::from_bits(gauge.load(Ordering::SeqCst))
    }

    #[test]
    fn a_search_that_panics_is_no_longer_counted_in_flight() {
        let value = Arc::new(AtomicU64::new(0.0_f64.to_bits()));
        let gauge = metrics::Gauge::from_arc(Arc::clone(&value));
        let search = {
            let gauge = gauge.clone();
            let value = Arc::clone(&value);
            std::thread::spawn(move || {
                let _in_flight = InFlight::start(gauge);
                assert_eq!(read(&value), 1.0, "counted while it runs");
                panic!("a search that panics");
            })
        };
        assert!(search.join().is_err(), "the search panicked");
        assert_eq!(read(&value), 0.0, "uncounted after the panic");

        let answered = InFlight::start(gauge);
        assert_eq!(read(&value), 1.0);
        drop(answered);
        assert_eq!(read(&value), 0.0, "uncounted after an answer");
    }

    /// The gauge `minimax_searches_in_flight` as `/metrics` shows it.
    fn searches_in_flight() -> f64 {
        let text = crate::api::metrics::handle()
            .expect("this process's recorder")
            .render();
        text.lines()
            .find_map(|line| line.strip_prefix("minimax_searches_in_flight "))
            .map_or(0.0, |value| value.trim().parse().expect("a number"))
    }

    /// Runs this test again alone in a new process, where no other test's search moves the
    /// process-wide gauge; true in the parent, which has nothing more to do.
    fn rerun_alone(test: &str) -> bool {
        const ALONE: &str = "MINIMAX_MOVE_TEST_ALONE";
        if std::env::var_os(ALONE).is_some() {
            return false;
        }
        let output = std::process::Command::new(std::env::current_exe().expect("the test binary"))
            .args([test, "--exact", "--test-threads=1"])
            .env(ALONE, "1")
            .output()
            .expect("the test binary runs again");
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success() && stdout.contains("test result: ok. 1 passed"),
            "{test} alone: {}\n{stdout}\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
        true
    }

    /// A panic injected into a real search (its progress callback panics after the first
    /// iteration, on the blocking pool, holding the only search slot): the request gets a 500,
    /// and the slot and the gauge are released, so the next search answers.
    #[test]
    fn a_search_that_panics_answers_500_and_releases_its_slot_and_gauge() {
        if rerun_alone(
            "api::usecase::slots::tests::a_search_that_panics_answers_500_and_releases_its_slot_and_gauge",
        ) {
            return;
        }
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        runtime.block_on(async {
            let settings = crate::api::Settings {
                max_searches: 1,
                ..crate::api::Settings::default()
            };
            let state = crate::api::AppState::ready(settings);
            crate::api::metrics::handle();
            let request = || {
                crate::api::wire::parse_body(
                    br#"{"board": ".........................", "rows": 5, "cols": 5, "k": 4, "time_limit_ms": 300}"#,
                )
                .expect("a valid request")
            };
            for round in 0..3 {
                let panics = crate::engine::Progress::new(|_| panic!("a fault injected in the search"));
                let outcome = crate::api::usecase::moves::answer_watched(&state, request(), panics).await;
                assert!(
                    matches!(outcome, Err(crate::api::ApiError::Internal)),
                    "round {round}: a 500, got {outcome:?}"
                );
                assert_eq!(state.searches_running(), 0, "round {round}: the slot is free");
                assert_eq!(searches_in_flight(), 0.0, "round {round}: the gauge is back to 0");
            }
            let answer = crate::api::usecase::moves::answer_bounded(&state, request()).await;
            assert!(answer.is_ok(), "the only slot serves the next search: {answer:?}");
            assert_eq!(searches_in_flight(), 0.0);
        });
    }
}
