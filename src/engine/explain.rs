//! Plain-language answers: a sentence a chatbot can say about a move.

use super::{GameResult, Geometry, MoveScore, Outcome, Position, Value, immediate_wins};

/// How sentences name the cell `index`: its coordinate in board notation (`h8`) on boards that
/// name their cells ([`Geometry::names_cells`]), else its index.
///
/// ```
/// use minimax_move::engine::{Geometry, cell_name};
/// assert_eq!(cell_name(Geometry::new(15, 15, 5).unwrap(), 112), "h8");
/// assert_eq!(cell_name(Geometry::TIC_TAC_TOE, 4), "4");
/// ```
#[must_use]
pub fn cell_name(geometry: Geometry, index: usize) -> String {
    if geometry.names_cells() {
        geometry.coordinate(index)
    } else {
        index.to_string()
    }
}

/// A name for a winning line: "the middle row", "the left column", "the diagonal 0-4-8"...; on
/// boards that name their cells, in board notation: "row 8 (d8-e8-f8-g8-h8)", "column h
/// (h4-h5-h6-h7-h8)".
///
/// ```
/// use minimax_move::engine::{Geometry, line_name};
/// assert_eq!(line_name(Geometry::TIC_TAC_TOE, &[3, 4, 5]), "the middle row");
/// let gomoku = Geometry::new(15, 15, 5).unwrap();
/// assert_eq!(line_name(gomoku, &[108, 109, 110, 111, 112]), "row 8 (d8-e8-f8-g8-h8)");
/// assert_eq!(line_name(gomoku, &[112, 127, 142, 157, 172]), "column h (h8-h7-h6-h5-h4)");
/// ```
#[must_use]
pub fn line_name(geometry: Geometry, line: &[usize]) -> String {
    let cols = geometry.cols();
    let (first, last) = (line[0], line[line.len() - 1]);
    let cells = line
        .iter()
        .map(|&i| cell_name(geometry, i))
        .collect::<Vec<_>>()
        .join("-");
    if geometry.is_tic_tac_toe() {
        let name = match line {
            [0, 1, 2] => "the top row",
            [3, 4, 5] => "the middle row",
            [6, 7, 8] => "the bottom row",
            [0, 3, 6] => "the left column",
            [1, 4, 7] => "the middle column",
            [2, 5, 8] => "the right column",
            [0, 4, 8] => "the diagonal 0-4-8",
            [2, 4, 6] => "the diagonal 2-4-6",
            _ => "",
        };
        if !name.is_empty() {
            return name.to_owned();
        }
    }
    let notation = geometry.names_cells();
    if line.len() == 1 || first / cols == last / cols {
        let row = if notation {
            geometry.rows() - first / cols
        } else {
            first / cols + 1
        };
        format!("row {row} ({cells})")
    } else if first % cols == last % cols {
        let column = if notation {
            char::from(b'a' + (first % cols) as u8).to_string()
        } else {
            (first % cols + 1).to_string()
        };
        format!("column {column} ({cells})")
    } else {
        format!("the diagonal {cells}")
    }
}

/// One short sentence about the chosen move, such as "X takes 4 and wins at once, completing the
/// middle row." or "O blocks at 2; with best play the game is a draw." Cells are named as
/// [`cell_name`] names them: by coordinate on gomoku boards ("O blocks at h8").
///
/// `result` is how the game ended if the move ended it; `pv` is the expected line of play
/// starting with the chosen move. When that line is a win by continuous fours (each of the
/// mover's moves threatens to win at once and the opponent's only reply is the block), the
/// sentence names it: "X wins by force: four at h9, then h8, and five at h7."
#[must_use]
pub fn explanation(
    position: &Position,
    chosen: &MoveScore,
    best: &MoveScore,
    result: Option<&GameResult>,
    pv: &[usize],
) -> String {
    if position.geometry().is_gravity() {
        return gravity_explanation(position, chosen, result);
    }
    let me = position.to_move();
    let them = me.opponent();
    let geometry = position.geometry();
    let i = cell_name(geometry, chosen.index);
    if let Some(result) = result {
        return match result.winner {
            Some(_) => {
                let lines = winning_lines(geometry, result, chosen.index);
                format!("{me} takes {i} and wins at once, completing {lines}.")
            }
            None => format!("{me} plays {i}, the last free cell; the game is a draw."),
        };
    }
    if let Some(fours) = forcing_fours(position, chosen, pv) {
        let (last, rest) = fours.split_last().expect("a forcing line has moves");
        let list = rest
            .iter()
            .map(|&cell| cell_name(geometry, cell))
            .collect::<Vec<_>>()
            .join(", then ");
        let last = cell_name(geometry, *last);
        return format!("{me} wins by force: four at {list}, and five at {last}.");
    }
    let threats = immediate_wins(geometry, position.cells(), them);
    let mut verb = if threats.contains(&chosen.index) {
        format!("{me} blocks at {i}")
    } else {
        format!("{me} plays {i}")
    };
    // Below `perfect` a weaker move may be chosen on purpose: say so within the one sentence.
    if chosen.index != best.index && chosen.value.score() < best.value.score() {
        verb = format!(
            "{verb}, passing over the stronger {} at this difficulty",
            cell_name(geometry, best.index)
        );
    }
    let moves_for = |plies: u32| plies.div_ceil(2);
    match chosen.value {
        Value::Proven {
            outcome: Outcome::Win,
            plies,
            ..
        } => {
            let n = moves_for(plies);
            format!("{verb} and forces a win within {n} moves of its own, this one included.")
        }
        Value::Proven {
            outcome: Outcome::Draw,
            ..
        } => format!("{verb}; with best play the game is a draw."),
        Value::Proven {
            outcome: Outcome::Loss,
            plies,
            ..
        } => {
            let n = plies / 2;
            let s = if n == 1 { "" } else { "s" };
            format!("{verb}; {them} can still force a win, in {n} move{s} at the earliest.")
        }
        Value::Estimate(h) => format!(
            "{verb}; the search did not prove the result and rates it {}.",
            rating(h)
        ),
    }
}

