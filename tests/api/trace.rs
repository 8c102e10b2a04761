//! `POST /v1/trace` through the production router, and once over a real socket: the textbook
//! tree in its three forms, positions, the empty board's counts, the listing's cap, and the
//! bounded 422s for what cannot be traced.

use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{TestApp, pointers};

const TEXTBOOK: &str = "[[[-1, 4], [2, 6]], [[-3, -5], [0, 7]]]";

fn textbook() -> Value {
    serde_json::from_str(TEXTBOOK).unwrap()
}

async fn trace(app: &TestApp, body: Value) -> Value {
    app.post_json("/v1/trace", &body)
        .await
        .ok_json(&body.to_string())
}

/// The nodes of a traced tree in visiting order (pre-order).
fn visiting_order(node: &Value, out: &mut Vec<Value>) {
    out.push(node.clone());
    for child in node["children"].as_array().unwrap() {
        visiting_order(child, out);
    }
}

#[tokio::test]
async fn the_textbook_tree_traces_to_root_value_4_and_alpha_beta_cuts_at_c() {
    let app = TestApp::new();
    let minimax = trace(&app, json!({"tree": textbook(), "algorithm": "minimax"})).await;
    assert_eq!(minimax["value"], 4);
    assert_eq!(minimax["algorithm"], "minimax");
    assert_eq!(minimax["best"], 0);
    assert_eq!(minimax["root"]["label"], "A");
    assert_eq!(minimax["root"]["alpha"], Value::Null, "α = −∞ is null");
    assert_eq!(minimax["root"]["beta"], Value::Null, "β = +∞ is null");
    assert_eq!(
        minimax["counts"],
        json!({"minimax": 15, "alphabeta": 12, "alphabeta_table": 12})
    );
    assert_eq!(
        (minimax["outcome"].clone(), minimax["player"].clone()),
        (Value::Null, Value::Null)
    );
    let mut nodes = Vec::new();
    visiting_order(&minimax["root"], &mut nodes);
    let labels: Vec<&str> = nodes.iter().filter_map(|n| n["label"].as_str()).collect();
    assert_eq!(
        &labels[..7],
        ["A", "B", "D", "H", "I", "E", "J"],
        "visiting order"
    );
    let order: Vec<u64> = nodes.iter().map(|n| n["order"].as_u64().unwrap()).collect();
    assert_eq!(order, (0..15).collect::<Vec<_>>());
    let values: Vec<(&str, i64)> = nodes
        .iter()
        .filter(|n| n["leaf"].is_null())
        .map(|n| (n["label"].as_str().unwrap(), n["value"].as_i64().unwrap()))
        .collect();
    assert_eq!(
        values,
        [
            ("A", 4),
            ("B", 4),
            ("D", 4),
            ("E", 6),
            ("C", -3),
            ("F", -3),
            ("G", 7)
        ]
    );

    let alphabeta = trace(&app, json!({"tree": textbook(), "algorithm": "alphabeta"})).await;
    assert_eq!(
        (alphabeta["value"].clone(), alphabeta["nodes"].clone()),
        (json!(4), json!(12))
    );
    let c = &alphabeta["root"]["children"][1];
    assert_eq!(
        (c["label"].clone(), c["alpha"].clone(), c["beta"].clone()),
        (json!("C"), json!(4), Value::Null)
    );
    assert_eq!(
        c["cutoff"],
        json!({"by": "alpha", "alpha": 4, "beta": -3, "pruned": [1]})
    );
    assert_eq!(
        c["children"].as_array().unwrap().len(),
        1,
        "G is never visited"
    );
    assert_eq!(alphabeta["cutoffs"], 1);
    assert!(
        alphabeta["explanation"]
            .as_str()
            .unwrap()
            .starts_with("MAX moves to B, worth 4."),
        "{}",
        alphabeta["explanation"]
    );
}

