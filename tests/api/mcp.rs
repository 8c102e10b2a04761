//! MCP at `/mcp` (stateless JSON-RPC over POST), `POST /v1/play`, `POST /v1/status` and
//! `GET /v1/tools.json`, through the production router.

use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};
use serde_json::{Value, json};

use crate::helpers::TestApp;

async fn rpc(app: &TestApp, method: &str, params: Value) -> Value {
    app.mcp_rpc(method, params).await
}

async fn call(app: &TestApp, name: &str, arguments: Value) -> Value {
    app.mcp_call(name, arguments).await
}

#[tokio::test]
async fn explain_move_is_a_deprecated_alias_of_trace_search_that_still_answers() {
    let app = TestApp::new();
    let listed = rpc(&app, "tools/list", json!({})).await;
    let tools = listed["result"]["tools"].as_array().expect("a tool list");
    let tool = |name: &str| tools.iter().find(|t| t["name"] == name).cloned();
    let current = tool("trace_search").expect("trace_search is listed");
    let alias = tool("explain_move").expect("the former name is still listed");
    let description = alias["description"].as_str().unwrap();
    assert!(
        description.starts_with("Deprecated: use trace_search"),
        "{description}"
    );
    assert!(
        !current["description"]
            .as_str()
            .unwrap()
            .contains("Deprecated"),
        "{current}"
    );
    assert_eq!(alias["inputSchema"], current["inputSchema"]);
    assert_eq!(alias["outputSchema"], current["outputSchema"]);
    let arguments = json!({"tree": "((3 12 8)(2 4 6)(14 5 2))", "algorithm": "alphabeta"});
    let by_name = call(&app, "trace_search", arguments.clone()).await;
    let by_alias = call(&app, "explain_move", arguments).await;
    assert_eq!(by_name["isError"], false, "{by_name}");
    assert_eq!(by_name, by_alias, "the alias answers as the tool");
    let openai = app
        .get("/v1/tools.json")
        .await
        .ok_json("GET /v1/tools.json");
    let names: Vec<&str> = openai
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["function"]["name"].as_str())
        .collect();
    assert_eq!(
        names,
        [
            "suggest_move",
            "apply_move",
            "game_status",
            "review_game",
            "trace_search"
        ],
        "function definitions leave the deprecated alias out"
    );
}

