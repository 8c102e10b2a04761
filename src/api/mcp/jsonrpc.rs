//! JSON-RPC errors, as both transports write the ones they answer themselves.

use rmcp::model::ClientJsonRpcMessage;
use serde_json::{Value, json};

/// JSON-RPC's code for input that is not JSON.
const PARSE_ERROR: i64 = -32700;
/// JSON-RPC's code for JSON that is not a valid request.
pub(super) const INVALID_REQUEST: i64 = -32600;
/// JSON-RPC's code for a request whose params cannot be read.
pub(super) const INVALID_PARAMS: i64 = -32602;
/// JSON-RPC's code for an error on the server's side.
pub(super) const INTERNAL_ERROR: i64 = -32603;

/// A JSON-RPC error object: `{"jsonrpc": "2.0", "id": id, "error": {"code", "message"}}`.
pub(super) fn rpc_error(id: Value, code: i64, message: impl Into<String>) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message.into()}})
}

/// The request's id when `body` is a JSON-RPC message; else the id (when it has one), the code
/// and the message of the error: -32700 for input that is not JSON, -32602 for a `tools/call`
/// whose params cannot be read, -32600 for anything else that is no JSON-RPC message.
pub(super) fn check_message(body: &[u8]) -> Result<Value, (Value, i64, String)> {
    let value: Value = serde_json::from_slice(body)
        .map_err(|e| (Value::Null, PARSE_ERROR, format!("Parse error: {e}")))?;
    let id = match value.get("id") {
        Some(id @ (Value::Number(_) | Value::String(_))) => id.clone(),
        _ => Value::Null,
    };
    if let Some(problem) = unreadable_tool_call(&value) {
        return Err((id, INVALID_PARAMS, format!("Invalid params: {problem}")));
    }
    match serde_json::from_value::<ClientJsonRpcMessage>(value) {
        Ok(_) => Ok(id),
        Err(e) => Err((id, INVALID_REQUEST, format!("Invalid Request: {e}"))),
    }
}

/// Why the params of a `tools/call` request cannot be read (they must be an object with the
/// tool's `name`, a string, and its `arguments`, an object when given); `None` for any other
/// message, and for a call that reads.
fn unreadable_tool_call(message: &Value) -> Option<&'static str> {
    if message.get("method")? != "tools/call" {
        return None;
    }
    let Some(Value::Object(params)) = message.get("params") else {
        return Some("tools/call needs params: an object with the tool's name and its arguments");
    };
    if !params.get("name").is_some_and(Value::is_string) {
        return Some("tools/call needs the tool's name as a string (name)");
    }
    match params.get("arguments") {
        None | Some(Value::Null | Value::Object(_)) => None,
        Some(_) => Some("a tool's arguments must be an object (arguments)"),
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