#[tokio::test]
async fn the_three_tree_forms_trace_alike() {
    let app = TestApp::new();
    let nested = trace(&app, json!({"tree": textbook(), "algorithm": "alphabeta"})).await;
    let leaves = trace(
        &app,
        json!({"branching": 2, "leaves": [-1, 4, 2, 6, -3, -5, 0, 7], "algorithm": "alphabeta"}),
    )
    .await;
    let text = trace(
        &app,
        json!({"tree": "(((-1 4)(2 6))((-3 -5)(0 7)))", "algorithm": "alphabeta"}),
    )
    .await;
    assert_eq!(nested, leaves);
    assert_eq!(nested, text);
    let aima = trace(
        &app,
        json!({"tree": "((3 12 8)(2 4 6)(14 5 2))", "algorithm": "alphabeta"}),
    )
    .await;
    assert_eq!(aima["value"], 3);
    let small = trace(&app, json!({"tree": "((3)(12)(8))"})).await;
    assert_eq!(
        (small["value"].clone(), small["nodes"].clone()),
        (json!(12), json!(4)),
        "a root with three leaves"
    );
}

#[tokio::test]
async fn the_explanation_writes_textbook_values_exactly() {
    let app = TestApp::new();
    let cases = [
        (
            json!([[2.5, 3.5], [1.5, 7.25]]),
            "MAX moves to B, worth 2.5. Against best replies by MIN, C is worth 1.5.",
        ),
        (
            json!([[-2.5, 3], [-1.25, 8]]),
            "MAX moves to C, worth -1.25. Against best replies by MIN, B is worth -2.5.",
        ),
        (
            json!([[1e15, 2e15], [1, 3]]),
            "MAX moves to B, worth 1e15. Against best replies by MIN, C is worth 1.",
        ),
        (
            json!([[123456.789, 1e300], [0.1, -1e300]]),
            "MAX moves to B, worth 123456.789. Against best replies by MIN, C is worth -1e300.",
        ),
    ];
    for (tree, sentences) in cases {
        let answer = trace(&app, json!({"tree": tree, "algorithm": "alphabeta"})).await;
        let explanation = answer["explanation"].as_str().unwrap();
        assert!(explanation.starts_with(sentences), "{tree}: {explanation}");
        assert!(!explanation.contains("0.999"), "{tree}: {explanation}");
    }
    let lone = trace(&app, json!({"tree": "(4.75)"})).await;
    assert_eq!(
        lone["explanation"],
        "The tree is a lone leaf worth 4.75. Plain minimax visits 1 node; alpha-beta 1 (0% fewer); \
         alpha-beta with a table 1 (0% fewer).",
        "one node, in the singular"
    );
}

#[tokio::test]
async fn a_huge_branching_factor_is_a_bounded_422() {
    let app = TestApp::new();
    for branching in [
        json!(u64::MAX),
        json!(1_u64 << 40),
        json!(4_294_967_296_u64),
    ] {
        let problem = app
            .post_json(
                "/v1/trace",
                &json!({"branching": branching, "leaves": [1, 2, 3]}),
            )
            .await
            .problem(
                StatusCode::UNPROCESSABLE_ENTITY,
                "invalid_request",
                &format!("branching {branching}"),
            );
        let detail = problem["detail"].as_str().unwrap();
        assert!(
            detail.contains(&format!(
                "the branching factor {branching} (such as {branching}"
            )),
            "{detail}"
        );
        assert!(detail.len() < 300, "{detail}");
    }
}

#[tokio::test]
async fn a_position_traces_with_its_side_to_move_as_max() {
    let app = TestApp::new();
    let seed = json!(["O", 1, "X", "X", 4, "X", 6, "O", "O"]);
    let classic = trace(
        &app,
        json!({"board": seed, "algorithm": "alphabeta", "scoring": "classic"}),
    )
    .await;
    assert_eq!(
        (classic["value"].clone(), classic["best"].clone()),
        (json!(10), json!(4))
    );
    assert_eq!(
        (classic["player"].clone(), classic["outcome"].clone()),
        (json!("X"), json!("win"))
    );
    let alternatives: Vec<(i64, i64)> = classic["alternatives"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| (a["move"].as_i64().unwrap(), a["value"].as_i64().unwrap()))
        .collect();
    assert_eq!(
        alternatives,
        [(1, -10), (4, 10), (6, -10)],
        "the golden table's values"
    );
    let depth = trace(&app, json!({"board": seed, "algorithm": "minimax"})).await;
    assert_eq!(depth["value"], 9, "10 − depth: a win in one ply");
    assert_eq!(depth["line"], json!([4]));
    let text = depth["explanation"].as_str().unwrap();
    assert!(
        text.starts_with("X plays 4: it wins in 1 ply (value 9)."),
        "{text}"
    );
    assert!(text.contains("1 and 6 lose"), "{text}");

    let gravity = trace(&app, json!({"board": "............", "rows": 4, "cols": 3, "k": 3, "gravity": true, "algorithm": "alphabeta_table", "ordering": true})).await;
    let cells: Vec<i64> = gravity["root"]["children"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["move"].as_i64().unwrap())
        .collect();
    let mut sorted = cells.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, [9, 10, 11], "the bottom row's cells are the moves");
    assert!(
        gravity["counts"]["alphabeta_table"].as_u64() <= gravity["counts"]["alphabeta"].as_u64()
    );
}

