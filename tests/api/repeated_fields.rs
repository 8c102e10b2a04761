//! One strictness everywhere: a field given twice is ambiguous (JSON parsers disagree on which
//! copy wins), so every JSON route answers a 422 `invalid_request` naming it, and every MCP tool,
//! over HTTP and over stdio, a tool error saying the same.

use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};
use serde_json::Value;

use crate::helpers::TestApp;
use crate::mcp::StdioServer;

/// Each JSON route with a body that repeats one field, and the field's pointer.
const ROUTES: [(&str, &str, &str); 7] = [
    (
        "/v1/move",
        r#"{"board": "O.XX.X.OO", "board": "XXOOX.O.."}"#,
        "/board",
    ),
    (
        "/v1/move",
        r#"{"board": "O.XX.X.OO", "moves": true, "moves": false}"#,
        "/moves",
    ),
    (
        "/v1/move/stream",
        r#"{"board": "O.XX.X.OO", "k": 3, "k": 3}"#,
        "/k",
    ),
    (
        "/v1/play",
        r#"{"board": "O.XX.X.OO", "index": 1, "index": 4}"#,
        "/index",
    ),
    (
        "/v1/status",
        r#"{"board": "O.XX.X.OO", "rows": 3, "rows": 3}"#,
        "/rows",
    ),
    (
        "/v1/review",
        r#"{"moves": [4, 0], "moves": [4, 1]}"#,
        "/moves",
    ),
    (
        "/v1/review",
        r#"{"moves": [4, 0], "first": "X", "first": "O"}"#,
        "/first",
    ),
];

#[tokio::test]
async fn every_route_refuses_a_repeated_field_naming_it() {
    let app = TestApp::new();
    for (uri, body, pointer) in ROUTES {
        let request = Request::builder()
            .method(Method::POST)
            .uri(uri)
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(body))
            .unwrap();
        let context = format!("{uri} {body}");
        let problem = app.send(request).await.problem(
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_request",
            &context,
        );
        assert_eq!(
            problem["errors"][0]["pointer"], pointer,
            "{context}: {problem}"
        );
        let field = pointer.trim_start_matches('/');
        assert!(
            problem["detail"]
                .as_str()
                .is_some_and(|d| d.contains(&format!("`{field}` appears more than once"))),
            "{context}: {problem}"
        );
    }
    // Malformed JSON stays a 400, whatever it repeats before it breaks.
    let broken = app
        .post_raw(r#"{"board": 1, "board": 2"#, Some("application/json"))
        .await;
    assert_eq!(broken.status, StatusCode::BAD_REQUEST, "{}", broken.text());
}

/// Each MCP tool with arguments that repeat one field, and the field.
const TOOL_CALLS: [(&str, &str, &str); 4] = [
    (
        "suggest_move",
        r#"{"board": "O.XX.X.OO", "board": "XXXXXXXXX"}"#,
        "board",
    ),
    (
        "apply_move",
        r#"{"board": "O.XX.X.OO", "index": 4, "index": 1}"#,
        "index",
    ),
    (
        "game_status",
        r#"{"board": "O.XX.X.OO", "player": "X", "player": "O"}"#,
        "player",
    ),
    ("review_game", r#"{"moves": [4], "moves": [0]}"#, "moves"),
];

/// A `tools/call` request line, its arguments written as given (with their repeats).
fn tool_call(id: u32, tool: &str, arguments: &str) -> String {
    format!(
        r#"{{"jsonrpc": "2.0", "id": {id}, "method": "tools/call", "params": {{"name": "{tool}", "arguments": {arguments}}}}}"#
    )
}

/// Asserts the tool error of a repeated argument.
#[track_caller]
fn assert_repeated(answer: &Value, id: u32, field: &str, context: &str) {
    assert_eq!(answer["id"], id, "{context}: {answer}");
    let result = &answer["result"];
    assert_eq!(result["isError"], true, "{context}: {answer}");
    let text = result["content"][0]["text"].as_str().unwrap_or_default();
    assert!(
        text.starts_with("invalid_request:")
            && text.contains(&format!("`{field}` appears more than once")),
        "{context}: {text}"
    );
}

#[tokio::test]
async fn every_mcp_tool_over_http_refuses_a_repeated_argument_naming_it() {
    let app = TestApp::new();
    for (id, (tool, arguments, field)) in (1..).zip(TOOL_CALLS) {
        let request = Request::builder()
            .method(Method::POST)
            .uri("/mcp")
            .header(header::HOST, "localhost")
            .header(header::CONTENT_TYPE, "application/json")
            .header(header::ACCEPT, "application/json, text/event-stream")
            .header("mcp-protocol-version", "2025-06-18")
            .body(Body::from(tool_call(id, tool, arguments)))
            .unwrap();
        let answer = app.send(request).await.ok_json(tool);
        assert_repeated(&answer, id, field, tool);
    }
    // A repeat outside the arguments is no tool call at all: a JSON-RPC error carrying the id.
    let request = Request::builder()
        .method(Method::POST)
        .uri("/mcp")
        .header(header::HOST, "localhost")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::ACCEPT, "application/json, text/event-stream")
        .body(Body::from(
            r#"{"jsonrpc": "2.0", "id": 7, "method": "tools/list", "method": "tools/list"}"#,
        ))
        .unwrap();
    let response = app.send(request).await;
    assert_eq!(
        response.status,
        StatusCode::BAD_REQUEST,
        "{}",
        response.text()
    );
    let answer = response.json();
    assert_eq!(answer["id"], 7, "{answer}");
    assert_eq!(answer["error"]["code"], -32600, "{answer}");
}

#[test]
fn every_mcp_tool_over_stdio_refuses_a_repeated_argument_naming_it() {
    let mut server = StdioServer::start();
    for (id, (tool, arguments, field)) in (1..).zip(TOOL_CALLS) {
        server.send(&tool_call(id, tool, arguments));
        assert_repeated(&server.receive(), id, field, tool);
    }
}