#[tokio::test]
async fn initialize_names_every_listed_tool() {
    let app = TestApp::new();
    let answer = rpc(
        &app,
        "initialize",
        json!({"protocolVersion": "2025-06-18", "capabilities": {},
               "clientInfo": {"name": "test", "version": "0"}}),
    )
    .await;
    let instructions = answer["result"]["instructions"].as_str().unwrap();
    let listed = rpc(&app, "tools/list", json!({})).await;
    for tool in listed["result"]["tools"].as_array().unwrap() {
        let name = tool["name"].as_str().unwrap();
        assert!(instructions.contains(name), "{name}: {instructions}");
    }
    let readme = include_str!("../../README.md");
    let section = readme
        .split("## Use it from an LLM chatbot")
        .nth(1)
        .unwrap()
        .split("\n## ")
        .next()
        .unwrap();
    for tool in listed["result"]["tools"].as_array().unwrap() {
        let name = tool["name"].as_str().unwrap();
        assert!(
            section.contains(&format!("`{name}`")),
            "the README's chatbot section names {name}"
        );
    }
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
    assert_eq!(
        names,
        [
            "suggest_move",
            "apply_move",
            "game_status",
            "review_game",
            "trace_search",
            "explain_move"
        ]
    );
    let doc = serde_json::to_value(minimax_move::api::openapi()).unwrap();
    let components = &doc["components"]["schemas"];
    for (tool, input, output) in [
        ("suggest_move", "MoveRequest", "MoveResponse"),
        ("apply_move", "PlayRequest", "PlayResponse"),
        ("game_status", "StatusRequest", "StatusResponse"),
        ("review_game", "ReviewRequest", "ReviewResponse"),
        ("trace_search", "TraceRequest", "TraceResponse"),
        ("explain_move", "TraceRequest", "TraceResponse"),
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
    let http = app
        .post_json("/v1/move", &request)
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
async fn suggest_move_text_carries_the_score_the_outcome_and_the_move_table() {
    let app = TestApp::new();
    let board = json!(["O", 1, "X", "X", 4, "X", 6, "O", "O"]);
    let result = call(&app, "suggest_move", json!({"board": board, "moves": true})).await;
    let text = result["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("X plays 4: score 9, outcome win in 1 ply."),
        "the chosen move with its score and outcome: {text}"
    );
    assert!(
        text.contains("1: -8, loss in 2 plies; 4: 9, win in 1 ply; 6: -8, loss in 2 plies"),
        "the move table: {text}"
    );
    let result = call(&app, "suggest_move", json!({"board": board})).await;
    let text = result["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("score 9, outcome win"), "{text}");
    assert!(!text.contains("Moves ("), "no table unless asked: {text}");
}

#[tokio::test]
async fn tool_errors_read_code_colon_detail_with_no_structured_content() {
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
        ("apply_move", json!({"board": "XO.......", "index": 1})),
        ("apply_move", json!({"board": "XXXOO....", "index": 5})),
        ("game_status", json!({"board": [0, 1, 7, 3, 4, 5, 6, 7, 8]})),
    ];
    for (tool, arguments) in cases {
        let result = call(&app, tool, arguments.clone()).await;
        assert_eq!(result["isError"], true, "{tool} {arguments}: {result}");
        // An error is no answer: structured content there would fail the tool's outputSchema.
        assert!(
            result.get("structuredContent").is_none(),
            "{tool} {arguments}: {result}"
        );
        let uri = match tool {
            "apply_move" => "/v1/play",
            "game_status" => "/v1/status",
            _ => "/v1/move",
        };
        let http = app.post_json(uri, &arguments).await;
        assert_eq!(
            http.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{uri} {arguments}"
        );
        let http = http.json();
        let text = result["content"][0]["text"].as_str().unwrap();
        let expected = format!(
            "{}: {}",
            http["code"].as_str().unwrap(),
            http["detail"].as_str().unwrap()
        );
        assert!(text.starts_with(&expected), "{tool} {arguments}: {text}");
    }
    let taken = call(
        &app,
        "apply_move",
        json!({"board": "XO.......", "index": 0}),
    )
    .await;
    assert_eq!(
        taken["content"][0]["text"], "invalid_move: cell 0 is already taken",
        "{taken}"
    );
}

#[tokio::test]
async fn a_tool_error_for_many_bad_cells_stays_small() {
    let app = TestApp::new();
    let result = call(&app, "game_status", json!({"board": "Z".repeat(30_000)})).await;
    let text = result["content"][0]["text"].as_str().unwrap();
    assert!(text.starts_with("invalid_cell: 30000 characters"), "{text}");
    assert_eq!(
        text.lines().count(),
        22,
        "code, 20 cells, the count: {text}"
    );
    assert!(text.ends_with("… and 29980 more"), "{text}");
}

#[tokio::test]
async fn apply_move_plays_wins_and_draws() {
    let app = TestApp::new();
    let won = call(
        &app,
        "apply_move",
        json!({"board": "XX.OO....", "index": 2}),
    )
    .await;
    let value = &won["structuredContent"];
    assert_eq!(value["board"], "XXXOO....");
    assert_eq!(
        value["status"],
        json!({"state": "win", "winner": "X", "line": [0, 1, 2]})
    );
    assert_eq!(value["to_move"], Value::Null);
    assert_eq!(value["legal_moves"], json!([]));
    let drawn = call(
        &app,
        "apply_move",
        json!({"board": ["X", "O", "X", "X", "O", "O", "O", "X", 8], "index": 8}),
    )
    .await;
    assert_eq!(
        drawn["structuredContent"]["status"]["state"], "draw",
        "{drawn}"
    );
    let on = call(
        &app,
        "apply_move",
        json!({"board": "....", "index": 3, "rows": 2, "cols": 2, "k": 2, "player": null}),
    )
    .await;
    assert_eq!(on["structuredContent"]["board"], "...X", "{on}");
    assert_eq!(on["structuredContent"]["to_move"], "O");
    assert_eq!(on["structuredContent"]["legal_moves"], json!([0, 1, 2]));
}

#[tokio::test]
async fn tools_and_rest_twins_name_the_cell_index_and_the_next_side_to_move() {
    let app = TestApp::new();
    let suggested = call(&app, "suggest_move", json!({"board": "X........"})).await;
    let index = suggested["structuredContent"]["index"].clone();
    // The index suggest_move answers is what apply_move takes, under the same name.
    let played = call(
        &app,
        "apply_move",
        json!({"board": "X........", "index": index}),
    )
    .await;
    let played = &played["structuredContent"];
    assert_eq!(played["index"], index, "{played}");
    assert_eq!(played["to_move"], "X", "{played}");
    for old in ["cell", "next_player"] {
        assert!(played.get(old).is_none(), "no `{old}` in {played}");
    }
    let status = call(&app, "game_status", json!({"board": played["board"]})).await;
    assert_eq!(status["structuredContent"]["to_move"], "X", "{status}");
    // `cell`, the former name, is still read, by the tool and by its REST twin.
    let old = json!({"board": "X........", "cell": 4});
    let by_tool = call(&app, "apply_move", old.clone()).await;
    let by_rest = app
        .post_json("/v1/play", &old)
        .await
        .ok_json("POST /v1/play");
    assert_eq!(by_tool["structuredContent"], by_rest);
    assert_eq!(by_rest["index"], 4, "{by_rest}");
    // Both names at once are one field given twice.
    let both = app
        .post_json(
            "/v1/play",
            &json!({"board": "X........", "cell": 4, "index": 4}),
        )
        .await;
    both.problem(
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid_request",
        "cell and index",
    );
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
        let http = app
            .post_json("/v1/status", &arguments)
            .await
            .ok_json("POST /v1/status");
        assert_eq!(http, result["structuredContent"], "{arguments}");
    }
}

/// The keywords OpenAI's strict mode documents.
const STRICT_KEYWORDS: [&str; 14] = [
    "type",
    "description",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "const",
    "anyOf",
    "minimum",
    "maximum",
    "minItems",
    "maxItems",
    "pattern",
];

/// Asserts that a schema is strict: only documented keywords, every object closed and with every
/// property required.
fn assert_strict(schema: &Value, path: &str) {
    let Some(map) = schema.as_object() else {
        panic!("{path}: a schema is an object");
    };
    for key in map.keys() {
        assert!(
            STRICT_KEYWORDS.contains(&key.as_str()),
            "{path}: `{key}` is not a keyword strict mode documents"
        );
    }
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
        for (name, property) in properties {
            assert!(
                required.contains(&name.as_str()),
                "{path}: {name} is required"
            );
            assert_strict(property, &format!("{path}/properties/{name}"));
        }
    }
    if let Some(items) = map.get("items") {
        assert_strict(items, &format!("{path}/items"));
    }
    for (i, branch) in map
        .get("anyOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        assert_strict(branch, &format!("{path}/anyOf/{i}"));
    }
}

