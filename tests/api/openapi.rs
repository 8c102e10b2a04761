//! The committed `openapi.yaml` is the document the code generates.
//!
//! Regenerate it with `UPDATE_OPENAPI=1 cargo test --test api openapi`.

use std::path::Path;

#[test]
fn committed_openapi_yaml_matches_the_generated_document() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("openapi.yaml");
    let generated = minimax_move::api::openapi_yaml();
    if std::env::var_os("UPDATE_OPENAPI").is_some_and(|v| v == "1") {
        std::fs::write(&path, &generated).expect("openapi.yaml can be written");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "openapi.yaml is out of date with the code; regenerate it with \
         `UPDATE_OPENAPI=1 cargo test --test api openapi` and commit it"
    );
}

fn document() -> serde_json::Value {
    serde_json::to_value(minimax_move::api::openapi()).expect("the document serializes")
}

fn required(schema: &serde_json::Value) -> Vec<&str> {
    schema["required"]
        .as_array()
        .map(|r| r.iter().filter_map(serde_json::Value::as_str).collect())
        .unwrap_or_default()
}

#[test]
fn optional_request_fields_carry_no_default_that_generators_read_as_required() {
    // openapi-typescript (default flags) types a property with a `default` as always present.
    let doc = document();
    let schemas = &doc["components"]["schemas"];
    for name in [
        "MoveRequest",
        "PlayRequest",
        "StatusRequest",
        "ReviewRequest",
        "TraceRequest",
    ] {
        let schema = &schemas[name];
        for (property, definition) in schema["properties"].as_object().unwrap() {
            assert!(
                definition.get("default").is_none(),
                "{name}.{property} has a default: {definition}"
            );
        }
        // PlayRequest takes `index` or, on a gravity board, `column`: neither is required alone.
        let expected: &[&str] = match name {
            "ReviewRequest" => &["moves"],
            // A trace takes a board, a tree, or branching with leaves.
            "TraceRequest" => &[],
            _ => &["board"],
        };
        assert_eq!(required(schema), expected, "{name}");
    }
}

#[tokio::test]
async fn every_field_every_answer_carries_is_required_and_no_other() {
    use crate::helpers::TestApp;
    use serde_json::json;
    let app = TestApp::new();
    let doc = document();
    let schemas = &doc["components"]["schemas"];
    let post = |uri: &'static str, body: serde_json::Value| {
        let app = app.clone();
        async move {
            let request = axum::http::Request::post(uri)
                .header("content-type", "application/json")
                .body(axum::body::Body::from(body.to_string()))
                .unwrap();
            app.send(request).await.ok_json(uri)
        }
    };
    let cases = [
        (
            "MoveResponse",
            post("/v1/move", json!({"board": "X........"})).await,
        ),
        (
            "MoveResponse",
            post("/v1/move", json!({"board": "XX.OO....", "moves": true})).await,
        ),
        (
            "PlayResponse",
            post("/v1/play", json!({"board": "XX.OO....", "index": 2})).await,
        ),
        (
            "PlayResponse",
            post("/v1/play", json!({"board": ".........", "index": 2})).await,
        ),
        (
            "StatusResponse",
            post("/v1/status", json!({"board": "XXXOO...."})).await,
        ),
        (
            "StatusResponse",
            post("/v1/status", json!({"board": "X........"})).await,
        ),
        (
            "TraceResponse",
            post("/v1/trace", json!({"board": "XX.OO...."})).await,
        ),
        (
            "TraceResponse",
            post("/v1/trace", json!({"tree": [[1, 2], [3]]})).await,
        ),
        (
            "ReviewResponse",
            post("/v1/review", json!({"moves": [4, 1, 0, 8, 2, 6, 3, 5]})).await,
        ),
        (
            "ReviewResponse",
            post("/v1/review", json!({"moves": [0, 3, 1, 4, 2]})).await,
        ),
    ];
    let game_status = required(&schemas["GameStatus"]);
    // Fields that only some answers carry, by design: `column` on gravity boards, `coordinate`
    // on gomoku boards.
    let optional = [
        ("MoveResponse", "moves"),
        ("MoveResponse", "top"),
        ("MoveResponse", "seed"),
        ("MoveResponse", "column"),
        ("MoveResponse", "coordinate"),
        ("PlayResponse", "column"),
        ("PlayResponse", "coordinate"),
        ("MoveReview", "coordinate"),
        ("MoveReview", "column"),
    ];
    for (name, answer) in &cases {
        let schema = &schemas[*name];
        let always = required(schema);
        for property in schema["properties"].as_object().unwrap().keys() {
            let is_optional = optional.contains(&(*name, property.as_str()));
            assert_eq!(
                always.contains(&property.as_str()),
                !is_optional,
                "{name}.{property}: required in the schema exactly when always present"
            );
            if !is_optional {
                assert!(
                    answer.get(property).is_some(),
                    "{name}.{property} in {answer}"
                );
            }
        }
        if *name == "TraceResponse" {
            continue;
        }
        for field in ["state", "winner", "line"] {
            assert!(
                answer["status"].get(field).is_some(),
                "{name}.status.{field}"
            );
            assert!(game_status.contains(&field), "GameStatus.{field}");
        }
    }
    assert!(required(&schemas["MoveEntry"]).contains(&"plies"));
    let review = &cases[cases.len() - 1].1;
    for (name, answer) in [
        ("MoveReview", &review["moves"][0]),
        ("PlayerReview", &review["summary"][0]),
    ] {
        let always = required(&schemas[name]);
        for property in schemas[name]["properties"].as_object().unwrap().keys() {
            if optional.contains(&(name, property.as_str())) {
                assert!(
                    !always.contains(&property.as_str()),
                    "{name}.{property} is optional"
                );
                continue;
            }
            assert!(
                always.contains(&property.as_str()),
                "{name}.{property} is required"
            );
            assert!(
                answer.get(property).is_some(),
                "{name}.{property} in {answer}"
            );
        }
    }
}

#[test]
fn the_bare_board_body_of_post_move_is_in_its_schema_and_every_example_fits() {
    let doc = document();
    let body = &doc["paths"]["/v1/move"]["post"]["requestBody"]["content"]["application/json"];
    assert_eq!(body["schema"]["$ref"], "#/components/schemas/MoveBody");
    let branches: Vec<&str> = doc["components"]["schemas"]["MoveBody"]["oneOf"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|b| b["$ref"].as_str())
        .collect();
    assert_eq!(
        branches,
        [
            "#/components/schemas/MoveRequest",
            "#/components/schemas/Board"
        ]
    );
    let examples = body["examples"].as_object().unwrap();
    assert!(
        examples.values().any(|e| e["value"].is_array()),
        "a bare-array example"
    );
    let properties = doc["components"]["schemas"]["MoveRequest"]["properties"]
        .as_object()
        .unwrap();
    for (name, example) in examples {
        match &example["value"] {
            serde_json::Value::Object(fields) => {
                assert!(fields.contains_key("board"), "{name}: a board");
                for field in fields.keys() {
                    assert!(properties.contains_key(field), "{name}: {field}");
                }
            }
            serde_json::Value::Array(_) | serde_json::Value::String(_) => {}
            other => panic!("{name}: {other} is neither an options object nor a board"),
        }
    }
}

#[test]
fn the_document_names_its_server_security_and_licence() {
    let doc = document();
    assert_eq!(doc["servers"][0]["url"], "/", "{}", doc["servers"]);
    assert_eq!(
        doc["security"],
        serde_json::json!([]),
        "no operation needs credentials"
    );
    assert_eq!(doc["info"]["license"]["identifier"], "MIT OR Apache-2.0");
}
