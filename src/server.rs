//! The accept loop: HTTP/1.1 and HTTP/2 with TCP_NODELAY, a header read timeout for slow clients,
//! and a shutdown that loses no connection the kernel has completed.
//!
//! Shutdown, once the `shutdown` future completes (readiness is already false by then):
//! 1. keep accepting and serving for `shutdown_delay`, as a Kubernetes preStop hook would, so that
//!    load balancers see the failing readiness probe and stop sending;
//! 2. close the door: a socket filter that drops every packet is attached to the listener (Linux),
//!    so the kernel completes no further handshake (new clients' SYNs go unanswered, they retry
//!    and then find the port closed: refused, never reset);
//! 3. drain the accept queue: accept without waiting until the kernel has nothing more, and serve
//!    every connection so accepted;
//! 4. close the listener, then give open connections up to `shutdown_grace` to finish. A
//!    connection that has not yet sent its first request is not cut off: it is closed after that
//!    request's response (or after the header read timeout), never before.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use hyper_util::service::TowerToHyperService;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, mpsc, watch};
use tower::ServiceExt;

use crate::api::rate_limit::ClientAddr;

/// Connection-level limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ServeOptions {
    /// How long a client may take to send a request's headers before the connection is closed.
    pub header_read_timeout: Duration,
    /// How long in-flight requests get to finish after shutdown begins.
    pub shutdown_grace: Duration,
    /// How long the server keeps accepting (while not ready) after shutdown begins.
    pub shutdown_delay: Duration,
}

impl Default for ServeOptions {
    fn default() -> Self {
        Self {
            header_read_timeout: Duration::from_secs(10),
            shutdown_grace: Duration::from_secs(20),
            shutdown_delay: Duration::ZERO,
        }
    }
}

/// What every connection task shares with the accept loop.
struct Connections {
    builder: Builder<TokioExecutor>,
    app: Router,
    header_read_timeout: Duration,
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
        let first_request = Arc::new(Notify::new());
        let seen = Arc::clone(&first_request);
        let service = TowerToHyperService::new(self.app.clone().map_request(
            move |mut request: axum::http::Request<hyper::body::Incoming>| {
                request.extensions_mut().insert(ClientAddr(peer.ip()));
                seen.notify_one();
                request
            },
        ));
        let connection = self
            .builder
            .serve_connection_with_upgrades(TokioIo::new(stream), service)
            .into_owned();
        let mut stopping = self.stopping.clone();
        let alive = self.alive.clone();
        let first_wait = self.header_read_timeout;
        tokio::spawn(async move {
            let _alive = alive;
            tokio::pin!(connection);
            tokio::select! {
                result = connection.as_mut() => return log_closed(result),
                _ = stopping.wait_for(|stop| *stop) => {}
            }
            // Shutting down. A connection that has not delivered its first request yet (just
            // accepted, bytes in flight) gets it served: closing it now would lose it.
            tokio::select! {
                result = connection.as_mut() => return log_closed(result),
                () = first_request.notified() => {}
                () = tokio::time::sleep(first_wait) => {}
            }
            connection.as_mut().graceful_shutdown();
            log_closed(connection.await);
        });
    }
}

fn log_closed(result: Result<(), Box<dyn std::error::Error + Send + Sync>>) {
    if let Err(error) = result {
        tracing::debug!(%error, "connection closed with an error");
    }
}

fn log_accept_error(error: &std::io::Error) {
    tracing::warn!(%error, "accept failed");
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
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(options.header_read_timeout);
    builder.http2().timer(TokioTimer::new());
    let (stop, stopping) = watch::channel(false);
    let (alive, mut all_closed) = mpsc::channel::<()>(1);
    let connections = Connections {
        builder,
        app,
        header_read_timeout: options.header_read_timeout,
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
    let drained = drain_accept_queue(&listener, &connections).await;
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

/// Accepts and serves connections until `stop` completes.
async fn accept_until(
    listener: &TcpListener,
    connections: &Connections,
    stop: impl Future<Output = ()>,
) {
    tokio::pin!(stop);
    loop {
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, peer)) => connections.spawn(stream, peer),
                Err(error) => {
                    log_accept_error(&error);
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            },
            () = &mut stop => return,
        }
    }
}

/// Makes the kernel complete no more handshakes on `listener`: a classic BPF program of one
/// instruction, "return 0", drops every packet reaching the listening socket, so SYNs (and the
/// last ACK of half-open handshakes) are discarded; clients retransmit and then find the port
/// closed. Connections already in the accept queue are unaffected.
fn close_door(listener: &TcpListener) {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        // BPF_RET | BPF_K with k = 0: accept 0 bytes, that is, drop.
        const DROP_ALL: [socket2::SockFilter; 1] = [socket2::SockFilter::new(0x06, 0, 0, 0)];
        if let Err(error) = socket2::SockRef::from(listener).attach_filter(&DROP_ALL) {
            tracing::warn!(%error, "could not stop new handshakes; a late client may be reset");
        }
    }
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    let _ = listener;
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
    loop {
        match socket.accept() {
            Ok((accepted, peer)) => {
                let stream = std::net::TcpStream::from(accepted);
                let stream = stream
                    .set_nonblocking(true)
                    .and_then(|()| TcpStream::from_std(stream));
                match (stream, peer.as_socket()) {
                    (Ok(stream), Some(peer)) => {
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
            Err(error) => {
                log_accept_error(&error);
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
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
