//! An optional per-client rate limit (off by default): a token bucket per client address, 429
//! problem+json with `Retry-After` past it.

use std::net::{IpAddr, Ipv4Addr};
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::HeaderMap;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::api::problem::ApiError;

/// The peer address of a connection, put on each request by the accept loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientAddr(pub IpAddr);

/// Per-client rate limit settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateLimitSettings {
    /// Sustained requests per second per client.
    pub per_second: NonZeroU32,
    /// Requests a client may send at once above the sustained rate.
    pub burst: NonZeroU32,
    /// Key clients by the first address of `X-Forwarded-For` (only behind a proxy that sets it).
    pub trust_forwarded_for: bool,
}

/// The limiter and its settings, shared by every request.
#[derive(Clone)]
pub struct Limiter {
    limiter: Arc<DefaultKeyedRateLimiter<IpAddr>>,
    trust_forwarded_for: bool,
}

impl std::fmt::Debug for Limiter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Limiter").finish_non_exhaustive()
    }
}

impl Limiter {
    /// A limiter for these settings.
    #[must_use]
    pub fn new(settings: RateLimitSettings) -> Self {
        let quota = Quota::per_second(settings.per_second).allow_burst(settings.burst);
        Self {
            limiter: Arc::new(RateLimiter::keyed(quota)),
            trust_forwarded_for: settings.trust_forwarded_for,
        }
    }

    fn client(&self, headers: &HeaderMap, peer: Option<ClientAddr>) -> IpAddr {
        let forwarded = self
            .trust_forwarded_for
            .then(|| headers.get("x-forwarded-for")?.to_str().ok())
            .flatten()
            .and_then(|v| v.split(',').next()?.trim().parse().ok());
        forwarded
            .or(peer.map(|ClientAddr(ip)| ip))
            .unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED))
    }

    /// Forgets clients that are back to a full bucket, so memory stays bounded.
    pub fn forget_idle_clients(&self) {
        self.limiter.retain_recent();
        self.limiter.shrink_to_fit();
    }
}

/// Lets the request through, or answers 429 when its client is over the limit.
///
/// Probes and metrics are exempt, so a busy client cannot make its replica look unhealthy.
pub async fn limit(State(limiter): State<Limiter>, request: Request, next: Next) -> Response {
    if matches!(request.uri().path(), "/healthz" | "/readyz" | "/metrics") {
        return next.run(request).await;
    }
    let peer = request.extensions().get::<ClientAddr>().copied();
    let client = limiter.client(request.headers(), peer);
    match limiter.limiter.check_key(&client) {
        Ok(()) => next.run(request).await,
        Err(not_until) => {
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            let retry_after = u32::try_from(wait.as_secs()).unwrap_or(u32::MAX).max(1);
            if limiter.limiter.len() > 100_000 {
                limiter.forget_idle_clients();
            }
            ApiError::RateLimited { retry_after }.into_response()
        }
    }
}

/// Runs [`Limiter::forget_idle_clients`] every minute.
pub fn spawn_cleanup(limiter: Limiter) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(60));
        loop {
            tick.tick().await;
            limiter.forget_idle_clients();
        }
    });
}
