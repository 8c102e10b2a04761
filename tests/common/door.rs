//! The engine the tests search with: one [`Engine`] for the test binary, built for the
//! searches its test threads run at once, so that its tables are made once, as a server's are;
//! and the engine's calls as plain functions over it, for tests that only need an answer.
#![allow(dead_code)]

use std::sync::LazyLock;

use minimax_move::engine::{
    Analysis, Engine, EngineSettings, Game, Position, Review, Scoring, SearchLimits, Solution,
    SuggestOptions, Suggestion, Trace, TraceError, TraceInput, TraceOptions,
};

/// The test binary's engine.
pub fn engine() -> &'static Engine {
    static ENGINE: LazyLock<Engine> = LazyLock::new(|| {
        Engine::new(EngineSettings {
            searches: std::thread::available_parallelism().map_or(2, usize::from),
            ..EngineSettings::default()
        })
    });
    &ENGINE
}

/// [`Engine::suggest`] on the test binary's engine.
pub fn suggest(position: &Position, options: &SuggestOptions) -> Suggestion {
    engine().suggest(position, options)
}

/// [`Engine::analyze`] on the test binary's engine.
pub fn analyze(position: &Position, scoring: Scoring, limits: &SearchLimits) -> Analysis {
    engine().analyze(position, scoring, limits)
}

/// [`Engine::review`] on the test binary's engine.
pub fn review(game: &Game, limits: &SearchLimits) -> Review {
    engine().review(game, limits)
}

/// [`Engine::solve_gravity`] on the test binary's engine.
pub fn solve(position: &Position, limits: &SearchLimits) -> Solution {
    engine().solve_gravity(position, limits)
}

/// [`Engine::column_scores`] on the test binary's engine.
pub fn column_scores(position: &Position, analysis: &Analysis) -> Option<Vec<Option<i32>>> {
    engine().column_scores(position, analysis)
}

/// [`Engine::trace`] on the test binary's engine.
pub fn trace(input: &TraceInput, options: &TraceOptions) -> Result<Trace, TraceError> {
    engine().trace(input, options)
}
