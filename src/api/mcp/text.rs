//! The plain-text part of each tool result, for the model to read: a few sentences and the board
//! as a grid. The structured part is the JSON answer itself.
//!
//! Cells are named in the game's terms ([`cell_name`]): by index on small m,n,k boards, by
//! coordinate on gomoku boards, by column counted from 1 on gravity boards; numbers are rounded
//! for people ([`rounded`]).

use serde_json::Value;

use super::tools::ToolAnswer;
use crate::api::problem::Problem;
use crate::api::wire::{
    ForbiddenCell, GameState, GameStatus, MoveEntry, MoveLabel, MoveResponse, MoveReview,
    ReviewResponse,
};
use crate::engine::{
    Geometry, MoveValue, Outcome, OutcomeOrUnknown, Player, Rule, line_name, rounded,
};

/// The text of a tool's answer. `arguments` are the call's (for the board's shape, and for
/// `game_status` the board).
pub(super) fn answer_text(arguments: &Value, answer: &ToolAnswer) -> String {
    let board = Shape::of(arguments);
    match answer {
        ToolAnswer::Move(answer) => board.move_text(answer),
        ToolAnswer::Play(answer) => format!(
            "{} played {}. {}{}\nBoard after the move:\n{}",
            answer.player.as_str(),
            board.played(answer.index),
            board.status(&answer.status),
            answer
                .to_move
                .map(|p| format!(" {} moves next.", p.as_str()))
                .unwrap_or_default(),
            board.grid(answer.board.cells())
        ),
        ToolAnswer::Review(answer) => board.review_text(answer),
        ToolAnswer::Trace(answer) => answer.explanation.clone(),
        ToolAnswer::Status(answer) => {
            let turn = answer
                .to_move
                .map(|p| {
                    format!(
                        " {} to move; legal moves {}.",
                        p.as_str(),
                        board.names(&answer.legal_moves)
                    )
                })
                .unwrap_or_default();
            let turn = turn + &board.forbidden(&answer.forbidden_detail);
            let position = arguments.get("board").unwrap_or(&Value::Null);
            format!(
                "Legal position. {}{turn}\nBoard:\n{}",
                board.status(&answer.status),
                board.grid(&marks(position))
            )
        }
    }
}

/// The text of a tool error: `code: detail`, then each offending part of the request.
pub(super) fn error_text(problem: &Problem) -> String {
    let mut text = format!("{}: {}", problem.code.as_str(), problem.detail);
    for error in &problem.errors {
        if error.detail != problem.detail {
            text.push_str(&format!("\n{}: {}", error.pointer, error.detail));
        }
    }
    if let Some(omitted) = problem.errors_omitted {
        text.push_str(&format!("\n… and {omitted} more"));
    }
    text
}

/// A number for people: integers as they are, estimates to two decimals ([`rounded`]).
fn number(value: f64) -> String {
    if value.fract() == 0.0 {
        format!("{value:.0}")
    } else {
        rounded(value)
    }
}

/// What a reviewed move cost, in the review's units: "cost 2 depth-score points" when both
/// scores are proven, else "cost 0.35 of a win" on the estimate scale (a proven win 1, a draw 0,
/// a loss -1), where a cost that would round to 0.00 reads "under 0.01". A blunder also says the
/// proven outcome it gave up, so that no blunder reads as costing nothing.
fn cost(m: &MoveReview) -> String {
    let amount = if m.exact {
        if m.cost == 1.0 {
            "1 depth-score point".to_owned()
        } else {
            format!("{} depth-score points", number(m.cost))
        }
    } else if m.cost > 0.0 && m.cost < 0.005 {
        "under 0.01 of a win".to_owned()
    } else {
        format!("{:.2} of a win", m.cost)
    };
    let change = match (m.best_outcome.0, m.outcome.0) {
        (Some(best), Some(played)) if best != played => Some(format!(
            "a {} given up for a {}",
            best.as_str(),
            played.as_str()
        )),
        (None, Some(Outcome::Loss)) => {
            Some("a proven loss where the best move is not known to lose".to_owned())
        }
        _ => None,
    };
    match change {
        Some(change) if m.label == MoveLabel::Blunder => format!("cost {amount}: {change}"),
        _ => format!("cost {amount}"),
    }
}

/// A score: a proven one as the integer it is, an estimate as [`number`] writes it.
fn score(value: MoveValue) -> String {
    match value {
        MoveValue::Proven { score, .. } => score.to_string(),
        MoveValue::Estimate(estimate) => number(estimate),
    }
}

