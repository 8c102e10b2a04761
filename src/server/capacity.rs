//! The cap on open connections, and what happens at it.
//!
//! At the cap the accept loop makes room before it accepts again: it evicts the connection that
//! has been idle longest (new and silent, between keep-alive requests, or slowly sending a head:
//! none of them has a request being answered). When every connection is answering a request, it
//! stops accepting until one finishes; new clients wait in the kernel's accept queue meanwhile.
//! A failed `accept` (such as running out of file descriptors, when the cap is set above what
//! the process may open) evicts an idle connection too, and backs off.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tokio::sync::Notify;

use super::connection::Connection;

/// At the cap, how often to look again for an idle connection to evict.
const RECHECK: Duration = Duration::from_millis(50);

/// The open connections.
#[derive(Debug)]
pub(super) struct Registry {
    limit: usize,
    open: Mutex<HashMap<u64, Arc<Connection>>>,
    next_id: AtomicU64,
    /// Woken when a connection closes.
    room: Notify,
}

/// A connection's place in the registry, given up when dropped.
#[derive(Debug)]
pub(super) struct Registered {
    registry: Arc<Registry>,
    id: u64,
}

impl Drop for Registered {
    fn drop(&mut self) {
        self.registry.connections().remove(&self.id);
        self.registry.room.notify_waiters();
    }
}

impl Registry {
    pub(super) fn new(limit: usize) -> Self {
        Self {
            limit: limit.max(1),
            open: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(0),
            room: Notify::new(),
        }
    }

    fn connections(&self) -> MutexGuard<'_, HashMap<u64, Arc<Connection>>> {
        self.open
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Connections open now.
    pub(super) fn len(&self) -> usize {
        self.connections().len()
    }

    /// Adds a connection; it leaves the registry when the returned value is dropped.
    pub(super) fn register(self: &Arc<Self>, connection: Arc<Connection>) -> Registered {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        self.connections().insert(id, connection);
        Registered {
            registry: Arc::clone(self),
            id,
        }
    }

    /// Evicts the connection idle longest, if any is idle. Returns whether one was.
    pub(super) fn evict_one(&self) -> bool {
        let victim = self
            .connections()
            .values()
            .filter_map(|connection| Some((connection.idle_since()?, connection)))
            .min_by_key(|(since, _)| *since)
            .map(|(_, connection)| Arc::clone(connection));
        victim.is_some_and(|connection| {
            connection.evict();
            true
        })
    }

    /// Returns once fewer than the cap of connections are open, evicting idle ones as needed.
    pub(super) async fn wait_for_room(&self) {
        loop {
            let room = self.room.notified();
            tokio::pin!(room);
            room.as_mut().enable();
            let open = self.len();
            if open < self.limit {
                return;
            }
            if !self.evict_one() {
                tracing::debug!(open, "connection cap reached with every connection busy");
            }
            // An evicted connection closes at once; otherwise look again when one closes, or
            // shortly, in case one has turned idle.
            let _ = tokio::time::timeout(RECHECK, room).await;
        }
    }
}

/// How often a failing `accept` is logged at most.
const LOG_EVERY: Duration = Duration::from_secs(10);

/// Backs off a failing `accept`: 10 ms, doubling up to 1 s while failures follow one another.
/// Logs a warning at most every [`LOG_EVERY`], with the number of failures since the last one.
#[derive(Debug, Default)]
pub(super) struct AcceptBackoff {
    /// Failures in a row.
    failures: u32,
    /// Failures not logged yet.
    unlogged: u64,
    last_logged: Option<Instant>,
}

impl AcceptBackoff {
    /// An accept succeeded.
    pub(super) fn succeeded(&mut self) {
        self.failures = 0;
    }

    /// An accept failed: transient errors are retried at once, others after a growing pause
    /// (with an idle connection evicted, in case the error is a lack of file descriptors).
    pub(super) async fn failed(&mut self, error: &std::io::Error, registry: &Registry) {
        use std::io::ErrorKind;
        if matches!(
            error.kind(),
            ErrorKind::ConnectionAborted | ErrorKind::ConnectionReset | ErrorKind::Interrupted
        ) {
            tracing::debug!(%error, "accept failed; retrying");
            return;
        }
        self.unlogged += 1;
        if self.last_logged.is_none_or(|at| at.elapsed() >= LOG_EVERY) {
            tracing::warn!(
                %error,
                failures = self.unlogged,
                open = registry.len(),
                "accept failed; evicting an idle connection and backing off"
            );
            self.last_logged = Some(Instant::now());
            self.unlogged = 0;
        }
        self.failures = self.failures.saturating_add(1);
        registry.evict_one();
        let pause = Duration::from_millis(10)
            .saturating_mul(1 << self.failures.min(7).saturating_sub(1))
            .min(Duration::from_secs(1));
        tokio::time::sleep(pause).await;
    }
}
