//! Over a real socket: `serve` on `127.0.0.1:0`, a real HTTP client, and graceful shutdown.

use std::net::SocketAddr;
use std::time::Duration;

use minimax_move::api::{AppState, Settings, app};
use minimax_move::server::{ServeOptions, serve};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

struct RunningServer {
    address: SocketAddr,
    state: AppState,
    shutdown: oneshot::Sender<()>,
    task: JoinHandle<std::io::Result<()>>,
}

async fn start_server() -> RunningServer {
    start_server_with(Settings::default(), ServeOptions::default()).await
}

async fn start_server_with(settings: Settings, options: ServeOptions) -> RunningServer {
    let listener = TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind a free port");
    let address = listener.local_addr().unwrap();
    let (shutdown, signal) = oneshot::channel::<()>();
    let state = AppState::ready(settings);
    let task = tokio::spawn(serve(
        listener,
        app(state.clone()),
        async move {
            let _ = signal.await;
        },
        options,
    ));
    RunningServer {
        address,
        state,
        shutdown,
        task,
    }
}

/// Options with short time limits, so that tests see them pass.
fn short_limits() -> ServeOptions {
    ServeOptions {
        first_byte_timeout: Duration::from_millis(300),
        header_read_timeout: Duration::from_millis(300),
        keep_alive_timeout: Duration::from_millis(300),
        ..ServeOptions::default()
    }
}

/// Reads until the server closes the connection (or resets it), at most 5 s; `None` if it is
/// still open then.
async fn read_until_closed(stream: &mut TcpStream) -> Option<Vec<u8>> {
    let mut data = Vec::new();
    let closed = tokio::time::timeout(Duration::from_secs(5), async {
        let mut buffer = [0_u8; 4096];
        loop {
            match stream.read(&mut buffer).await {
                Ok(0) | Err(_) => return,
                Ok(n) => data.extend_from_slice(&buffer[..n]),
            }
        }
    })
    .await;
    closed.ok().map(|()| data)
}

/// A request the router would answer with 200 over a kept-alive connection.
const SEED_REQUEST: &str = "POST /v1/move HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: 21\r\n\r\n{\"board\":\"O.XX.X.OO\"}";

#[tokio::test]
async fn serves_moves_and_problems_over_a_real_socket() {
    let server = start_server().await;
    let base = format!("http://{}", server.address);
    let client = reqwest::Client::new();

    let response = client
        .post(format!("{base}/v1/move"))
        .json(&json!({"board": ["O", 1, "X", "X", 4, "X", 6, "O", "O"], "moves": true}))
        .send()
        .await
        .expect("the server answers");
    assert_eq!(response.status(), 200);
    assert!(response.headers().contains_key("x-request-id"));
    let answer: Value = response.json().await.unwrap();
    assert_eq!((&answer["index"], &answer["score"]), (&json!(4), &json!(9)));

    let health = client.get(format!("{base}/healthz")).send().await.unwrap();
    assert_eq!(health.status(), 200);

    let too_large = client
        .post(format!("{base}/v1/move"))
        .header("content-type", "application/json")
        .body(vec![b' '; 100 * 1024])
        .send()
        .await
        .unwrap();
    assert_eq!(too_large.status(), 413);
    assert_eq!(
        too_large.headers()["content-type"],
        "application/problem+json"
    );

    let wrong_type = client
        .post(format!("{base}/v1/move"))
        .header("content-type", "text/plain")
        .body("O.XX.X.OO")
        .send()
        .await
        .unwrap();
    assert_eq!(wrong_type.status(), 415);

    server.shutdown.send(()).unwrap();
    tokio::time::timeout(Duration::from_secs(10), server.task)
        .await
        .expect("the server stops")
        .unwrap()
        .unwrap();
}

