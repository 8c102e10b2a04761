//! A move-suggestion service for tic-tac-toe and other m,n,k games.
//!
//! [`engine`] is the synchronous engine (no I/O, no async); with the default `server` feature,
//! [`api`] is the axum HTTP layer, [`config`] its settings and [`telemetry`] its logging.
//! The binary in `src/main.rs` only wires these together.

pub mod engine;
