//! MCP at `/mcp` (stateless JSON-RPC over POST), `POST /v1/play`, `POST /v1/status` and
//! `GET /v1/tools.json`, through the production router.

use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};
use serde_json::{Value, json};

use crate::helpers::{TestApp, TestResponse};

async fn rpc(app: &TestApp, method: &str, params: Value) -> Value {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    let response = app
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
    assert_eq!(
        response.status,
        StatusCode::OK,
        "{method}: {}",
        response.text()
    );
    response.json()
}

async fn call(app: &TestApp, name: &str, arguments: Value) -> Value {
    let answer = rpc(
        app,
        "tools/call",
        json!({"name": name, "arguments": arguments}),
    )
    .await;
    answer["result"].clone()
}

async fn post(app: &TestApp, uri: &str, body: &Value) -> TestResponse {
    app.send(
        Request::builder()
            .method(Method::POST)
            .uri(uri)
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(body.to_string()))
            .unwrap(),
    )
    .await
}

#[tokio::test]
async fn initialize_names_the_server_and_its_version() {
    let app = TestApp::new();
    let answer = rpc(
        &app,
        "initialize",
        json!({"protocolVersion": "2025-06-18", "capabilities": {},
               "clientInfo": {"name": "test", "version": "0"}}),
    )
    .await;
    let info = &answer["result"]["serverInfo"];
    assert_eq!(info["name"], "minimax-move", "{answer}");
    assert_eq!(info["version"], env!("CARGO_PKG_VERSION"), "{answer}");
}

#[tokio::test]
async fn tool_schemas_are_the_openapi_components() {
    let app = TestApp::new();
    let listed = rpc(&app, "tools/list", json!({})).await;
    let tools = listed["result"]["tools"].as_array().expect("a tool list");
    let names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
    assert_eq!(names, ["suggest_move", "apply_move", "game_status"]);
    let doc = serde_json::to_value(minimax_move::api::openapi()).unwrap();
    let components = &doc["components"]["schemas"];
    for (tool, input, output) in [
        ("suggest_move", "MoveRequest", "MoveResponse"),
        ("apply_move", "PlayRequest", "PlayResponse"),
        ("game_status", "StatusRequest", "StatusResponse"),
    ] {
        let tool = tools.iter().find(|t| t["name"] == tool).unwrap();
        for (key, component) in [("inputSchema", input), ("outputSchema", output)] {
            let schema = &tool[key];
            assert_eq!(schema["type"], "object", "{key} of {}", tool["name"]);
            assert_eq!(
                schema["properties"]
                    .as_object()
                    .map(|p| p.keys().collect::<Vec<_>>()),
                components[component]["properties"]
                    .as_object()
                    .map(|p| p.keys().collect::<Vec<_>>()),
                "{key} of {} has the properties of {component}",
                tool["name"]
            );
            assert_eq!(schema["required"], components[component]["required"]);
            assert!(
                !schema.to_string().contains("$ref"),
                "{key} of {} has every reference inlined",
                tool["name"]
            );
        }
        assert!(
            tool["description"].as_str().is_some_and(|d| d.len() > 80),
            "{} has a description a model can act on",
            tool["name"]
        );
    }
}

