//! Liveness and readiness probes.

use axum::Json;
use axum::extract::State;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::problem::ApiError;
use crate::api::state::AppState;

/// A probe's answer.
#[derive(Serialize, ToSchema)]
pub struct Health {
    /// `ok` or `ready`.
    #[schema(example = "ok")]
    status: &'static str,
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(healthz))
        .routes(routes!(readyz))
}

/// Liveness: the process is up and serving.
#[utoipa::path(get, path = "/healthz", tag = "operations",
    responses((status = 200, description = "Alive", body = Health)))]
async fn healthz() -> Json<Health> {
    Json(Health { status: "ok" })
}

/// Readiness: the solved 3 × 3 table is built and the service is not shutting down.
#[utoipa::path(get, path = "/readyz", tag = "operations",
    responses(
        (status = 200, description = "Ready for traffic", body = Health),
        (status = 503, description = "Starting or draining", body = crate::api::problem::Problem,
         content_type = "application/problem+json",
         headers(("Retry-After" = u32, description = "Seconds to wait"))),
    ))]
async fn readyz(State(state): State<AppState>) -> Result<Json<Health>, ApiError> {
    if state.is_ready() {
        Ok(Json(Health { status: "ready" }))
    } else {
        Err(ApiError::NotReady)
    }
}
