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
    shutdown: oneshot::Sender<()>,
    task: JoinHandle<std::io::Result<()>>,
}

async fn start_server() -> RunningServer {
    let listener = TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind a free port");
    let address = listener.local_addr().unwrap();
    let (shutdown, signal) = oneshot::channel::<()>();
    let router = app(AppState::ready(Settings::default()));
    let task = tokio::spawn(serve(
        listener,
        router,
        async move {
            let _ = signal.await;
        },
        ServeOptions::default(),
    ));
    RunningServer {
        address,
        shutdown,
        task,
    }
}

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