fn is_nullable(schema: &Value) -> bool {
    let null = json!("null");
    schema["type"] == null
        || schema["type"].as_array().is_some_and(|t| t.contains(&null))
        || schema["anyOf"]
            .as_array()
            .is_some_and(|any| any.iter().any(is_nullable))
}

#[tokio::test]
async fn tools_json_is_openai_strict_in_the_chat_completions_shape() {
    let app = TestApp::new();
    let tools = app
        .get("/v1/tools.json")
        .await
        .ok_json("GET /v1/tools.json");
    let tools = tools.as_array().unwrap();
    assert_eq!(tools.len(), 5);
    for tool in tools {
        assert_eq!(tool["type"], "function");
        let function = &tool["function"];
        assert_eq!(function["strict"], true);
        assert_eq!(function["parameters"]["type"], "object");
        assert_strict(&function["parameters"], function["name"].as_str().unwrap());
    }
    // An optional field is nullable, and a null argument means its default.
    let suggest = &tools[0]["function"]["parameters"]["properties"];
    for optional in ["moves", "scoring", "rows", "player"] {
        assert!(is_nullable(&suggest[optional]), "{optional}: {suggest}");
    }
    assert!(!is_nullable(&suggest["board"]), "{suggest}");
    let result = call(
        &TestApp::new(),
        "suggest_move",
        json!({"board": "O.XX.X.OO", "moves": null, "player": null}),
    )
    .await;
    assert_eq!(result["structuredContent"]["index"], 4, "{result}");
}

