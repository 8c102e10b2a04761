//! One connection: what it is doing (the phases below), the hyper service that counts its
//! requests, and the task that serves it and closes it when a time limit passes.
//!
//! A connection is in one of four phases, each with its own limit:
//! - **new**: accepted, not a byte received yet: closed silently after `first_byte_timeout`;
//! - **reading a head** (HTTP/1): bytes of a request have arrived, its head is not complete: closed
//!   with a `408` problem after `header_read_timeout` from the first of those bytes;
//! - **busy**: a request is being answered (until the last byte of its body, so a stream of
//!   server-sent events is busy as long as it runs), or its answer cannot be written yet because
//!   the client does not read; no limit here (the request timeout bounds the handler);
//! - **idle**: between requests (HTTP/1 keep-alive, or HTTP/2 with no stream open): closed after
//!   `keep_alive_timeout` (an HTTP/2 connection gets a GOAWAY first).
//!
//! An HTTP/1 client may shut its sending side once its request is sent and still read the
//! answer (a half-closed connection): hyper keeps answering after the end of the client's
//! stream (`half_close`). The end of that stream no longer tells that the client left, so a
//! request still unanswered after [`WATCH_AFTER`] is watched: once the client's side is seen
//! closed, the connection writes one interim `100 Continue` (which HTTP/1.1 clients skip) ahead
//! of the answer. A client that only half-closed takes it; a client that closed its socket
//! answers it with a reset, and the connection is dropped with its request, which cancels its
//! search.
//!
//! While the server drains, HTTP/1 answers carry `Connection: close`, idle connections are closed
//! once they have been quiet for [`DRAIN_QUIET`] (a request that arrives before that is answered),
//! and HTTP/2 connections get a GOAWAY at once (the streams they have open finish).

use std::convert::Infallible;
use std::future::Future;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use axum::Router;
use axum::http::{HeaderValue, Request, Response, Version, header};
use hyper::body::Incoming;
use tokio::net::TcpStream;
use tokio::sync::{Notify, watch};
use tokio::time::Instant;
use tower::ServiceExt;

use super::io::{ProtocolError, Traffic};
use crate::api::rate_limit::ClientAddr;

/// While draining, how long a kept-alive connection must be quiet before it is closed. A client
/// that sends its next request within this gets an answer (with `Connection: close`) rather than
/// a closed connection.
pub const DRAIN_QUIET: Duration = Duration::from_secs(1);

/// How long a connection being closed gracefully (an HTTP/2 GOAWAY, an answer still being
/// written) may take before it is dropped.
pub const CLOSE_TIMEOUT: Duration = Duration::from_secs(1);

/// How long an HTTP/1 request may go unanswered before its connection is watched for a client
/// that closed its side (a lookup is answered well before), and how often it is looked at.
pub const WATCH_AFTER: Duration = Duration::from_millis(50);

/// The interim answer written to a client whose side has closed while its request runs: a
/// write that a client that left answers with a reset.
const CONTINUE: &[u8] = b"HTTP/1.1 100 Continue\r\n\r\n";

const H2_PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

/// The time limits of a connection's phases.
#[derive(Clone, Copy, Debug)]
pub(super) struct Timeouts {
    pub first_byte: Duration,
    pub header_read: Duration,
    pub keep_alive: Duration,
}

/// The state of one connection, shared by its task, its byte stream, its service and the
/// connection registry.
#[derive(Debug)]
pub(super) struct Connection {
    accepted: Instant,
    activity: Mutex<Activity>,
    /// Set while a write waits for the client to read.
    write_blocked: AtomicBool,
    /// Woken on every change of phase, and to evict.
    changed: Notify,
}

#[derive(Debug)]
struct Activity {
    /// Requests being answered (more than one only over HTTP/2).
    in_flight: usize,
    /// When the connection last became idle (accepted, or its last answer was done).
    quiet_since: Instant,
    /// The first byte of a request head received while idle, over HTTP/1.
    head_started: Option<Instant>,
    /// Whether any byte has arrived.
    any_byte: bool,
    protocol: Protocol,
    evicted: bool,
    /// When the current HTTP/1 request started, until its answer is handed to hyper.
    unanswered_since: Option<Instant>,
    /// Whether the interim answer was written for the current request.
    probed: bool,
}

/// What the watch of an unanswered HTTP/1 request found (see [`Connection::watch_client`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ClientWatch {
    /// Nothing to watch, or nothing seen: look again at this instant, if any.
    Again(Option<Instant>),
    /// The client closed its socket: drop the connection and its request.
    Gone,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Protocol {
    /// Still undecided: this many bytes matched the HTTP/2 preface so far.
    Unknown(usize),
    Http1,
    Http2,
}

