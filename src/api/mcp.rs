//! The Model Context Protocol server: three tools (`suggest_move`, `apply_move`, `game_status`)
//! over streamable HTTP at `/mcp` (stateless, JSON responses) and over stdio
//! (`minimax-move mcp`), and `GET /v1/tools.json`, the same tools as OpenAI strict function
//! definitions.
//!
//! The tools' input and output schemas are taken from the OpenAPI document's components (the same
//! `utoipa` types as `POST /v1/move`, `/v1/play` and `/v1/status`), with every `$ref` inlined.

use std::sync::Arc;

use axum::Json;
use axum::Router;
use axum::routing::get;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    JsonObject, ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
    ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Map, Value, json};

use super::wire::parse_request;
use super::{ApiError, AppState, play_route};
use crate::engine::Player;

/// The tools: name, OpenAPI component of the input, of the output, and the description.
const TOOLS: [(&str, &str, &str, &str); 3] = [
    (
        "suggest_move",
        "MoveRequest",
        "MoveResponse",
        "Best move for the side to move in tic-tac-toe or an m,n,k game (rows × cols board, k in a \
         row wins, up to 15 × 15), solved exactly on 3 × 3. Pass the board as a row-major array \
         (\"X\", \"O\", or the cell's own index / null for empty) or a compact string such as \
         \"O.XX.X.OO\"; give rows, cols and k for other boards. Returns the cell to play (index), \
         its minimax score and outcome (win/draw/loss with best play), the board after the move, \
         the game status, the expected line of play and a one-sentence explanation; moves=true \
         adds every legal move with its score. Do not edit boards yourself: use apply_move to \
         play a move.",
    ),
    (
        "apply_move",
        "PlayRequest",
        "PlayResponse",
        "Plays one move: a board and a cell index (row-major from 0) give the board after the move, \
         whether it won (winner and winning line) or drew the game, who moves next and the legal \
         moves. The mover is inferred from the mark counts (or checked against player). Use it \
         instead of editing a board yourself; errors name the problem (invalid_move for a taken \
         or off-board cell, game_over for a finished game).",
    ),
    (
        "game_status",
        "StatusRequest",
        "StatusResponse",
        "Reads a board: whether the position is legal (an impossible board is an error naming \
         the problem code), whose turn it is, whether the game is won (winner and line), drawn \
         or in play, and the legal moves. A finished game is a normal answer here, not an error.",
    ),
];

/// The MCP server: one per request over HTTP (stateless), one per process over stdio.
#[derive(Clone, Debug)]
pub struct McpServer {
    state: AppState,
}

impl McpServer {
    /// A server answering with this state's settings and search slots.
    #[must_use]
    pub const fn new(state: AppState) -> Self {
        Self { state }
    }

    async fn run(&self, name: &str, arguments: Value) -> Result<Value, ApiError> {
        match name {
            "suggest_move" => {
                let request = parse_request(arguments)?;
                let body = super::move_route::answer_bounded(&self.state, request).await?;
                serde_json::from_slice(&body).map_err(|e| {
                    tracing::error!(error = %e, "an answer did not parse back");
                    ApiError::Internal
                })
            }
            "apply_move" => to_value(play_route::play(arguments)?),
            "game_status" => to_value(play_route::status(arguments)?),
            _ => Err(ApiError::NotFound),
        }
    }
}

fn to_value(value: impl serde::Serialize) -> Result<Value, ApiError> {
    serde_json::to_value(value).map_err(|_| ApiError::Internal)
}

/// The tool result for an answer or an error: text for the model, the JSON as structured content.
#[must_use]
pub fn tool_result(
    name: &str,
    arguments: &Value,
    outcome: Result<Value, ApiError>,
) -> CallToolResult {
    match outcome {
        Ok(value) => {
            let text = describe(name, arguments, &value);
            let mut result = CallToolResult::structured(value);
            result.content = vec![ContentBlock::text(text)];
            result
        }
        Err(error) => {
            let problem = error.problem();
            let text = format!("error {}: {}", problem.code.as_str(), problem.detail);
            let mut result = CallToolResult::structured_error(
                serde_json::to_value(&problem).unwrap_or_default(),
            );
            result.content = vec![ContentBlock::text(text)];
            result
        }
    }
}

/// Removes null arguments: OpenAI strict mode sends every optional field, as null.
fn without_nulls(arguments: Option<JsonObject>) -> Value {
    let mut map = arguments.unwrap_or_default();
    map.retain(|_, v| !v.is_null());
    Value::Object(map)
}

