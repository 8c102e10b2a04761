//! A move-suggestion service for tic-tac-toe and other m,n,k games.
//!
//! [`engine`] is the synchronous engine (no I/O, no async). With the default `server` feature,
//! [`api`] is the axum HTTP layer, [`config`] its settings and [`telemetry`] its logging; the binary
//! in `src/main.rs` only wires these together. [`gomocup`] speaks the Gomocup (piskvork) protocol
//! around the engine, for `minimax-move pbrain`.

pub mod engine;
pub mod gomocup;

#[cfg(feature = "server")]
pub mod api;
#[cfg(feature = "server")]
pub mod config;
#[cfg(feature = "server")]
pub mod healthcheck;
#[cfg(feature = "server")]
pub mod server;
#[cfg(feature = "server")]
pub mod telemetry;
