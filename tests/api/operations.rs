//! Probes, request ids and the API's own documents.

use std::process::Command;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use minimax_move::api::{AppState, Settings};
use minimax_move::engine;

use crate::helpers::{SEED_BOARD, TestApp};

#[tokio::test]
async fn healthz_answers_200() {
    let response = TestApp::new().get("/healthz").await;
    assert_eq!(response.ok_json("healthz")["status"], "ok");
}

/// Set in the process [`rerun_alone`] starts.
const ALONE: &str = "MINIMAX_MOVE_TEST_ALONE";

/// Runs the test named `test` (its path in this binary) again, alone, in a new process of this
/// test binary, where no other test has built anything yet, and checks that it passed there.
/// Returns true in the parent, which has nothing more to do, and false in that new process,
/// which goes on with the test.
pub fn rerun_alone(test: &str) -> bool {
    if std::env::var_os(ALONE).is_some() {
        return false;
    }
    let output = Command::new(std::env::current_exe().expect("the test binary's path"))
        .args([test, "--exact", "--test-threads=1"])
        .env(ALONE, "1")
        .output()
        .expect("the test binary runs again");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && stdout.contains("test result: ok. 1 passed"),
        "{test} alone in a new process: {}\n{stdout}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    true
}

#[test]
fn readyz_says_ready_only_once_every_engine_table_is_built() {
    if rerun_alone("operations::readyz_says_ready_only_once_every_engine_table_is_built") {
        return;
    }
    assert!(
        !engine::Engine::default().warmed_up(),
        "a new process has built nothing yet"
    );
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let state = AppState::new(Settings::default());
        let app = TestApp::with_state(state.clone());
        // As `main` does: the warm-up on the blocking pool while the router already answers.
        let warming = state.clone();
        let warm_up = tokio::task::spawn_blocking(move || warming.warm_up());
        loop {
            let response = app.get("/readyz").await;
            if response.status == StatusCode::OK {
                assert!(
                    state.engine().warmed_up(),
                    "ready before the tables are built"
                );
                break;
            }
            response.problem(StatusCode::SERVICE_UNAVAILABLE, "not_ready", "warming up");
            // Polls, no timing asserted: the loop ends when the warm-up does.
            tokio::time::sleep(std::time::Duration::from_millis(1)).await;
        }
        warm_up.await.expect("the warm-up ends");
    });
}

#[tokio::test]
async fn readyz_answers_503_until_marked_ready_then_200() {
    let state = AppState::new(Settings::default());
    let app = TestApp::with_state(state.clone());
    let response = app.get("/readyz").await;
    response.problem(
        StatusCode::SERVICE_UNAVAILABLE,
        "not_ready",
        "before mark_ready",
    );
    assert!(
        response.header("retry-after").is_some(),
        "a 503 says when to retry"
    );

    state.mark_ready();
    assert_eq!(
        app.get("/readyz").await.ok_json("after mark_ready")["status"],
        "ready"
    );

    state.mark_draining();
    app.get("/readyz").await.problem(
        StatusCode::SERVICE_UNAVAILABLE,
        "not_ready",
        "while draining",
    );
    assert_eq!(
        app.get("/healthz").await.status,
        StatusCode::OK,
        "liveness holds while draining"
    );
}

#[tokio::test]
async fn every_response_carries_a_request_id() {
    let app = TestApp::new();
    let ok = app.post_raw(SEED_BOARD, Some("application/json")).await;
    let not_found = app.get("/nope").await;
    let problem = app.post_raw("{", Some("application/json")).await;
    let mut ids = Vec::new();
    for (response, what) in [(ok, "a 200"), (not_found, "a 404"), (problem, "a 400")] {
        let id = response
            .header("x-request-id")
            .unwrap_or_else(|| panic!("{what} has an x-request-id"));
        assert!(!id.is_empty(), "{what}: the id is not empty");
        ids.push(id.to_owned());
    }
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 3, "each request gets its own id");
}

#[tokio::test]
async fn a_request_id_sent_by_the_client_comes_back() {
    let request = Request::post("/v1/move")
        .header("content-type", "application/json")
        .header("x-request-id", "client-chose-this-id-123")
        .body(Body::from(SEED_BOARD))
        .unwrap();
    let response = TestApp::new().send(request).await;
    assert_eq!(response.status, StatusCode::OK);
    assert_eq!(
        response.header("x-request-id"),
        Some("client-chose-this-id-123")
    );
}

#[tokio::test]
async fn serves_the_openapi_document_as_json_and_yaml() {
    let app = TestApp::new();
    let json = app.get("/openapi.json").await.ok_json("openapi.json");
    assert!(
        json["openapi"]
            .as_str()
            .is_some_and(|v| v.starts_with("3.")),
        "{}",
        json["openapi"]
    );
    for path in ["/v1/move", "/healthz", "/readyz"] {
        assert!(
            json["paths"].get(path).is_some(),
            "openapi.json documents {path}"
        );
    }
    assert_eq!(
        json,
        serde_json::to_value(minimax_move::api::openapi()).unwrap()
    );

    let yaml = app.get("/openapi.yaml").await;
    assert_eq!(yaml.status, StatusCode::OK);
    assert!(
        yaml.content_type().contains("yaml"),
        "{}",
        yaml.content_type()
    );
    assert_eq!(yaml.text(), minimax_move::api::openapi_yaml());
}

#[tokio::test]
async fn serves_the_api_explorer_from_the_binary() {
    let app = TestApp::new();
    let docs = app.get("/docs/").await;
    assert_eq!(docs.status, StatusCode::OK, "/docs/");
    assert!(
        docs.content_type().starts_with("text/html"),
        "{}",
        docs.content_type()
    );
    assert!(docs.text().contains("swagger"), "the explorer page");
    let redirect = app.get("/docs").await;
    assert!(
        redirect.status.is_success() || redirect.status.is_redirection(),
        "/docs answers {}",
        redirect.status
    );
    let asset = app.get("/docs/swagger-ui.css").await;
    assert_eq!(asset.status, StatusCode::OK, "assets are vendored, no CDN");
}
