//! The search core the searches share: scores and their
//! conversions to the API's values, the one estimate scale and the table's node-relative form
//! ([`score`]), the work budget ([`budget`]), the iterative-deepening loop of the two
//! depth-limited searches ([`deepening`]), the hard stop of a search, its deadline or its caller's cancel
//! ([`deadline`]), the pool every search borrows its transposition table from ([`pool`]), the
//! solver's and the big-board engine's table ([`table`]; the gravity solver's has its own entry
//! layout, from the same pool), the hashing behind their Zobrist keys ([`hash`]), and the job every family's search takes
//! ([`job`]).

pub mod budget;
pub mod deadline;
pub mod deepening;
pub mod hash;
pub mod job;
pub mod pool;
pub mod score;
pub mod table;