/// The plain-text part of a tool's answer: a sentence and the board as a grid.
fn describe(name: &str, arguments: &Value, value: &Value) -> String {
    let cols = arguments
        .get("cols")
        .and_then(Value::as_u64)
        .map_or(3, |c| usize::try_from(c).unwrap_or(3));
    let status = |status: &Value| match status["state"].as_str() {
        Some("win") => format!(
            "{} wins (line {}).",
            status["winner"].as_str().unwrap_or("?"),
            status["line"]
        ),
        Some("draw") => "The game is a draw.".to_owned(),
        _ => "The game goes on.".to_owned(),
    };
    match name {
        "suggest_move" => format!(
            "{}\n{}\nBoard after the move:\n{}",
            value["explanation"].as_str().unwrap_or_default(),
            status(&value["status"]),
            grid(&value["board"], cols)
        ),
        "apply_move" => format!(
            "{} played cell {}. {}{}\nBoard after the move:\n{}",
            value["player"].as_str().unwrap_or("?"),
            value["cell"],
            status(&value["status"]),
            value["next_player"]
                .as_str()
                .map(|p| format!(" {p} moves next."))
                .unwrap_or_default(),
            grid(&value["board"], cols)
        ),
        _ => {
            let turn = value["to_move"]
                .as_str()
                .map(|p| format!(" {p} to move; legal moves {}.", value["legal_moves"]))
                .unwrap_or_default();
            let board = arguments.get("board").cloned().unwrap_or(Value::Null);
            format!(
                "Legal position. {}{turn}\nBoard:\n{}",
                status(&value["status"]),
                grid(&board, cols)
            )
        }
    }
}

