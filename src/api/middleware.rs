//! The layers around every route: request ids, tracing, CORS, security headers, the request
//! timeout, and a panic guard.

use axum::Router;
use axum::extract::{MatchedPath, Request};
use axum::http::{HeaderName, HeaderValue, Method, header};
use axum::middleware::{Next, from_fn_with_state};
use axum::response::{IntoResponse, Response};
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::cors::{AllowOrigin, CorsLayer};
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::trace::{DefaultOnResponse, TraceLayer};
use tracing::Level;

use crate::api::problem::ApiError;
use crate::api::state::Settings;

const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// 404 for every unknown route.
pub async fn not_found() -> ApiError {
    ApiError::NotFound
}

/// Turns axum's bare 405 (which carries the `Allow` header) into problem+json, keeping `Allow`.
pub async fn method_not_allowed(request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    if response.status() != axum::http::StatusCode::METHOD_NOT_ALLOWED
        || response.headers().contains_key(header::CONTENT_TYPE)
    {
        return response;
    }
    let mut problem = ApiError::MethodNotAllowed.into_response();
    if let Some(allow) = response.headers().get(header::ALLOW) {
        problem.headers_mut().insert(header::ALLOW, allow.clone());
    }
    problem
}

async fn request_timeout(
    axum::extract::State(timeout): axum::extract::State<std::time::Duration>,
    request: Request,
    next: Next,
) -> Response {
    match tokio::time::timeout(timeout, next.run(request)).await {
        Ok(response) => response,
        Err(_) => ApiError::Timeout.into_response(),
    }
}

/// The routes that start a search from a plain link (`GET`, and `HEAD`), which a browser sends
/// for any page without asking (no CORS preflight).
const SEARCH_LINKS: [&str; 2] = ["/v1/move", "/v1/connect4/solve"];

/// What the `Host` guard needs: the allowed hosts and origins.
#[derive(Clone)]
struct HostGuard {
    hosts: std::sync::Arc<[String]>,
    any_origin: bool,
    origins: std::sync::Arc<[HeaderValue]>,
}

/// A `Host` header split into its name and its port, or `None` when it is not one: a name (or a
/// bracketed IPv6 address) and an optional port of digits.
fn split_host(host: &str) -> Option<(&str, Option<u16>)> {
    let (name, port) = if let Some(rest) = host.strip_prefix('[') {
        let end = rest.find(']')?;
        let after = &rest[end + 1..];
        let port = if after.is_empty() {
            None
        } else {
            Some(after.strip_prefix(':')?)
        };
        (&host[..end + 2], port)
    } else {
        match host.split_once(':') {
            Some((name, port)) => (name, Some(port)),
            None => (host, None),
        }
    };
    let valid_name = !name.is_empty()
        && (name.starts_with('[')
            || name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-' || b == b'_'));
    let port = match port {
        None => None,
        Some(digits) if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => {
            Some(digits.parse::<u16>().ok()?)
        }
        Some(_) => return None,
    };
    valid_name.then_some((name, port))
}

/// Refuses a malformed `Host` on every route (400 `bad_request`), and guards the routes that
/// search from a link: a `Host` outside `MCP_ALLOWED_HOSTS` (DNS rebinding) or a browser's
/// cross-site request from an origin CORS does not allow is a 403 `forbidden`, before any search.
async fn host_guard(
    axum::extract::State(guard): axum::extract::State<HostGuard>,
    request: Request,
    next: Next,
) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .map(|h| h.to_str().ok().and_then(split_host));
    if let Some(None) = host {
        let raw = request
            .headers()
            .get(header::HOST)
            .map(|h| String::from_utf8_lossy(h.as_bytes()).into_owned());
        return ApiError::BadHost(raw.unwrap_or_default()).into_response();
    }
    let searches = matches!(*request.method(), Method::GET | Method::HEAD)
        && SEARCH_LINKS.contains(&request.uri().path());
    if !searches {
        return next.run(request).await;
    }
    if let Some(Some((name, port))) = host
        && !guard.hosts.iter().any(|allowed| {
            allowed == "*"
                || allowed.eq_ignore_ascii_case(name)
                || port.is_some_and(|port| allowed.eq_ignore_ascii_case(&format!("{name}:{port}")))
        })
    {
        return ApiError::Forbidden(format!(
            "the Host `{name}` is not one this server answers searches for; see MCP_ALLOWED_HOSTS"
        ))
        .into_response();
    }
    let cross_site = request
        .headers()
        .get("sec-fetch-site")
        .is_some_and(|site| site == "cross-site" || site == "same-site");
    let origin_allowed = guard.any_origin
        || request.headers().get(header::ORIGIN).is_some_and(|origin| {
            if guard.origins.is_empty() {
                is_loopback_origin(origin)
            } else {
                guard.origins.contains(origin)
            }
        });
    if cross_site && !origin_allowed {
        return ApiError::Forbidden("a page on another site may not start a search with a link; call the API from an origin CORS_ORIGINS allows".to_owned()).into_response();
    }
    next.run(request).await
}

