//! `POST /v1/trace`: the search tree a position or a textbook tree gets under plain minimax,
//! alpha-beta or alpha-beta with a table (see [`Engine::trace`](crate::engine::Engine::trace) for the conventions).

use axum::extract::State;
use axum::response::Response;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::{JsonBody, read_json};
use super::respond::json_response;
use super::usecase::trace::trace_bounded;
use super::wire::{TraceRequest, TraceResponse, parse_trace};
use crate::api::problem::ApiError;
use crate::api::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(post_trace))
}

/// The search tree of a position or a textbook tree.
///
/// Send a position (`board` and its geometry, as for `POST /v1/move`) or a textbook tree
/// (`tree` as nested arrays or parenthesised text, or `branching` with `leaves`), and the
/// algorithm: `minimax`, `alphabeta` or `alphabeta_table`. The answer is the tree as searched,
/// in visiting order: every node with its move, depth, α and β on entry, value, the child that
/// gave it, its cutoff and table hit; and the node counts of all three algorithms. Values are
/// from MAX's point of view, MAX being the side to move at the root.
#[utoipa::path(post, path = "/v1/trace", tag = "moves",
    request_body(content = TraceRequest, content_type = "application/json",
        examples(
            ("textbook" = (summary = "The textbook tree A…G: minimax gives the root 4; alpha-beta prunes",
                value = json!({"tree": [[[-1, 4], [2, 6]], [[-3, -5], [0, 7]]], "algorithm": "alphabeta"}))),
            ("leaves" = (summary = "The same tree as a branching factor and its leaves",
                value = json!({"branching": 2, "leaves": [-1, 4, 2, 6, -3, -5, 0, 7], "algorithm": "alphabeta"}))),
            ("text" = (summary = "AIMA's tree in parenthesised text: root value 3",
                value = json!({"tree": "((3 12 8)(2 4 6)(14 5 2))", "algorithm": "alphabeta"}))),
            ("position" = (summary = "The freeCodeCamp board under alpha-beta, classic scoring",
                value = json!({"board": ["O", 1, "X", "X", 4, "X", 6, "O", "O"], "algorithm": "alphabeta", "scoring": "classic"}))),
            ("empty board" = (summary = "The empty board: minimax visits 549,946 nodes; the listing stops at 200",
                value = json!({"board": ".........", "algorithm": "alphabeta_table", "ordering": true, "max_nodes": 200}))),
        )),
    responses(
        (status = 200, description = "The tree as searched, the root's value and move, the node counts of each algorithm, the root's alternatives and a few sentences", body = TraceResponse),
        (status = 400, description = "Malformed JSON", body = crate::api::problem::Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body over the limit", body = crate::api::problem::Problem, content_type = "application/problem+json"),
        (status = 415, description = "Body not sent as uncompressed application/json", body = crate::api::problem::Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid request, board, position or tree; or too large to trace (code trace_too_large, the detail naming the limit: 2,000,000 nodes searched by one algorithm, 4,096 nodes or 24 levels in a textbook tree)", body = crate::api::problem::Problem, content_type = "application/problem+json"),
        (status = 429, description = "Over the per-client rate limit (only when RATE_LIMIT_PER_SECOND is set)", body = crate::api::problem::Problem, content_type = "application/problem+json",
         headers(("Retry-After" = u32, description = "Seconds to wait"))),
        (status = 503, description = "Overloaded (code overloaded, with Retry-After), or the trace did not finish within the server's largest time limit (code timeout, without Retry-After)", body = crate::api::problem::Problem, content_type = "application/problem+json",
         headers(("Retry-After" = u32, description = "Seconds to wait; sent with overloaded only"))),
    ))]
async fn post_trace(
    State(state): State<AppState>,
    JsonBody(body): JsonBody,
) -> Result<Response, ApiError> {
    let response = trace_bounded(&state, parse_trace(read_json(&body)?)?).await?;
    Ok(json_response(&response, 16 * 1024))
}
