//! The engine on its own, against independent oracles: every 3 × 3 position against a plain
//! minimax, m,n,k games against known values and a memoised minimax, and property tests of the
//! parser and the engine's invariants. One test binary, so the suite links once.

mod bitbully;
mod cancel;
#[path = "../common/door.rs"]
mod door;
mod every_size;
mod golden;
mod gomoku;
mod gravity;
mod mnk;
#[path = "../common/oracle.rs"]
mod oracle;
mod oracle_3x3;
mod properties;
mod renju;
mod review_invariants;
mod rules;
mod small_rules;
mod tactics;
#[path = "../common/tic_tac_toe.rs"]
mod tic_tac_toe;
mod trace;
#[path = "../common/words.rs"]
mod words;
mod words_read;
