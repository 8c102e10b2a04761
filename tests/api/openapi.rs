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
