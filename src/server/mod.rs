//! The accept loop: HTTP/1.1 and HTTP/2 with TCP_NODELAY, time limits on every phase of a
//! connection, a cap on open connections, and a shutdown that loses no connection the kernel has
//! completed and no request sent on an open one.
//!
//! Connections: a new connection must send its first byte within `first_byte_timeout`, an HTTP/1
//! request head must arrive within `header_read_timeout` of its first byte (else a `408`), and a
//! connection idle between requests (HTTP/1 keep-alive, HTTP/2 with no stream open) is closed
//! after `keep_alive_timeout`; HTTP/2 connections are also pinged every [`H2_PING_INTERVAL`] and
//! closed when a ping goes unanswered for [`H2_PING_TIMEOUT`]. At most `max_connections` are open:
//! at the cap the idlest connection is evicted to make room, and when every connection is
//! answering a request, accepting pauses (see `capacity.rs`). Errors hyper answers by itself
//! before routing get problem+json bodies (see `io.rs`).
//!
//! Shutdown, once the `shutdown` future completes (readiness is already false by then):
//! 1. keep accepting and serving for `shutdown_delay`, as a Kubernetes preStop hook would, so that
//!    load balancers see the failing readiness probe and stop sending;
//! 2. close the door: a socket filter that drops every new client's SYN is attached to the
//!    listener (Linux), so no new handshake starts (such clients retry and then find the port
//!    closed: refused, never reset), while handshakes already under way still complete;
//! 3. drain the accept queue for [`HANDSHAKE_SETTLE`]: accept without waiting, again and again,
//!    until the handshakes under way have completed, and serve every connection so accepted;
//! 4. close the listener, then give open connections up to `shutdown_grace` to finish. HTTP/1
//!    answers from then on carry `Connection: close`; a kept-alive connection is closed once it
//!    has been quiet for [`DRAIN_QUIET`], so a request its client sends meanwhile is answered,
//!    not lost; HTTP/2 connections get a GOAWAY. A connection that has not yet sent its first
//!    request keeps its usual time limits: its request is answered if it arrives in time.

mod capacity;
mod connection;
mod io;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, watch};

use capacity::{AcceptBackoff, Registry};
pub use connection::{CLOSE_TIMEOUT, DRAIN_QUIET};
use connection::{Connection, ConnectionService, Timeouts};

/// Interval of the keep-alive pings on an HTTP/2 connection.
pub const H2_PING_INTERVAL: Duration = Duration::from_secs(20);

/// How long an HTTP/2 keep-alive ping may go unanswered before the connection is closed.
pub const H2_PING_TIMEOUT: Duration = Duration::from_secs(20);

/// How long, once no new handshake can start, the accept queue keeps being drained before the
/// listener closes: long enough for the last ACK of every handshake already under way to arrive
/// (a round trip), since a client whose handshake completes after the listener closed would be
/// reset.
pub const HANDSHAKE_SETTLE: Duration = Duration::from_millis(100);

/// Largest request head (request line and headers) hyper buffers, in bytes; a larger one gets a
/// `431` problem.
pub const MAX_HEAD_BYTES: usize = 64 * 1024;

/// File descriptors kept out of the default connection cap, for everything else the process
/// opens.
const RESERVED_DESCRIPTORS: u64 = 64;

/// The default connection cap when the open-file limit allows it.
const DEFAULT_MAX_CONNECTIONS: usize = 1024;

/// Connection-level limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ServeOptions {
    /// How long a new connection may stay silent before it is closed.
    pub first_byte_timeout: Duration,
    /// How long a client may take to send a request's head, from its first byte, before the
    /// connection is closed with a `408`.
    pub header_read_timeout: Duration,
    /// How long a connection may stay idle between requests before it is closed.
    pub keep_alive_timeout: Duration,
    /// Most connections open at once; see the module documentation for what happens at the cap.
    pub max_connections: usize,
    /// How long in-flight requests get to finish after shutdown begins.
    pub shutdown_grace: Duration,
    /// How long the server keeps accepting (while not ready) after shutdown begins.
    pub shutdown_delay: Duration,
}