/// What the connection task should do now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Verdict {
    /// Keep serving; look again at this instant (or when the phase changes).
    Wait(Option<Instant>),
    /// Close the connection.
    Close(Closing),
}

/// Why a connection is closed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Closing {
    /// No byte arrived in time.
    Silent,
    /// A request's head did not arrive in time: answered with a `408`.
    HeadTimeout,
    /// Idle for the keep-alive timeout (or the drain's quiet period).
    Idle,
    /// Evicted to make room under the connection cap.
    Evicted,
}

impl Traffic for Connection {
    fn received(&self, bytes: &[u8]) {
        Self::received(self, bytes);
    }

    fn write_blocked(&self) {
        Self::write_blocked(self);
    }

    fn write_done(&self) {
        Self::write_done(self);
    }
}

impl Connection {
    pub(super) fn new() -> Self {
        let now = Instant::now();
        Self {
            accepted: now,
            activity: Mutex::new(Activity {
                in_flight: 0,
                quiet_since: now,
                head_started: None,
                any_byte: false,
                protocol: Protocol::Unknown(0),
                evicted: false,
                unanswered_since: None,
                probed: false,
            }),
            write_blocked: AtomicBool::new(false),
            changed: Notify::new(),
        }
    }

    fn activity(&self) -> MutexGuard<'_, Activity> {
        // The lock guards plain data; a panic elsewhere cannot leave it inconsistent.
        self.activity
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Bytes arrived from the client.
    pub(super) fn received(&self, bytes: &[u8]) {
        let mut activity = self.activity();
        let was_new = !activity.any_byte;
        activity.any_byte = true;
        if let Protocol::Unknown(matched) = activity.protocol {
            let compared = bytes.len().min(H2_PREFACE.len() - matched);
            activity.protocol = if bytes[..compared] != H2_PREFACE[matched..matched + compared] {
                Protocol::Http1
            } else if matched + compared == H2_PREFACE.len() {
                Protocol::Http2
            } else {
                Protocol::Unknown(matched + compared)
            };
        }
        let head_starts = if activity.protocol == Protocol::Http2 {
            // Frames, not a head: an HTTP/2 connection without streams is idle.
            activity.head_started = None;
            false
        } else {
            activity.in_flight == 0 && activity.head_started.is_none()
        };
        if head_starts {
            activity.head_started = Some(Instant::now());
        }
        drop(activity);
        if was_new || head_starts {
            self.changed.notify_one();
        }
    }

    /// A write had to wait for the client to read.
    pub(super) fn write_blocked(&self) {
        self.write_blocked.store(true, Ordering::Relaxed);
    }

    /// A write went out.
    pub(super) fn write_done(&self) {
        if self.write_blocked.swap(false, Ordering::Relaxed) {
            let mut activity = self.activity();
            if activity.in_flight == 0 {
                activity.quiet_since = Instant::now();
            }
            drop(activity);
            self.changed.notify_one();
        }
    }

    /// A request's head has been parsed: the connection is busy until the guard is dropped.
    fn request_started(self: &Arc<Self>) -> InFlight {
        let mut activity = self.activity();
        activity.in_flight += 1;
        activity.head_started = None;
        activity.unanswered_since = Some(Instant::now());
        activity.probed = false;
        drop(activity);
        self.changed.notify_one();
        InFlight(Arc::clone(self))
    }

    /// The request's answer is handed to hyper, which writes it from now on: no interim answer
    /// may be written after this (the lock orders the two).
    fn answer_ready(&self) {
        self.activity().unanswered_since = None;
    }

    /// Watches an HTTP/1 request unanswered for [`WATCH_AFTER`] for a client that left: once
    /// the client's side is closed, writes [`CONTINUE`] once, and reports the client gone when
    /// the socket then has an error (the reset a closed socket answers with).
    pub(super) fn watch_client(&self, stream: &TcpStream, now: Instant) -> ClientWatch {
        let mut activity = self.activity();
        let Some(since) = activity.unanswered_since else {
            return ClientWatch::Again(None);
        };
        if activity.protocol != Protocol::Http1 {
            return ClientWatch::Again(None);
        }
        if now < since + WATCH_AFTER {
            return ClientWatch::Again(Some(since + WATCH_AFTER));
        }
        let again = ClientWatch::Again(Some(now + WATCH_AFTER));
        // The reset of a client that left: the kernel keeps it as the socket's error, since a
        // read of a stream whose end has arrived reports only the end.
        if !matches!(stream.take_error(), Ok(None)) {
            return ClientWatch::Gone;
        }
        let mut byte = [std::mem::MaybeUninit::<u8>::uninit(); 1];
        match socket2::SockRef::from(stream).peek(&mut byte) {
            // The client's side is closed (or half-closed): hyper no longer reads.
            Ok(0) => {}
            // Bytes hyper has not read yet (the body, or a pipelined request), or none.
            Ok(_) => return again,
            Err(error) if error.kind() == std::io::ErrorKind::WouldBlock => return again,
            Err(_) => return ClientWatch::Gone,
        }
        if activity.probed || self.write_blocked.load(Ordering::Relaxed) {
            return again;
        }
        // Under the lock: the answer cannot be handed to hyper meanwhile, so the interim answer
        // goes out whole before it.
        // A plain send, not tokio's `try_write`, which answers `WouldBlock` until the runtime has
        // seen the socket writable since its last write.
        match socket2::SockRef::from(stream).send(CONTINUE) {
            Ok(n) if n == CONTINUE.len() => {
                activity.probed = true;
                ClientWatch::Again(Some(now + WATCH_AFTER / 5))
            }
            Err(error) if error.kind() == std::io::ErrorKind::WouldBlock => again,
            // Part of it, or an error: the connection cannot carry an answer any more.
            _ => ClientWatch::Gone,
        }
    }