#[tokio::test]
async fn suggest_move_gives_the_post_move_answer_and_a_grid() {
    let app = TestApp::new();
    let request = json!({"board": ["O", 1, "X", "X", 4, "X", 6, "O", "O"], "moves": true});
    let result = call(&app, "suggest_move", request.clone()).await;
    let http = post(&app, "/v1/move", &request)
        .await
        .ok_json("POST /v1/move");
    assert_eq!(result["structuredContent"], http);
    assert_eq!(result["isError"], json!(false), "{result}");
    let text = result["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("O | 1 | X\nX | X | X\n6 | O | O"), "{text}");
    assert!(
        text.contains(http["explanation"].as_str().unwrap()),
        "{text}"
    );
}

#[tokio::test]
async fn bad_input_is_a_tool_error_with_the_problem_code_and_detail() {
    let app = TestApp::new();
    let cases = [
        (
            "suggest_move",
            json!({"board": ["X", "X", "X", "X", 4, 5, 6, 7, 8]}),
        ),
        (
            "suggest_move",
            json!({"board": "XXXOO....", "scorng": "depth"}),
        ),
        ("apply_move", json!({"board": "XO.......", "cell": 1})),
        ("apply_move", json!({"board": "XXXOO....", "cell": 5})),
        ("game_status", json!({"board": [0, 1, 7, 3, 4, 5, 6, 7, 8]})),
    ];
    for (tool, arguments) in cases {
        let result = call(&app, tool, arguments.clone()).await;
        assert_eq!(result["isError"], true, "{tool} {arguments}: {result}");
        let problem = &result["structuredContent"];
        let uri = match tool {
            "apply_move" => "/v1/play",
            "game_status" => "/v1/status",
            _ => "/v1/move",
        };
        let http = post(&app, uri, &arguments).await;
        assert_eq!(
            http.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{uri} {arguments}"
        );
        let http = http.json();
        assert_eq!(problem["code"], http["code"], "{tool} {arguments}");
        assert_eq!(problem["detail"], http["detail"], "{tool} {arguments}");
        let text = result["content"][0]["text"].as_str().unwrap();
        assert!(
            text.contains(http["code"].as_str().unwrap())
                && text.contains(http["detail"].as_str().unwrap()),
            "{tool} {arguments}: {text}"
        );
    }
}

#[tokio::test]
async fn apply_move_plays_wins_and_draws() {
    let app = TestApp::new();
    let won = call(&app, "apply_move", json!({"board": "XX.OO....", "cell": 2})).await;
    let value = &won["structuredContent"];
    assert_eq!(value["board"], "XXXOO....");
    assert_eq!(
        value["status"],
        json!({"state": "win", "winner": "X", "line": [0, 1, 2]})
    );
    assert_eq!(value["next_player"], Value::Null);
    assert_eq!(value["legal_moves"], json!([]));
    let drawn = call(
        &app,
        "apply_move",
        json!({"board": ["X", "O", "X", "X", "O", "O", "O", "X", 8], "cell": 8}),
    )
    .await;
    assert_eq!(
        drawn["structuredContent"]["status"]["state"], "draw",
        "{drawn}"
    );
    let on = call(
        &app,
        "apply_move",
        json!({"board": "....", "cell": 3, "rows": 2, "cols": 2, "k": 2, "player": null}),
    )
    .await;
    assert_eq!(on["structuredContent"]["board"], "...X", "{on}");
    assert_eq!(on["structuredContent"]["next_player"], "O");
    assert_eq!(on["structuredContent"]["legal_moves"], json!([0, 1, 2]));
}

#[tokio::test]
async fn game_status_reports_finished_games_as_a_status() {
    let app = TestApp::new();
    let cases = [
        (
            json!({"board": "XXXOO...."}),
            json!({"state": "win", "winner": "X", "line": [0, 1, 2]}),
            Value::Null,
        ),
        (
            json!({"board": "XOXXOOOXX"}),
            json!({"state": "draw", "winner": null, "line": []}),
            Value::Null,
        ),
        (
            json!({"board": "X........"}),
            json!({"state": "in_play", "winner": null, "line": []}),
            json!("O"),
        ),
    ];
    for (arguments, status, to_move) in cases {
        let result = call(&app, "game_status", arguments.clone()).await;
        assert_eq!(result["isError"], false, "{arguments}: {result}");
        assert_eq!(result["structuredContent"]["status"], status, "{arguments}");
        assert_eq!(
            result["structuredContent"]["to_move"], to_move,
            "{arguments}"
        );
        let http = post(&app, "/v1/status", &arguments)
            .await
            .ok_json("POST /v1/status");
        assert_eq!(http, result["structuredContent"], "{arguments}");
    }
}

#[tokio::test]
async fn tools_json_is_openai_strict() {
    fn walk(schema: &Value, path: &str) {
        let Some(map) = schema.as_object() else {
            return;
        };
        assert!(!map.contains_key("format"), "{path}: no format");
        assert!(!map.contains_key("oneOf"), "{path}: anyOf, not oneOf");
        if map.get("type") == Some(&json!("object")) || map.contains_key("properties") {
            assert_eq!(
                map.get("additionalProperties"),
                Some(&json!(false)),
                "{path}"
            );
            let properties = map["properties"].as_object().unwrap();
            let required: Vec<&str> = map["required"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(Value::as_str)
                .collect();
            for name in properties.keys() {
                assert!(
                    required.contains(&name.as_str()),
                    "{path}: {name} is required"
                );
            }
        }
        for (key, value) in map {
            match value {
                Value::Array(items) => {
                    for (i, item) in items.iter().enumerate() {
                        walk(item, &format!("{path}/{key}/{i}"));
                    }
                }
                other => walk(other, &format!("{path}/{key}")),
            }
        }
    }
    let app = TestApp::new();
    let tools = app
        .get("/v1/tools.json")
        .await
        .ok_json("GET /v1/tools.json");
    let tools = tools.as_array().unwrap();
    assert_eq!(tools.len(), 3);
    for tool in tools {
        let function = &tool["function"];
        assert_eq!(function["strict"], true);
        assert_eq!(function["parameters"]["type"], "object");
        walk(&function["parameters"], function["name"].as_str().unwrap());
    }
    // An optional field is nullable, and a null argument means its default.
    let suggest = &tools[0]["function"]["parameters"]["properties"];
    assert!(
        suggest["moves"]["type"]
            .as_array()
            .is_some_and(|t| t.contains(&json!("null")))
    );
    let result = call(
        &TestApp::new(),
        "suggest_move",
        json!({"board": "O.XX.X.OO", "moves": null, "player": null}),
    )
    .await;
    assert_eq!(result["structuredContent"]["index"], 4, "{result}");
}

#[tokio::test]
async fn a_foreign_host_is_refused_when_hosts_are_listed() {
    use minimax_move::api::{AppState, Settings};
    let app = TestApp::with_state(AppState::ready(Settings {
        mcp_allowed_hosts: vec!["localhost".to_owned()],
        ..Settings::default()
    }));
    let list = |host: &'static str| {
        Request::builder()
            .method(Method::POST)
            .uri("/mcp")
            .header(header::HOST, host)
            .header(header::CONTENT_TYPE, "application/json")
            .header(header::ACCEPT, "application/json, text/event-stream")
            .body(Body::from(
                json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).to_string(),
            ))
            .unwrap()
    };
    let foreign = app.send(list("evil.example")).await;
    assert_eq!(foreign.status, StatusCode::FORBIDDEN, "{}", foreign.text());
    let local = app.send(list("localhost")).await;
    assert_eq!(local.status, StatusCode::OK, "{}", local.text());
    // The default (`*`) accepts any host, as behind a load balancer.
    let open = TestApp::new().send(list("moves.example.com")).await;
    assert_eq!(open.status, StatusCode::OK, "{}", open.text());
}

