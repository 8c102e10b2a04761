//! JSON-RPC errors, as both transports write the ones they answer themselves.

use rmcp::model::ClientJsonRpcMessage;
use serde_json::{Value, json};

/// JSON-RPC's code for input that is not JSON.
const PARSE_ERROR: i64 = -32700;
/// JSON-RPC's code for JSON that is not a valid request.
pub(super) const INVALID_REQUEST: i64 = -32600;
/// JSON-RPC's code for an error on the server's side.
pub(super) const INTERNAL_ERROR: i64 = -32603;

/// A JSON-RPC error object: `{"jsonrpc": "2.0", "id": id, "error": {"code", "message"}}`.
pub(super) fn rpc_error(id: Value, code: i64, message: impl Into<String>) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message.into()}})
}

/// The request's id when `body` is a JSON-RPC message; else the id (when it has one), the code
/// and the message of the error.
pub(super) fn check_message(body: &[u8]) -> Result<Value, (Value, i64, String)> {
    let value: Value = serde_json::from_slice(body)
        .map_err(|e| (Value::Null, PARSE_ERROR, format!("Parse error: {e}")))?;
    let id = match value.get("id") {
        Some(id @ (Value::Number(_) | Value::String(_))) => id.clone(),
        _ => Value::Null,
    };
    match serde_json::from_value::<ClientJsonRpcMessage>(value) {
        Ok(_) => Ok(id),
        Err(e) => Err((id, INVALID_REQUEST, format!("Invalid Request: {e}"))),
    }
}

/// The answer to a request that repeats a key in an object, which parsers read differently (the
/// MCP library keeps the last copy): for a key inside a tool call's `arguments`, the tool error
/// the REST twin's 422 becomes (`invalid_request: the field `board` appears more than once`);
/// anywhere else, a -32600 error naming the key. `None` when no key repeats.
pub(super) fn repeated_key_answer(message: &[u8], id: &Value) -> Option<Value> {
    let (pointer, key) = crate::api::wire::repeated_key(message)?;
    let tool = serde_json::from_slice::<Value>(message)
        .ok()
        .filter(|value| value["method"] == "tools/call")
        .and_then(|value| {
            let name = value["params"]["name"].as_str()?.to_owned();
            super::tools::TOOLS.iter().find(|t| t.name == name)
        });
    match (tool, pointer.strip_prefix("/params/arguments")) {
        (Some(tool), Some(field)) if !field.is_empty() => {
            metrics::counter!("mcp_tool_calls_total", "tool" => tool.name, "outcome" => "invalid")
                .increment(1);
            let error = crate::api::wire::repeated_field(field.to_owned(), &key);
            let result = super::server::tool_result(&Value::Null, Err(error));
            Some(json!({"jsonrpc": "2.0", "id": id, "result": result}))
        }
        _ => Some(rpc_error(
            id.clone(),
            INVALID_REQUEST,
            format!("Invalid Request: the key `{key}` at {pointer} appears more than once"),
        )),
    }
}