#[tokio::test]
async fn many_requests_on_one_keep_alive_connection_each_get_one_whole_answer() {
    let server = start_server().await;
    let mut stream = TcpStream::connect(server.address).await.unwrap();
    let body = r#"{"board":"O.XX.X.OO"}"#;
    let request = format!(
        "POST /v1/move HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    for _ in 0..3 {
        stream.write_all(request.as_bytes()).await.unwrap();
        let response = read_one_response(&mut stream).await;
        assert!(response.starts_with("HTTP/1.1 200"), "{response}");
        assert!(response.contains(r#""index":4"#), "{response}");
    }
    server.shutdown.send(()).unwrap();
    drop(stream);
    tokio::time::timeout(Duration::from_secs(10), server.task)
        .await
        .expect("the server stops")
        .unwrap()
        .unwrap();
}

/// A client that declares a body over the limit gets its 413 at once, not after sending (or
/// failing to send) megabytes, and a compressed body gets a 415 that says why.
#[tokio::test]
async fn a_declared_length_over_the_limit_is_refused_before_the_body_arrives() {
    let server = start_server().await;
    let mut stream = TcpStream::connect(server.address).await.unwrap();
    stream
        .write_all(
            b"POST /v1/move HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: 10000000\r\n\r\n{",
        )
        .await
        .unwrap();
    let response = read_one_response(&mut stream).await;
    assert!(response.starts_with("HTTP/1.1 413"), "{response}");
    assert!(response.contains("payload_too_large"), "{response}");

    let mut stream = TcpStream::connect(server.address).await.unwrap();
    let body = r#"{"board":"O.XX.X.OO"}"#;
    let request = format!(
        "POST /v1/move HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let response = read_one_response(&mut stream).await;
    assert!(response.starts_with("HTTP/1.1 415"), "{response}");
    assert!(response.contains("Content-Encoding `gzip`"), "{response}");
    server.shutdown.send(()).unwrap();
}

/// Reads one HTTP/1.1 response with a `content-length`.
async fn read_one_response(stream: &mut TcpStream) -> String {
    let mut data = Vec::new();
    let mut buffer = [0u8; 4096];
    loop {
        let n = tokio::time::timeout(Duration::from_secs(10), stream.read(&mut buffer))
            .await
            .expect("the response arrives")
            .unwrap();
        assert!(n > 0, "the connection stays open");
        data.extend_from_slice(&buffer[..n]);
        let text = String::from_utf8_lossy(&data).into_owned();
        if let Some(end) = text.find("\r\n\r\n") {
            let length: usize = text[..end]
                .lines()
                .find_map(|l| {
                    let (name, value) = l.split_once(':')?;
                    name.eq_ignore_ascii_case("content-length")
                        .then(|| value.trim().parse().unwrap())
                })
                .expect("a content-length");
            if data.len() >= end + 4 + length {
                return text;
            }
        }
    }
}

#[tokio::test]
async fn graceful_shutdown_finishes_an_in_flight_request() {
    let server = start_server().await;
    let mut stream = TcpStream::connect(server.address).await.unwrap();
    let body = r#"{"board": ["O", 1, "X", "X", 4, "X", 6, "O", "O"], "moves": true}"#;
    // `Expect: 100-continue` makes the server say when the handler starts reading the body: the
    // signal that the request is in flight.
    let head = format!(
        "POST /v1/move HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut interim = Vec::new();
    while !interim.ends_with(b"\r\n\r\n") {
        let mut byte = [0_u8; 1];
        let read = tokio::time::timeout(Duration::from_secs(10), stream.read(&mut byte))
            .await
            .expect("the server answers the head")
            .unwrap();
        assert_eq!(read, 1, "the connection stays open");
        interim.push(byte[0]);
    }
    assert!(
        interim.starts_with(b"HTTP/1.1 100 Continue"),
        "{}",
        String::from_utf8_lossy(&interim)
    );

    // Shut down while the body is not sent yet: the server must wait for the request.
    server.shutdown.send(()).unwrap();
    tokio::time::timeout(Duration::from_secs(10), async {
        while TcpStream::connect(server.address).await.is_ok() {
            tokio::task::yield_now().await;
        }
    })
    .await
    .expect("new connections are refused once shutdown begins");
    assert!(
        !server.task.is_finished(),
        "the server waits for the open request"
    );

    stream.write_all(body.as_bytes()).await.unwrap();
    let mut response = String::new();
    tokio::time::timeout(
        Duration::from_secs(10),
        stream.read_to_string(&mut response),
    )
    .await
    .expect("the response arrives")
    .unwrap();
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    assert!(response.contains(r#""index":4"#), "{response}");

    tokio::time::timeout(Duration::from_secs(10), server.task)
        .await
        .expect("the server stops once the request is answered")
        .unwrap()
        .unwrap();
}

#[tokio::test]
async fn a_connection_that_sends_nothing_is_closed_after_the_first_byte_timeout() {
    let server = start_server_with(Settings::default(), short_limits()).await;
    let mut silent = TcpStream::connect(server.address).await.unwrap();
    let received = read_until_closed(&mut silent)
        .await
        .expect("a silent connection is closed after the first byte timeout");
    assert!(
        received.is_empty(),
        "closed without an answer: {}",
        String::from_utf8_lossy(&received)
    );
    server.shutdown.send(()).unwrap();
}

#[tokio::test]
async fn an_idle_keep_alive_connection_is_closed_after_the_keep_alive_timeout() {
    let options = ServeOptions {
        // Longer than the keep-alive timeout: the idle connection must not wait for it.
        header_read_timeout: Duration::from_secs(30),
        ..short_limits()
    };
    let server = start_server_with(Settings::default(), options).await;
    let mut stream = TcpStream::connect(server.address).await.unwrap();
    stream.write_all(SEED_REQUEST.as_bytes()).await.unwrap();
    let response = read_one_response(&mut stream).await;
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    let after = read_until_closed(&mut stream)
        .await
        .expect("an idle keep-alive connection is closed after the keep-alive timeout");
    assert!(after.is_empty(), "{}", String::from_utf8_lossy(&after));
    server.shutdown.send(()).unwrap();
}

/// An HTTP/2 frame header: length, type, flags, stream 0.
fn h2_frame(kind: u8, payload: &[u8]) -> Vec<u8> {
    let length = u32::try_from(payload.len()).unwrap().to_be_bytes();
    let mut frame = vec![length[1], length[2], length[3], kind, 0, 0, 0, 0, 0];
    frame.extend_from_slice(payload);
    frame
}

/// The types of the HTTP/2 frames in `bytes`.
fn h2_frame_types(bytes: &[u8]) -> Vec<u8> {
    let mut types = Vec::new();
    let mut rest = bytes;
    while rest.len() >= 9 {
        let length = usize::from(rest[0]) << 16 | usize::from(rest[1]) << 8 | usize::from(rest[2]);
        types.push(rest[3]);
        rest = &rest[(9 + length).min(rest.len())..];
    }
    types
}

#[tokio::test]
async fn an_idle_http2_connection_gets_a_goaway_and_is_closed() {
    const SETTINGS: u8 = 4;
    const GOAWAY: u8 = 7;
    let server = start_server_with(Settings::default(), short_limits()).await;
    let mut stream = TcpStream::connect(server.address).await.unwrap();
    let mut hello = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".to_vec();
    hello.extend(h2_frame(SETTINGS, &[]));
    stream.write_all(&hello).await.unwrap();
    let received = read_until_closed(&mut stream)
        .await
        .expect("an HTTP/2 connection without streams is closed after the keep-alive timeout");
    let types = h2_frame_types(&received);
    assert_eq!(types.first(), Some(&SETTINGS), "frames: {types:?}");
    assert!(types.contains(&GOAWAY), "a GOAWAY first: {types:?}");
    server.shutdown.send(()).unwrap();
}

#[tokio::test]
async fn a_request_head_that_stalls_gets_a_408_problem() {
    let server = start_server_with(Settings::default(), short_limits()).await;
    let mut stream = TcpStream::connect(server.address).await.unwrap();
    stream
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: test\r\n")
        .await
        .unwrap();
    let received = read_until_closed(&mut stream)
        .await
        .expect("a stalled head is cut off after the header read timeout");
    let text = String::from_utf8_lossy(&received);
    assert_problem(&text, 408, "request_timeout");
    server.shutdown.send(()).unwrap();
}

/// Asserts a whole problem+json answer with this status and code, written before a close.
#[track_caller]
fn assert_problem(response: &str, status: u16, code: &str) {
    assert!(
        response.starts_with(&format!("HTTP/1.1 {status} ")),
        "status {status}: {response:?}"
    );
    let (head, body) = response.split_once("\r\n\r\n").expect("a complete head");
    assert!(
        head.to_ascii_lowercase()
            .contains("content-type: application/problem+json"),
        "{head}"
    );
    let problem: Value = serde_json::from_str(body).expect("a JSON body");
    assert_eq!(problem["status"], status, "{problem}");
    assert_eq!(problem["code"], code, "{problem}");
    assert_eq!(problem["type"], format!("/problems/{code}"), "{problem}");
    assert!(
        problem["detail"].as_str().is_some_and(|d| !d.is_empty()),
        "{problem}"
    );
}

#[tokio::test]
async fn requests_hyper_cannot_parse_get_problem_documents() {
    let server = start_server().await;
    let huge_header = format!(
        "GET /healthz HTTP/1.1\r\nHost: test\r\nX-Padding: {}\r\n\r\n",
        "a".repeat(70 * 1024)
    );
    let cases: [(&str, &[u8], u16, &str); 3] = [
        (
            "a header line without a colon",
            b"GET /healthz HTTP/1.1\r\nHost: test\r\nno colon here\r\n\r\n",
            400,
            "bad_request",
        ),
        (
            "a request line that is not HTTP",
            b"GET /healthz NOT-HTTP\r\n\r\n",
            400,
            "bad_request",
        ),
        (
            "headers over 64 KiB",
            huge_header.as_bytes(),
            431,
            "headers_too_large",
        ),
    ];
    for (what, request, status, code) in cases {
        let mut stream = TcpStream::connect(server.address).await.unwrap();
        // The server may answer and close before it has read everything.
        let _ = stream.write_all(request).await;
        let received = read_until_closed(&mut stream)
            .await
            .unwrap_or_else(|| panic!("{what}: the connection is closed after the answer"));
        let text = String::from_utf8_lossy(&received).into_owned();
        assert!(!text.is_empty(), "{what}: an answer");
        assert_problem(&text, status, code);
    }
    server.shutdown.send(()).unwrap();
}

#[tokio::test]
async fn past_the_connection_cap_the_idlest_connections_are_closed_to_make_room() {
    let options = ServeOptions {
        max_connections: 3,
        first_byte_timeout: Duration::from_secs(30),
        ..ServeOptions::default()
    };
    let server = start_server_with(Settings::default(), options).await;
    let mut silent = Vec::new();
    for _ in 0..6 {
        silent.push(TcpStream::connect(server.address).await.unwrap());
    }
    for (n, stream) in silent.iter_mut().take(3).enumerate() {
        assert!(
            read_until_closed(stream).await.is_some(),
            "silent connection {n}, among the oldest, was closed to make room"
        );
    }
    let health = reqwest::Client::new()
        .get(format!("http://{}/healthz", server.address))
        .timeout(Duration::from_secs(5))
        .send()
        .await
        .expect("a new client gets through at the cap");
    assert_eq!(health.status(), 200);
    server.shutdown.send(()).unwrap();
}

/// A 15 × 15 search that only its deadline stops, with a work rate no search reaches.
fn endless_search(time_limit_ms: u64) -> String {
    json!({"board": ".".repeat(225), "rows": 15, "cols": 15, "k": 5, "time_limit_ms": time_limit_ms})
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn searches_whose_clients_hang_up_give_their_slots_back_at_once() {
    let settings = Settings {
        max_searches: 2,
        queue_wait: Duration::from_millis(50),
        search_work_rate: u64::MAX / 1_000_000,
        ..Settings::default()
    };
    let server = start_server_with(settings, ServeOptions::default()).await;
    let body = endless_search(10_000);
    let request = format!(
        "POST /v1/move HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut clients = Vec::new();
    for _ in 0..2 {
        let mut stream = TcpStream::connect(server.address).await.unwrap();
        stream.write_all(request.as_bytes()).await.unwrap();
        clients.push(stream);
    }
    tokio::time::timeout(Duration::from_secs(10), async {
        while server.state.searches_running() < 2 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await
    .expect("both searches start");
    drop(clients);
    // The searches have 10 s to run; they must stop far sooner, as soon as the connection sees
    // the hang-up (the reset its interim answer gets).
    tokio::time::timeout(Duration::from_secs(3), async {
        while server.state.searches_running() > 0 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await
    .expect("the searches stop when their clients hang up");
    let third = reqwest::Client::new()
        .post(format!("http://{}/v1/move", server.address))
        .header("content-type", "application/json")
        .body(endless_search(200))
        .send()
        .await
        .unwrap();
    assert_eq!(third.status(), 200, "a slot is free for the next search");
    server.shutdown.send(()).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_shuts_its_sending_side_after_its_request_gets_the_answer() {
    let server = start_server().await;
    let search = json!({"board": ".".repeat(225), "rows": 15, "cols": 15, "k": 5, "max_depth": 4})
        .to_string();
    let search = format!(
        "POST /v1/move HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{search}",
        search.len()
    );
    for (what, request) in [
        ("a 3 x 3 lookup", SEED_REQUEST.to_owned()),
        ("a 15 x 15 search", search),
    ] {
        let mut stream = TcpStream::connect(server.address).await.unwrap();
        stream.write_all(request.as_bytes()).await.unwrap();
        stream.shutdown().await.expect("shut the sending side");
        let answer = read_until_closed(&mut stream)
            .await
            .unwrap_or_else(|| panic!("{what}: the server closes after answering"));
        let text = String::from_utf8(answer).unwrap();
        // A search may be preceded by an interim 100 Continue, which clients skip.
        let last = text
            .rsplit("HTTP/1.1 ")
            .next()
            .unwrap_or_else(|| panic!("{what}: an answer: {text:?}"));
        assert!(last.starts_with("200 OK"), "{what}: {text}");
        let body = last.split_once("\r\n\r\n").unwrap().1;
        let answer: Value =
            serde_json::from_str(body).unwrap_or_else(|e| panic!("{what}: {e}: {body}"));
        assert!(answer["index"].is_u64(), "{what}: {answer}");
    }
    server.shutdown.send(()).unwrap();
}

#[tokio::test]
async fn a_request_sent_on_a_kept_alive_connection_during_shutdown_is_answered() {
    let server = start_server().await;
    let mut stream = TcpStream::connect(server.address).await.unwrap();
    stream.write_all(SEED_REQUEST.as_bytes()).await.unwrap();
    let first = read_one_response(&mut stream).await;
    assert!(first.starts_with("HTTP/1.1 200"), "{first}");
    server.shutdown.send(()).unwrap();
    // Long enough for the server to close what it considers idle; shorter than its quiet period.
    tokio::time::sleep(Duration::from_millis(200)).await;
    stream.write_all(SEED_REQUEST.as_bytes()).await.unwrap();
    let rest = read_until_closed(&mut stream)
        .await
        .expect("the connection closes after the answer");
    let second = String::from_utf8_lossy(&rest);
    assert!(
        second.starts_with("HTTP/1.1 200"),
        "the request sent during the drain is answered: {second:?}"
    );
    assert!(
        second.to_ascii_lowercase().contains("connection: close"),
        "{second}"
    );
    assert!(second.contains(r#""index":4"#), "{second}");
    tokio::time::timeout(Duration::from_secs(10), server.task)
        .await
        .expect("the server stops")
        .unwrap()
        .unwrap();
}
