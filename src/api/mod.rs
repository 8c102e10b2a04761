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
mod move_stream;
mod page;
mod play_route;
mod respond;
mod review_route;
mod state;
mod trace_route;
mod usecase;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;

pub use extract::JsonBody;
pub use problem::{ApiError, FieldError, Problem, ProblemCode};
pub use state::{AppState, Settings};
use wire::Contract;

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
    components(schemas(Problem, FieldError)),
    modifiers(&Contract)
)]
struct ApiDoc;

fn api_router() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .merge(move_route::router())
        .merge(connect4_route::router())
        .merge(play_route::router())
        .merge(review_route::router())
        .merge(trace_route::router())
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