/// Whether an `Origin` is a page served from this machine: `localhost`, `127.0.0.1` or `[::1]`,
/// any scheme and port.
fn is_loopback_origin(origin: &HeaderValue) -> bool {
    let Some(authority) = origin
        .to_str()
        .ok()
        .and_then(|origin| origin.split_once("://"))
        .map(|(_, rest)| rest)
    else {
        return false;
    };
    let host = match authority.strip_prefix('[') {
        Some(bracketed) => bracketed.split_once(']').map(|(host, _)| host),
        None => authority.split(':').next(),
    };
    host.is_some_and(|host| {
        host.eq_ignore_ascii_case("localhost") || host == "127.0.0.1" || host == "::1"
    })
}

fn cors(origins: &[String]) -> CorsLayer {
    let layer = CorsLayer::new()
        .allow_methods([Method::GET, Method::POST, Method::OPTIONS])
        .allow_headers([header::CONTENT_TYPE, REQUEST_ID])
        .expose_headers([REQUEST_ID, header::RETRY_AFTER]);
    if origins.is_empty() {
        layer.allow_origin(AllowOrigin::predicate(|origin, _| {
            is_loopback_origin(origin)
        }))
    } else if origins.iter().any(|origin| origin == "*") {
        layer.allow_origin(AllowOrigin::any())
    } else {
        let list: Vec<HeaderValue> = origins
            .iter()
            .filter_map(|o| HeaderValue::from_str(o).ok())
            .collect();
        layer.allow_origin(AllowOrigin::list(list))
    }
}

/// Wraps the router in the service's layers, outermost first: metrics, request id, tracing, panic
/// guard, security headers, CORS, timeout, rate limit.
///
/// The metrics layer is outermost so that every answer is counted, the 429s, timeout 503s and
/// panic 500s made by the layers inside it included. `Router::layer` wraps each route after
/// routing, so the matched route is known even there.
pub fn stack(router: Router, settings: &Settings) -> Router {
    let router = match settings.rate_limit {
        Some(limit) => {
            let limiter = super::rate_limit::Limiter::new(limit);
            if tokio::runtime::Handle::try_current().is_ok() {
                super::rate_limit::spawn_cleanup(limiter.clone());
            }
            router.layer(from_fn_with_state(limiter, super::rate_limit::limit))
        }
        None => router,
    };
    let trace = TraceLayer::new_for_http()
        .make_span_with(|request: &Request| {
            let path = request
                .extensions()
                .get::<MatchedPath>()
                .map_or("unmatched", MatchedPath::as_str);
            let id = request
                .headers()
                .get(REQUEST_ID)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("");
            tracing::info_span!("request", method = %request.method(), path, request_id = id)
        })
        .on_request(())
        .on_response(DefaultOnResponse::new().level(Level::DEBUG));
    let guard = HostGuard {
        hosts: settings.mcp_allowed_hosts.clone().into(),
        any_origin: settings.cors_origins.iter().any(|o| o == "*"),
        origins: settings
            .cors_origins
            .iter()
            .filter_map(|o| HeaderValue::from_str(o).ok())
            .collect(),
    };
    router
        .layer(from_fn_with_state(guard, host_guard))
        .layer(axum::middleware::from_fn(method_not_allowed))
        .layer(from_fn_with_state(
            settings.request_timeout,
            request_timeout,
        ))
        .layer(cors(&settings.cors_origins))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::REFERRER_POLICY,
            HeaderValue::from_static("no-referrer"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::X_FRAME_OPTIONS,
            HeaderValue::from_static("DENY"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CACHE_CONTROL,
            HeaderValue::from_static("no-store"),
        ))
        .layer(CatchPanicLayer::custom(|_| {
            tracing::error!("a handler panicked");
            ApiError::Internal.into_response()
        }))
        .layer(PropagateRequestIdLayer::new(REQUEST_ID))
        .layer(trace)
        .layer(SetRequestIdLayer::new(REQUEST_ID, MakeRequestUuid))
        .layer(axum::middleware::from_fn(super::metrics::track))
}

