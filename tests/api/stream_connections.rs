//! A stream of server-sent events is a request being answered, not an idle connection: over a
//! real socket it outlives the keep-alive timeout, is never evicted at the connection cap, and at
//! shutdown (over HTTP/1.1 and over h2c) it runs to its `result` within the drain, or ends with an
//! `error` event saying the server is shutting down, with `retry:` advice.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use minimax_move::api::{AppState, Settings, app};
use minimax_move::server::{ServeOptions, serve};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

struct Running {
    address: SocketAddr,
    shutdown: oneshot::Sender<()>,
    task: JoinHandle<std::io::Result<()>>,
}

/// Serves with `options`; the shutdown does what the binary's does on SIGTERM.
async fn start(options: ServeOptions) -> Running {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let settings = Settings {
        // Only the clock stops these searches, so each runs for its whole time limit.
        search_work_rate: u64::MAX / 1_000_000,
        ..Settings::default()
    };
    let state = AppState::ready(settings);
    let (shutdown, signal) = oneshot::channel::<()>();
    let draining = state.clone();
    let task = tokio::spawn(serve(
        listener,
        app(state),
        async move {
            let _ = signal.await;
            draining.mark_draining();
            draining.end_streams_by(options.streams_end_by(Instant::now()));
        },
        options,
    ));
    Running {
        address,
        shutdown,
        task,
    }
}

/// A 15 × 15 search that runs for `ms` milliseconds.
fn search(ms: u64) -> String {
    json!({"board": ".".repeat(225), "rows": 15, "cols": 15, "k": 5, "time_limit_ms": ms})
        .to_string()
}

