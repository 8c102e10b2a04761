//! Overload, rate limiting, CORS, security headers and metrics.

use std::num::NonZeroU32;
use std::time::Duration;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};
use minimax_move::api::rate_limit::RateLimitSettings;
use minimax_move::api::{AppState, Settings};
use serde_json::json;

use crate::helpers::{SEED_BOARD, TestApp};

/// A 15 × 15 search: its work budget takes about half of `time_limit_ms` (1 s at most
/// on an idle machine for 5,000 ms), its deadline all of it.
fn big_search(time_limit_ms: u64) -> serde_json::Value {
    json!({"board": ".".repeat(225), "rows": 15, "cols": 15, "k": 5, "time_limit_ms": time_limit_ms})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sheds_searches_with_503_and_retry_after_when_every_slot_is_busy() {
    let settings = Settings {
        max_searches: 1,
        queue_wait: Duration::from_millis(20),
        ..Settings::default()
    };
    let state = AppState::ready(settings);
    let app = TestApp::with_state(state.clone());
    let busy = {
        let app = app.clone();
        tokio::spawn(async move { app.post_move(&big_search(5_000)).await })
    };
    // Ready when the first search holds the only slot.
    while state.searches_running() == 0 {
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    let shed = app.post_move(&big_search(600)).await;
    shed.problem(
        StatusCode::SERVICE_UNAVAILABLE,
        "overloaded",
        "second search",
    );
    assert_eq!(shed.header("retry-after"), Some("1"), "Retry-After on 503");
    let lookup = app.post_raw(SEED_BOARD, Some("application/json")).await;
    assert_eq!(lookup.status, StatusCode::OK, "3x3 lookups are never shed");
    let first = busy.await.expect("the first search finishes");
    assert_eq!(
        first.status,
        StatusCode::OK,
        "the search holding the slot answers"
    );
    let again = app.post_move(&big_search(600)).await;
    assert_eq!(
        again.status,
        StatusCode::OK,
        "the slot is free again: {}",
        again.text()
    );
}

#[tokio::test]
async fn answers_429_with_retry_after_past_the_per_client_rate_limit_but_never_for_probes() {
    let settings = Settings {
        rate_limit: Some(RateLimitSettings {
            per_second: NonZeroU32::new(1).unwrap(),
            burst: NonZeroU32::new(2).unwrap(),
            trust_forwarded_for: false,
        }),
        ..Settings::default()
    };
    let app = TestApp::with_state(AppState::ready(settings));
    for n in 1..=2 {
        let ok = app.post_raw(SEED_BOARD, Some("application/json")).await;
        assert_eq!(ok.status, StatusCode::OK, "request {n} is within the burst");
    }
    let limited = app.post_raw(SEED_BOARD, Some("application/json")).await;
    limited.problem(
        StatusCode::TOO_MANY_REQUESTS,
        "rate_limited",
        "third request",
    );
    assert!(
        limited.header("retry-after").is_some(),
        "Retry-After on 429"
    );
    for path in ["/healthz", "/readyz", "/metrics"] {
        assert_eq!(
            app.get(path).await.status,
            StatusCode::OK,
            "{path} is exempt"
        );
    }
}

#[tokio::test]
async fn allows_any_origin_without_credentials_by_default() {
    let app = TestApp::new();
    let request = Request::post("/v1/move")
        .header(header::ORIGIN, "https://game.example")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(SEED_BOARD))
        .unwrap();
    let response = app.send(request).await;
    assert_eq!(response.header("access-control-allow-origin"), Some("*"));
    assert_eq!(response.header("access-control-allow-credentials"), None);
}

#[tokio::test]
async fn an_origin_allow_list_admits_only_the_listed_origins() {
    let settings = Settings {
        cors_origins: vec!["https://good.example".to_owned()],
        ..Settings::default()
    };
    let app = TestApp::with_state(AppState::ready(settings));
    let preflight = |origin: &'static str| {
        Request::builder()
            .method(Method::OPTIONS)
            .uri("/v1/move")
            .header(header::ORIGIN, origin)
            .header(header::ACCESS_CONTROL_REQUEST_METHOD, "POST")
            .header(header::ACCESS_CONTROL_REQUEST_HEADERS, "content-type")
            .body(Body::empty())
            .unwrap()
    };
    let good = app.send(preflight("https://good.example")).await;
    assert_eq!(
        good.status,
        StatusCode::OK,
        "preflight from a listed origin"
    );
    assert_eq!(
        good.header("access-control-allow-origin"),
        Some("https://good.example")
    );
    let bad = app.send(preflight("https://evil.example")).await;
    assert_eq!(
        bad.header("access-control-allow-origin"),
        None,
        "an unlisted origin gets no CORS grant"
    );
}

#[tokio::test]
async fn every_response_carries_the_security_headers() {
    let app = TestApp::new();
    for response in [
        app.get("/healthz").await,
        app.post_raw("{", Some("application/json")).await,
        app.get("/nowhere").await,
    ] {
        assert_eq!(response.header("x-content-type-options"), Some("nosniff"));
        assert_eq!(response.header("x-frame-options"), Some("DENY"));
        assert_eq!(response.header("referrer-policy"), Some("no-referrer"));
    }
}

#[tokio::test]
async fn metrics_are_prometheus_text_labelled_by_route_template_never_by_raw_path() {
    let app = TestApp::new();
    app.post_raw(SEED_BOARD, Some("application/json")).await;
    app.get("/v1/move?board=O.XX.X.OO").await;
    app.get("/secret-user-path-1234").await;
    let response = app.get("/metrics").await;
    assert_eq!(response.status, StatusCode::OK);
    assert!(
        response.content_type().starts_with("text/plain"),
        "Prometheus text format"
    );
    let text = response.text();
    for name in [
        "http_requests_total",
        "http_request_duration_seconds_bucket",
        "minimax_table_answers_total",
    ] {
        assert!(text.contains(name), "{name} is exported:\n{text}");
    }
    assert!(
        text.contains(r#"http_requests_total{route="/v1/move",method="POST",status="200"}"#),
        "requests are counted by route, method and status:\n{text}"
    );
    assert!(
        text.contains(r#"route="unmatched""#) && !text.contains("secret-user-path"),
        "unknown paths are labelled `unmatched`, never by their raw path"
    );
    for line in text
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let (series, value) = line.rsplit_once(' ').expect("`series value`");
        assert!(value.parse::<f64>().is_ok(), "numeric sample in {line:?}");
        let name_end = series.find('{').unwrap_or(series.len());
        assert!(
            series[..name_end]
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':'),
            "metric name in {line:?}"
        );
        if name_end < series.len() {
            assert!(series.ends_with('}'), "closed label set in {line:?}");
        }
    }
}
