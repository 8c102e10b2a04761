//! The HTTP layer: routes, wire types, problem responses and the hop to the blocking pool.
//!
//! [`app`] builds the one router that the binary serves and every test drives.

pub mod metrics;
pub mod problem;
pub mod rate_limit;
pub mod wire;

mod connect4_route;
mod docs;
mod extract;
mod health;
pub mod mcp;
mod middleware;
mod move_route;
mod page;
mod play_route;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use tokio::sync::Semaphore;
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;

pub use extract::JsonBody;
pub use problem::{ApiError, FieldError, Problem, ProblemCode};

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
    /// Threads one big-board search may use while cores are idle (see
    /// [`SearchLimits::threads`](crate::engine::SearchLimits::threads)).
    pub search_threads: usize,
    /// Origins allowed by CORS; empty means any origin (without credentials).
    pub cors_origins: Vec<String>,
    /// The per-client rate limit, if any.
    pub rate_limit: Option<rate_limit::RateLimitSettings>,
    /// `Host` headers `/mcp` accepts (DNS-rebinding protection); `*` accepts any.
    pub mcp_allowed_hosts: Vec<String>,
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
            search_threads: 1,
            cors_origins: Vec::new(),
            rate_limit: None,
            mcp_allowed_hosts: vec!["*".to_owned()],
        }
    }
}

/// Shared state of the service: settings, the search slots and readiness.
#[derive(Clone, Debug)]
pub struct AppState {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    settings: Settings,
    searches: Arc<Semaphore>,
    ready: AtomicBool,
}

impl AppState {
    /// State that is not ready yet: call [`AppState::mark_ready`] once the 3 × 3 table is built.
    #[must_use]
    pub fn new(settings: Settings) -> Self {
        let searches = Arc::new(Semaphore::new(settings.max_searches.max(1)));
        Self {
            inner: Arc::new(Inner {
                settings,
                searches,
                ready: AtomicBool::new(false),
            }),
        }
    }

    /// Builds the 3 × 3 table now and returns ready state; for tests and tools.
    #[must_use]
    pub fn ready(settings: Settings) -> Self {
        crate::engine::warm_up();
        let state = Self::new(settings);
        state.mark_ready();
        state
    }

    /// The settings.
    #[must_use]
    pub fn settings(&self) -> &Settings {
        &self.inner.settings
    }

    /// Marks the service ready: `/readyz` answers 200.
    pub fn mark_ready(&self) {
        self.inner.ready.store(true, Ordering::Release);
    }

    /// Marks the service draining: `/readyz` answers 503 so load balancers stop sending.
    pub fn mark_draining(&self) {
        self.inner.ready.store(false, Ordering::Release);
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
}

#[derive(OpenApi)]
#[openapi(
    info(
        title = "minimax-move",
        description = "Best moves for tic-tac-toe and other m,n,k games: POST a board, get the best move for the side to move, its minimax score and, on request, every legal move with its score. Every error is application/problem+json (RFC 9457).",
        license(name = "MIT OR Apache-2.0"),
    ),
    tags(
        (name = "moves", description = "Move suggestions"),
        (name = "operations", description = "Probes and documents for operators"),
    ),
    components(schemas(Problem, FieldError))
)]
struct ApiDoc;

fn api_router() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .merge(move_route::router())
        .merge(connect4_route::router())
        .merge(play_route::router())
        .merge(health::router())
}

/// The OpenAPI document of the service, generated from the code.
#[must_use]
pub fn openapi() -> utoipa::openapi::OpenApi {
    let mut doc = api_router().into_openapi();
    doc.info.version = env!("CARGO_PKG_VERSION").to_owned();
    doc
}

/// The OpenAPI document as YAML, as committed in `openapi.yaml`.
#[must_use]
pub fn openapi_yaml() -> String {
    openapi()
        .to_yaml()
        .expect("the OpenAPI document serializes to YAML")
}

/// The service's router: every route, every layer. `main` serves it; tests drive it.
pub fn app(state: AppState) -> Router {
    metrics::handle();
    let (router, _) = api_router().split_for_parts();
    let body_limit = state.settings().body_limit;
    let router = router
        .merge(docs::router(openapi()))
        .merge(page::router())
        .merge(metrics::router())
        .merge(mcp::router())
        .nest_service("/mcp", mcp::service(state.clone()))
        .fallback(middleware::not_found)
        .layer(DefaultBodyLimit::max(body_limit))
        .with_state(state.clone());
    middleware::stack(router, state.settings())
}