/// "win in 3 plies", "draw in 9 plies", "unknown (an estimate: the search was cut short)".
fn outcome(outcome: OutcomeOrUnknown, plies: Option<u32>) -> String {
    let outcome = outcome.0.map_or("unknown", Outcome::as_str);
    match plies {
        Some(1) => format!("{outcome} in 1 ply"),
        Some(plies) => format!("{outcome} in {plies} plies"),
        None => format!("{outcome} (an estimate: the search was cut short)"),
    }
}

/// Cells as a JSON array writes them: `[0,1,2]`.
fn list(cells: &[usize]) -> String {
    let cells: Vec<String> = cells.iter().map(usize::to_string).collect();
    format!("[{}]", cells.join(","))
}

/// The marks of a board as the request or the answer wrote it (a string or an array).
fn marks(board: &Value) -> Vec<Option<Player>> {
    let mark = |c: &str| match c {
        "X" | "x" => Some(Player::X),
        "O" | "o" => Some(Player::O),
        _ => None,
    };
    match board {
        Value::String(s) => s
            .chars()
            .map(|c| mark(c.encode_utf8(&mut [0; 4])))
            .collect(),
        Value::Array(items) => items.iter().map(|c| c.as_str().and_then(mark)).collect(),
        _ => Vec::new(),
    }
}

/// The board a tool call is about, read from its arguments (the defaults of the REST routes when
/// absent), for naming cells and drawing the grid.
struct Shape {
    geometry: Geometry,
}

impl Shape {
    /// The shape the arguments give: 3 × 3 when they give none (or, defensively, a shape the
    /// tool would have refused).
    fn of(arguments: &Value) -> Self {
        let size = |field: &str| arguments.get(field).and_then(Value::as_u64).unwrap_or(3);
        let gravity = arguments
            .get("gravity")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        let rule: Rule = arguments
            .get("rule")
            .and_then(|rule| serde_json::from_value(rule.clone()).ok())
            .unwrap_or_default();
        let geometry = Geometry::new(size("rows"), size("cols"), size("k"))
            .and_then(|g| g.with_gravity(gravity))
            .and_then(|g| g.with_rule(rule))
            .unwrap_or(Geometry::TIC_TAC_TOE);
        Self { geometry }
    }

    /// Whether cells go by index: small m,n,k boards.
    const fn by_index(&self) -> bool {
        !self.geometry.is_gravity() && !self.geometry.names_cells()
    }

    /// The cell `index` as the game names it: `4`, `h8`, `column 4`.
    fn name(&self, index: usize) -> String {
        if index < self.geometry.cells() {
            self.geometry.cell_name(index)
        } else {
            index.to_string()
        }
    }

    /// The move played, for "X played …": "cell 4", "h8", "in column 4".
    fn played(&self, index: usize) -> String {
        let name = self.name(index);
        if self.geometry.is_gravity() {
            format!("in {name}")
        } else if self.by_index() {
            format!("cell {name}")
        } else {
            name
        }
    }

    /// A list of cells: `[0,1,2]` on small boards, `h8, i9` on gomoku boards, `columns 1, 2, 4`
    /// on gravity boards.
    fn names(&self, cells: &[usize]) -> String {
        if self.by_index() {
            return list(cells);
        }
        let names: Vec<String> = cells.iter().map(|&c| self.name(c)).collect();
        if !self.geometry.is_gravity() {
            return names.join(", ");
        }
        let columns: Vec<&str> = names
            .iter()
            .map(|n| n.trim_start_matches("column "))
            .collect();
        let word = if columns.len() == 1 {
            "column"
        } else {
            "columns"
        };
        format!("{word} {}", columns.join(", "))
    }

    /// The text of a move suggestion: its explanation, the move, the tables asked for, the
    /// game's state and the board after the move.
    fn move_text(&self, answer: &MoveResponse) -> String {
        let mut text = format!("{}\n{}\n", answer.explanation, self.chosen_move(answer));
        if let Some(moves) = &answer.moves {
            text.push_str(&self.move_table("Moves", moves));
            text.push('\n');
        }
        if let Some(top) = answer.top.as_ref().filter(|top| !top.is_empty()) {
            text.push_str(&self.move_table("Best moves, best first", top));
            text.push('\n');
        }
        text + &format!(
            "{}\nBoard after the move:\n{}",
            self.status(&answer.status),
            self.grid(answer.board.cells())
        )
    }

    /// The text of a game review: its sentence, then one line a move.
    fn review_text(&self, answer: &ReviewResponse) -> String {
        let mut text = answer.sentence.clone();
        for m in &answer.moves {
            text.push_str(&format!(
                "\n{}. {} {}: {} (best {}, {})",
                m.number,
                m.player.as_str(),
                self.name(m.cell),
                m.label.as_str(),
                self.names(&m.best),
                cost(m)
            ));
        }
        text
    }