/// A board as rows of cells: marks as `X`/`O`, empty cells as their index.
fn grid(board: &Value, cols: usize) -> String {
    let cells: Vec<Option<Player>> = match board {
        Value::String(s) => s
            .chars()
            .map(|c| match c {
                'X' | 'x' => Some(Player::X),
                'O' | 'o' => Some(Player::O),
                _ => None,
            })
            .collect(),
        Value::Array(items) => items
            .iter()
            .map(|c| match c.as_str() {
                Some("X" | "x") => Some(Player::X),
                Some("O" | "o") => Some(Player::O),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    let width = cells.len().saturating_sub(1).to_string().len();
    cells
        .chunks(cols.max(1))
        .enumerate()
        .map(|(row, chunk)| {
            chunk
                .iter()
                .enumerate()
                .map(|(col, cell)| match cell {
                    Some(p) => format!("{:>width$}", p.as_str()),
                    None => format!("{:>width$}", row * cols + col),
                })
                .collect::<Vec<_>>()
                .join(" | ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The OpenAPI component `name` with every `$ref` inlined, as a JSON Schema object.
fn component(schemas: &Map<String, Value>, name: &str) -> Value {
    fn inline(value: &Value, schemas: &Map<String, Value>, depth: usize) -> Value {
        match value {
            Value::Object(map) => {
                if let Some(Value::String(target)) = map.get("$ref")
                    && let Some(name) = target.strip_prefix("#/components/schemas/")
                    && depth < 16
                {
                    let mut resolved = inline(&schemas[name], schemas, depth + 1);
                    // Keep siblings of the reference (a description, say).
                    if let Value::Object(resolved_map) = &mut resolved {
                        for (key, v) in map.iter().filter(|(k, _)| *k != "$ref") {
                            resolved_map.insert(key.clone(), inline(v, schemas, depth));
                        }
                    }
                    return resolved;
                }
                Value::Object(
                    map.iter()
                        .map(|(k, v)| (k.clone(), inline(v, schemas, depth)))
                        .collect(),
                )
            }
            Value::Array(items) => {
                Value::Array(items.iter().map(|v| inline(v, schemas, depth)).collect())
            }
            other => other.clone(),
        }
    }
    inline(&schemas[name], schemas, 0)
}

fn schemas() -> Map<String, Value> {
    let doc = serde_json::to_value(super::openapi()).expect("the OpenAPI document serializes");
    doc["components"]["schemas"]
        .as_object()
        .cloned()
        .expect("the OpenAPI document has schemas")
}

/// The tools with their schemas, from the OpenAPI document.
#[must_use]
pub fn tools() -> Vec<Tool> {
    let schemas = schemas();
    TOOLS
        .iter()
        .map(|&(name, input, output, description)| {
            let object = |v: Value| match v {
                Value::Object(map) => Arc::new(map),
                _ => Arc::new(JsonObject::new()),
            };
            let mut annotations = ToolAnnotations::new();
            annotations.read_only_hint = Some(true);
            annotations.open_world_hint = Some(false);
            annotations.idempotent_hint = Some(true);
            Tool::new(name, description, object(component(&schemas, input)))
                .with_raw_output_schema(object(component(&schemas, output)))
                .with_annotations(annotations)
        })
        .collect()
}

impl ServerHandler for McpServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(
                "minimax-move",
                env!("CARGO_PKG_VERSION"),
            ))
            .with_instructions(
                "Tic-tac-toe and m,n,k games: suggest_move for the best move with scores, \
                 apply_move to play a move on a board, game_status to read a board. Never edit a \
                 board yourself.",
            )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(tools()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let Some(&(name, ..)) = TOOLS.iter().find(|t| t.0 == request.name) else {
            metrics::counter!("mcp_tool_calls_total", "tool" => "unknown", "outcome" => "unknown_tool")
                .increment(1);
            return Err(ErrorData::invalid_params(
                format!("no tool named `{}`", request.name),
                None,
            ));
        };
        let arguments = without_nulls(request.arguments);
        let outcome = self.run(name, arguments.clone()).await;
        let label = match &outcome {
            Ok(_) => "ok",
            Err(e) if e.status().is_client_error() => "invalid",
            Err(_) => "unavailable",
        };
        metrics::counter!("mcp_tool_calls_total", "tool" => name, "outcome" => label).increment(1);
        Ok(tool_result(name, &arguments, outcome).into())
    }
}

/// Parses `MCP_ALLOWED_HOSTS`-style entries: `*` alone allows any `Host`.
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

/// The streamable HTTP service mounted at `/mcp`.
pub fn service(state: AppState) -> StreamableHttpService<McpServer, NeverSessionManager> {
    let config = http_config(&state);
    StreamableHttpService::new(
        move || Ok(McpServer::new(state.clone())),
        Arc::new(NeverSessionManager::default()),
        config,
    )
}

/// Serves MCP over stdin and stdout until the client closes them.
///
/// # Errors
/// When the MCP handshake or the transport fails.
pub async fn serve_stdio(state: AppState) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let running = McpServer::new(state)
        .serve(rmcp::transport::stdio())
        .await?;
    running.waiting().await?;
    Ok(())
}

/// The tools as OpenAI function definitions in strict mode.
#[must_use]
pub fn openai_tools() -> Value {
    Value::Array(
        tools()
            .into_iter()
            .map(|tool| {
                json!({
                    "type": "function",
                    "function": {
                        "name": tool.name,
                        "description": tool.description,
                        "strict": true,
                        "parameters": strict(&Value::Object((*tool.input_schema).clone()), true),
                    }
                })
            })
            .collect(),
    )
}

/// A JSON Schema rewritten for OpenAI strict mode: `additionalProperties: false` on every object,
/// every property required (the optional ones made nullable), `anyOf` for `oneOf`, and no keyword
/// strict mode rejects (`format`, `default`, `example(s)`).
fn strict(schema: &Value, required: bool) -> Value {
    let Value::Object(map) = schema else {
        return schema.clone();
    };
    let mut out = Map::new();
    let original_required: Vec<String> = map
        .get("required")
        .and_then(Value::as_array)
        .map(|r| {
            r.iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    for (key, value) in map {
        match key.as_str() {
            "format"
            | "default"
            | "example"
            | "examples"
            | "required"
            | "nullable"
            | "additionalProperties" => {}
            "oneOf" | "anyOf" => {
                let items: Vec<Value> = value
                    .as_array()
                    .map(|a| a.iter().map(|v| strict(v, true)).collect())
                    .unwrap_or_default();
                out.insert("anyOf".to_owned(), Value::Array(items));
            }
            "items" => {
                out.insert(key.clone(), strict(value, true));
            }
            "properties" => {
                let properties: Map<String, Value> = value
                    .as_object()
                    .map(|p| {
                        p.iter()
                            .map(|(name, v)| {
                                (name.clone(), strict(v, original_required.contains(name)))
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                out.insert(
                    "required".to_owned(),
                    Value::Array(properties.keys().cloned().map(Value::String).collect()),
                );
                out.insert(key.clone(), Value::Object(properties));
            }
            _ => {
                out.insert(key.clone(), value.clone());
            }
        }
    }
    if out.contains_key("properties") || out.get("type") == Some(&json!("object")) {
        out.insert("additionalProperties".to_owned(), Value::Bool(false));
        out.entry("properties").or_insert_with(|| json!({}));
        out.entry("required").or_insert_with(|| json!([]));
    }
    if !required {
        nullable(&mut out);
    }
    Value::Object(out)
}

/// Makes a schema also accept null.
fn nullable(schema: &mut Map<String, Value>) {
    let null = json!("null");
    match schema.get_mut("type") {
        Some(Value::String(t)) if t != "null" => {
            let t = Value::String(t.clone());
            schema.insert("type".to_owned(), json!([t, "null"]));
        }
        Some(Value::Array(types)) => {
            if !types.contains(&null) {
                types.push(null);
            }
        }
        Some(_) => {}
        None => {
            if let Some(Value::Array(any)) = schema.get_mut("anyOf") {
                if !any.iter().any(|s| s.get("type") == Some(&null)) {
                    any.push(json!({"type": "null"}));
                }
            } else {
                let inner = Value::Object(std::mem::take(schema));
                schema.insert("anyOf".to_owned(), json!([inner, {"type": "null"}]));
            }
        }
    }
    if let Some(Value::Array(values)) = schema.get_mut("enum")
        && !values.contains(&Value::Null)
    {
        values.push(Value::Null);
    }
}

/// `GET /v1/tools.json`.
pub(crate) fn router() -> Router<AppState> {
    Router::new().route("/v1/tools.json", get(|| async { Json(openai_tools()) }))
}
