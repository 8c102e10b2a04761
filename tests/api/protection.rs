//! Overload, rate limiting, CORS, security headers and metrics.

use std::num::NonZeroU32;
use std::time::Duration;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};
use minimax_move::api::rate_limit::RateLimitSettings;
use minimax_move::api::{AppState, Settings};
use serde_json::json;

use crate::helpers::{SEED_BOARD, TestApp, wait_for_searches};

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
    let retry_after: u32 = shed
        .header("retry-after")
        .and_then(|v| v.parse().ok())
        .expect("a Retry-After in seconds on 503");
    assert!(
        (1..=5).contains(&retry_after),
        "Retry-After {retry_after}: at most the running search's 5 s"
    );
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

/// A 15 × 15 search that only its deadline stops: a work rate no search reaches.
fn endless_settings(max_searches: usize) -> Settings {
    Settings {
        max_searches,
        queue_wait: Duration::from_millis(20),
        search_work_rate: u64::MAX / 1_000_000,
        ..Settings::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn retry_after_says_when_the_first_running_search_reaches_its_deadline() {
    let state = AppState::ready(endless_settings(1));
    let app = TestApp::with_state(state.clone());
    let busy = {
        let app = app.clone();
        tokio::spawn(async move { app.post_move(&big_search(8_000)).await })
    };
    wait_for_searches(&state, 1, Duration::from_secs(10), "the first search").await;
    let shed = app.post_move(&big_search(600)).await;
    shed.problem(
        StatusCode::SERVICE_UNAVAILABLE,
        "overloaded",
        "second search",
    );
    let retry_after: u32 = shed
        .header("retry-after")
        .and_then(|v| v.parse().ok())
        .expect("a Retry-After in seconds");
    assert!(
        (2..=8).contains(&retry_after),
        "Retry-After {retry_after}: the slot frees when the 8 s search ends"
    );
    assert!(
        shed.json()["detail"]
            .as_str()
            .is_some_and(|d| d.contains(&retry_after.to_string())),
        "the detail says the same"
    );
    busy.abort();
    wait_for_searches(&state, 0, Duration::from_secs(3), "after the abort").await;
}

/// Sends `request` on a server with one search slot, waits for its search to start, drops the
/// request, and checks that the search stops long before its 10 s and frees the slot.
async fn assert_abandoned_request_frees_its_slot(request: Request<Body>, what: &str) {
    let state = AppState::ready(endless_settings(1));
    let app = TestApp::with_state(state.clone());
    let abandoned = {
        let app = app.clone();
        tokio::spawn(async move { app.send(request).await })
    };
    wait_for_searches(&state, 1, Duration::from_secs(10), what).await;
    abandoned.abort();
    // It had 10 s to run: it must stop far sooner.
    wait_for_searches(
        &state,
        0,
        Duration::from_secs(3),
        &format!("{what}, once its client is gone"),
    )
    .await;
    let next = app.post_move(&big_search(200)).await;
    assert_eq!(
        next.status,
        StatusCode::OK,
        "{what}: the slot is free: {}",
        next.text()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_search_stops_and_frees_its_slot_when_its_request_is_dropped() {
    let request = Request::post("/v1/move")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(big_search(10_000).to_string()))
        .unwrap();
    assert_abandoned_request_frees_its_slot(request, "the search").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_mcp_tool_call_stops_its_search_and_frees_its_slot_when_its_client_goes_away() {
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "suggest_move", "arguments": big_search(10_000)}});
    let request = Request::post("/mcp")
        .header(header::HOST, "localhost")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::ACCEPT, "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-06-18")
        .body(Body::from(call.to_string()))
        .unwrap();
    assert_abandoned_request_frees_its_slot(request, "the tool's search").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connect_four_solve_stops_and_frees_its_slot_when_its_client_goes_away() {
    // Eight stones: the book holds its own score, but its columns take seconds to search (one
    // of the slowest positions of c4's opening_L3 that scripts/ops/connect4-latency.sh found).
    let request = Request::get("/v1/connect4/solve?pos=27133212")
        .body(Body::empty())
        .unwrap();
    assert_abandoned_request_frees_its_slot(request, "the solve").await;
}

#[tokio::test]
async fn by_default_cors_grants_loopback_origins_only() {
    let app = TestApp::new();
    let from = |origin: &'static str| {
        Request::post("/v1/move")
            .header(header::ORIGIN, origin)
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(SEED_BOARD))
            .unwrap()
    };
    let foreign = app.send(from("https://game.example")).await;
    assert_eq!(
        foreign.header("access-control-allow-origin"),
        None,
        "another site's page gets no CORS grant"
    );
    for origin in [
        "http://localhost:5173",
        "http://127.0.0.1:8080",
        "http://[::1]:3000",
    ] {
        let local = app.send(from(origin)).await;
        assert_eq!(
            local.header("access-control-allow-origin"),
            Some(origin),
            "a page served from this machine"
        );
        assert_eq!(local.header("access-control-allow-credentials"), None);
    }
}

