//! `POST /v1/move` with `Accept: text/event-stream`, over a real socket read byte by byte:
//! progress events, then a result equal to the plain answer; a client that hangs up frees its
//! search slot.

use std::net::SocketAddr;
use std::time::Duration;

use minimax_move::api::{AppState, Settings, app};
use minimax_move::server::{ServeOptions, serve};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use crate::helpers::wait_for_searches;

async fn start(settings: Settings) -> (SocketAddr, AppState) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let state = AppState::ready(settings);
    tokio::spawn(serve(
        listener,
        app(state.clone()),
        std::future::pending::<()>(),
        ServeOptions::default(),
    ));
    (address, state)
}

/// Sends a `POST /v1/move` over a fresh connection, asking for events or not.
async fn send(address: SocketAddr, body: &str, events: bool) -> TcpStream {
    let accept = if events {
        "text/event-stream"
    } else {
        "application/json"
    };
    let request = format!(
        "POST /v1/move HTTP/1.1\r\nHost: test\r\nAccept: {accept}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut stream = TcpStream::connect(address).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    stream
}

/// The whole answer until the server closes the connection: its head and its de-chunked body.
async fn read_all(mut stream: TcpStream) -> (String, String) {
    let mut raw = Vec::new();
    tokio::time::timeout(Duration::from_secs(20), stream.read_to_end(&mut raw))
        .await
        .expect("the answer ends")
        .unwrap();
    let text = String::from_utf8(raw).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    if !head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        return (head.to_owned(), body.to_owned());
    }
    let mut rest = body;
    let mut decoded = String::new();
    loop {
        let (size, after) = rest.split_once("\r\n").unwrap();
        let size = usize::from_str_radix(size.trim(), 16).unwrap();
        if size == 0 {
            break;
        }
        decoded.push_str(&after[..size]);
        rest = &after[size + 2..];
    }
    (head.to_owned(), decoded)
}

/// The events of a stream: (event name, data), data lines joined by newlines.
fn events(body: &str) -> Vec<(String, String)> {
    body.split("\n\n")
        .filter(|block| !block.trim().is_empty())
        .map(|block| {
            let mut name = String::from("message");
            let mut data = Vec::new();
            for line in block.lines() {
                if let Some(value) = line.strip_prefix("event:") {
                    name = value.trim().to_owned();
                } else if let Some(value) = line.strip_prefix("data:") {
                    data.push(value.strip_prefix(' ').unwrap_or(value));
                }
            }
            (name, data.join("\n"))
        })
        .collect()
}

