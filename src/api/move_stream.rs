//! `POST /v1/move` with `Accept: text/event-stream`: the search as server-sent events, a
//! `progress` event after each completed iteration and a final `result` (the plain answer's JSON)
//! or `error` (a problem document).
//!
//! The search runs in a task that the response body owns: when the client goes away the body is
//! dropped, the task with it, and the search's [`Cancel`](crate::engine::Cancel) is raised, so it
//! stops and gives its slot back.

use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use tokio::sync::{mpsc, watch};
use tokio::task::AbortHandle;

use super::respond::json_bytes;
use super::usecase::moves::answer_in_slot;
use super::usecase::slots::reserve_slot;
use super::wire::ValidRequest;
use crate::api::problem::ApiError;
use crate::api::state::AppState;
use crate::engine::{Iteration, MoveScore, MoveValue, OutcomeOrUnknown, Progress};

/// The data of a `progress` event: what the search knows after one more completed iteration.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SearchProgress {
    /// The depth of the iteration just completed, in plies.
    pub depth: u32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// The best move so far.
    pub index: usize,
    /// The best move so far in board notation (`h8`), on gomoku boards (k = 5, or 100 cells or
    /// more).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub coordinate: Option<String>,
    /// Its score from the mover's view, under the request's scoring.
    pub score: MoveValue,
    /// What it leads to, `unknown` while not proven.
    pub outcome: OutcomeOrUnknown,
    /// Moves to the end with best play when proven, else null.
    pub plies: Option<u32>,
    /// Whether the score is proven.
    pub exact: bool,
    /// The expected line of play starting with `index`, as far as the search recorded it.
    pub pv: Vec<usize>,
    /// Milliseconds since the request's search began.
    pub elapsed_ms: u64,
}

/// Whether the request asks for server-sent events: `Accept` names `text/event-stream` (with a
/// quality above 0) and does not rank `application/json` above it.
pub(crate) fn wants_events(headers: &HeaderMap) -> bool {
    let (mut events, mut json) = (None::<f32>, None::<f32>);
    for range in headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
    {
        let mut parts = range.split(';').map(str::trim);
        let media = parts.next().unwrap_or_default();
        let quality = parts
            .filter_map(|p| p.split_once('='))
            .find(|(name, _)| name.trim().eq_ignore_ascii_case("q"))
            // A weight that does not parse counts as 0: not a request for a stream.
            .map_or(1.0, |(_, q)| q.trim().parse::<f32>().unwrap_or(0.0));
        if media.eq_ignore_ascii_case("text/event-stream") {
            events = Some(quality);
        } else if media.eq_ignore_ascii_case("application/json") {
            json = Some(quality);
        }
    }
    events.is_some_and(|e| e > 0.0 && json.is_none_or(|j| j <= e))
}

/// The event stream of a search for `request`.
///
/// The search slot is reserved first, so a stream that cannot get one is refused as any search
/// is, with a plain 503 `overloaded` and its `Retry-After`, before any event. While the server
/// drains, a stream runs to its result when it can; one still searching at the end of the drain
/// ([`AppState::end_streams_by`]) is stopped and ends with an `error` event saying the server is
/// shutting down, with `retry:` advice.
///
/// # Errors
/// 503 `overloaded` when no search slot frees up within the queue wait.
pub(crate) async fn stream(state: AppState, request: ValidRequest) -> Result<Response, ApiError> {
    let slot = if request.position.geometry().is_tic_tac_toe() {
        None
    } else {
        Some(reserve_slot(&state).await?)
    };
    let (sender, receiver) = mpsc::unbounded_channel();
    let progress = progress_reporter(&request, sender.clone());
    let end_by = state.streams_end_by();
    let task = tokio::spawn(async move {
        let event = tokio::select! {
            outcome = answer_in_slot(&state, request, progress, slot) => match outcome {
                Ok(answer) => Event::default()
                    .event("result")
                    .data(String::from_utf8_lossy(&json_bytes(&answer, 1024))),
                Err(error) => error_event(&error),
            },
            () = shutdown_deadline(end_by) => error_event(&ApiError::ShuttingDown)
                .retry(RETRY_AFTER_SHUTDOWN),
        };
        let _ = sender.send(event);
    });
    let events = Events {
        receiver,
        _search: AbortOnDrop(task.abort_handle()),
    };
    // A comment every second while the search runs: a client that left (an HTTP/1 client's
    // closed side says nothing, see src/server/connection.rs) answers the writes with a reset.
    let mut response = Sse::new(events)
        .keep_alive(KeepAlive::new().interval(std::time::Duration::from_secs(1)))
        .into_response();
    let headers = response.headers_mut();
    // An answer to one position at one moment: never stored (axum's default is `no-cache`).
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    // Proxies that buffer answers (nginx) would hold the events back until the end.
    headers.insert(
        header::HeaderName::from_static("x-accel-buffering"),
        HeaderValue::from_static("no"),
    );
    Ok(response)
}

