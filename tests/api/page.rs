//! The page at `/` and its script and style sheet, served from the binary.

use axum::body::Body;
use axum::http::{Request, StatusCode, header};

use crate::helpers::TestApp;

const JS: &str = "text/javascript; charset=utf-8";

/// Each file of the page with the content type it must be served with.
const FILES: [(&str, &str); 12] = [
    ("/", "text/html; charset=utf-8"),
    ("/static/app.js", JS),
    ("/static/api.js", JS),
    ("/static/state.js", JS),
    ("/static/board.js", JS),
    ("/static/review.js", JS),
    ("/static/notation.js", JS),
    ("/static/records.js", JS),
    ("/static/analysis.js", JS),
    ("/static/app.css", "text/css; charset=utf-8"),
    ("/static/trace.js", JS),
    ("/static/trace.css", "text/css; charset=utf-8"),
];

/// The modules a script imports: the `'./name.js'` after each `from`.
fn imports(script: &str) -> Vec<String> {
    script
        .split("from './")
        .skip(1)
        .filter_map(|rest| rest.split_once('\''))
        .map(|(name, _)| name.to_owned())
        .collect()
}

/// The directives of a Content-Security-Policy, by name.
fn directive<'a>(policy: &'a str, name: &str) -> Option<&'a str> {
    policy.split(';').map(str::trim).find_map(|d| {
        d.strip_prefix(name)
            .filter(|rest| rest.is_empty() || rest.starts_with(' '))
            .map(str::trim)
    })
}

#[tokio::test]
async fn the_page_has_a_policy_that_allows_no_inline_script_or_style() {
    let page = TestApp::new().get("/").await;
    assert_eq!(page.status, StatusCode::OK);
    let policy = page
        .header("content-security-policy")
        .expect("GET / carries a Content-Security-Policy");
    assert!(!policy.contains("unsafe-inline"), "{policy}");
    assert!(!policy.contains("unsafe-eval"), "{policy}");
    assert_eq!(directive(policy, "default-src"), Some("'none'"), "{policy}");
    assert_eq!(directive(policy, "script-src"), Some("'self'"), "{policy}");
    assert_eq!(directive(policy, "style-src"), Some("'self'"), "{policy}");
    assert_eq!(directive(policy, "connect-src"), Some("'self'"), "{policy}");
    assert_eq!(
        directive(policy, "frame-ancestors"),
        Some("'none'"),
        "{policy}"
    );
}

#[tokio::test]
async fn the_page_loads_its_script_and_style_from_files_and_has_nothing_inline() {
    let html = TestApp::new().get("/").await.text();
    assert!(
        html.contains(r#"<script type="module" src="static/app.js"></script>"#),
        "the script is a file, an ES module"
    );
    assert!(
        html.contains(r#"<link rel="stylesheet" href="static/app.css">"#),
        "the style sheet is a file"
    );
    assert!(
        html.contains(r#"<script src="static/trace.js" defer></script>"#),
        "the search-tree view's script is a file"
    );
    let lower = html.to_ascii_lowercase();
    assert_eq!(
        lower.matches("<script").count(),
        2,
        "two script elements, both files"
    );
    assert!(!lower.contains("<style"), "no style element");
    assert!(!lower.contains(" style="), "no style attribute");
    // Inline event handlers (onclick=, onload=, ...) would need 'unsafe-inline' too.
    let handler = lower
        .split(|c: char| c.is_ascii_whitespace())
        .find(|word| word.starts_with("on") && word.contains('='));
    assert_eq!(handler, None, "no inline event handler attribute");
}

#[tokio::test]
async fn each_file_of_the_page_has_its_content_type_a_tag_and_a_revalidating_cache() {
    let app = TestApp::new();
    let mut tags = Vec::new();
    for (path, content_type) in FILES {
        let file = app.get(path).await;
        assert_eq!(file.status, StatusCode::OK, "{path}");
        assert_eq!(file.content_type(), content_type, "{path}");
        assert_eq!(file.header("cache-control"), Some("no-cache"), "{path}");
        assert_eq!(
            file.header("x-content-type-options"),
            Some("nosniff"),
            "{path}"
        );
        assert!(file.body.len() > 500, "{path} has its content");
        let tag = file.header("etag").expect("an ETag").to_owned();
        assert!(
            tag.len() == 18 && tag.starts_with('"') && tag.ends_with('"'),
            "{path}: a strong tag, {tag}"
        );
        tags.push(tag);
    }
    tags.sort();
    tags.dedup();
    assert_eq!(tags.len(), FILES.len(), "each file has its own tag");
}

#[tokio::test]
async fn a_request_naming_the_current_tag_gets_304_without_a_body() {
    let app = TestApp::new();
    for (path, _) in FILES {
        let tag = app.get(path).await.header("etag").unwrap().to_owned();
        let again = app
            .send(
                Request::get(path)
                    .header(header::IF_NONE_MATCH, &tag)
                    .body(Body::empty())
                    .unwrap(),
            )
            .await;
        assert_eq!(again.status, StatusCode::NOT_MODIFIED, "{path}");
        assert!(again.body.is_empty(), "{path}: no body with 304");
        assert_eq!(again.header("etag"), Some(tag.as_str()), "{path}");
        assert_eq!(again.header("cache-control"), Some("no-cache"), "{path}");

        let stale = app
            .send(
                Request::get(path)
                    .header(header::IF_NONE_MATCH, "\"0000000000000000\"")
                    .body(Body::empty())
                    .unwrap(),
            )
            .await;
        assert_eq!(stale.status, StatusCode::OK, "{path}: an old tag");
        assert!(!stale.body.is_empty(), "{path}: the whole file");
    }
}

#[tokio::test]
async fn only_the_page_s_own_files_are_served_under_static() {
    let app = TestApp::new();
    for path in ["/static/", "/static/index.html", "/static/../Cargo.toml"] {
        app.get(path)
            .await
            .problem(StatusCode::NOT_FOUND, "not_found", path);
    }
}

#[tokio::test]
async fn every_module_the_page_imports_is_served_as_javascript() {
    let app = TestApp::new();
    let mut seen = vec!["app.js".to_owned()];
    let mut queue = seen.clone();
    while let Some(name) = queue.pop() {
        let file = app.get(&format!("/static/{name}")).await;
        assert_eq!(file.status, StatusCode::OK, "{name}");
        assert_eq!(file.content_type(), JS, "{name}");
        for import in imports(&file.text()) {
            if !seen.contains(&import) {
                seen.push(import.clone());
                queue.push(import);
            }
        }
    }
    seen.sort();
    assert_eq!(
        seen,
        [
            "analysis.js",
            "api.js",
            "app.js",
            "board.js",
            "notation.js",
            "records.js",
            "review.js",
            "state.js"
        ],
        "the modules reached from app.js"
    );
    for name in &seen {
        assert!(
            FILES
                .iter()
                .any(|(path, _)| path.ends_with(&format!("/{name}"))),
            "{name} is in the table of files this test checks"
        );
    }
}
