//! `GET /metrics` in the Prometheus text format, and the middleware that counts every request.
//!
//! Labels are the route template (`/v1/move`, or `unmatched`), the method and the status: never a
//! raw path or anything else a client sent.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::{MatchedPath, Request};
use axum::http::{HeaderValue, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

use crate::api::state::AppState;

static HANDLE: OnceLock<Option<PrometheusHandle>> = OnceLock::new();

/// The process-wide Prometheus recorder, installed on first use. `None` if another recorder was
/// installed first (then `/metrics` is empty).
pub fn handle() -> Option<&'static PrometheusHandle> {
    HANDLE
        .get_or_init(|| {
            let seconds = [
                0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05,
                0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
            ];
            let builder = PrometheusBuilder::new()
                .set_buckets_for_metric(Matcher::Suffix("_seconds".to_owned()), &seconds)
                .ok()?;
            let handle = builder.install_recorder().ok()?;
            describe();
            Some(handle)
        })
        .as_ref()
}

fn describe() {
    metrics::describe_counter!(
        "http_requests_total",
        "HTTP requests by route, method and status"
    );
    metrics::describe_histogram!(
        "http_request_duration_seconds",
        metrics::Unit::Seconds,
        "HTTP request latency by route and method"
    );
    metrics::describe_gauge!(
        "minimax_searches_in_flight",
        "Searches running on the blocking pool"
    );
    metrics::describe_histogram!(
        "minimax_search_seconds",
        metrics::Unit::Seconds,
        "Time spent in searches (boards other than 3x3)"
    );
    metrics::describe_counter!("minimax_search_nodes_total", "Nodes visited by searches");
    metrics::describe_counter!(
        "minimax_table_answers_total",
        "3x3 answers from the solved table"
    );
    metrics::describe_counter!(
        "minimax_shed_total",
        "Searches shed with 503 because every slot was busy"
    );
}

/// The counter of 3 × 3 answers, registered once: looking a counter up by name costs a hash and
/// a lock on every request, and this one is on the hottest path.
pub(crate) fn table_answers() -> &'static metrics::Counter {
    static COUNTER: OnceLock<metrics::Counter> = OnceLock::new();
    COUNTER.get_or_init(|| {
        handle();
        metrics::counter!("minimax_table_answers_total")
    })
}

/// Runs the recorder's upkeep every few seconds so histograms stay bounded.
pub fn spawn_upkeep() {
    if let Some(handle) = handle() {
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_secs(5));
            loop {
                tick.tick().await;
                handle.run_upkeep();
            }
        });
    }
}

pub(crate) fn router() -> Router<AppState> {
    Router::new().route(
        "/metrics",
        get(|| async {
            let body = handle().map(PrometheusHandle::render).unwrap_or_default();
            (
                [(
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("text/plain; version=0.0.4; charset=utf-8"),
                )],
                body,
            )
                .into_response()
        }),
    )
}

fn method_label(method: &Method) -> &'static str {
    match *method {
        Method::GET => "GET",
        Method::POST => "POST",
        Method::HEAD => "HEAD",
        Method::OPTIONS => "OPTIONS",
        Method::PUT => "PUT",
        Method::DELETE => "DELETE",
        Method::PATCH => "PATCH",
        _ => "other",
    }
}

/// Counts the request and records its latency.
pub async fn track(request: Request, next: Next) -> Response {
    let started = Instant::now();
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "unmatched".to_owned(), |p| p.as_str().to_owned());
    let method = method_label(request.method());
    let response = next.run(request).await;
    let status = response.status().as_u16().to_string();
    metrics::counter!("http_requests_total", "route" => route.clone(), "method" => method, "status" => status)
        .increment(1);
    metrics::histogram!("http_request_duration_seconds", "route" => route, "method" => method)
        .record(started.elapsed().as_secs_f64());
    response
}
