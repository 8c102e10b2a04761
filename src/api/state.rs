//! The service's shared state ([`AppState`]): its settings, its [`Engine`], the search slots
//! and readiness. Built once by the binary (or a test) and handed to the router.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::rate_limit;
use crate::engine::{Engine, EngineSettings};

/// Server-side limits and settings the routes need. Built once from the configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Largest request body accepted, in bytes (413 above it).
    pub body_limit: usize,
    /// Longest a request may take end to end (503 `timeout` past it).
    pub request_timeout: Duration,
    /// Searches (boards other than 3 × 3) running at once on the blocking pool.
    pub max_searches: usize,
    /// How long a search waits for a free slot before the request is shed with 503.
    pub queue_wait: Duration,
    /// Search time budget when the request names none, in milliseconds.
    pub default_time_limit_ms: u64,
    /// Largest search time budget a request may ask for, in milliseconds.
    pub max_time_limit_ms: u64,
    /// Deepest search a request may ask for, in plies.
    pub max_depth: u32,
    /// Search work granted per millisecond of time limit, times the board's cells (see
    /// [`SearchLimits::work_at_rate`](crate::engine::SearchLimits::work_at_rate)).
    pub search_work_rate: u64,
    /// Origins allowed by CORS: empty allows loopback origins only (`localhost`, `127.0.0.1`,
    /// `[::1]`, any scheme and port), `*` any origin (never with credentials), anything else is
    /// the list of allowed origins.
    pub cors_origins: Vec<String>,
    /// The per-client rate limit, if any.
    pub rate_limit: Option<rate_limit::RateLimitSettings>,
    /// `Host` headers `/mcp` accepts (DNS-rebinding protection): `name` (any port) or
    /// `name:port`; `*` accepts any. The default accepts loopback names only.
    pub mcp_allowed_hosts: Vec<String>,
}

impl Settings {
    /// What the engine is built for: one search a slot, and the server's bounds on depth and
    /// work.
    #[must_use]
    pub const fn engine_settings(&self) -> EngineSettings {
        let searches = if self.max_searches == 0 {
            1
        } else {
            self.max_searches
        };
        EngineSettings {
            searches,
            max_depth: self.max_depth,
            work_rate: self.search_work_rate,
        }
    }
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            body_limit: 64 * 1024,
            request_timeout: Duration::from_secs(15),
            max_searches: std::thread::available_parallelism().map_or(2, usize::from),
            queue_wait: Duration::from_millis(100),
            default_time_limit_ms: 3_000,
            max_time_limit_ms: 10_000,
            max_depth: 225,
            search_work_rate: crate::engine::WORK_PER_MS_TIMES_CELLS,
            cors_origins: Vec::new(),
            rate_limit: None,
            mcp_allowed_hosts: ["localhost", "127.0.0.1", "[::1]"]
                .map(str::to_owned)
                .to_vec(),
        }
    }
}

/// Shared state of the service: settings, the engine, the search slots and readiness.
#[derive(Clone, Debug)]
pub struct AppState {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    settings: Settings,
    /// The engine, built for the search slots: its tables are budgeted for `max_searches`.
    engine: Engine,
    searches: Arc<Semaphore>,
    /// The deadlines of the searches holding a slot.
    search_deadlines: Mutex<Vec<Instant>>,
    ready: AtomicBool,
    /// When streams of events must have ended: set when the server begins to drain.
    streams_end_by: tokio::sync::watch::Sender<Option<Instant>>,
}

/// A search slot in use: gives the slot back, and forgets the search's deadline, when dropped.
#[derive(Debug)]
pub(crate) struct SearchSlot {
    _permit: OwnedSemaphorePermit,
    state: AppState,
    deadline: Instant,
}

impl Drop for SearchSlot {
    fn drop(&mut self) {
        let mut deadlines = self.state.search_deadlines();
        if let Some(i) = deadlines.iter().position(|d| *d == self.deadline) {
            deadlines.swap_remove(i);
        }
    }
}

