//! The search core both searches share: the side to move ([`side`]), scores and their
//! conversions to the API's values and the table's node-relative form ([`score`]), the work
//! budget ([`budget`]), the hard stop of a search, its deadline or its caller's cancel
//! ([`deadline`]), the transposition table and its pool ([`table`]), and the hashing behind
//! their Zobrist keys ([`hash`]).

pub mod budget;
pub mod deadline;
pub mod hash;
pub mod score;
pub mod side;
pub mod table;