#[tokio::test]
async fn the_empty_board_counts_the_whole_game_tree_and_lists_within_the_cap() {
    let app = TestApp::new();
    let empty = trace(&app, json!({"board": ".........", "max_nodes": 100})).await;
    assert_eq!(empty["counts"]["minimax"], 549_946);
    assert_eq!(empty["nodes"], 549_946);
    assert_eq!(empty["root"]["nodes"], 549_946);
    assert_eq!(
        (
            empty["listed"].clone(),
            empty["listed_depth"].clone(),
            empty["summarised"].clone()
        ),
        (json!(82), json!(2), json!(true))
    );
    let mut nodes = Vec::new();
    visiting_order(&empty["root"], &mut nodes);
    assert_eq!(nodes.len(), 82);
    assert!(
        nodes
            .iter()
            .filter(|n| n["depth"] == 2)
            .all(|n| n["summarised"] == true && n["children"] == json!([]))
    );
    assert_eq!(empty["value"], 0);
    assert_eq!(empty["outcome"], "draw");
    let ab = empty["counts"]["alphabeta"].as_u64().unwrap();
    let table = empty["counts"]["alphabeta_table"].as_u64().unwrap();
    assert!(table < ab && ab < 549_946, "{}", empty["counts"]);

    let ordered = trace(&app, json!({"board": ".........", "algorithm": "alphabeta_table", "ordering": true, "max_nodes": 1})).await;
    assert_eq!(
        (
            ordered["listed"].clone(),
            ordered["root"]["children"].clone()
        ),
        (json!(1), json!([]))
    );
    assert_eq!(ordered["root"]["summarised"], true);
    assert!(ordered["table_hits"].as_u64().unwrap() > 0);
    assert_eq!(ordered["best"], 4, "the centre is searched first");
}

#[tokio::test]
async fn a_depth_limit_uses_the_static_evaluation_at_the_horizon() {
    let app = TestApp::new();
    let limited = trace(&app, json!({"board": ".........", "max_depth": 1})).await;
    assert_eq!(limited["nodes"], 10);
    assert_eq!(limited["estimate"], true);
    assert_eq!(limited["outcome"], "unknown");
    assert_eq!(limited["best"], 4, "the centre keeps the most lines open");
    let centre = &limited["root"]["children"][4];
    assert_eq!(centre["leaf"], "horizon");
    assert!(
        (centre["value"].as_f64().unwrap() - 4.0 / 9.0).abs() < 1e-12,
        "(8 − 4) / 9: {centre}"
    );
}

#[tokio::test]
async fn what_cannot_be_traced_is_a_bounded_422_naming_the_limit() {
    let app = TestApp::new();
    let big = app
        .post_json(
            "/v1/trace",
            &json!({"board": "................", "rows": 4, "cols": 4, "k": 4}),
        )
        .await
        .problem(
            StatusCode::UNPROCESSABLE_ENTITY,
            "trace_too_large",
            "4 × 4 under minimax",
        );
    assert!(big["detail"].as_str().unwrap().contains("2000000"), "{big}");
    let leaves: Vec<i32> = vec![1; 8192];
    let many = app
        .post_json("/v1/trace", &json!({"branching": 2, "leaves": leaves}))
        .await
        .problem(
            StatusCode::UNPROCESSABLE_ENTITY,
            "trace_too_large",
            "8,192 leaves",
        );
    assert!(many["detail"].as_str().unwrap().contains("4096"), "{many}");
    let deep = (0..30).fold(json!(1), |tree, _| json!([tree, 0]));
    let problem = app
        .post_json("/v1/trace", &json!({"tree": deep}))
        .await
        .problem(
            StatusCode::UNPROCESSABLE_ENTITY,
            "trace_too_large",
            "30 levels",
        );
    assert!(
        problem["detail"].as_str().unwrap().contains("24"),
        "{problem}"
    );
}