#[tokio::test]
async fn play_and_status_want_json() {
    let app = TestApp::new();
    for uri in ["/v1/play", "/v1/status"] {
        let response = app
            .send(
                Request::builder()
                    .method(Method::POST)
                    .uri(uri)
                    .header(header::CONTENT_TYPE, "text/plain")
                    .body(Body::from(r#"{"board": "........."}"#))
                    .unwrap(),
            )
            .await;
        response.problem(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            uri,
        );
        let response = post(&app, uri, &json!([1, 2])).await;
        response.problem(StatusCode::UNPROCESSABLE_ENTITY, "invalid_request", uri);
    }
}

#[tokio::test]
async fn tool_calls_are_counted_by_tool_and_outcome() {
    let app = TestApp::new();
    call(&app, "game_status", json!({"board": "OOO......"})).await;
    call(&app, "game_status", json!({"board": "X........"})).await;
    let metrics = app.get("/metrics").await.text();
    for outcome in ["invalid", "ok"] {
        let line = format!(r#"mcp_tool_calls_total{{tool="game_status",outcome="{outcome}"}}"#);
        let count: f64 = metrics
            .lines()
            .find_map(|l| l.strip_prefix(line.as_str()))
            .and_then(|rest| rest.trim().parse().ok())
            .unwrap_or_else(|| panic!("{line} in /metrics:\n{metrics}"));
        assert!(count >= 1.0, "{line} {count}");
    }
}