#[tokio::test]
async fn tools_json_offers_the_responses_api_shape() {
    let app = TestApp::new();
    let chat = app.get("/v1/tools.json?api=chat").await.ok_json("chat");
    let responses = app
        .get("/v1/tools.json?api=responses")
        .await
        .ok_json("responses");
    let responses = responses.as_array().unwrap();
    assert_eq!(responses.len(), 5);
    for (flat, nested) in responses.iter().zip(chat.as_array().unwrap()) {
        assert_eq!(flat["type"], "function");
        assert!(flat.get("function").is_none(), "{flat}");
        for key in ["name", "description", "strict", "parameters"] {
            assert_eq!(flat[key], nested["function"][key], "{key}");
        }
    }
    app.get("/v1/tools.json?api=assistants").await.problem(
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid_request",
        "an unknown api",
    );
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
    // The default accepts loopback names only; `*` accepts any host, as behind a load balancer.
    let default = TestApp::new().send(list("moves.example.com")).await;
    assert_eq!(default.status, StatusCode::FORBIDDEN, "{}", default.text());
    assert_eq!(
        TestApp::new().send(list("127.0.0.1:8080")).await.status,
        StatusCode::OK
    );
    let open = TestApp::with_state(AppState::ready(Settings {
        mcp_allowed_hosts: vec!["*".into()],
        ..Settings::default()
    }))
    .send(list("moves.example.com"))
    .await;
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
        let response = app.post_json(uri, &json!([1, 2])).await;
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

/// A request to `/mcp` with this method, content type and body.
fn mcp_request(method: Method, content_type: &str, body: &str) -> Request<Body> {
    Request::builder()
        .method(method)
        .uri("/mcp")
        .header(header::HOST, "localhost")
        .header(header::CONTENT_TYPE, content_type)
        .header(header::ACCEPT, "application/json, text/event-stream")
        .body(Body::from(body.to_owned()))
        .unwrap()
}

#[tokio::test]
async fn mcp_transport_errors_are_json_rpc_errors() {
    let app = TestApp::new();
    let json = "application/json";
    let oversized = format!(
        r#"{{"jsonrpc":"2.0","id":9,"method":"x","params":"{}"}}"#,
        "a".repeat(70_000)
    );
    let cases = [
        (
            mcp_request(Method::POST, json, "{not json"),
            StatusCode::BAD_REQUEST,
            -32700,
            Value::Null,
            "malformed JSON",
        ),
        (
            mcp_request(Method::POST, json, ""),
            StatusCode::BAD_REQUEST,
            -32700,
            Value::Null,
            "an empty body",
        ),
        (
            mcp_request(
                Method::POST,
                json,
                r#"{"jsonrpc":"2.0","id":5,"params":{}}"#,
            ),
            StatusCode::BAD_REQUEST,
            -32600,
            json!(5),
            "no method",
        ),
        (
            mcp_request(Method::POST, json, "[]"),
            StatusCode::BAD_REQUEST,
            -32600,
            Value::Null,
            "a batch",
        ),
        (
            mcp_request(
                Method::POST,
                "text/plain",
                r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
            ),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            -32600,
            Value::Null,
            "a text body",
        ),
        (
            mcp_request(Method::GET, json, ""),
            StatusCode::METHOD_NOT_ALLOWED,
            -32600,
            Value::Null,
            "GET",
        ),
        (
            mcp_request(Method::POST, json, &oversized),
            StatusCode::PAYLOAD_TOO_LARGE,
            -32600,
            Value::Null,
            "over the body limit",
        ),
    ];
    let mut json_only = mcp_request(
        Method::POST,
        json,
        r#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#,
    );
    json_only
        .headers_mut()
        .insert(header::ACCEPT, "application/json".parse().unwrap());
    let cases = cases.into_iter().chain([(
        json_only,
        StatusCode::NOT_ACCEPTABLE,
        -32600,
        json!(3),
        "an Accept without text/event-stream",
    )]);
    for (request, status, code, id, why) in cases {
        let response = app.send(request).await;
        assert_eq!(response.status, status, "{why}: {}", response.text());
        assert!(
            response.content_type().starts_with("application/json"),
            "{why}: {:?}",
            response.content_type()
        );
        let error = response.json();
        assert_eq!(error["jsonrpc"], "2.0", "{why}: {error}");
        assert_eq!(error["id"], id, "{why}: {error}");
        assert_eq!(error["error"]["code"], code, "{why}: {error}");
        assert!(
            error["error"]["message"]
                .as_str()
                .is_some_and(|m| !m.is_empty()),
            "{why}: {error}"
        );
    }
}

/// `minimax-move mcp` with piped stdin and stdout.
pub(crate) struct StdioServer {
    child: std::process::Child,
    input: std::process::ChildStdin,
    output: std::io::BufReader<std::process::ChildStdout>,
}

impl StdioServer {
    pub(crate) fn start() -> Self {
        Self::start_with(&[])
    }

    /// A server with these environment variables set as well.
    fn start_with(environment: &[(&str, &str)]) -> Self {
        use std::process::{Command, Stdio};
        let mut child = Command::new(env!("CARGO_BIN_EXE_minimax-move"))
            .arg("mcp")
            .env_clear()
            .env("RUST_LOG", "warn")
            .envs(environment.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary starts");
        let input = child.stdin.take().unwrap();
        let output = std::io::BufReader::new(child.stdout.take().unwrap());
        let mut server = Self {
            child,
            input,
            output,
        };
        server.send(
            &json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "test", "version": "0"}}})
            .to_string(),
        );
        assert_eq!(server.receive()["id"], 0);
        server.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        server
    }

    pub(crate) fn send(&mut self, line: &str) {
        use std::io::Write;
        self.input.write_all(line.as_bytes()).unwrap();
        self.input.write_all(b"\n").unwrap();
        self.input.flush().unwrap();
    }

    pub(crate) fn receive(&mut self) -> Value {
        use std::io::BufRead;
        let mut line = String::new();
        self.output.read_line(&mut line).expect("an answer line");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line:?}"))
    }

    /// The peak resident memory of the process in KiB.
    fn peak_rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap()
    }
}

