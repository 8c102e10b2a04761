//! The HTTP API through the production router (`app(state).oneshot(request)`) and over a real
//! socket.

mod errors;
mod formats;
mod helpers;
mod mcp;
mod moves;
mod openapi;
mod operations;
mod protection;
mod socket;