/// Opens a stream over HTTP/1.1 and reads until its first `progress` event: the search runs.
async fn open_stream(address: SocketAddr, body: &str) -> (TcpStream, Vec<u8>) {
    let request = format!(
        "POST /v1/move/stream HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut stream = TcpStream::connect(address).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut seen = Vec::new();
    let mut buffer = [0_u8; 4096];
    while !String::from_utf8_lossy(&seen).contains("event: progress") {
        let n = stream.read(&mut buffer).await.unwrap();
        assert!(
            n > 0,
            "the stream is open: {}",
            String::from_utf8_lossy(&seen)
        );
        seen.extend_from_slice(&buffer[..n]);
    }
    (stream, seen)
}

/// Reads the rest of a stream, to its last chunk or the end of the connection.
async fn finish_stream(mut stream: TcpStream, mut seen: Vec<u8>) -> String {
    let mut buffer = [0_u8; 4096];
    while !String::from_utf8_lossy(&seen).contains("\r\n0\r\n\r\n") {
        match stream.read(&mut buffer).await {
            Ok(0) | Err(_) => break,
            Ok(n) => seen.extend_from_slice(&buffer[..n]),
        }
    }
    String::from_utf8_lossy(&seen).into_owned()
}

/// The last event's name and data.
fn last_event(text: &str) -> (String, String) {
    let block = text
        .rsplit("\n\n")
        .find(|block| block.contains("event:"))
        .unwrap_or_else(|| panic!("an event in {text}"));
    let mut name = String::new();
    let mut data = String::new();
    let mut retry = None;
    for line in block.lines() {
        if let Some(value) = line.strip_prefix("event:") {
            name = value.trim().to_owned();
        } else if let Some(value) = line.strip_prefix("data:") {
            data = value.trim().to_owned();
        } else if let Some(value) = line.strip_prefix("retry:") {
            retry = Some(value.trim().to_owned());
        }
    }
    if let Some(retry) = retry {
        data = format!("{data}\nretry {retry}");
    }
    (name, data)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_outlives_the_keep_alive_timeout() {
    let server = start(ServeOptions {
        keep_alive_timeout: Duration::from_millis(200),
        ..ServeOptions::default()
    })
    .await;
    // Longer than the keep-alive timeout and the second a closing connection gets, together.
    let (stream, seen) = open_stream(server.address, &search(2_000)).await;
    let text = finish_stream(stream, seen).await;
    assert_eq!(last_event(&text).0, "result", "{text}");
    server.shutdown.send(()).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_the_connection_cap_idle_sockets_are_evicted_and_never_a_stream() {
    let server = start(ServeOptions {
        max_connections: 4,
        ..ServeOptions::default()
    })
    .await;
    let (stream, seen) = open_stream(server.address, &search(1_000)).await;
    // Sockets that each send one byte and then nothing, more of them than the cap.
    let mut silent = Vec::new();
    for _ in 0..12 {
        let mut socket = TcpStream::connect(server.address).await.unwrap();
        socket.write_all(b"G").await.unwrap();
        silent.push(socket);
    }
    let text = finish_stream(stream, seen).await;
    assert_eq!(last_event(&text).0, "result", "{text}");
    server.shutdown.send(()).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_shutdown_an_http1_stream_gets_its_result_within_the_drain() {
    let server = start(ServeOptions {
        shutdown_grace: Duration::from_secs(10),
        ..ServeOptions::default()
    })
    .await;
    let (stream, seen) = open_stream(server.address, &search(1_000)).await;
    server.shutdown.send(()).unwrap();
    let text = finish_stream(stream, seen).await;
    assert_eq!(last_event(&text).0, "result", "{text}");
    server.task.await.unwrap().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_shutdown_an_http1_stream_longer_than_the_drain_gets_a_shutting_down_error() {
    let server = start(ServeOptions {
        shutdown_grace: Duration::from_millis(1_500),
        ..ServeOptions::default()
    })
    .await;
    let (stream, seen) = open_stream(server.address, &search(10_000)).await;
    server.shutdown.send(()).unwrap();
    let text = finish_stream(stream, seen).await;
    let (name, data) = last_event(&text);
    assert_eq!(name, "error", "{text}");
    assert_shutting_down(&data);
    server.task.await.unwrap().unwrap();
}

/// Asserts the data (and retry advice) of the error event of a stream stopped by a shutdown.
#[track_caller]
fn assert_shutting_down(data: &str) {
    let (problem, retry) = data.split_once("\nretry ").expect("retry: advice");
    assert_eq!(retry, "1000", "{data}");
    let problem: Value = serde_json::from_str(problem).unwrap();
    assert_eq!(problem["code"], "not_ready", "{problem}");
    assert_eq!(problem["status"], 503, "{problem}");
    assert!(
        problem["detail"]
            .as_str()
            .is_some_and(|d| d.contains("shutting down")),
        "{problem}"
    );
}

/// Reads an h2c stream of events (HTTP/2 with prior knowledge, as the `h2` crate speaks it) until
/// its first `progress` event, says so through `searching`, then reads the rest.
async fn h2c_stream(address: SocketAddr, body: String, searching: oneshot::Sender<()>) -> String {
    let tcp = TcpStream::connect(address).await.unwrap();
    let (mut client, connection) = h2::client::handshake(tcp).await.unwrap();
    tokio::spawn(connection);
    let request = axum::http::Request::post("http://localhost/v1/move/stream")
        .header("content-type", "application/json")
        .body(())
        .unwrap();
    let (response, mut send) = client.send_request(request, false).unwrap();
    send.send_data(axum::body::Bytes::from(body), true).unwrap();
    let response = response.await.unwrap();
    assert_eq!(response.status(), 200);
    let mut events = response.into_body();
    let mut text = String::new();
    let mut searching = Some(searching);
    while let Some(chunk) = events.data().await {
        let chunk = chunk.unwrap();
        let _ = events.flow_control().release_capacity(chunk.len());
        text.push_str(&String::from_utf8_lossy(&chunk));
        if text.contains("event: progress")
            && let Some(searching) = searching.take()
        {
            searching.send(()).unwrap();
        }
    }
    text
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_shutdown_h2c_streams_get_their_result_or_a_shutting_down_error() {
    for (grace_ms, search_ms, expected) in [(10_000, 1_000, "result"), (1_500, 10_000, "error")] {
        let server = start(ServeOptions {
            shutdown_grace: Duration::from_millis(grace_ms),
            ..ServeOptions::default()
        })
        .await;
        let (searching, started) = oneshot::channel();
        let stream = tokio::spawn(h2c_stream(server.address, search(search_ms), searching));
        started.await.unwrap();
        server.shutdown.send(()).unwrap();
        let text = stream.await.unwrap();
        let (name, data) = last_event(&text);
        assert_eq!(name, expected, "{text}");
        if expected == "error" {
            assert_shutting_down(&data);
        }
        server.task.await.unwrap().unwrap();
    }
}