impl AppState {
    /// State that is not ready yet: call [`AppState::warm_up`], which marks it ready once the
    /// engine's tables are built.
    #[must_use]
    pub fn new(settings: Settings) -> Self {
        let searches = Arc::new(Semaphore::new(settings.max_searches.max(1)));
        let engine = Engine::new(settings.engine_settings());
        Self {
            inner: Arc::new(Inner {
                settings,
                engine,
                searches,
                search_deadlines: Mutex::new(Vec::new()),
                ready: AtomicBool::new(false),
                streams_end_by: tokio::sync::watch::Sender::new(None),
            }),
        }
    }

    /// Builds the engine's tables now and returns ready state; for tests and tools.
    #[must_use]
    pub fn ready(settings: Settings) -> Self {
        let state = Self::new(settings);
        state.warm_up();
        state
    }

    /// Builds everything the engine would otherwise build on a first search's clock
    /// ([`Engine::warm_up`]), then marks the service ready. Blocking: the server runs it on the
    /// blocking pool while it already answers `/healthz`.
    pub fn warm_up(&self) {
        self.inner.engine.warm_up();
        self.mark_ready();
    }

    /// The settings.
    #[must_use]
    pub fn settings(&self) -> &Settings {
        &self.inner.settings
    }

    /// The engine every route and tool calls.
    #[must_use]
    pub fn engine(&self) -> &Engine {
        &self.inner.engine
    }

    /// Marks the service ready: `/readyz` answers 200.
    pub fn mark_ready(&self) {
        self.inner.ready.store(true, Ordering::Release);
    }

    /// Marks the service draining: `/readyz` answers 503 so load balancers stop sending.
    pub fn mark_draining(&self) {
        self.inner.ready.store(false, Ordering::Release);
    }

    /// Asks every stream of events (`POST /v1/move/stream`) still searching at `deadline` to
    /// stop there and end with an `error` event saying that the server is shutting down, with
    /// `retry:` advice, rather than be cut off. The binary calls it on SIGTERM with the end of
    /// its drain, less the time to write that event.
    pub fn end_streams_by(&self, deadline: Instant) {
        self.inner.streams_end_by.send_replace(Some(deadline));
    }

    /// When streams of events must have ended, once the server drains.
    pub(crate) fn streams_end_by(&self) -> tokio::sync::watch::Receiver<Option<Instant>> {
        self.inner.streams_end_by.subscribe()
    }

    /// Whether `/readyz` answers 200.
    #[must_use]
    pub fn is_ready(&self) -> bool {
        self.inner.ready.load(Ordering::Acquire)
    }

    /// Searches holding a slot right now (a readiness signal for tests and probes).
    #[must_use]
    pub fn searches_running(&self) -> usize {
        self.inner
            .settings
            .max_searches
            .max(1)
            .saturating_sub(self.inner.searches.available_permits())
    }

    pub(crate) fn searches(&self) -> Arc<Semaphore> {
        Arc::clone(&self.inner.searches)
    }

    fn search_deadlines(&self) -> MutexGuard<'_, Vec<Instant>> {
        self.inner
            .search_deadlines
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Holds a search slot for a search that ends by `deadline` at the latest.
    pub(crate) fn occupy_search_slot(
        &self,
        permit: OwnedSemaphorePermit,
        deadline: Instant,
    ) -> SearchSlot {
        self.search_deadlines().push(deadline);
        SearchSlot {
            _permit: permit,
            state: self.clone(),
            deadline,
        }
    }

    /// Whole seconds until the first running search reaches its deadline, and so frees its slot
    /// (sooner when its work budget or a cancellation stops it): the `Retry-After` of a shed
    /// search. At least 1.
    #[must_use]
    pub fn seconds_until_a_search_ends(&self) -> u32 {
        let now = Instant::now();
        self.search_deadlines()
            .iter()
            .min()
            .map(|first| first.saturating_duration_since(now))
            .map_or(1, |wait| {
                let seconds = wait.as_millis().div_ceil(1000);
                u32::try_from(seconds).unwrap_or(u32::MAX).max(1)
            })
    }
}
