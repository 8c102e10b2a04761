//! The answer to a valid move request, computed once for every front door (`POST` and `GET
//! /v1/move`, its event stream, the MCP tool): a 3 × 3 lookup inline, a search on the bounded
//! blocking pool ([`run_bounded`], which the review and Connect Four routes use too) under a
//! search slot, a deadline and a cancel handle raised when the caller goes away.

use std::time::{Duration, Instant};

use tokio::sync::OwnedSemaphorePermit;

use super::wire::{MoveResponse, ValidRequest};
use super::{ApiError, AppState, Settings};
use crate::engine::{Cancel, Geometry, Progress, Scoring, SearchLimits, SuggestOptions, suggest};

/// The answer: inline for a table lookup, on the bounded blocking pool (a search slot, 503 when none frees up in time) for a search.
///
/// A search stops when this future is dropped (its client went away, or the request timed out):
/// it notices within about a thousand nodes and gives its slot back.
pub(crate) async fn answer_bounded(
    state: &AppState,
    request: ValidRequest,
) -> Result<MoveResponse, ApiError> {
    answer_watched(state, request, Progress::default()).await
}

/// As [`answer_bounded`], with `progress` called after each completed iteration of the search.
pub(crate) async fn answer_watched(
    state: &AppState,
    request: ValidRequest,
    progress: Progress,
) -> Result<MoveResponse, ApiError> {
    let slot = if request.position.geometry().is_tic_tac_toe() {
        None
    } else {
        Some(reserve_slot(state).await?)
    };
    answer_in_slot(state, request, progress, slot).await
}

/// As [`answer_watched`], with the search slot already reserved (`None` for a 3 × 3 lookup,
/// which needs none).
pub(crate) async fn answer_in_slot(
    state: &AppState,
    request: ValidRequest,
    progress: Progress,
    slot: Option<Reserved>,
) -> Result<MoveResponse, ApiError> {
    let settings = state.settings();
    let time_limit = Duration::from_millis(time_limit_ms(&request, settings));
    let Some(slot) = slot else {
        // A lookup takes well under a microsecond: the hop to the blocking pool would cost more
        // than the work (see the README's measurements).
        super::metrics::table_answers().increment(1);
        let options = options(
            &request,
            settings,
            Instant::now() + time_limit,
            Cancel::default(),
        );
        return Ok(answer(&request, &options));
    };
    let settings = settings.clone();
    run_reserved(state, slot, time_limit, move |deadline, cancel| {
        let mut options = options(&request, &settings, deadline, cancel);
        options.limits.progress = progress;
        answer(&request, &options)
    })
    .await
}

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
async fn run_reserved<T: Send + 'static>(
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

/// A request's search time limit in milliseconds, capped by the server's settings.
fn time_limit_ms(request: &ValidRequest, settings: &Settings) -> u64 {
    request
        .time_limit_ms
        .unwrap_or(settings.default_time_limit_ms)
        .clamp(1, settings.max_time_limit_ms)
}

/// The search limits for a request, capped by the server's settings, with its deadline and the
/// handle that cancels it.
fn limits(
    request: &ValidRequest,
    settings: &Settings,
    deadline: Instant,
    cancel: Cancel,
) -> SearchLimits {
    SearchLimits {
        all_moves: request.moves || request.scoring == Scoring::Classic,
        multi_pv: request.top,
        ..search_limits(
            settings,
            request.position.geometry(),
            request.max_depth,
            time_limit_ms(request, settings),
            deadline,
            cancel,
        )
    }
}

/// The one rule for a search's limits, on every route: the depth the request asks for capped by
/// the server's, the deadline, the cancel handle, and the work budget of `millis` at the
/// server's rate. The work budget usually stops the search before the clock on an unloaded
/// machine, so the same request gets the same answer; the deadline is the hard stop under load.
/// The gravity solver gets no work budget: it proves values, whatever the order it searches
/// in, so a budget could only cut proofs short, and it runs to the deadline.
pub fn search_limits(
    settings: &Settings,
    geometry: Geometry,
    max_depth: Option<u32>,
    millis: u64,
    deadline: Instant,
    cancel: Cancel,
) -> SearchLimits {
    SearchLimits {
        max_depth: Some(
            max_depth
                .unwrap_or(settings.max_depth)
                .min(settings.max_depth),
        ),
        deadline: Some(deadline),
        max_work: (!geometry.is_gravity())
            .then(|| SearchLimits::work_at_rate(geometry, millis, settings.search_work_rate)),
        all_moves: false,
        multi_pv: 0,
        cancel,
        progress: Progress::default(),
    }
}

/// The engine's options for a request: its scoring, limits, difficulty and tie-break, and a
/// seed (the request's, or a fresh random one when the answer involves chance).
fn options(
    request: &ValidRequest,
    settings: &Settings,
    deadline: Instant,
    cancel: Cancel,
) -> SuggestOptions {
    let mut options = SuggestOptions {
        scoring: request.scoring,
        limits: limits(request, settings, deadline, cancel),
        difficulty: request.difficulty,
        tie_break: request.tie_break,
        seed: 0,
    };
    if options.uses_chance() {
        // A generated seed stays below 2^53 so JavaScript clients can send it back unchanged.
        options.seed = request.seed.unwrap_or_else(|| rand::random::<u64>() >> 11);
    }
    options
}

/// Computes the answer.
fn answer(request: &ValidRequest, options: &SuggestOptions) -> MoveResponse {
    let suggestion = suggest(&request.position, options);
    if suggestion.analysis.nodes > 0 {
        metrics::counter!("minimax_search_nodes_total").increment(suggestion.analysis.nodes);
    }
    MoveResponse::new(
        suggestion,
        request.moves,
        request.top,
        &request.style,
        request.position.geometry(),
    )
}

/// An answer's JSON, written in one piece.
pub(crate) fn json_bytes(answer: &impl serde::Serialize, capacity: usize) -> Vec<u8> {
    let mut body = Vec::with_capacity(capacity);
    serde_json::to_writer(&mut body, answer).expect("an answer serializes");
    body
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
            "api::answer::tests::a_search_that_panics_answers_500_and_releases_its_slot_and_gauge",
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
                let outcome = super::answer_watched(&state, request(), panics).await;
                assert!(
                    matches!(outcome, Err(crate::api::ApiError::Internal)),
                    "round {round}: a 500, got {outcome:?}"
                );
                assert_eq!(state.searches_running(), 0, "round {round}: the slot is free");
                assert_eq!(searches_in_flight(), 0.0, "round {round}: the gauge is back to 0");
            }
            let answer = super::answer_bounded(&state, request()).await;
            assert!(answer.is_ok(), "the only slot serves the next search: {answer:?}");
            assert_eq!(searches_in_flight(), 0.0);
        });
    }
}
