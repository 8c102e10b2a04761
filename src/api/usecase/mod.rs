//! The application layer: one function a use case, called by every front door that offers it
//! (the HTTP routes and the MCP tools, over HTTP and stdio), so that each answers the same for
//! the same request. A use case takes a request already parsed from the wire, runs the engine
//! (a lookup inline, a search in a slot: [`slots`]) and returns the wire answer; the front
//! doors only read their input and write the answer in their own form.

pub(crate) mod connect4;
pub(crate) mod moves;
pub(crate) mod play;
pub(crate) mod review;
pub(crate) mod slots;
pub(crate) mod trace;
