//! Building the production router and driving it with `oneshot`.

use std::collections::HashSet;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, Method, Request, StatusCode, header};
use http_body_util::BodyExt;
use minimax_move::api::{AppState, Settings, app};
use serde_json::Value;
use tower::ServiceExt;

/// The seed board of the freeCodeCamp article, in the canonical array form.
pub const SEED_BOARD: &str = r#"["O",1,"X","X",4,"X",6,"O","O"]"#;

/// The very router `main` serves, with default settings and the 3 × 3 table built.
#[derive(Clone)]
pub struct TestApp {
    router: Router,
}

impl TestApp {
    /// A ready app with default settings.
    pub fn new() -> Self {
        Self::with_state(AppState::ready(Settings::default()))
    }

    /// An app over the given state.
    pub fn with_state(state: AppState) -> Self {
        Self { router: app(state) }
    }

    /// Sends one request through the router.
    pub async fn send(&self, request: Request<Body>) -> TestResponse {
        let response = self
            .router
            .clone()
            .oneshot(request)
            .await
            .expect("the router is infallible");
        let status = response.status();
        let headers = response.headers().clone();
        let body = response
            .into_body()
            .collect()
            .await
            .expect("the body can be read")
            .to_bytes();
        TestResponse {
            status,
            headers,
            body,
        }
    }

    /// `POST /v1/move` with a JSON body.
    pub async fn post_move(&self, body: &Value) -> TestResponse {
        self.post_raw(body.to_string(), Some("application/json"))
            .await
    }

    /// `POST` a JSON body to `path`.
    pub async fn post_json(&self, path: &str, body: &Value) -> TestResponse {
        let request = Request::builder()
            .method(Method::POST)
            .uri(path)
            .header(header::CONTENT_TYPE, "application/json");
        self.send(request.body(Body::from(body.to_string())).unwrap())
            .await
    }

    /// `POST /v1/move` with any body and content type.
    pub async fn post_raw(
        &self,
        body: impl Into<Body>,
        content_type: Option<&str>,
    ) -> TestResponse {
        let mut request = Request::builder().method(Method::POST).uri("/v1/move");
        if let Some(content_type) = content_type {
            request = request.header(header::CONTENT_TYPE, content_type);
        }
        self.send(request.body(body.into()).unwrap()).await
    }

    /// `GET` a path.
    /// Sends one JSON-RPC request to `/mcp` (as a client on localhost with the current
    /// protocol version) and returns its answer, asserting a 200.
    pub async fn mcp_rpc(&self, method: &str, params: Value) -> Value {
        let body =
            serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
        let response = self
            .send(
                Request::builder()
                    .method(Method::POST)
                    .uri("/mcp")
                    .header(header::HOST, "localhost")
                    .header(header::CONTENT_TYPE, "application/json")
                    .header(header::ACCEPT, "application/json, text/event-stream")
                    .header("mcp-protocol-version", "2025-06-18")
                    .body(Body::from(body.to_string()))
                    .unwrap(),
            )
            .await;
        response.ok_json(method)
    }

    /// Calls the MCP tool `name` and returns the call's `result`.
    pub async fn mcp_call(&self, name: &str, arguments: Value) -> Value {
        let params = serde_json::json!({"name": name, "arguments": arguments});
        self.mcp_rpc("tools/call", params).await["result"].clone()
    }

    pub async fn get(&self, uri: &str) -> TestResponse {
        self.send(Request::get(uri).body(Body::empty()).unwrap())
            .await
    }
}

/// A response with its body read.
pub struct TestResponse {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Bytes,
}

impl TestResponse {
    /// The body as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "the body is JSON ({e}): {}",
                String::from_utf8_lossy(&self.body)
            )
        })
    }

    /// The body as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// A header as a string, if present.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// The `content-type` header, or "".
    pub fn content_type(&self) -> &str {
        self.header("content-type").unwrap_or("")
    }

    /// Asserts a 200 JSON answer and returns its body.
    #[track_caller]
    pub fn ok_json(&self, context: &str) -> Value {
        assert_eq!(
            self.status,
            StatusCode::OK,
            "{context}: expected 200, got {}",
            self.text()
        );
        assert!(
            self.content_type().starts_with("application/json"),
            "{context}: content type {:?}",
            self.content_type()
        );
        self.json()
    }

    /// Asserts an RFC 9457 problem with this status and code, and returns its body.
    #[track_caller]
    pub fn problem(&self, status: StatusCode, code: &str, context: &str) -> Value {
        assert_eq!(
            self.status,
            status,
            "{context}: status (body {})",
            self.text()
        );
        assert_eq!(
            self.content_type(),
            "application/problem+json",
            "{context}: content type"
        );
        let problem = self.json();
        assert_eq!(problem["code"], code, "{context}: code in {problem}");
        assert_eq!(
            problem["status"],
            status.as_u16(),
            "{context}: status field"
        );
        assert_eq!(
            problem["type"],
            format!("/problems/{code}"),
            "{context}: type"
        );
        for field in ["title", "detail"] {
            assert!(
                problem[field].as_str().is_some_and(|s| !s.is_empty()),
                "{context}: {field} in {problem}"
            );
        }
        problem
    }
}

/// The JSON pointers of a problem's `errors`.
pub fn pointers(problem: &Value) -> Vec<String> {
    problem["errors"]
        .as_array()
        .map(|errors| {
            errors
                .iter()
                .map(|e| e["pointer"].as_str().unwrap_or("<none>").to_owned())
                .collect()
        })
        .unwrap_or_default()
}

pub use crate::tic_tac_toe::has_line;

/// Every 3 × 3 position in play, as a compact board (`.` for empty) and the side to move, in games
/// where X starts and games where O starts.
pub fn positions_in_play() -> Vec<(String, char)> {
    fn walk(board: &mut [u8; 9], mover: u8, seen: &mut HashSet<([u8; 9], u8)>) {
        if has_line(board, b'X') || has_line(board, b'O') || !board.contains(&b'.') {
            return;
        }
        if !seen.insert((*board, mover)) {
            return;
        }
        let next = if mover == b'X' { b'O' } else { b'X' };
        for i in 0..9 {
            if board[i] == b'.' {
                board[i] = mover;
                walk(board, next, seen);
                board[i] = b'.';
            }
        }
    }
    let mut seen = HashSet::new();
    walk(&mut [b'.'; 9], b'X', &mut seen);
    walk(&mut [b'.'; 9], b'O', &mut seen);
    let mut all: Vec<(String, char)> = seen
        .into_iter()
        .map(|(board, mover)| {
            (
                String::from_utf8(board.to_vec()).unwrap(),
                char::from(mover),
            )
        })
        .collect();
    all.sort();
    all
}

/// Waits until exactly `running` searches hold a slot of `state`, failing the test with `what`
/// after `within`.
pub async fn wait_for_searches(
    state: &AppState,
    running: usize,
    within: std::time::Duration,
    what: &str,
) {
    tokio::time::timeout(within, async {
        while state.searches_running() != running {
            tokio::time::sleep(std::time::Duration::from_millis(2)).await;
        }
    })
    .await
    .unwrap_or_else(|_| panic!("{what}: {running} searches running within {within:?}"));
}
