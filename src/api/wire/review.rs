//! `POST /v1/review` on the wire: the request, its validation into a game, and the answer.

use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use super::game::{GameStatus, coordinate};
use super::geometry::request;
use super::moves::shape_error;
use crate::api::problem::{ApiError, ProblemCode};
use crate::engine::{
    Game, Geometry, Label, MoveValue, OutcomeOrUnknown, Player, PlayerSummary, Review,
    ReviewedMove, Rule,
};

request! {
    /// The body of `POST /v1/review` and the input of the MCP tool `review_game`. Every optional
    /// field may be absent or null, both meaning its default.
    #[schema(example = json!({"moves": [4, 1, 0, 8, 2, 6, 3, 5]}))]
    pub struct ReviewRequest {
        /// The cells played, in play order, each a row-major index from 0. At most rows × cols
        /// moves; every move must be on an empty cell of a game still in play.
        #[schema(max_items = 400)]
        pub moves: Vec<usize>,
        /// The side that moved first (X when absent or null; under renju X, black, always does).
        #[serde(default)]
        pub first: Option<Player>,
    }
    geometry {
        /// Gravity (false when absent or null): a mark drops to the lowest empty cell of its
        /// column, as in Connect Four (`rows: 6, cols: 7, k: 4`); each move is then the landing cell.
        gravity,
        /// The gomoku rule (`freestyle` when absent or null): `standard`, `renju` or `caro`, for
        /// k = 5 without gravity (see `POST /v1/move`). Under renju a forbidden move of black's is a
        /// 422 `forbidden_move` naming it.
        rule,
    }
    {
        /// Deepest search iteration in plies for each position (larger boards); capped by the server.
        #[serde(default)]
        #[schema(value_type = Option<i32>, minimum = 1)]
        pub max_depth: Option<u32>,
        /// Time budget for the whole game in milliseconds (larger boards), capped by the server
        /// like `POST /v1/move`'s; by default 200 ms a move of the game. A first pass gives every
        /// position an equal share of seven tenths of it (of what is left, divided by the positions
        /// still to review); the rest searches again the positions whose labels hang on estimates
        /// (moves labelled `mistake` or `blunder`, and large swings of the chart). 3 × 3 games need
        /// none.
        #[serde(default)]
        #[schema(value_type = Option<i32>, minimum = 1)]
        pub time_limit_ms: Option<u64>,
    }
}

/// The labels of reviewed moves: the engine's [`Label`], documented under the name the API has
/// always used for it.
pub type MoveLabel = Label;

/// One move of a reviewed game. Values are from the view of the player who moved, under depth
/// scoring.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct MoveReview {
    /// The move's number, from 1.
    pub number: usize,
    /// Who played it.
    pub player: Player,
    /// The cell played.
    pub cell: usize,
    /// The cell played in board notation (`h8`), on gomoku boards (k = 5, or 100 cells or
    /// more, without gravity).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = String, example = "h8")]
    pub coordinate: Option<String>,
    /// Gravity boards only: the column played, from 0 like `POST /v1/move`'s `column` (sentences
    /// count columns from 1, as players do: column 3 here is "column 4" there).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = i32, minimum = 0)]
    pub column: Option<usize>,
    /// How good it was.
    pub label: MoveLabel,
    /// Its score.
    #[schema(value_type = f64)]
    pub score: MoveValue,
    /// What it leads to with best play, `unknown` when not proven.
    pub outcome: OutcomeOrUnknown,
    /// Every move of the best value in that position.
    pub best: Vec<usize>,
    /// The best score.
    #[schema(value_type = f64)]
    pub best_score: MoveValue,
    /// What the best move leads to, `unknown` when not proven.
    pub best_outcome: OutcomeOrUnknown,
    /// The expected line of play from the position before the move, starting with the first best
    /// move (on 3 × 3 to the end of the game).
    pub best_line: Vec<usize>,
    /// What the move gave up: the best score minus its score when both are proven (depth-score
    /// points), else on the estimate scale (proven win 1, draw 0, loss -1, estimates as they
    /// are). Never negative.
    #[schema(minimum = 0)]
    pub cost: f64,
    /// Whether both scores are proven.
    pub exact: bool,
    /// The position's value after the move from X's view, from -1 (O wins) to 1 (X wins); for
    /// charts.
    #[schema(minimum = -1, maximum = 1)]
    pub value_for_x: f64,
}

impl MoveReview {
    fn new(m: &ReviewedMove, geometry: Geometry) -> Self {
        Self {
            number: m.number,
            player: m.player,
            cell: m.cell,
            coordinate: coordinate(geometry, m.cell),
            column: geometry.is_gravity().then(|| geometry.column_of(m.cell)),
            label: m.label,
            score: m.value,
            outcome: OutcomeOrUnknown(m.value.outcome()),
            best: m.best.clone(),
            best_score: m.best_value,
            best_outcome: OutcomeOrUnknown(m.best_value.outcome()),
            best_line: m.best_line.clone(),
            cost: m.cost,
            exact: m.value.is_exact() && m.best_value.is_exact(),
            value_for_x: m.value_for_x,
        }
    }
}

