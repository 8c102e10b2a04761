//! The API's own documents: `/openapi.yaml`, `/openapi.json` and the `/docs` explorer, all served
//! from the binary with no CDN.

use axum::Router;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use utoipa::openapi::OpenApi;
use utoipa_swagger_ui::SwaggerUi;

use crate::api::state::AppState;

pub fn router(openapi: OpenApi) -> Router<AppState> {
    let yaml = openapi
        .to_yaml()
        .expect("the OpenAPI document serializes to YAML");
    Router::new()
        .route(
            "/openapi.yaml",
            get(move || async move {
                ([(header::CONTENT_TYPE, "application/yaml")], yaml).into_response()
            }),
        )
        .merge(SwaggerUi::new("/docs").url("/openapi.json", openapi))
}