    /// The cells forbidden to the side to move, with why: " Forbidden to black under renju: h13
    /// (double three)." Empty when there are none.
    fn forbidden(&self, detail: &[ForbiddenCell]) -> String {
        let cells: Vec<String> = detail
            .iter()
            .map(|f| {
                let reason = f.reason.as_str().replace('_', " ");
                format!("{} ({reason})", self.name(f.index))
            })
            .collect();
        if cells.is_empty() {
            String::new()
        } else {
            format!(" Forbidden to black under renju: {}.", cells.join(", "))
        }
    }

    /// The chosen move with its score and outcome.
    fn chosen_move(&self, answer: &MoveResponse) -> String {
        format!(
            "{} plays {}: score {}, outcome {}.",
            answer.player.as_str(),
            self.name(answer.index),
            score(answer.score),
            outcome(answer.outcome, answer.plies)
        )
    }

    /// A table of moves on one line, `title (key: score, outcome): move: score, outcome; ...`:
    /// every legal move (`Moves`), or the best ones (`top`).
    fn move_table(&self, title: &str, moves: &[MoveEntry]) -> String {
        let entries: Vec<String> = moves
            .iter()
            .map(|entry| {
                let value = entry.score.value;
                format!(
                    "{}: {}, {}",
                    self.name(entry.score.index),
                    score(value),
                    outcome(OutcomeOrUnknown(value.outcome()), value.plies())
                )
            })
            .collect();
        let key = if self.geometry.is_gravity() {
            "column"
        } else if self.by_index() {
            "index"
        } else {
            "point"
        };
        format!("{title} ({key}: score, outcome): {}.", entries.join("; "))
    }

    /// The game's state as a sentence.
    fn status(&self, status: &GameStatus) -> String {
        match status.state {
            GameState::Win => format!(
                "{} wins ({}).",
                status.winner.map_or("?", Player::as_str),
                self.line(&status.line)
            ),
            GameState::Draw => "The game is a draw.".to_owned(),
            GameState::InPlay => "The game goes on.".to_owned(),
        }
    }

    /// A winning line: "line [0,1,2]" on small boards, else as sentences name it ("row 8
    /// (d8-e8-f8-g8-h8)", "a diagonal across columns 1-4").
    fn line(&self, line: &[usize]) -> String {
        let cells: Vec<usize> = line
            .iter()
            .copied()
            .filter(|&c| c < self.geometry.cells())
            .collect();
        if cells.is_empty() || self.by_index() {
            return format!("line {}", list(line));
        }
        line_name(self.geometry, &cells)
    }

    /// A board as rows of cells, marks as `X`/`O`: on small boards each empty cell shows its
    /// index; on gomoku boards a `.`, with the row numbers down the left edge and the column
    /// letters along the bottom; on gravity boards a `.`, with the column numbers, from 1, along
    /// the bottom.
    fn grid(&self, cells: &[Option<Player>]) -> String {
        let cols = self.geometry.cols();
        let mark = |cell: &Option<Player>| (*cell).map_or(".", Player::as_str);
        if self.geometry.is_gravity() {
            let width = cols.to_string().len();
            let mut lines: Vec<String> = cells
                .chunks(cols)
                .map(|row| {
                    let row: Vec<String> =
                        row.iter().map(|c| format!("{:>width$}", mark(c))).collect();
                    row.join(" ")
                })
                .collect();
            let numbers: Vec<String> = (1..=cols).map(|c| format!("{c:>width$}")).collect();
            lines.push(numbers.join(" "));
            return lines.join("\n");
        }
        if !self.by_index() {
            let rows = self.geometry.rows();
            let width = rows.to_string().len();
            let mut lines: Vec<String> = cells
                .chunks(cols)
                .enumerate()
                .map(|(r, row)| {
                    let row: Vec<&str> = row.iter().map(mark).collect();
                    format!("{:>width$} {}", rows - r, row.join(" "))
                })
                .collect();
            let letters: Vec<String> = (b'a'..)
                .take(cols)
                .map(|c| char::from(c).to_string())
                .collect();
            lines.push(format!("{:>width$} {}", "", letters.join(" ")));
            return lines.join("\n");
        }
        let width = cells.len().saturating_sub(1).to_string().len();
        cells
            .chunks(cols)
            .enumerate()
            .map(|(row, chunk)| {
                chunk
                    .iter()
                    .enumerate()
                    .map(|(col, cell)| match cell {
                        Some(p) => format!("{:>width$}", p.as_str()),
                        None => format!("{:>width$}", row * cols + col),
                    })
                    .collect::<Vec<_>>()
                    .join(" | ")
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}