impl Default for ServeOptions {
    fn default() -> Self {
        Self {
            first_byte_timeout: Duration::from_secs(5),
            header_read_timeout: Duration::from_secs(10),
            keep_alive_timeout: Duration::from_secs(75),
            max_connections: default_max_connections(),
            shutdown_grace: Duration::from_secs(20),
            shutdown_delay: Duration::ZERO,
        }
    }
}

impl ServeOptions {
    /// For a shutdown that began at `began`: when streams of events still searching must stop,
    /// so that the `error` event that ends each one is written before the grace period ends
    /// (the grace period's last second, or its second half when it is shorter than 2 s, is left
    /// for that).
    #[must_use]
    pub fn streams_end_by(&self, began: std::time::Instant) -> std::time::Instant {
        let wrap_up = STREAM_WRAP_UP.min(self.shutdown_grace / 2);
        began + self.shutdown_delay + self.shutdown_grace - wrap_up
    }
}

/// The end of the grace period kept for stopped streams to write their last event.
const STREAM_WRAP_UP: Duration = Duration::from_secs(1);

/// The default connection cap: 1,024, or the process's open-file limit less 64 descriptors when
/// that is lower, so that the cap is reached before `accept` runs out of descriptors.
#[must_use]
pub fn default_max_connections() -> usize {
    open_file_limit().map_or(DEFAULT_MAX_CONNECTIONS, |limit| {
        let room = limit.saturating_sub(RESERVED_DESCRIPTORS).max(1);
        usize::try_from(room).map_or(DEFAULT_MAX_CONNECTIONS, |room| {
            room.min(DEFAULT_MAX_CONNECTIONS)
        })
    })
}

/// The soft limit on open files of this process (Linux: `/proc/self/limits`), if known.
fn open_file_limit() -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    line["Max open files".len()..]
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// What every connection task shares with the accept loop.
struct Connections {
    builder: Builder<TokioExecutor>,
    app: Router,
    timeouts: Timeouts,
    registry: Arc<Registry>,
    /// Becomes true when shutdown begins.
    stopping: watch::Receiver<bool>,
    /// Each task holds a clone; the receiver sees `None` once every connection has finished.
    alive: mpsc::Sender<()>,
}

impl Connections {
    fn spawn(&self, stream: TcpStream, peer: std::net::SocketAddr) {
        // Responses go out in one write; without this, delayed ACKs add ~40 ms.
        if let Err(error) = stream.set_nodelay(true) {
            tracing::debug!(%error, "could not set TCP_NODELAY");
        }
        let stream = Arc::new(stream);
        let state = Arc::new(Connection::new());
        let registered = self.registry.register(Arc::clone(&state));
        let service = ConnectionService {
            app: self.app.clone(),
            connection: Arc::clone(&state),
            peer: peer.ip(),
            stopping: self.stopping.clone(),
        };
        let traffic: Arc<dyn io::Traffic> = Arc::clone(&state) as _;
        let io = TokioIo::new(io::WatchedStream::new(Arc::clone(&stream), traffic));
        let connection = self
            .builder
            .serve_connection_with_upgrades(io, service)
            .into_owned();
        let stopping = self.stopping.clone();
        let alive = self.alive.clone();
        let timeouts = self.timeouts;
        tokio::spawn(async move {
            let _alive = alive;
            let _registered = registered;
            connection::run(connection, stream, state, timeouts, stopping).await;
        });
    }
}

