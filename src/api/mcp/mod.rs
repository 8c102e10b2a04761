//! The Model Context Protocol: five tools (`suggest_move`, `apply_move`, `game_status`,
//! `review_game`, `trace_search`, and `explain_move`, `trace_search`'s deprecated former name)
//! over streamable HTTP at `/mcp` (stateless, JSON responses) and over stdio
//! (`minimax-move mcp`), and `GET /v1/tools.json`, the five as OpenAI strict function
//! definitions.
//!
//! - `tools`: the tools, their schemas (the OpenAPI components of their REST twins, with every
//!   `$ref` inlined) and running them;
//! - `text`: the plain text of each result, for the model;
//! - `server`: the handler both transports serve, and its tool results;
//! - `http` and `stdio`: the two transports, each answering its own errors as JSON-RPC errors
//!   (`jsonrpc`);
//! - `openai`: `GET /v1/tools.json`.

mod http;
mod jsonrpc;
mod openai;
mod server;
mod stdio;
mod text;
mod tools;

pub use http::service;
pub use openai::{OpenAiApi, openai_tools};
pub use server::{McpServer, tool_result};
pub use stdio::{LineTransport, serve_stdio};
pub use tools::{ToolAnswer, tools};

pub(crate) use openai::router;