    /// Whether no request is in flight and nothing waits to be written: the connection can be
    /// evicted. Returns since when it has been so.
    pub(super) fn idle_since(&self) -> Option<Instant> {
        if self.write_blocked.load(Ordering::Relaxed) {
            return None;
        }
        let activity = self.activity();
        (activity.in_flight == 0 && !activity.evicted).then_some(activity.quiet_since)
    }

    /// Asks the connection's task to close it now (only ever for an idle connection).
    pub(super) fn evict(&self) {
        self.activity().evicted = true;
        self.changed.notify_one();
    }

    pub(super) fn is_http2(&self) -> bool {
        self.activity().protocol == Protocol::Http2
    }

    /// What to do now, given the time limits and when the server began draining, if it has.
    pub(super) fn verdict(
        &self,
        now: Instant,
        timeouts: &Timeouts,
        draining: Option<Instant>,
    ) -> Verdict {
        let activity = self.activity();
        if activity.in_flight > 0 || self.write_blocked.load(Ordering::Relaxed) {
            return Verdict::Wait(None);
        }
        if activity.evicted {
            return Verdict::Close(Closing::Evicted);
        }
        let (deadline, closing) = if !activity.any_byte {
            (self.accepted + timeouts.first_byte, Closing::Silent)
        } else if let Some(started) = activity.head_started {
            (started + timeouts.header_read, Closing::HeadTimeout)
        } else {
            let mut deadline = activity.quiet_since + timeouts.keep_alive;
            if let Some(began) = draining {
                // Quiet for a while since the drain began, not only since the last answer: a
                // client that was idle long may be sending right now.
                deadline = deadline.min(activity.quiet_since.max(began) + DRAIN_QUIET);
            }
            (deadline, Closing::Idle)
        };
        if now >= deadline {
            Verdict::Close(closing)
        } else {
            Verdict::Wait(Some(deadline))
        }
    }

    /// Completes when the phase may have changed.
    pub(super) async fn changed(&self) {
        self.changed.notified().await;
    }
}

/// Held while a request is being answered.
struct InFlight(Arc<Connection>);

impl Drop for InFlight {
    fn drop(&mut self) {
        let mut activity = self.0.activity();
        activity.in_flight -= 1;
        if activity.in_flight == 0 {
            activity.quiet_since = Instant::now();
        }
        drop(activity);
        self.0.changed.notify_one();
    }
}

/// The hyper service of one connection: the router, with the peer's address on each request, the
/// request counted as in flight until its answer's body is sent (or the client goes away and hyper
/// drops it), and `Connection: close` on HTTP/1 answers once the server drains.
#[derive(Clone)]
pub(super) struct ConnectionService {
    pub app: Router,
    pub connection: Arc<Connection>,
    pub peer: IpAddr,
    pub stopping: watch::Receiver<bool>,
}

/// hyper's connection future for one of our connections.
pub(super) type HyperConnection = hyper_util::server::conn::auto::UpgradeableConnection<
    'static,
    hyper_util::rt::TokioIo<super::io::WatchedStream>,
    ConnectionService,
    hyper_util::rt::TokioExecutor,
>;

type ServiceFuture =
    Pin<Box<dyn Future<Output = Result<Response<axum::body::Body>, Infallible>> + Send>>;

impl hyper::service::Service<Request<Incoming>> for ConnectionService {
    type Response = Response<axum::body::Body>;
    type Error = Infallible;
    type Future = ServiceFuture;