impl Drop for StdioServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn over_stdio_a_line_over_the_limit_gets_a_json_rpc_error_and_the_server_goes_on() {
    let mut server = StdioServer::start();
    let bad_cells = "Z".repeat(1024 * 1024);
    server.send(&format!(
        r#"{{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{{"name":"game_status","arguments":{{"board":"{bad_cells}"}}}}}}"#
    ));
    let error = server.receive();
    assert_eq!(error["id"], 7, "{error}");
    assert_eq!(error["error"]["code"], -32600, "{error}");
    assert!(
        error["error"]["message"]
            .as_str()
            .unwrap()
            .contains("65536"),
        "{error}"
    );
    server.send("{not json");
    let error = server.receive();
    assert_eq!(error["error"]["code"], -32700, "{error}");
    assert_eq!(error["id"], Value::Null, "{error}");
    server.send(r#"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"game_status","arguments":{"board":"X........"}}}"#);
    let answer = server.receive();
    assert_eq!(answer["id"], 8, "{answer}");
    assert_eq!(
        answer["result"]["structuredContent"]["to_move"], "O",
        "{answer}"
    );
    let peak = server.peak_rss_kib();
    assert!(peak < 200 * 1024, "peak resident memory {peak} KiB");
}

#[test]
fn over_stdio_a_cancelled_call_stops_its_search_and_frees_its_slot() {
    // One search slot, a queue that waits 2 s for it, and searches that run to their clock.
    let mut server = StdioServer::start_with(&[
        ("MAX_SEARCHES", "1"),
        ("QUEUE_WAIT_MS", "2000"),
        ("SEARCH_WORK_RATE", "1000000000000"),
    ]);
    let search = |id: u64, time_limit_ms: u64| {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
            "name": "suggest_move",
            "arguments": {"board": ".".repeat(225), "rows": 15, "cols": 15, "k": 5,
                          "time_limit_ms": time_limit_ms}}})
        .to_string()
    };
    server.send(&search(1, 10_000));
    std::thread::sleep(std::time::Duration::from_millis(300));
    server.send(
        &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                "params": {"requestId": 1, "reason": "the user moved on"}})
        .to_string(),
    );
    // Had the first search kept its slot for its 10 s, this one would be shed after 2 s.
    server.send(&search(2, 200));
    let answer = loop {
        let message = server.receive();
        if message["id"] == 2 {
            break message;
        }
        assert_eq!(
            message["id"], 1,
            "only the cancelled call may answer: {message}"
        );
    };
    assert_eq!(answer["result"]["isError"], false, "{answer}");
    assert_eq!(
        answer["result"]["structuredContent"]["index"], 112,
        "{answer}"
    );
}

