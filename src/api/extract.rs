//! Extractors: the checks every JSON body passes before a handler sees it.

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::{HeaderMap, StatusCode, header};

use super::{ApiError, AppState};

/// The raw body of a request that declares itself uncompressed `application/json` and fits
/// the body limit.
///
/// Rejections, as problem documents: 415 for another content type or a content coding other
/// than `identity`; 413 when the declared `Content-Length` is over the limit (refused before any
/// of the body is read) or the body turns out to be; 400 when the body cannot be read; 422
/// `invalid_request` naming the field when well-formed JSON repeats a key in an object (parsers
/// disagree on which copy wins). Malformed JSON passes, for the handler's parser to report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonBody(pub Bytes);

/// Whether the request says its body is JSON (`application/json`, any parameters such as a
/// charset allowed).
fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|media| media.trim().eq_ignore_ascii_case("application/json"))
}

impl FromRequest<AppState> for JsonBody {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &AppState) -> Result<Self, ApiError> {
        let headers = request.headers();
        if !is_json(headers) {
            return Err(ApiError::UnsupportedMediaType);
        }
        if let Some(coding) = headers
            .get(header::CONTENT_ENCODING)
            .map(|v| String::from_utf8_lossy(v.as_bytes()).trim().to_owned())
            .filter(|coding| !coding.is_empty() && !coding.eq_ignore_ascii_case("identity"))
        {
            return Err(ApiError::UnsupportedEncoding(coding));
        }
        let limit = state.settings().body_limit;
        let declared = headers
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok());
        if declared.is_some_and(|length| length > limit as u64) {
            return Err(ApiError::PayloadTooLarge { limit });
        }
        let body = Bytes::from_request(request, state)
            .await
            .map_err(|rejection| {
                if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                    ApiError::PayloadTooLarge { limit }
                } else {
                    ApiError::MalformedJson(rejection.body_text())
                }
            })?;
        super::wire::refuse_repeated_keys(&body)?;
        Ok(Self(body))
    }
}