    fn call(&self, mut request: Request<Incoming>) -> Self::Future {
        let in_flight = self.connection.request_started();
        request.extensions_mut().insert(ClientAddr(self.peer));
        let http1 = request.version() <= Version::HTTP_11;
        let app = self.app.clone();
        let stopping = self.stopping.clone();
        let connection = Arc::clone(&self.connection);
        Box::pin(async move {
            let mut response = app.oneshot(request).await?;
            connection.answer_ready();
            if http1 && *stopping.borrow() {
                response
                    .headers_mut()
                    .insert(header::CONNECTION, HeaderValue::from_static("close"));
            }
            // Busy until the body is sent: a stream of events whose head is out is still a
            // request being answered, never an idle connection to reap, evict or drain.
            Ok(response.map(|body| {
                axum::body::Body::new(AnswerBody {
                    body,
                    in_flight: Some(in_flight),
                })
            }))
        })
    }
}

/// A response body that keeps its request counted in flight until its last frame is out (or
/// hyper drops it, when the client goes away).
struct AnswerBody {
    body: axum::body::Body,
    in_flight: Option<InFlight>,
}

impl hyper::body::Body for AnswerBody {
    type Data = axum::body::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<hyper::body::Frame<Self::Data>, Self::Error>>> {
        let frame = hyper::body::Body::poll_frame(Pin::new(&mut self.body), cx);
        if matches!(frame, std::task::Poll::Ready(None | Some(Err(_)))) {
            self.in_flight = None;
        }
        frame
    }

    fn is_end_stream(&self) -> bool {
        hyper::body::Body::is_end_stream(&self.body)
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        hyper::body::Body::size_hint(&self.body)
    }
}

/// Serves one connection to its end: runs hyper's connection future and closes it when a time
/// limit of its phase passes, when it is evicted, or (gracefully) when the server drains.
pub(super) async fn run(
    connection: HyperConnection,
    stream: Arc<TcpStream>,
    state: Arc<Connection>,
    timeouts: Timeouts,
    mut stopping: watch::Receiver<bool>,
) {
    tokio::pin!(connection);
    let mut draining = stopping.borrow().then(Instant::now);
    let mut goaway_sent = false;
    loop {
        if draining.is_some() && !goaway_sent && state.is_http2() {
            goaway_sent = true;
            connection.as_mut().graceful_shutdown();
        }
        let now = Instant::now();
        let wake = match state.verdict(now, &timeouts, draining) {
            Verdict::Wait(wake) => match state.watch_client(&stream, now) {
                ClientWatch::Gone => {
                    tracing::debug!("the client left before its answer; dropping its request");
                    return;
                }
                ClientWatch::Again(watch) => earliest(wake, watch),
            },
            Verdict::Close(Closing::Idle) if has_unread_bytes(&stream) => {
                // A request is arriving: let hyper read it. Look again shortly in case it was
                // only an end of stream.
                Some(Instant::now() + Duration::from_millis(5))
            }
            Verdict::Close(closing) => {
                close(connection, &stream, &state, closing).await;
                return;
            }
        };
        let sleep = async {
            match wake {
                Some(at) => tokio::time::sleep_until(at).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            result = connection.as_mut() => return log_closed(result),
            () = sleep => {}
            () = state.changed() => {}
            _ = stopping.wait_for(|stop| *stop), if draining.is_none() => {
                draining = Some(Instant::now());
            }
        }
    }
}

fn earliest(a: Option<Instant>, b: Option<Instant>) -> Option<Instant> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// Closes a connection whose phase is over.
async fn close(
    mut connection: Pin<&mut HyperConnection>,
    stream: &TcpStream,
    state: &Connection,
    closing: Closing,
) {
    tracing::debug!(?closing, "closing a connection");
    match closing {
        Closing::Silent | Closing::Evicted => {}
        Closing::HeadTimeout => {
            // hyper is mid-head and writes nothing; the socket is ours. Best effort: a client
            // that does not read gets no 408.
            if !state.is_http2() && !state.write_blocked.load(Ordering::Relaxed) {
                let answer = ProtocolError::RequestTimeout.response(None);
                let _ = stream.try_write(&answer);
            }
        }
        Closing::Idle => {
            connection.as_mut().graceful_shutdown();
            match tokio::time::timeout(CLOSE_TIMEOUT, connection).await {
                Ok(result) => log_closed(result),
                Err(_) => tracing::debug!("a connection did not close in time; dropped"),
            }
        }
    }
}

/// Whether the client has sent bytes that hyper has not read yet (or closed its side).
fn has_unread_bytes(stream: &TcpStream) -> bool {
    let mut byte = [std::mem::MaybeUninit::<u8>::uninit(); 1];
    // Non-blocking: tokio's sockets are.
    socket2::SockRef::from(stream).peek(&mut byte).is_ok()
}

fn log_closed(result: Result<(), Box<dyn std::error::Error + Send + Sync>>) {
    if let Err(error) = result {
        tracing::debug!(%error, "connection closed with an error");
    }
}

#[cfg(test)]
mod tests;