/// Serves `app` on `listener` until `shutdown` completes, then drains as the module documentation
/// describes and waits up to the grace period for open connections to finish their requests.
///
/// # Errors
/// Never at present; accept errors (such as running out of file descriptors) are logged and
/// retried.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    shutdown: impl Future<Output = ()>,
    options: ServeOptions,
) -> std::io::Result<()> {
    let mut builder = Builder::new(TokioExecutor::new());
    // The header read timeout is the connection task's (it starts at the head's first byte, and
    // answers with a 408); hyper's would start as soon as a connection waits for a request.
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(None)
        .max_buf_size(MAX_HEAD_BYTES)
        // A client that shuts its sending side after its request still gets the answer; the
        // connection task notices a client that left (connection.rs).
        .half_close(true);
    builder
        .http2()
        .timer(TokioTimer::new())
        .keep_alive_interval(H2_PING_INTERVAL)
        .keep_alive_timeout(H2_PING_TIMEOUT);
    let (stop, stopping) = watch::channel(false);
    let (alive, mut all_closed) = mpsc::channel::<()>(1);
    let connections = Connections {
        builder,
        app,
        timeouts: Timeouts {
            first_byte: options.first_byte_timeout,
            header_read: options.header_read_timeout,
            keep_alive: options.keep_alive_timeout,
        },
        registry: Arc::new(Registry::new(options.max_connections)),
        stopping,
        alive,
    };
    accept_until(&listener, &connections, shutdown).await;
    tracing::info!(
        delay_ms = options.shutdown_delay.as_millis(),
        "shutting down: not ready; still accepting for the shutdown delay"
    );
    accept_until(
        &listener,
        &connections,
        tokio::time::sleep(options.shutdown_delay),
    )
    .await;
    close_door(&listener);
    let drained = tokio::time::timeout(
        options.shutdown_grace,
        settle_and_drain(&listener, &connections),
    )
    .await
    .unwrap_or_else(|_| {
        tracing::warn!("the accept queue did not drain within the grace period");
        0
    });
    drop(listener);
    tracing::info!(drained, "listener closed; finishing open requests");
    // From here on connections finish their current request and close.
    stop.send_replace(true);
    drop(connections);
    tokio::select! {
        _ = all_closed.recv() => tracing::info!("all connections closed"),
        () = tokio::time::sleep(options.shutdown_grace) => {
            tracing::warn!("grace period over; closing the remaining connections");
        }
    }
    Ok(())
}

/// Accepts and serves connections until `stop` completes, keeping under the connection cap.
async fn accept_until(
    listener: &TcpListener,
    connections: &Connections,
    stop: impl Future<Output = ()>,
) {
    tokio::pin!(stop);
    let mut backoff = AcceptBackoff::default();
    loop {
        tokio::select! {
            () = connections.registry.wait_for_room() => {}
            () = &mut stop => return,
        }
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, peer)) => {
                    backoff.succeeded();
                    connections.spawn(stream, peer);
                }
                Err(error) => backoff.failed(&error, &connections.registry).await,
            },
            () = &mut stop => return,
        }
    }
}

/// Makes the kernel start no more handshakes on `listener`: a classic BPF program drops every
/// segment reaching the listening socket with the SYN flag set, so new clients' SYNs go
/// unanswered; they retransmit and then find the port closed. Every other segment passes, so a
/// handshake already under way (its SYN answered) completes when the client's ACK arrives, and
/// lands in the accept queue instead of being reset when the listener closes. The filter sees
/// the TCP header at offset 0 (the kernel runs a listener's filter after the IP header is
/// pulled). Connections accepted later inherit the filter, which is harmless: an established
/// connection never receives a SYN.
fn close_door(listener: &TcpListener) {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        use socket2::SockFilter;
        // ldb [13]            ; the TCP flags byte
        // jset #0x02, 0, 1    ; SYN set: fall through to drop, else skip to pass
        // ret #0              ; drop
        // ret #0xffffffff     ; pass the whole segment
        const DROP_SYN: [SockFilter; 4] = [
            SockFilter::new(0x30, 0, 0, 13),
            SockFilter::new(0x45, 0, 1, 0x02),
            SockFilter::new(0x06, 0, 0, 0),
            SockFilter::new(0x06, 0, 0, u32::MAX),
        ];
        if let Err(error) = socket2::SockRef::from(listener).attach_filter(&DROP_SYN) {
            tracing::warn!(%error, "could not stop new handshakes; a late client may be reset");
        }
    }
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    let _ = listener;
}

/// Drains the accept queue until [`HANDSHAKE_SETTLE`] has passed since the door closed, so that
/// handshakes under way when it closed are accepted and served too. Returns how many
/// connections were drained.
async fn settle_and_drain(listener: &TcpListener, connections: &Connections) -> usize {
    let settled = tokio::time::Instant::now() + HANDSHAKE_SETTLE;
    let mut drained = drain_accept_queue(listener, connections).await;
    while tokio::time::Instant::now() < settled {
        // Polled, not awaited on readiness: the drain makes the system call directly (see
        // `drain_accept_queue`), and a few polls over 100 ms cost nothing at shutdown.
        tokio::time::sleep(Duration::from_millis(5)).await;
        drained += drain_accept_queue(listener, connections).await;
    }
    drained
}

