//! The plain-text part of each tool result, for the model to read: a few sentences and the board
//! as a grid. The structured part is the JSON answer itself.

use serde_json::Value;

use crate::api::problem::Problem;
use crate::engine::Player;

/// The text of a tool's answer. `arguments` are the call's (for the board's width and, for
/// `game_status`, the board), `answer` the JSON the tool returns.
pub(super) fn answer_text(tool: &str, arguments: &Value, answer: &Value) -> String {
    let cols = arguments
        .get("cols")
        .and_then(Value::as_u64)
        .and_then(|c| usize::try_from(c).ok())
        .unwrap_or(3);
    match tool {
        "suggest_move" => {
            let mut text = format!(
                "{}\n{}\n",
                answer["explanation"].as_str().unwrap_or_default(),
                chosen_move(answer)
            );
            if let Some(moves) = answer["moves"].as_array() {
                text.push_str(&move_table(moves));
                text.push('\n');
            }
            text + &format!(
                "{}\nBoard after the move:\n{}",
                status(&answer["status"]),
                grid(&answer["board"], cols)
            )
        }
        "apply_move" => format!(
            "{} played cell {}{}. {}{}\nBoard after the move:\n{}",
            answer["player"].as_str().unwrap_or("?"),
            cell(answer, "index"),
            answer["column"]
                .as_u64()
                .map(|c| format!(" (column {c})"))
                .unwrap_or_default(),
            status(&answer["status"]),
            answer["to_move"]
                .as_str()
                .map(|p| format!(" {p} moves next."))
                .unwrap_or_default(),
            grid(&answer["board"], cols)
        ),
        "review_game" => review_text(answer),
        _ => {
            let turn = answer["to_move"]
                .as_str()
                .map(|p| format!(" {p} to move; legal moves {}.", answer["legal_moves"]))
                .unwrap_or_default();
            let turn = turn + &forbidden(&answer["forbidden_detail"]);
            let board = arguments.get("board").unwrap_or(&Value::Null);
            format!(
                "Legal position. {}{turn}\nBoard:\n{}",
                status(&answer["status"]),
                grid(board, cols)
            )
        }
    }
}

/// The text of a game review: its sentence, then one line a move.
fn review_text(answer: &Value) -> String {
    let mut text = answer["sentence"].as_str().unwrap_or_default().to_owned();
    for m in answer["moves"].as_array().map_or(&[][..], Vec::as_slice) {
        text.push_str(&format!(
            "\n{}. {} {}: {} (best {}, cost {})",
            m["number"],
            m["player"].as_str().unwrap_or("?"),
            cell(m, "cell"),
            m["label"].as_str().unwrap_or("?"),
            m["best"],
            m["cost"]
        ));
    }
    text
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

/// The cell `entry[field]`, with its coordinate when the answer carries one: `112 (h8)`.
fn cell(entry: &Value, field: &str) -> String {
    match entry["coordinate"].as_str() {
        Some(coordinate) => format!("{} ({coordinate})", entry[field]),
        None => entry[field].to_string(),
    }
}

/// The cells forbidden to the side to move, with why: " Forbidden (renju): 33 (h13,
/// double_three)." Empty when there are none.
fn forbidden(detail: &Value) -> String {
    let cells: Vec<String> = detail
        .as_array()
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .map(|f| {
            let reason = f["reason"].as_str().unwrap_or("?");
            match f["coordinate"].as_str() {
                Some(coordinate) => format!("{} ({coordinate}, {reason})", f["index"]),
                None => format!("{} ({reason})", f["index"]),
            }
        })
        .collect();
    if cells.is_empty() {
        String::new()
    } else {
        format!(" Forbidden to black under renju: {}.", cells.join(", "))
    }
}

/// "win in 3 plies", "draw in 9 plies", "unknown (an estimate)".
fn outcome(entry: &Value) -> String {
    let outcome = entry["outcome"].as_str().unwrap_or("unknown");
    match entry["plies"].as_u64() {
        Some(1) => format!("{outcome} in 1 ply"),
        Some(plies) => format!("{outcome} in {plies} plies"),
        None => format!("{outcome} (an estimate: the search was cut short)"),
    }
}

/// The chosen move with its score and outcome.
fn chosen_move(answer: &Value) -> String {
    format!(
        "{} plays {}{}: score {}, outcome {}.",
        answer["player"].as_str().unwrap_or("?"),
        cell(answer, "index"),
        answer["column"]
            .as_u64()
            .map(|c| format!(" (column {c})"))
            .unwrap_or_default(),
        answer["score"],
        outcome(answer)
    )
}

/// The move table on one line: `index: score, outcome` for every legal move.
fn move_table(moves: &[Value]) -> String {
    let entries: Vec<String> = moves
        .iter()
        .map(|entry| {
            format!(
                "{}: {}, {}",
                cell(entry, "index"),
                entry["score"],
                outcome(entry)
            )
        })
        .collect();
    format!("Moves (index: score, outcome): {}.", entries.join("; "))
}

/// The game's state as a sentence.
fn status(status: &Value) -> String {
    match status["state"].as_str() {
        Some("win") => format!(
            "{} wins (line {}).",
            status["winner"].as_str().unwrap_or("?"),
            status["line"]
        ),
        Some("draw") => "The game is a draw.".to_owned(),
        _ => "The game goes on.".to_owned(),
    }
}

/// A board as rows of cells: marks as `X`/`O`, empty cells as their index.
fn grid(board: &Value, cols: usize) -> String {
    let mark = |c: &str| match c {
        "X" | "x" => Some(Player::X),
        "O" | "o" => Some(Player::O),
        _ => None,
    };
    let cells: Vec<Option<Player>> = match board {
        Value::String(s) => s
            .chars()
            .map(|c| mark(c.encode_utf8(&mut [0; 4])))
            .collect(),
        Value::Array(items) => items.iter().map(|c| c.as_str().and_then(mark)).collect(),
        _ => Vec::new(),
    };
    let width = cells.len().saturating_sub(1).to_string().len();
    cells
        .chunks(cols.max(1))
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
