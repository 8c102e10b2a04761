//! The MCP server itself: the handler behind both transports, and the tool results it gives.

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::Value;

use super::text::{answer_text, error_text};
use super::tools::{TOOLS, ToolAnswer, run, tools};
use crate::api::problem::ApiError;
use crate::api::state::AppState;

/// What the server tells a client at `initialize`: every tool it lists, by name.
pub(super) const INSTRUCTIONS: &str = "Tic-tac-toe, m,n,k games, gomoku and Connect Four (gravity: \
     true): suggest_move for the best move with scores, apply_move to play a move on a board, \
     game_status to read a board, review_game to label every move of a game, trace_search to show \
     how minimax and alpha-beta reach a move (every alternative's value and the nodes each \
     algorithm visits) on a small board or a textbook tree; explain_move is trace_search's \
     deprecated former name. Never edit a board yourself.";

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
}

/// The tool result for an answer or an error.
///
/// An answer is text for the model (a few sentences and the board as a grid) and the JSON answer
/// as `structuredContent`, which the tool's `outputSchema` describes. An error (`isError: true`)
/// is text only, `code: detail` as in the HTTP problem, then each offending part of the request:
/// a problem document is no answer, so it is not offered where the output schema would be
/// checked.
#[must_use]
pub fn tool_result(arguments: &Value, outcome: Result<ToolAnswer, ApiError>) -> CallToolResult {
    let answer =
        outcome.and_then(|answer| Ok((answer_text(arguments, &answer), answer.to_json()?)));
    match answer {
        Ok((text, json)) => {
            let mut result = CallToolResult::structured(json);
            result.content = vec![ContentBlock::text(text)];
            result
        }
        Err(error) => CallToolResult::error(vec![ContentBlock::text(error_text(&error.problem()))]),
    }
}

impl ServerHandler for McpServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(
                "minimax-move",
                env!("CARGO_PKG_VERSION"),
            ))
            .with_instructions(INSTRUCTIONS)
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
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let Some(tool) = TOOLS.iter().find(|t| t.name == request.name) else {
            metrics::counter!("mcp_tool_calls_total", "tool" => "unknown", "outcome" => "unknown_tool")
                .increment(1);
            return Err(ErrorData::invalid_params(
                format!("no tool named `{}`", request.name),
                None,
            ));
        };
        let arguments = Value::Object(request.arguments.unwrap_or_default());
        // The token is cancelled when the client cancels the call (`notifications/cancelled`)
        // or goes away (the HTTP connection closes, stdin ends): dropping the tool's future then
        // stops its search and frees the slot, as a REST client's going away does.
        let outcome = tokio::select! {
            outcome = run(&self.state, tool.runs(), arguments.clone()) => outcome,
            () = context.ct.cancelled() => {
                metrics::counter!("mcp_tool_calls_total", "tool" => tool.name, "outcome" => "cancelled")
                    .increment(1);
                return Err(ErrorData::internal_error("the call was cancelled", None));
            }
        };
        let label = match &outcome {
            Ok(_) => "ok",
            Err(e) if e.status().is_client_error() => "invalid",
            Err(_) => "unavailable",
        };
        metrics::counter!("mcp_tool_calls_total", "tool" => tool.name, "outcome" => label)
            .increment(1);
        Ok(tool_result(&arguments, outcome).into())
    }
}