/// Accepts, without waiting, every connection the kernel has completed, and serves each.
/// Returns how many there were.
///
/// The `accept` system call is made directly: tokio's `poll_accept` answers from the reactor's
/// cached readiness, which can lag behind the kernel when the runtime is busy, and a connection
/// it has not yet heard of would be reset when the listener closes.
async fn drain_accept_queue(listener: &TcpListener, connections: &Connections) -> usize {
    let socket = socket2::SockRef::from(listener);
    let mut drained = 0;
    let mut backoff = AcceptBackoff::default();
    loop {
        connections.registry.wait_for_room().await;
        match socket.accept() {
            Ok((accepted, peer)) => {
                let stream = std::net::TcpStream::from(accepted);
                let stream = stream
                    .set_nonblocking(true)
                    .and_then(|()| TcpStream::from_std(stream));
                match (stream, peer.as_socket()) {
                    (Ok(stream), Some(peer)) => {
                        backoff.succeeded();
                        drained += 1;
                        connections.spawn(stream, peer);
                    }
                    (Err(error), _) => {
                        tracing::warn!(%error, "could not serve a drained connection")
                    }
                    (Ok(_), None) => tracing::warn!("drained a connection without an IP peer"),
                }
            }
            Err(error) if error.kind() == std::io::ErrorKind::WouldBlock => return drained,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
            // EMFILE and the like: the kernel still holds the connection; try again shortly.
            Err(error) => backoff.failed(&error, &connections.registry).await,
        }
    }
}

/// Registers for Ctrl-C and SIGTERM now and returns a future that completes on either.
///
/// The handlers are installed by this call, not on the future's first poll: a caller that calls
/// it before binding its listener can never be killed by a SIGTERM's default action once it
/// answers a request (CI once sent SIGTERM in the gap between an answered readiness probe and
/// the accept loop's first poll of a lazily registered handler). Must be called within a tokio
/// runtime. A handler that cannot be installed is logged and that signal is left to its default.
pub fn shutdown_signal() -> impl Future<Output = ()> + Send + 'static {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let register = |kind: SignalKind, name: &'static str| {
            signal(kind)
                .inspect_err(|error| tracing::warn!(%error, name, "cannot handle the signal"))
                .ok()
        };
        let interrupt = register(SignalKind::interrupt(), "SIGINT");
        let terminate = register(SignalKind::terminate(), "SIGTERM");
        async move {
            let received = |signal: Option<tokio::signal::unix::Signal>| async move {
                match signal {
                    Some(mut signal) => {
                        signal.recv().await;
                    }
                    None => std::future::pending::<()>().await,
                }
            };
            tokio::select! {
                () = received(interrupt) => tracing::info!("Ctrl-C received"),
                () = received(terminate) => tracing::info!("SIGTERM received"),
            }
        }
    }
    #[cfg(not(unix))]
    async {
        if tokio::signal::ctrl_c().await.is_ok() {
            tracing::info!("Ctrl-C received");
        } else {
            std::future::pending::<()>().await;
        }
    }
}

#[cfg(all(test, any(target_os = "linux", target_os = "android")))]
mod tests {
    use std::io::{ErrorKind, Read, Write};
    use std::net::TcpStream as StdStream;

    use super::*;

    /// Once the door is closed a new client's SYN goes unanswered (its connect times out rather
    /// than completing or being refused), while a connection the kernel completed before is
    /// still accepted and carries data both ways.
    #[tokio::test]
    async fn a_closed_door_starts_no_handshake_and_keeps_completed_ones() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let mut early = StdStream::connect(address).unwrap();

        close_door(&listener);

        let late = StdStream::connect_timeout(&address, Duration::from_millis(300));
        let error = late.expect_err("a handshake completed after the door closed");
        assert_eq!(error.kind(), ErrorKind::TimedOut, "{error}");

        let (accepted, _) = socket2::SockRef::from(&listener).accept().unwrap();
        let mut accepted = StdStream::from(accepted);
        early.write_all(b"ping").unwrap();
        let mut got = [0; 4];
        accepted.read_exact(&mut got).unwrap();
        assert_eq!(&got, b"ping");
        accepted.write_all(b"pong").unwrap();
        early.read_exact(&mut got).unwrap();
        assert_eq!(&got, b"pong");
    }
}