/// The mover's moves of `pv` when `pv` is a proven win by continuous fours from `position`: an odd
/// number of moves, at least three, where each of the mover's moves but the last threatens to win
/// at once and the opponent's next move takes a winning cell (at the end, an open four leaves two),
/// and the last move wins.
fn forcing_fours(position: &Position, chosen: &MoveScore, pv: &[usize]) -> Option<Vec<usize>> {
    let Value::Proven {
        outcome: Outcome::Win,
        ..
    } = chosen.value
    else {
        return None;
    };
    if pv.len() < 3 || pv.len().is_multiple_of(2) || pv[0] != chosen.index {
        return None;
    }
    let geometry = position.geometry();
    let me = position.to_move();
    let mut cells = position.cells().to_vec();
    for pair in pv[..pv.len() - 1].chunks(2) {
        let (attack, block) = (pair[0], pair[1]);
        if cells.get(attack).copied().flatten().is_some() {
            return None;
        }
        cells[attack] = Some(me);
        if !immediate_wins(geometry, &cells, me).contains(&block) {
            return None;
        }
        cells[block] = Some(me.opponent());
    }
    let last = pv[pv.len() - 1];
    immediate_wins(geometry, &cells, me)
        .contains(&last)
        .then(|| pv.iter().step_by(2).copied().collect())
}

fn rating(h: f64) -> &'static str {
    if h > 0.25 {
        "in its favour"
    } else if h < -0.25 {
        "against it"
    } else {
        "about even"
    }
}

fn winning_lines(geometry: Geometry, result: &GameResult, last: usize) -> String {
    let names: Vec<String> = geometry
        .line_list()
        .iter()
        .filter(|line| line.contains(&last) && line.iter().all(|c| result.line.contains(c)))
        .map(|line| line_name(geometry, line))
        .collect();
    names.join(" and ")
}

/// The sentence for a gravity board, columns counted from 1 as people count them: "X drops in
/// column 4 and wins by the 41st move." The move numbers count every mark since the empty board.
fn gravity_explanation(
    position: &Position,
    chosen: &MoveScore,
    result: Option<&GameResult>,
) -> String {
    let geometry = position.geometry();
    let me = position.to_move();
    let column = geometry.column_of(chosen.index) + 1;
    let played = geometry.cells() - position.empty_count();
    let drops = format!("{me} drops in column {column}");
    if let Some(result) = result {
        return match result.winner {
            Some(_) => {
                let lines = winning_lines(geometry, result, chosen.index);
                format!("{drops} and wins at once, completing {lines}.")
            }
            None => format!("{drops}, filling the board; the game is a draw."),
        };
    }
    match chosen.value {
        Value::Proven {
            outcome: Outcome::Win,
            plies,
            ..
        } => format!(
            "{drops} and wins by the {} move.",
            ordinal(played + plies as usize)
        ),
        Value::Proven {
            outcome: Outcome::Loss,
            plies,
            ..
        } => format!(
            "{drops}; with best play {} wins by the {} move.",
            me.opponent(),
            ordinal(played + plies as usize)
        ),
        Value::Proven { .. } => format!("{drops}; with best play the game is a draw."),
        Value::Estimate(_) => {
            format!("{drops}; the search could not prove the outcome within its time limit.")
        }
    }
}

/// `n` as an English ordinal: 1st, 2nd, 3rd, 4th, 11th, 21st...
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}
