//! The real binary as a container runs it: configured from the environment, bound to 0.0.0.0,
//! probed by its own `healthcheck` subcommand, and stopped with SIGTERM while a request is in
//! flight.
//!
//! Every server here listens on a port picked free just before; signals go through `kill(1)` so
//! the test needs no `libc`.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

const BINARY: &str = env!("CARGO_BIN_EXE_minimax-move");

/// A port nobody listens on right now, on every interface.
fn free_port() -> u16 {
    TcpListener::bind((Ipv4Addr::UNSPECIFIED, 0))
        .and_then(|listener| listener.local_addr())
        .expect("an ephemeral port can be bound")
        .port()
}

/// The server process, killed when dropped so that a failing test leaves nothing behind.
struct Server {
    child: Child,
    port: u16,
}

impl Server {
    /// Starts the binary with HOST and PORT from the environment (not flags), as in a container,
    /// and waits until it is ready.
    fn start(host: &str) -> Self {
        let mut server = Self::spawn(host);
        server.wait_until_ready();
        server
    }

    /// Starts the binary as `start` does without waiting for anything.
    fn spawn(host: &str) -> Self {
        Self::spawn_with(host, &[])
    }

    /// Starts the binary as `spawn` does, with more environment variables.
    fn spawn_with(host: &str, env: &[(&str, &str)]) -> Self {
        let port = free_port();
        let child = Command::new(BINARY)
            .env_clear()
            .env("HOST", host)
            .env("PORT", port.to_string())
            .env("RUST_LOG", "warn")
            .env("SHUTDOWN_GRACE_MS", "5000")
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary starts");
        Self { child, port }
    }

    fn address(&self) -> SocketAddr {
        SocketAddr::from((Ipv4Addr::LOCALHOST, self.port))
    }

    /// Waits for `/readyz` to answer 200, as long as the process runs: a server that exits
    /// fails the test at once, one that never gets ready is the harness's timeout to report.
    fn wait_until_ready(&mut self) {
        loop {
            if request(self.address(), "GET", "/readyz", None).is_ok_and(|r| r.status == 200) {
                return;
            }
            if let Some(status) = self.child.try_wait().expect("the child can be polled") {
                panic!(
                    "the server on port {} exited before it was ready: {status}",
                    self.port
                );
            }
            thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits until the server reports a search running (its `minimax_searches_in_flight` gauge).
    fn wait_until_searching(&mut self) {
        loop {
            let metrics = request(self.address(), "GET", "/metrics", None)
                .expect("the server answers /metrics");
            if metrics.body.lines().any(|line| {
                line.starts_with("minimax_searches_in_flight ") && !line.ends_with(" 0")
            }) {
                return;
            }
            if let Some(status) = self.child.try_wait().expect("the child can be polled") {
                panic!("the server exited before the search started: {status}");
            }
            thread::sleep(Duration::from_millis(5));
        }
    }

    fn terminate(&self) {
        let status = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .expect("kill(1) runs");
        assert!(status.success(), "kill -TERM failed: {status}");
    }

    /// Waits for the process to exit, at most `limit`.
    fn wait_for_exit(&mut self, limit: Duration) -> ExitStatus {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(status) = self.child.try_wait().expect("the child can be polled") {
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "the server did not exit within {limit:?} of SIGTERM"
            );
            thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// A complete HTTP/1.1 response, read to the end of a `Connection: close` exchange.
#[derive(Debug)]
struct Response {
    status: u16,
    head: String,
    body: String,
}

/// One request over a fresh connection, with a 10 s timeout on every step.
fn request(
    address: SocketAddr,
    method: &str,
    path: &str,
    json: Option<&str>,
) -> std::io::Result<Response> {
    let timeout = Duration::from_secs(10);
    let mut stream = TcpStream::connect_timeout(&address, Duration::from_secs(1))?;
    stream.set_read_timeout(Some(timeout))?;
    stream.set_write_timeout(Some(timeout))?;
    let body = json.unwrap_or("");
    let content_type = if json.is_some() {
        "Content-Type: application/json\r\n"
    } else {
        ""
    };
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n{content_type}Content-Length: {}\r\n\r\n{body}",
        body.len()
    )?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw)?;
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text
        .split_once("\r\n\r\n")
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidData, "no end of headers"))?;
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidData, "no status line"))?;
    Ok(Response {
        status,
        head: head.to_owned(),
        body: body.to_owned(),
    })
}

fn healthcheck(host: &str, port: u16) -> Output {
    Command::new(BINARY)
        .arg("healthcheck")
        .env_clear()
        .env("HOST", host)
        .env("PORT", port.to_string())
        .output()
        .expect("the healthcheck subcommand runs")
}

