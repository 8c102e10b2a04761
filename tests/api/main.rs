//! The HTTP API through the production router (`app(state).oneshot(request)`), over a real
//! socket, and the real binary as a container runs it (`process`).

mod connect4;
#[path = "../common/door.rs"]
mod door;
mod errors;
mod formats;
mod gravity;
mod helpers;
mod live;
mod mcp;
mod moves;
mod openapi;
mod operations;
// Shared with the engine tests, which use all of it; these use the gravity part.
#[allow(dead_code)]
#[path = "../common/oracle.rs"]
mod oracle;
mod page;
mod pbrain;
mod process;
mod protection;
mod repeated_fields;
mod review;
mod rules;
mod socket;
mod stream_connections;
mod sweep;
#[path = "../common/tic_tac_toe.rs"]
mod tic_tac_toe;
mod trace;
mod trust;
#[path = "../common/words.rs"]
mod words;
mod words_read;