#[cfg(test)]
mod tests {
    use axum::body::Body;
    use axum::routing::get;
    use tower::ServiceExt;

    use super::*;

    fn requests_counted(route: &str, status: &str) -> u64 {
        let text = super::super::metrics::handle()
            .expect("the recorder is installed")
            .render();
        let labels = format!("route=\"{route}\",method=\"GET\",status=\"{status}\"");
        text.lines()
            .filter(|line| line.starts_with("http_requests_total{") && line.contains(&labels))
            .filter_map(|line| line.rsplit(' ').next()?.parse::<u64>().ok())
            .sum()
    }

    async fn get_status(router: Router, uri: &str) -> u16 {
        let request = Request::get(uri).body(Body::empty()).unwrap();
        router.oneshot(request).await.unwrap().status().as_u16()
    }

    #[test]
    fn loopback_origins_are_pages_served_from_this_machine() {
        for origin in [
            "http://localhost:5173",
            "http://LOCALHOST",
            "https://127.0.0.1:8443",
            "http://[::1]:8080",
        ] {
            assert!(
                is_loopback_origin(&HeaderValue::from_static(origin)),
                "{origin}"
            );
        }
        for origin in [
            "https://game.example",
            "http://localhost.evil.example",
            "http://127.0.0.1.evil.example",
            "http://[::2]:8080",
            "null",
            "localhost",
        ] {
            assert!(
                !is_loopback_origin(&HeaderValue::from_static(origin)),
                "{origin}"
            );
        }
    }

    #[tokio::test]
    async fn counts_panics_and_timeouts_made_by_inner_layers() {
        super::super::metrics::handle();
        let settings = Settings {
            request_timeout: std::time::Duration::from_millis(1),
            ..Settings::default()
        };
        let router = Router::new()
            .route(
                "/test/panics",
                get(|| async {
                    if true {
                        panic!("deliberate");
                    }
                    "unreachable"
                }),
            )
            .route(
                "/test/never-answers",
                get(std::future::pending::<&'static str>),
            );
        let router = stack(router, &settings);
        let panics = requests_counted("/test/panics", "500");
        assert_eq!(get_status(router.clone(), "/test/panics").await, 500);
        assert_eq!(requests_counted("/test/panics", "500"), panics + 1);
        let timeouts = requests_counted("/test/never-answers", "503");
        assert_eq!(get_status(router, "/test/never-answers").await, 503);
        assert_eq!(requests_counted("/test/never-answers", "503"), timeouts + 1);
    }

    #[tokio::test]
    async fn counts_requests_refused_by_the_rate_limit() {
        super::super::metrics::handle();
        let one = std::num::NonZeroU32::MIN;
        let settings = Settings {
            rate_limit: Some(super::super::rate_limit::RateLimitSettings {
                per_second: one,
                burst: one,
                trust_forwarded_for: false,
            }),
            ..Settings::default()
        };
        let router = stack(
            Router::new().route("/test/limited", get(|| async { "ok" })),
            &settings,
        );
        let refused = requests_counted("/test/limited", "429");
        assert_eq!(get_status(router.clone(), "/test/limited").await, 200);
        assert_eq!(get_status(router, "/test/limited").await, 429);
        assert_eq!(requests_counted("/test/limited", "429"), refused + 1);
    }
}
