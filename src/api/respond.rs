//! The one way an answer is written: its JSON in one piece (split writes meet delayed ACKs), as
//! `application/json`.

use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};

/// An answer's JSON, written in one piece into a buffer of `capacity` bytes to start with.
pub(crate) fn json_bytes(answer: &impl serde::Serialize, capacity: usize) -> Vec<u8> {
    let mut body = Vec::with_capacity(capacity);
    serde_json::to_writer(&mut body, answer).expect("an answer serializes");
    body
}

/// An answer as a `200 application/json` response, its body written in one piece.
pub(crate) fn json_response(answer: &impl serde::Serialize, capacity: usize) -> Response {
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        json_bytes(answer, capacity),
    )
        .into_response()
}