#[tokio::test]
async fn bad_trace_requests_are_422s_naming_the_field() {
    let app = TestApp::new();
    let cases = [
        (json!({}), "", "invalid_request"),
        (
            json!({"board": ".........", "tree": [1, 2]}),
            "/tree",
            "invalid_request",
        ),
        (
            json!({"tree": [1, [2, "x"]]}),
            "/tree/1/1",
            "invalid_request",
        ),
        (json!({"tree": [1, []]}), "/tree/1", "invalid_request"),
        (json!({"tree": 7}), "/tree", "invalid_request"),
        (json!({"tree": "(1 (2"}), "/tree", "invalid_request"),
        (
            json!({"tree": [1, 2], "scoring": "classic"}),
            "/scoring",
            "invalid_request",
        ),
        (
            json!({"tree": [1, 2], "max_depth": 2}),
            "/max_depth",
            "invalid_request",
        ),
        (
            json!({"leaves": [1, 2, 3, 4]}),
            "/branching",
            "invalid_request",
        ),
        (
            json!({"branching": 2, "leaves": [1, 2, 3]}),
            "/leaves",
            "invalid_request",
        ),
        (
            json!({"branching": 1, "leaves": [1]}),
            "/branching",
            "invalid_request",
        ),
        (
            json!({"tree": [1, 2], "algorithm": "negamax"}),
            "/algorithm",
            "invalid_request",
        ),
        (
            json!({"tree": [1, 2], "max_nodes": 20000}),
            "/max_nodes",
            "invalid_request",
        ),
        (
            json!({"tree": [1, 2], "max_nodes": 0}),
            "/max_nodes",
            "invalid_request",
        ),
        (
            json!({"board": ".........", "max_depth": 0}),
            "/max_depth",
            "invalid_request",
        ),
        (
            json!({"board": ".........", "algoritm": "minimax"}),
            "",
            "unknown_field",
        ),
        (json!({"board": "XXXOO...."}), "", "game_over"),
        (json!({"board": "XX......."}), "", "impossible_position"),
        (
            json!({"board": ".........", "rows": 4}),
            "/board",
            "invalid_board",
        ),
    ];
    for (body, pointer, code) in cases {
        let problem = app.post_json("/v1/trace", &body).await.problem(
            StatusCode::UNPROCESSABLE_ENTITY,
            code,
            &body.to_string(),
        );
        if !pointer.is_empty() {
            assert!(
                pointers(&problem).contains(&pointer.to_owned()),
                "{body}: {problem}"
            );
        }
    }
    let response = app.post_json("/v1/trace", &json!([1, 2])).await;
    response.problem(
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid_request",
        "an array body",
    );
}

#[tokio::test]
async fn a_trace_answers_over_a_real_socket() {
    use minimax_move::api::{AppState, Settings, app};
    use minimax_move::server::{ServeOptions, serve};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(serve(
        listener,
        app(AppState::ready(Settings::default())),
        async move {
            let _ = stopped.await;
        },
        ServeOptions::default(),
    ));
    let answer: Value = reqwest::Client::new()
        .post(format!("http://{address}/v1/trace"))
        .json(&json!({"tree": textbook(), "algorithm": "alphabeta_table"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(answer["value"], 4);
    assert_eq!(answer["algorithm"], "alphabeta_table");
    stop.send(()).unwrap();
    server.await.unwrap().unwrap();
}

#[tokio::test]
async fn a_trace_stops_at_the_time_limit_on_a_large_board() {
    use minimax_move::api::{AppState, Settings};
    let app = TestApp::with_state(AppState::ready(Settings {
        max_time_limit_ms: 50,
        ..Settings::default()
    }));
    let body = json!({"board": ".".repeat(400), "rows": 20, "cols": 20, "k": 5,
                      "max_depth": 2, "algorithm": "alphabeta"});
    let started = std::time::Instant::now();
    let problem = app.post_json("/v1/trace", &body).await.problem(
        StatusCode::SERVICE_UNAVAILABLE,
        "timeout",
        "20 × 20 at depth 2",
    );
    let elapsed = started.elapsed();
    assert!(problem["detail"].is_string(), "{problem}");
    assert!(
        elapsed < std::time::Duration::from_millis(1_000),
        "stopped {elapsed:?} into a 50 ms limit"
    );
}
