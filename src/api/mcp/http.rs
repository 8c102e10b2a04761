//! MCP over streamable HTTP at `/mcp`: stateless, JSON answers, and every error the transport
//! gives before a tool runs written as a JSON-RPC error, so that a client's JSON-RPC layer reads
//! it: malformed JSON is a -32700 parse error, a `tools/call` whose params cannot be read (no
//! tool name, arguments that are not an object) a -32602 invalid params error, JSON that is no
//! JSON-RPC message a -32600 invalid request, and so is anything else the transport refuses (the
//! wrong content type or `Accept`, a body over the limit, a `Host` not allowed, a method other
//! than POST), each with its HTTP status.
//! A request that repeats a key is refused before the transport reads it (the MCP library would
//! keep the last copy): a tool error for a repeated argument, else a -32600 error.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, any};
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::Value;

use super::jsonrpc::{
    INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST, check_message, repeated_key_answer, rpc_error,
};
use super::server::McpServer;
use crate::api::extract::is_json;
use crate::api::state::AppState;

/// The longest error text of the transport that is passed on.
const TRANSPORT_TEXT_LIMIT: usize = 4096;

type Transport = StreamableHttpService<McpServer, NeverSessionManager>;

fn rpc_error_response(status: StatusCode, id: Value, code: i64, message: String) -> Response {
    let body = rpc_error(id, code, message).to_string();
    (
        status,
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        body,
    )
        .into_response()
}

/// The transport's settings: `MCP_ALLOWED_HOSTS`-style entries, where `*` alone allows any `Host`.
fn http_config(state: &AppState) -> StreamableHttpServerConfig {
    let settings = state.settings();
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true)
        .with_sse_keep_alive(None)
        .with_max_request_body_bytes(settings.body_limit);
    if settings.mcp_allowed_hosts.iter().any(|h| h == "*") {
        config.disable_allowed_hosts()
    } else {
        config.with_allowed_hosts(settings.mcp_allowed_hosts.clone())
    }
}

/// The service mounted at `/mcp`.
pub fn service(state: AppState) -> MethodRouter {
    let limit = state.settings().body_limit;
    let config = http_config(&state);
    let transport: Transport = StreamableHttpService::new(
        move || Ok(McpServer::new(state.clone())),
        Arc::new(NeverSessionManager::default()),
        config,
    );
    any(move |request: Request| {
        let transport = transport.clone();
        async move { front(&transport, limit, request).await }
    })
}

/// Reads a JSON body up to the limit and checks that it is a JSON-RPC message before the
/// transport sees it; every refusal, the transport's included, is a JSON-RPC error.
async fn front(transport: &Transport, limit: usize, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let mut id = Value::Null;
    let body = if parts.method == Method::POST && is_json(&parts.headers) {
        let Ok(bytes) = axum::body::to_bytes(body, limit).await else {
            let message = format!("the body is larger than the limit of {limit} bytes");
            return rpc_error_response(StatusCode::PAYLOAD_TOO_LARGE, id, INVALID_REQUEST, message);
        };
        id = match check_message(&bytes) {
            Ok(id) => id,
            // A request read with params that are not, answered as the library answers a tool
            // it does not know: a JSON-RPC error in a 200.
            Err((id, code @ INVALID_PARAMS, message)) => {
                return rpc_error_response(StatusCode::OK, id, code, message);
            }
            Err((id, code, message)) => {
                return rpc_error_response(StatusCode::BAD_REQUEST, id, code, message);
            }
        };
        if let Some(answer) = repeated_key_answer(&bytes, &id) {
            let status = if answer.get("error").is_some() {
                StatusCode::BAD_REQUEST
            } else {
                StatusCode::OK
            };
            let content_type = HeaderValue::from_static("application/json");
            let headers = [(header::CONTENT_TYPE, content_type)];
            return (status, headers, answer.to_string()).into_response();
        }
        Body::from(bytes)
    } else {
        body
    };
    let response = transport.handle(Request::from_parts(parts, body)).await;
    as_json_rpc(response.map(Body::new), id).await
}

/// The transport's own refusals come as plain text: rewritten as JSON-RPC errors, status and
/// other headers (such as `Allow`) kept.
async fn as_json_rpc(response: Response, id: Value) -> Response {
    let status = response.status();
    let is_json = is_json(response.headers());
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, TRANSPORT_TEXT_LIMIT)
        .await
        .map(|bytes| String::from_utf8_lossy(&bytes).trim().to_owned())
        .unwrap_or_default();
    let message = if text.is_empty() {
        status.canonical_reason().unwrap_or("error").to_owned()
    } else {
        text
    };
    let code = if status.is_server_error() {
        INTERNAL_ERROR
    } else {
        INVALID_REQUEST
    };
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    Response::from_parts(parts, Body::from(rpc_error(id, code, message).to_string()))
}
