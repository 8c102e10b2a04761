//! The page to play on, served from the binary with no CDN: the HTML at `/` and a fixed table of
//! files under `/static/`: the page's ES modules (`app.js` and the modules it imports), its style
//! sheet, and the search-tree view's `trace.js` and `trace.css`.
//!
//! The page has no inline script or style, so its Content-Security-Policy allows scripts and
//! styles from this origin only (no `'unsafe-inline'`). Each file carries a strong `ETag` (a hash
//! of its bytes, so every replica running the same binary agrees) and `Cache-Control: no-cache`:
//! browsers keep a copy and revalidate it, and `If-None-Match` gets a 304 without a body.

use axum::Router;
use axum::extract::Path;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use crate::api::problem::ApiError;
use crate::api::state::AppState;

/// The policy of the page: everything from this origin, nothing inline, no frames, no plugins.
/// `img-src data:` is for the empty favicon (`<link rel="icon" href="data:,">`).
pub const PAGE_CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
    img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; \
    frame-ancestors 'none'";

/// One file of the page, compiled into the binary.
struct Asset {
    body: &'static str,
    content_type: &'static str,
    hash: u64,
}

impl Asset {
    const fn new(body: &'static str, content_type: &'static str) -> Self {
        Self {
            body,
            content_type,
            hash: fnv1a(body.as_bytes()),
        }
    }
}

static INDEX: Asset = Asset::new(
    include_str!("../../static/index.html"),
    "text/html; charset=utf-8",
);

const fn js(body: &'static str) -> Asset {
    Asset::new(body, "text/javascript; charset=utf-8")
}

const fn css(body: &'static str) -> Asset {
    Asset::new(body, "text/css; charset=utf-8")
}

/// Every file under `/static/`, by name: the page's ES modules (`app.js` imports the others), its
/// style sheets and the search-tree view. Nothing else is served there.
static ASSETS: [(&str, Asset); 11] = [
    ("app.js", js(include_str!("../../static/app.js"))),
    ("api.js", js(include_str!("../../static/api.js"))),
    ("state.js", js(include_str!("../../static/state.js"))),
    ("board.js", js(include_str!("../../static/board.js"))),
    ("review.js", js(include_str!("../../static/review.js"))),
    ("notation.js", js(include_str!("../../static/notation.js"))),
    ("records.js", js(include_str!("../../static/records.js"))),
    ("analysis.js", js(include_str!("../../static/analysis.js"))),
    ("app.css", css(include_str!("../../static/app.css"))),
    ("trace.js", js(include_str!("../../static/trace.js"))),
    ("trace.css", css(include_str!("../../static/trace.css"))),
];

/// The 64-bit FNV-1a hash, computed at compile time: stable across builds and machines (unlike
/// `std`'s hasher, whose algorithm may change between Rust releases), so every replica running
/// the same files gives the same tag.
const fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325_u64;
    let mut i = 0;
    while i < bytes.len() {
        hash = (hash ^ bytes[i] as u64).wrapping_mul(0x0000_0100_0000_01b3);
        i += 1;
    }
    hash
}

/// A strong entity tag: the hash in hex, in quotes.
fn etag(hash: u64) -> HeaderValue {
    HeaderValue::from_str(&format!("\"{hash:016x}\""))
        .expect("hex digits in quotes are a header value")
}

/// Whether `If-None-Match` names the current tag (weak comparison, as RFC 9110 § 13.1.2 asks).
fn not_modified(headers: &HeaderMap, etag: &HeaderValue) -> bool {
    let current = etag.as_bytes();
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .map(str::trim)
        .any(|tag| tag == "*" || tag.strip_prefix("W/").unwrap_or(tag).as_bytes() == current)
}

fn serve(asset: &'static Asset, headers: &HeaderMap) -> Response {
    let etag = etag(asset.hash);
    let mut response = if not_modified(headers, &etag) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        (
            [(
                header::CONTENT_TYPE,
                HeaderValue::from_static(asset.content_type),
            )],
            asset.body,
        )
            .into_response()
    };
    let out = response.headers_mut();
    out.insert(header::ETAG, etag);
    out.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/",
            get(|headers: HeaderMap| async move {
                let mut response = serve(&INDEX, &headers);
                response.headers_mut().insert(
                    header::CONTENT_SECURITY_POLICY,
                    HeaderValue::from_static(PAGE_CSP),
                );
                response
            }),
        )
        .route(
            "/static/{name}",
            get(|Path(name): Path<String>, headers: HeaderMap| async move {
                ASSETS.iter().find(|(file, _)| *file == name).map_or_else(
                    || ApiError::NotFound.into_response(),
                    |(_, asset)| serve(asset, &headers),
                )
            }),
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn if_none_match(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::IF_NONE_MATCH, HeaderValue::from_str(value).unwrap());
        headers
    }

    #[test]
    fn etag_is_the_fnv1a_hash_of_the_bytes_in_quotes() {
        // The reference test vectors of FNV-1a 64.
        assert_eq!(etag(fnv1a(b"")), "\"cbf29ce484222325\"");
        assert_eq!(etag(fnv1a(b"a")), "\"af63dc4c8601ec8c\"");
    }

    #[test]
    fn if_none_match_compares_tags_weakly_and_in_lists() {
        let etag = etag(fnv1a(b"body"));
        let tag = etag.to_str().unwrap().to_owned();
        assert!(not_modified(&if_none_match(&tag), &etag), "the same tag");
        assert!(
            not_modified(&if_none_match(&format!("W/{tag}")), &etag),
            "weak form"
        );
        assert!(
            not_modified(&if_none_match(&format!("\"other\", {tag}")), &etag),
            "in a list"
        );
        assert!(not_modified(&if_none_match("*"), &etag), "any tag");
        assert!(
            !not_modified(&if_none_match("\"other\""), &etag),
            "another tag"
        );
        assert!(!not_modified(&HeaderMap::new(), &etag), "no header");
    }
}