#[test]
fn binds_every_interface_from_the_environment_and_answers_health_probes_on_loopback() {
    let server = Server::start("0.0.0.0");
    let response = request(server.address(), "GET", "/healthz", None).expect("GET /healthz");
    assert_eq!(response.status, 200, "GET /healthz: {response:?}");

    let probe = healthcheck("0.0.0.0", server.port);
    assert!(
        probe.status.success(),
        "healthcheck against the running server failed: {}",
        String::from_utf8_lossy(&probe.stderr)
    );
}

#[test]
fn healthcheck_fails_against_a_closed_port() {
    let probe = healthcheck("127.0.0.1", free_port());
    assert!(
        !probe.status.success(),
        "healthcheck succeeded with nothing listening"
    );
    assert!(
        !probe.stderr.is_empty(),
        "a failing healthcheck says why on stderr"
    );
}

#[test]
fn sigterm_finishes_the_request_in_flight_then_exits_zero() {
    let mut server = Server::start("0.0.0.0");
    let address = server.address();
    // A 7 x 7 search that is not solved within its budget: the work budget of a 4 s limit keeps
    // it busy for a second or more on the reference machine (the research notes (docs/strength.md)).
    let board = ".".repeat(49);
    let in_flight = thread::spawn(move || {
        let body = format!(r#"{{"board":"{board}","rows":7,"cols":7,"k":5,"time_limit_ms":4000}}"#);
        request(address, "POST", "/v1/move", Some(&body))
    });
    server.wait_until_searching();
    server.terminate();

    let response = in_flight.join().expect("the client thread does not panic");
    let response = response.expect("the request in flight gets a complete response, not a reset");
    assert_eq!(
        response.status, 200,
        "the request in flight was answered: {response:?}"
    );
    let body: serde_json::Value =
        serde_json::from_str(&response.body).expect("the response body is complete JSON");
    assert!(body["index"].is_u64(), "a move was suggested: {body}");

    // A guard against a hang, not a measure of speed: the server exits once the request is answered.
    let status = server.wait_for_exit(Duration::from_secs(60));
    assert!(status.success(), "exit status after SIGTERM: {status}");
    assert!(
        TcpStream::connect_timeout(&address, Duration::from_millis(200)).is_err(),
        "the port is closed after exit"
    );
}

#[test]
fn sigterm_on_an_idle_server_exits_zero() {
    let mut server = Server::start("127.0.0.1");
    server.terminate();
    let status = server.wait_for_exit(Duration::from_secs(60));
    assert!(status.success(), "exit status after SIGTERM: {status}");
}

/// The moment its port takes connections (while the 3 x 3 table may still be building), the
/// server handles SIGTERM: a probe that got through is never followed by a default-action kill.
#[test]
fn sigterm_as_soon_as_the_port_takes_connections_exits_zero() {
    let mut server = Server::spawn("127.0.0.1");
    while TcpStream::connect_timeout(&server.address(), Duration::from_secs(1)).is_err() {
        if let Some(status) = server.child.try_wait().expect("the child can be polled") {
            panic!("the server exited before it listened: {status}");
        }
        thread::sleep(Duration::from_millis(1));
    }
    server.terminate();
    let status = server.wait_for_exit(Duration::from_secs(60));
    assert!(status.success(), "exit status after SIGTERM: {status}");
}

#[test]
fn openapi_subcommand_prints_the_yaml_document() {
    let output = Command::new(BINARY)
        .arg("openapi")
        .output()
        .expect("the openapi subcommand runs");
    assert!(output.status.success(), "openapi exit status");
    let yaml = String::from_utf8(output.stdout).expect("the document is UTF-8");
    assert!(
        yaml.starts_with("openapi: 3."),
        "the document starts with its OpenAPI version: {:?}",
        yaml.lines().next()
    );
    for needle in [
        "/v1/move:",
        "/healthz:",
        "/readyz:",
        "application/problem+json",
    ] {
        assert!(yaml.contains(needle), "the document mentions {needle}");
    }
}

#[test]
fn serves_the_seed_board_over_a_real_socket() {
    let server = Server::start("127.0.0.1");
    let response = request(
        server.address(),
        "POST",
        "/v1/move",
        Some(r#"{"board":["O",1,"X","X",4,"X",6,"O","O"],"moves":true}"#),
    )
    .expect("POST /v1/move");
    assert_eq!(response.status, 200, "{response:?}");
    let head = response.head.to_ascii_lowercase();
    assert!(
        head.contains("content-type: application/json"),
        "JSON content type: {head}"
    );
    let body: serde_json::Value = serde_json::from_str(&response.body).expect("JSON body");
    assert_eq!(body["index"], 4, "the seed board's best move: {body}");
}

/// How a kept-alive client's conversation with a draining server ended.
#[derive(Debug, PartialEq, Eq)]
enum Ending {
    /// The server's last answer said `Connection: close`.
    AnsweredWithClose,
    /// The server closed the connection while no request was outstanding (seen before sending).
    ClosedWhileIdle,
    /// A request was sent and got no whole answer: lost.
    Lost(String),
}

/// Whether the server has closed (or reset) the connection, without waiting.
fn closed_by_server(stream: &TcpStream) -> bool {
    stream.set_nonblocking(true).unwrap();
    let mut probe = [0_u8; 1];
    let closed = match stream.peek(&mut probe) {
        Ok(n) => n == 0,
        Err(error) => error.kind() != std::io::ErrorKind::WouldBlock,
    };
    stream.set_nonblocking(false).unwrap();
    closed
}

/// One client on one kept-alive connection: sends the seed board again and again, counting the
/// answers, until the server says `Connection: close` or closes. Like an HTTP client's connection
/// pool, it checks that the connection is still open before reusing it.
fn kept_alive_client(address: SocketAddr, answered: &AtomicUsize) -> Ending {
    let body = r#"{"board":"O.XX.X.OO"}"#;
    let request = format!(
        "POST /v1/move HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let stream = TcpStream::connect(address).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut writer = stream;
    loop {
        if closed_by_server(&writer) {
            return Ending::ClosedWhileIdle;
        }
        if let Err(error) = writer.write_all(request.as_bytes()) {
            return Ending::Lost(format!("send failed: {error}"));
        }
        let mut status = String::new();
        match reader.read_line(&mut status) {
            Ok(0) => return Ending::Lost("end of stream instead of an answer".to_owned()),
            Err(error) => return Ending::Lost(format!("no answer: {error}")),
            Ok(_) => {}
        }
        let mut length = None;
        let mut close = false;
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                return Ending::Lost(format!("a head cut short after {status:?}"));
            }
            let line = line.trim_end().to_ascii_lowercase();
            if line.is_empty() {
                break;
            }
            if let Some(value) = line.strip_prefix("content-length:") {
                length = value.trim().parse::<usize>().ok();
            }
            close |= line == "connection: close";
        }
        let mut payload = vec![0_u8; length.unwrap_or(0)];
        if let Err(error) = reader.read_exact(&mut payload) {
            return Ending::Lost(format!("a body cut short: {error}"));
        }
        if !status.starts_with("HTTP/1.1 200") {
            return Ending::Lost(format!("answered {status:?}"));
        }
        answered.fetch_add(1, Ordering::Relaxed);
        if close {
            return Ending::AnsweredWithClose;
        }
    }
}

#[test]
fn sigterm_answers_every_request_sent_on_kept_alive_connections() {
    const CLIENTS: usize = 8;
    let mut server = Server::start("127.0.0.1");
    let address = server.address();
    let answered = Arc::new(AtomicUsize::new(0));
    let clients: Vec<_> = (0..CLIENTS)
        .map(|_| {
            let answered = Arc::clone(&answered);
            thread::spawn(move || kept_alive_client(address, &answered))
        })
        .collect();
    // Under way: every client has had a few answers.
    let deadline = Instant::now() + Duration::from_secs(30);
    while answered.load(Ordering::Relaxed) < CLIENTS * 20 {
        assert!(Instant::now() < deadline, "the clients get answers");
        thread::sleep(Duration::from_millis(5));
    }
    server.terminate();
    let endings: Vec<Ending> = clients
        .into_iter()
        .map(|client| client.join().expect("a client thread does not panic"))
        .collect();
    let lost: Vec<&Ending> = endings
        .iter()
        .filter(|e| matches!(e, Ending::Lost(_)))
        .collect();
    assert!(
        lost.is_empty(),
        "requests lost at SIGTERM: {lost:?} (all: {endings:?})"
    );
    assert!(
        endings.contains(&Ending::AnsweredWithClose),
        "busy clients are told to close: {endings:?}"
    );
    let status = server.wait_for_exit(Duration::from_secs(60));
    assert!(status.success(), "exit status after SIGTERM: {status}");
}

#[test]
fn past_max_connections_the_oldest_silent_connections_are_closed_and_clients_get_through() {
    // A first byte limit long enough that only the cap closes connections here.
    let mut server = Server::spawn_with(
        "127.0.0.1",
        &[
            ("MAX_CONNECTIONS", "16"),
            ("FIRST_BYTE_TIMEOUT_MS", "60000"),
        ],
    );
    server.wait_until_ready();
    let silent: Vec<TcpStream> = (0..40)
        .map(|_| TcpStream::connect(server.address()).expect("connect"))
        .collect();
    let response = request(server.address(), "GET", "/healthz", None)
        .expect("/healthz answers while silent connections fill the cap");
    assert_eq!(response.status, 200, "{response:?}");
    let closed = silent
        .iter()
        .filter(|stream| {
            stream
                .set_read_timeout(Some(Duration::from_millis(200)))
                .unwrap();
            match (&**stream).read(&mut [0_u8; 1]) {
                Ok(n) => n == 0,
                Err(error) => !matches!(
                    error.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ),
            }
        })
        .count();
    assert!(
        closed >= 40 - 16,
        "only {closed} of 40 silent connections were closed under a cap of 16"
    );
    server.terminate();
    assert!(server.wait_for_exit(Duration::from_secs(60)).success());
}
