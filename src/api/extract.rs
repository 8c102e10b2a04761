//! Extractors: the checks every JSON body and every query string pass before a handler sees
//! them.

use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode, header};
use serde::de::DeserializeOwned;

use super::problem::ProblemCode;
use crate::api::problem::ApiError;
use crate::api::state::AppState;

/// The query string of a GET route read strictly into `T` (whose serde attributes deny unknown
/// fields): a missing query string is an empty one; a parameter of the wrong type, an unknown
/// parameter or one given twice is a 422 naming it (`unknown_field` for an unknown one,
/// `invalid_request` otherwise), like a JSON body's field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StrictQuery<T>(pub T);

impl<T: DeserializeOwned, S: Sync> FromRequestParts<S> for StrictQuery<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, ApiError> {
        let query = parts.uri.query().unwrap_or_default();
        let deserializer =
            serde_urlencoded::Deserializer::new(form_urlencoded::parse(query.as_bytes()));
        serde_path_to_error::deserialize(deserializer)
            .map(Self)
            .map_err(|e| query_error(&e))
    }
}

/// The 422 for a query string of the wrong shape, naming the parameter serde stopped at.
fn query_error(error: &serde_path_to_error::Error<serde_urlencoded::de::Error>) -> ApiError {
    let name = error.path().to_string();
    let message = error.inner().to_string();
    // serde reports an unknown field only through `de::Error::unknown_field`, whose one trace
    // in the error type is its message text: there is no typed path to tell it apart.
    let code = if message.starts_with("unknown field") {
        ProblemCode::UnknownField
    } else {
        ProblemCode::InvalidRequest
    };
    if name.is_empty() || name == "." || name == "?" {
        ApiError::invalid(code, "", format!("query string: {message}"))
    } else {
        ApiError::invalid(
            code,
            format!("/{name}"),
            format!("query parameter `{name}`: {message}"),
        )
    }
}

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

/// The JSON of a body read by [`JsonBody`]: a 400 `malformed_json` when it is not JSON. The one
/// way every route and tool reads a body into a value before its parser gives it a shape.
///
/// # Errors
/// [`ApiError::MalformedJson`] with the parser's message.
pub(crate) fn read_json(body: &[u8]) -> Result<serde_json::Value, ApiError> {
    serde_json::from_slice(body).map_err(|e| ApiError::MalformedJson(e.to_string()))
}

/// Whether the request says its body is JSON (`application/json`, any parameters such as a
/// charset allowed).
pub(crate) fn is_json(headers: &HeaderMap) -> bool {
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
