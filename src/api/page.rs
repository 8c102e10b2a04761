//! The page to play on, served at `/` from the binary: one self-contained HTML file, no CDN.

use axum::Router;
use axum::http::{HeaderValue, header};
use axum::response::IntoResponse;
use axum::routing::get;

use super::AppState;

const PAGE: &str = include_str!("../../static/index.html");

pub fn router() -> Router<AppState> {
    Router::new().route(
        "/",
        get(|| async {
            (
                [
                    (header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8")),
                    (
                        header::CONTENT_SECURITY_POLICY,
                        HeaderValue::from_static(
                            "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'",
                        ),
                    ),
                ],
                PAGE,
            )
                .into_response()
        }),
    )
}