/// A 15 × 15 gomoku position that the depth cap, not the clock, stops: the same answer every time.
fn capped_search() -> String {
    let mut board = vec!["."; 225];
    board[112] = "X";
    board[113] = "O";
    json!({"board": board.concat(), "rows": 15, "cols": 15, "k": 5, "max_depth": 3,
           "time_limit_ms": 8000, "moves": true})
    .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_streamed_search_sends_progress_then_the_plain_answer() {
    let (address, _state) = start(Settings::default()).await;
    let body = capped_search();
    let (head, plain) = read_all(send(address, &body, false).await).await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    let (head, stream) = read_all(send(address, &body, true).await).await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(
        head.to_ascii_lowercase()
            .contains("content-type: text/event-stream"),
        "{head}"
    );
    assert!(
        head.to_ascii_lowercase().contains("x-accel-buffering: no"),
        "{head}"
    );
    let events = events(&stream);
    let (last, progress) = events.split_last().expect("at least one event");
    assert!(!progress.is_empty(), "progress before the result: {stream}");
    for (i, (name, data)) in progress.iter().enumerate() {
        assert_eq!(name, "progress", "{stream}");
        let data: Value = serde_json::from_str(data).unwrap();
        assert_eq!(data["depth"], i + 1, "{data}");
        for field in ["nodes", "index", "score", "pv", "elapsed_ms"] {
            assert!(data.get(field).is_some(), "{field} in {data}");
        }
    }
    assert_eq!(last.0, "result", "{stream}");
    assert_eq!(
        last.1, plain,
        "the result is the plain answer, byte for byte"
    );
}

#[tokio::test]
async fn a_streamed_tic_tac_toe_answer_is_one_result_and_bad_input_a_plain_problem() {
    let (address, _state) = start(Settings::default()).await;
    let body = json!({"board": "O.XX.X.OO", "moves": true}).to_string();
    let (_, plain) = read_all(send(address, &body, false).await).await;
    let (_, stream) = read_all(send(address, &body, true).await).await;
    assert_eq!(events(&stream), [("result".to_owned(), plain)]);
    let (head, problem) = read_all(send(address, r#"{"board": "XXXOO...."}"#, true).await).await;
    assert!(head.starts_with("HTTP/1.1 422"), "{head}");
    assert!(
        head.to_ascii_lowercase()
            .contains("application/problem+json"),
        "{head}"
    );
    let problem: Value = serde_json::from_str(&problem).unwrap();
    assert_eq!(problem["code"], "game_over");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_whose_client_hangs_up_frees_its_search_slot() {
    let settings = Settings {
        max_searches: 1,
        // A work rate no search reaches: only the deadline (or a cancel) stops it.
        search_work_rate: u64::MAX / 1_000_000,
        ..Settings::default()
    };
    let (address, state) = start(settings).await;
    let body = json!({"board": ".".repeat(225), "rows": 15, "cols": 15, "k": 5,
                      "time_limit_ms": 10_000})
    .to_string();
    let mut stream = send(address, &body, true).await;
    let mut seen = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), async {
        let mut buffer = [0_u8; 4096];
        while !String::from_utf8_lossy(&seen).contains("event: progress") {
            let n = stream.read(&mut buffer).await.unwrap();
            assert!(n > 0, "the stream stays open while the search runs");
            seen.extend_from_slice(&buffer[..n]);
        }
    })
    .await
    .expect("a progress event arrives");
    assert_eq!(state.searches_running(), 1);
    drop(stream);
    wait_for_searches(
        &state,
        0,
        Duration::from_secs(3),
        "the search stops when its client hangs up",
    )
    .await;
    let body = json!({"board": ".".repeat(225), "rows": 15, "cols": 15, "k": 5,
                      "time_limit_ms": 200})
    .to_string();
    let (head, _) = read_all(send(address, &body, false).await).await;
    assert!(head.starts_with("HTTP/1.1 200"), "a slot is free: {head}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_small_board_solver_streams_its_iterations_too() {
    let (address, _state) = start(Settings::default()).await;
    let body = json!({"board": ".".repeat(25), "rows": 5, "cols": 5, "k": 4, "max_depth": 4,
                      "time_limit_ms": 8000, "moves": true})
    .to_string();
    let (_, plain) = read_all(send(address, &body, false).await).await;
    let (_, stream) = read_all(send(address, &body, true).await).await;
    let events = events(&stream);
    let (last, progress) = events.split_last().expect("events");
    assert!(!progress.is_empty(), "{stream}");
    assert!(
        progress.iter().all(|(name, _)| name == "progress"),
        "{stream}"
    );
    assert_eq!(last, &("result".to_owned(), plain));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_that_finds_every_slot_busy_is_a_503_with_retry_after() {
    use crate::helpers::TestApp;
    use axum::body::Body;
    use axum::http::Request;
    let settings = Settings {
        max_searches: 1,
        queue_wait: Duration::from_millis(20),
        search_work_rate: u64::MAX / 1_000_000,
        ..Settings::default()
    };
    let state = AppState::ready(settings);
    let app = TestApp::with_state(state.clone());
    let request = |uri: &str, body: String, accept: &str| {
        Request::post(uri)
            .header("content-type", "application/json")
            .header("accept", accept)
            .body(Body::from(body))
            .unwrap()
    };
    let long = json!({"board": ".".repeat(225), "rows": 15, "cols": 15, "k": 5,
                      "time_limit_ms": 2_000})
    .to_string();
    let busy = {
        let app = app.clone();
        let long = long.clone();
        tokio::spawn(async move {
            app.send(request("/v1/move", long, "application/json"))
                .await
        })
    };
    wait_for_searches(&state, 1, Duration::from_secs(5), "the first search starts").await;
    for (uri, accept) in [
        ("/v1/move", "text/event-stream"),
        ("/v1/move/stream", "text/event-stream"),
    ] {
        let shed = app.send(request(uri, long.clone(), accept)).await;
        let problem = shed.problem(
            axum::http::StatusCode::SERVICE_UNAVAILABLE,
            "overloaded",
            uri,
        );
        let retry_after: u32 = shed
            .header("retry-after")
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("{uri}: a Retry-After in whole seconds, {problem}"));
        assert!(
            (1..=2).contains(&retry_after),
            "{uri}: until the running search's deadline"
        );
    }
    busy.abort();
}

#[tokio::test]
async fn streams_are_never_stored_and_a_zero_quality_is_no_request_for_one() {
    let (address, _state) = start(Settings::default()).await;
    let body = json!({"board": ".".repeat(16), "rows": 4, "cols": 4, "k": 4,
                      "time_limit_ms": 200})
    .to_string();
    let (head, stream) = read_all(send(address, &body, true).await).await;
    let head = head.to_ascii_lowercase();
    assert!(head.contains("cache-control: no-store"), "{head}");
    assert!(!head.contains("no-cache"), "{head}");
    assert_eq!(events(&stream).last().map(|e| e.0.as_str()), Some("result"));
    for accept in [
        "text/event-stream;q=0",
        "text/event-stream; q=0",
        "text/event-stream;q=0.000",
        "text/event-stream; Q=0, application/json;q=0.1",
    ] {
        let request = format!(
            "POST /v1/move HTTP/1.1\r\nHost: test\r\nAccept: {accept}\r\nConnection: close\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        let mut stream = TcpStream::connect(address).await.unwrap();
        stream.write_all(request.as_bytes()).await.unwrap();
        let (head, answer) = read_all(stream).await;
        assert!(
            head.to_ascii_lowercase()
                .contains("content-type: application/json"),
            "{accept}: the plain answer, {head}"
        );
        let answer: Value = serde_json::from_str(&answer).unwrap();
        assert!(answer["index"].is_u64(), "{accept}: {answer}");
    }
}