#[tokio::test]
async fn a_star_allows_any_origin_without_credentials() {
    let settings = Settings {
        cors_origins: vec!["*".to_owned()],
        ..Settings::default()
    };
    let app = TestApp::with_state(AppState::ready(settings));
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
async fn by_default_mcp_accepts_loopback_hosts_only() {
    let app = TestApp::new();
    let list = |host: &'static str| {
        Request::post("/mcp")
            .header(header::HOST, host)
            .header(header::CONTENT_TYPE, "application/json")
            .header(header::ACCEPT, "application/json, text/event-stream")
            .body(Body::from(
                json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).to_string(),
            ))
            .unwrap()
    };
    for host in [
        "evil.example",
        "evil.example:8080",
        "localhost.evil.example",
    ] {
        let response = app.send(list(host)).await;
        assert_eq!(
            response.status,
            StatusCode::FORBIDDEN,
            "Host {host} (a DNS-rebinding page)"
        );
    }
    for host in [
        "localhost:8080",
        "127.0.0.1:8080",
        "[::1]:8080",
        "localhost",
    ] {
        let response = app.send(list(host)).await;
        assert_eq!(
            response.status,
            StatusCode::OK,
            "Host {host}: {}",
            response.text()
        );
    }
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

/// A request with these headers.
fn with_headers(method: Method, uri: &str, headers: &[(&str, &str)], body: &str) -> Request<Body> {
    let mut request = Request::builder().method(method).uri(uri);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request.body(Body::from(body.to_owned())).unwrap()
}

#[tokio::test]
async fn a_malformed_host_is_a_400_on_every_route() {
    let app = TestApp::new();
    for host in [
        "localhost:abc",
        "localhost:99999",
        "localhost:",
        "[::1]x",
        "exa mple",
    ] {
        for uri in ["/healthz", "/v1/move?board=O.XX.X.OO"] {
            let response = app
                .send(with_headers(Method::GET, uri, &[("host", host)], ""))
                .await;
            let problem = response.problem(StatusCode::BAD_REQUEST, "bad_request", host);
            assert!(
                problem["detail"].as_str().unwrap().contains("Host"),
                "{host}: {problem}"
            );
        }
    }
}

#[tokio::test]
async fn searches_from_a_link_are_guarded_like_mcp_and_posts_answer_any_host() {
    let app = TestApp::new();
    let links = ["/v1/move?board=O.XX.X.OO", "/v1/connect4/solve?pos="];
    for uri in links {
        for host in [
            "evil.example",
            "evil.example:8080",
            "localhost.evil.example",
        ] {
            let response = app
                .send(with_headers(Method::GET, uri, &[("host", host)], ""))
                .await;
            response.problem(
                StatusCode::FORBIDDEN,
                "forbidden",
                &format!("{uri} Host {host}"),
            );
        }
        let cross_site = [
            ("host", "localhost:8080"),
            ("sec-fetch-site", "cross-site"),
            ("origin", "https://evil.example"),
        ];
        let response = app
            .send(with_headers(Method::GET, uri, &cross_site, ""))
            .await;
        response.problem(
            StatusCode::FORBIDDEN,
            "forbidden",
            &format!("{uri} cross-site"),
        );
        for headers in [
            &[("host", "localhost:8080")][..],
            &[("host", "127.0.0.1"), ("sec-fetch-site", "same-origin")][..],
            &[
                ("host", "localhost:8080"),
                ("sec-fetch-site", "same-site"),
                ("origin", "http://localhost:5173"),
            ][..],
        ] {
            let response = app.send(with_headers(Method::GET, uri, headers, "")).await;
            assert_eq!(
                response.status,
                StatusCode::OK,
                "{uri} {headers:?}: {}",
                response.text()
            );
        }
    }
    // A POST needs `Content-Type: application/json`, which no page of another site can send
    // without a CORS preflight that CORS refuses: it answers any Host.
    let post = with_headers(
        Method::POST,
        "/v1/move",
        &[
            ("host", "moves.example.com"),
            ("content-type", "application/json"),
        ],
        r#"{"board": "O.XX.X.OO"}"#,
    );
    assert_eq!(app.send(post).await.status, StatusCode::OK);
}