#[tokio::test]
async fn review_game_gives_the_post_review_answer_and_its_sentence() {
    let app = TestApp::new();
    let arguments = json!({"moves": [4, 1, 0, 8, 2, 6, 3, 5]});
    let result = call(&app, "review_game", arguments.clone()).await;
    assert_eq!(result["isError"], false, "{result}");
    let rest = app
        .post_json("/v1/review", &arguments)
        .await
        .ok_json("POST /v1/review");
    assert_eq!(
        result["structuredContent"], rest,
        "the tool answers as the route"
    );
    assert_eq!(rest["moves"][1]["label"], "blunder", "{rest}");
    let text = result["content"][0]["text"].as_str().unwrap_or_default();
    assert!(
        text.starts_with(rest["sentence"].as_str().unwrap()),
        "the text opens with the sentence: {text}"
    );
    let illegal = call(&app, "review_game", json!({"moves": [4, 4]})).await;
    assert_eq!(illegal["isError"], true, "{illegal}");
    let text = illegal["content"][0]["text"].as_str().unwrap_or_default();
    assert!(text.starts_with("invalid_move"), "{text}");
}

#[tokio::test]
async fn trace_search_says_the_trace_in_a_few_sentences() {
    let app = TestApp::new();
    let request =
        json!({"board": ["O", 1, "X", "X", 4, "X", 6, "O", "O"], "algorithm": "alphabeta"});
    let result = call(&app, "trace_search", request.clone()).await;
    assert_eq!(result["isError"], json!(false), "{result}");
    let mut listed_root = request.clone();
    listed_root["max_nodes"] = json!(1);
    let http = app
        .post_json("/v1/trace", &listed_root)
        .await
        .ok_json("POST /v1/trace");
    assert_eq!(
        result["structuredContent"], http,
        "the route's answer, the root alone listed"
    );
    let text = result["content"][0]["text"].as_str().unwrap();
    assert_eq!(text, http["explanation"].as_str().unwrap());
    assert!(text.starts_with("X plays 4: it wins in 1 ply"), "{text}");
    assert!(text.contains("1 and 6 lose"), "{text}");
    assert!(text.contains("Plain minimax visits"), "{text}");
    let tree = call(
        &app,
        "trace_search",
        json!({"tree": "((3 12 8)(2 4 6)(14 5 2))"}),
    )
    .await;
    let text = tree["content"][0]["text"].as_str().unwrap();
    assert!(
        text.starts_with(
            "MAX moves to B, worth 3. Against best replies by MIN, C is worth 2 and D is worth 2."
        ),
        "{text}"
    );
    let refused = call(&app, "trace_search", json!({"tree": [1, []]})).await;
    assert_eq!(refused["isError"], json!(true), "{refused}");
}

/// `tools/call` requests whose params cannot be read, each with why.
fn unreadable_tool_calls() -> [(Value, &'static str); 6] {
    [
        (
            json!({"name": "game_status", "arguments": "X........"}),
            "arguments a string",
        ),
        (
            json!({"name": "game_status", "arguments": ["X........"]}),
            "arguments an array",
        ),
        (json!({"arguments": {"board": "X........"}}), "no tool name"),
        (
            json!({"name": 7, "arguments": {"board": "X........"}}),
            "a tool name that is a number",
        ),
        (json!("game_status"), "params a string"),
        (json!([]), "params an array"),
    ]
}

#[tokio::test]
async fn tool_calls_whose_params_cannot_be_read_are_invalid_params() {
    let app = TestApp::new();
    for (params, why) in unreadable_tool_calls() {
        let body = json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": params});
        let mut request = mcp_request(Method::POST, "application/json", &body.to_string());
        request
            .headers_mut()
            .insert("mcp-protocol-version", "2025-06-18".parse().unwrap());
        let response = app.send(request).await;
        assert_eq!(
            response.status,
            StatusCode::OK,
            "{why}: {}",
            response.text()
        );
        let error = response.json();
        assert_eq!(error["id"], 9, "{why}: {error}");
        assert_eq!(error["error"]["code"], -32602, "{why}: {error}");
        assert!(
            error["error"]["message"]
                .as_str()
                .is_some_and(|m| m.starts_with("Invalid params")),
            "{why}: {error}"
        );
    }
    let without_arguments = rpc(&app, "tools/call", json!({"name": "game_status"})).await;
    assert_eq!(
        without_arguments["result"]["isError"], true,
        "no arguments read as none, a tool error naming the board: {without_arguments}"
    );
}

#[test]
fn over_stdio_tool_calls_whose_params_cannot_be_read_are_invalid_params() {
    let mut server = StdioServer::start();
    for (id, (params, why)) in unreadable_tool_calls().into_iter().enumerate() {
        server.send(
            &json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
                .to_string(),
        );
        let error = server.receive();
        assert_eq!(error["id"], id, "{why}: {error}");
        assert_eq!(error["error"]["code"], -32602, "{why}: {error}");
    }
}