/// One player's tally.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct PlayerReview {
    /// The player.
    pub player: Player,
    /// Moves the player made.
    pub moves: usize,
    /// Moves labelled `best`.
    pub best: usize,
    /// Moves labelled `good`.
    pub good: usize,
    /// Moves labelled `inaccuracy`.
    pub inaccuracy: usize,
    /// Moves labelled `mistake`.
    pub mistake: usize,
    /// Moves labelled `blunder`.
    pub blunder: usize,
    /// The share of the player's moves labelled `best` or `good`, in percent to one decimal;
    /// null when the player made no move.
    #[schema(required = true, minimum = 0, maximum = 100)]
    pub accuracy: Option<f64>,
}

impl From<&PlayerSummary> for PlayerReview {
    fn from(s: &PlayerSummary) -> Self {
        Self {
            player: s.player,
            moves: s.moves,
            best: s.counts[0],
            good: s.counts[1],
            inaccuracy: s.counts[2],
            mistake: s.counts[3],
            blunder: s.counts[4],
            accuracy: s.accuracy,
        }
    }
}

/// The answer of `POST /v1/review`.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct ReviewResponse {
    /// Every move, in play order.
    pub moves: Vec<MoveReview>,
    /// X's tally, then O's.
    pub summary: Vec<PlayerReview>,
    /// The number of the move where the game turned: the first blunder, else the move that gave
    /// up the most; null when no move gave anything up.
    #[schema(required = true, minimum = 1)]
    pub turning_point: Option<usize>,
    /// The game after the last move.
    pub status: GameStatus,
    /// The side to move after the last move, null when the game is over.
    #[schema(required = true)]
    pub to_move: Option<Player>,
    /// Whether every score is proven.
    pub exact: bool,
    /// One plain-English sentence about the game.
    pub sentence: String,
}

impl ReviewResponse {
    /// The wire form of a game's review.
    #[must_use]
    pub fn new(game: &Game, review: &Review) -> Self {
        let over = game.result().is_some();
        let to_move = match (over, review.moves.last()) {
            (true, _) => None,
            (false, Some(last)) => Some(last.player.opponent()),
            (false, None) => Some(game.first()),
        };
        Self {
            moves: review
                .moves
                .iter()
                .map(|m| MoveReview::new(m, game.geometry()))
                .collect(),
            summary: review.summary.iter().map(PlayerReview::from).collect(),
            turning_point: review.turning_point,
            status: GameStatus::of(game.result()),
            to_move,
            exact: review.exact,
            sentence: review.sentence.clone(),
        }
    }
}

/// A review request past the edge: a valid game and its limits.
#[derive(Clone, Debug)]
pub struct ValidReview {
    pub(crate) game: Game,
    pub(crate) max_depth: Option<u32>,
    pub(crate) time_limit_ms: Option<u64>,
}

impl TryFrom<ReviewRequest> for ValidReview {
    type Error = ApiError;

    fn try_from(request: ReviewRequest) -> Result<Self, ApiError> {
        let int32 = i32::MAX as u64;
        for (field, value) in [
            ("max_depth", request.max_depth.map(u64::from)),
            ("time_limit_ms", request.time_limit_ms),
        ] {
            if let Some(v) = value.filter(|v| !(1..=int32).contains(v)) {
                return Err(ApiError::invalid(
                    ProblemCode::InvalidRequest,
                    format!("/{field}"),
                    format!("{field} must be between 1 and {int32}, got {v}"),
                ));
            }
        }
        let fields = request.geometry_fields();
        let geometry = fields.geometry()?;
        if request.moves.len() > geometry.cells() {
            return Err(ApiError::invalid(
                ProblemCode::InvalidRequest,
                "/moves",
                format!(
                    "a game on {} × {} has at most {} moves, got {}",
                    geometry.rows(),
                    geometry.cols(),
                    geometry.cells(),
                    request.moves.len()
                ),
            ));
        }
        let first = request.first.unwrap_or(Player::X);
        if fields.rule() == Rule::Renju && first == Player::O {
            return Err(ApiError::invalid(
                ProblemCode::InvalidRequest,
                "/first",
                "under renju X is black and moves first",
            ));
        }
        let game = Game::new(geometry, first, &request.moves)
            .map_err(|e| ApiError::for_move(&e, format!("/moves/{}", e.number - 1)))?;
        Ok(Self {
            game,
            max_depth: request.max_depth,
            time_limit_ms: request.time_limit_ms,
        })
    }
}

/// Reads a review request that is already known to be JSON.
///
/// # Errors
/// A 422 naming the offending field or move.
pub fn parse_review(body: Value) -> Result<ValidReview, ApiError> {
    let request: ReviewRequest =
        serde_path_to_error::deserialize(body).map_err(|e| shape_error(&e))?;
    ValidReview::try_from(request)
}