/// The `retry:` advice of a stream stopped by a shutdown: another replica can answer at once.
const RETRY_AFTER_SHUTDOWN: Duration = Duration::from_secs(1);

/// Completes at the instant by which streams must end, once the server drains; never before.
async fn shutdown_deadline(mut end_by: watch::Receiver<Option<Instant>>) {
    loop {
        let deadline = *end_by.borrow_and_update();
        if let Some(deadline) = deadline {
            tokio::time::sleep_until(deadline.into()).await;
            return;
        }
        if end_by.changed().await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}

/// The `error` event carrying `error`'s problem document.
fn error_event(error: &ApiError) -> Event {
    let problem = serde_json::to_string(&error.problem()).unwrap_or_default();
    Event::default().event("error").data(problem)
}

/// The progress callback of a search for `request`: each iteration becomes a `progress` event.
fn progress_reporter(request: &ValidRequest, sender: mpsc::UnboundedSender<Event>) -> Progress {
    let geometry = request.position.geometry();
    let empty = request.position.empty_count();
    let scoring = request.scoring;
    let started = Instant::now();
    Progress::new(move |iteration: &Iteration| {
        let scored = MoveScore::new(
            iteration.best,
            iteration.evaluation,
            scoring,
            geometry,
            empty,
        );
        let data = SearchProgress {
            depth: iteration.depth,
            nodes: iteration.nodes,
            index: iteration.best,
            coordinate: super::wire::coordinate(geometry, iteration.best),
            score: scored.value,
            outcome: OutcomeOrUnknown(scored.value.outcome()),
            plies: scored.value.plies(),
            exact: scored.value.is_exact(),
            pv: iteration.pv.clone(),
            elapsed_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
        };
        let json = serde_json::to_string(&data).unwrap_or_default();
        let _ = sender.send(Event::default().event("progress").data(json));
    })
}

/// Aborts the search's task when the response body is dropped; dropping the task's future
/// raises its search's cancel.
struct AbortOnDrop(AbortHandle);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// The events as they come; ends after the final event, when every sender is gone.
struct Events {
    receiver: mpsc::UnboundedReceiver<Event>,
    _search: AbortOnDrop,
}

impl futures_core::Stream for Events {
    type Item = Result<Event, Infallible>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.receiver.poll_recv(cx).map(|event| event.map(Ok))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_are_sent_when_accept_prefers_them() {
        for (accept, expected) in [
            ("text/event-stream", true),
            ("text/event-stream, application/json", true),
            ("application/json, text/event-stream", true),
            ("application/json;q=0.5, text/event-stream", true),
            ("application/json, text/event-stream;q=0.5", false),
            ("text/event-stream;q=0", false),
            ("text/event-stream; Q=0", false),
            ("text/event-stream;q = 0.000", false),
            ("text/event-stream;q=zero", false),
            ("application/json", false),
            ("*/*", false),
        ] {
            let mut headers = HeaderMap::new();
            headers.insert(header::ACCEPT, HeaderValue::from_static(accept));
            assert_eq!(wants_events(&headers), expected, "{accept}");
        }
        assert!(!wants_events(&HeaderMap::new()));
    }
}
