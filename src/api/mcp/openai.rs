//! `GET /v1/tools.json`: the tools as OpenAI function definitions in strict mode, in the shape of
//! the Chat Completions API (the default, `?api=chat`) or of the Responses API (`?api=responses`).

use axum::routing::get;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::tools::{TOOLS, tools};
use crate::api::extract::StrictQuery;
use crate::api::state::AppState;

/// The keywords OpenAI's strict mode documents; every other one is left out.
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

/// Which OpenAI API the definitions are shaped for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpenAiApi {
    /// Chat Completions: `{"type": "function", "function": {"name", ...}}`.
    ChatCompletions,
    /// Responses: `{"type": "function", "name", ...}`.
    Responses,
}

/// The tools as OpenAI function definitions in strict mode, shaped for `api`: the five, without
/// the deprecated alias, which `/mcp` still answers.
#[must_use]
pub fn openai_tools(api: OpenAiApi) -> Value {
    Value::Array(
        tools()
            .into_iter()
            .filter(|tool| {
                TOOLS
                    .iter()
                    .any(|spec| spec.name == tool.name && spec.alias_of.is_none())
            })
            .map(|tool| {
                let parameters = strict(&Value::Object((*tool.input_schema).clone()), true);
                let function = json!({
                    "name": tool.name,
                    "description": tool.description,
                    "strict": true,
                    "parameters": parameters,
                });
                match (api, function) {
                    (OpenAiApi::ChatCompletions, function) => {
                        json!({"type": "function", "function": function})
                    }
                    (OpenAiApi::Responses, Value::Object(mut function)) => {
                        function.insert("type".to_owned(), json!("function"));
                        Value::Object(function)
                    }
                    (OpenAiApi::Responses, other) => other,
                }
            })
            .collect(),
    )
}

/// A JSON Schema rewritten for OpenAI strict mode: `additionalProperties: false` on every object,
/// every property required (the optional ones made nullable), `anyOf` for `oneOf`, and only the
/// keywords strict mode documents.
fn strict(schema: &Value, required: bool) -> Value {
    let Value::Object(map) = schema else {
        return schema.clone();
    };
    let mut out = Map::new();
    for (key, value) in map {
        match key.as_str() {
            "oneOf" | "anyOf" => {
                let items = value
                    .as_array()
                    .map_or_else(Vec::new, |a| a.iter().map(|v| strict(v, true)).collect());
                out.insert("anyOf".to_owned(), Value::Array(items));
            }
            "items" => {
                out.insert(key.clone(), strict(value, true));
            }
            "properties" => {
                let properties = strict_properties(map, value);
                out.insert(
                    "required".to_owned(),
                    Value::Array(properties.keys().cloned().map(Value::String).collect()),
                );
                out.insert(key.clone(), Value::Object(properties));
            }
            "required" | "additionalProperties" => {}
            _ if STRICT_KEYWORDS.contains(&key.as_str()) => {
                out.insert(key.clone(), value.clone());
            }
            _ => {}
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

/// The properties of an object schema, each made strict; those the object does not require are
/// made nullable.
fn strict_properties(object: &Map<String, Value>, properties: &Value) -> Map<String, Value> {
    let required: Vec<&str> = object
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    properties
        .as_object()
        .map(|p| {
            p.iter()
                .map(|(name, v)| (name.clone(), strict(v, required.contains(&name.as_str()))))
                .collect()
        })
        .unwrap_or_default()
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

/// The query of `GET /v1/tools.json`: `?api=chat` (the default) or `?api=responses`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ToolsQuery {
    #[serde(default)]
    api: Option<ApiName>,
}

/// The names `api` takes.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(rename_all = "snake_case")]
enum ApiName {
    #[serde(alias = "chat_completions")]
    Chat,
    Responses,
}

/// `GET /v1/tools.json`.
pub(crate) fn router() -> Router<AppState> {
    Router::new().route(
        "/v1/tools.json",
        get(|StrictQuery(query): StrictQuery<ToolsQuery>| async move {
            Json(openai_tools(match query.api {
                None | Some(ApiName::Chat) => OpenAiApi::ChatCompletions,
                Some(ApiName::Responses) => OpenAiApi::Responses,
            }))
        }),
    )
}
