//! Plain-language answers: a sentence a chatbot can say about a move.

use crate::engine::analysis::{MoveScore, MoveValue, Outcome};
use crate::engine::choose::immediate_wins;
use crate::engine::game::{GameResult, Geometry, Player, Position};

/// An estimate rounded for people: two decimals, or three when two would round it to ±1 (which
/// only a proven result reaches).
///
/// ```
/// use minimax_move::engine::rounded;
/// assert_eq!(rounded(0.00698588589756974), "0.01");
/// assert_eq!(rounded(-0.2714), "-0.27");
/// assert_eq!(rounded(0.998), "0.998");
/// assert_eq!(rounded(-0.0001), "0.00");
/// ```
#[must_use]
pub fn rounded(value: f64) -> String {
    let two = (value * 100.0).round() / 100.0;
    if two.abs() < 1.0 {
        return format!("{:.2}", two + 0.0);
    }
    let three = ((value * 1000.0).round() / 1000.0).clamp(-0.999, 0.999);
    format!("{three:.3}")
}

/// "three in a row", "five in a row", "12 in a row": the win of a `k` in a row game in words.
///
/// ```
/// use minimax_move::engine::in_a_row;
/// assert_eq!(in_a_row(3), "three in a row");
/// assert_eq!(in_a_row(12), "12 in a row");
/// ```
#[must_use]
pub fn in_a_row(k: usize) -> String {
    const WORDS: [&str; 11] = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    ];
    match WORDS.get(k) {
        Some(word) => format!("{word} in a row"),
        None => format!("{k} in a row"),
    }
}

/// A name for a winning line (its cells in row-major order): "the middle row", "the left
/// column", "the diagonal 0-4-8"...; on boards that name their cells, in board notation: "row 8
/// (d8-e8-f8-g8-h8)", "column h (h4-h5-h6-h7-h8)"; on gravity boards by columns, counted from 1:
/// "a vertical line in column 4", "a row across columns 2-5", "a diagonal across columns 1-4".
///
/// ```
/// use minimax_move::engine::{Geometry, line_name};
/// assert_eq!(line_name(Geometry::TIC_TAC_TOE, &[3, 4, 5]), "the middle row");
/// let gomoku = Geometry::new(15, 15, 5).unwrap();
/// assert_eq!(line_name(gomoku, &[108, 109, 110, 111, 112]), "row 8 (d8-e8-f8-g8-h8)");
/// assert_eq!(line_name(gomoku, &[112, 127, 142, 157, 172]), "column h (h8-h7-h6-h5-h4)");
/// let connect_four = Geometry::new(6, 7, 4).unwrap().with_gravity(true).unwrap();
/// assert_eq!(line_name(connect_four, &[17, 24, 31, 38]), "a vertical line in column 4");
/// assert_eq!(line_name(connect_four, &[7, 15, 23, 31]), "a diagonal across columns 1-4");
/// ```
#[must_use]
pub fn line_name(geometry: Geometry, line: &[usize]) -> String {
    if geometry.is_gravity() {
        return gravity_line_name(geometry, line);
    }
    let cols = geometry.cols();
    let (first, last) = (line[0], line[line.len() - 1]);
    let cells = line
        .iter()
        .map(|&i| geometry.cell_name(i))
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

/// A winning line of a gravity board named by its columns, counted from 1.
fn gravity_line_name(geometry: Geometry, line: &[usize]) -> String {
    let columns: Vec<usize> = line.iter().map(|&i| geometry.column_of(i) + 1).collect();
    let (low, high) = (
        columns.iter().copied().min().unwrap_or(1),
        columns.iter().copied().max().unwrap_or(1),
    );
    let cols = geometry.cols();
    if low == high {
        format!("a vertical line in column {low}")
    } else if line[0] / cols == line[line.len() - 1] / cols {
        format!("a row across columns {low}-{high}")
    } else {
        format!("a diagonal across columns {low}-{high}")
    }
}

/// One short sentence about the chosen move, such as "X takes 4 and wins at once, completing the
/// middle row." or "O blocks at 2; with best play the game is a draw." Cells are named as
/// [`Geometry::cell_name`] names them: by coordinate on gomoku boards ("O blocks at h8"), by column on
/// gravity boards ("X drops in column 4").
///
/// `result` is how the game ended if the move ended it; `pv` is the expected line of play
/// starting with the chosen move. When that line is a win by continuous threats (each of the
/// mover's moves threatens to win at once and the opponent's only reply is the block), the
/// sentence names it in the game's terms: "X wins by force: four at h9, then h8, and five at h7."
/// on five in a row, "O wins by force: a threat at 3, then a double threat at 4, and three in a
/// row at 8." elsewhere. An estimate is said to be one, with its value rounded to two decimals:
/// "X plays 12; not proven, the search rates the position in O's favour (-0.27)."
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
    let i = geometry.cell_name(chosen.index);
    if let Some(result) = result {
        return match result.winner {
            Some(_) => {
                let lines = winning_lines(geometry, result, chosen.index);
                format!("{me} takes {i} and wins at once, completing {lines}.")
            }
            None => format!("{me} plays {i}, the last free cell; the game is a draw."),
        };
    }
    if let Some(attacks) = forcing_threats(position, chosen, pv) {
        return forced_win(geometry, me, &attacks);
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
            geometry.cell_name(best.index)
        );
    }
    let moves_for = |plies: u32| plies.div_ceil(2);
    match chosen.value {
        MoveValue::Proven {
            outcome: Outcome::Win,
            plies,
            ..
        } => {
            let n = moves_for(plies);
            format!("{verb} and forces a win within {n} moves of its own, this one included.")
        }
        MoveValue::Proven {
            outcome: Outcome::Draw,
            ..
        } => format!("{verb}; with best play the game is a draw."),
        MoveValue::Proven {
            outcome: Outcome::Loss,
            plies,
            ..
        } => {
            let n = plies / 2;
            let s = if n == 1 { "" } else { "s" };
            format!("{verb}; {them} can still force a win, in {n} move{s} at the earliest.")
        }
        MoveValue::Estimate(h) => format!("{verb}; {}.", rating(me, h)),
    }
}

/// The sentence of a win by continuous threats: `attacks` are the mover's moves, each with the
/// number of winning cells it leaves (the last one wins).
fn forced_win(geometry: Geometry, me: Player, attacks: &[(usize, usize)]) -> String {
    let (last, rest) = attacks.split_last().expect("a forcing line has moves");
    let last = geometry.cell_name(last.0);
    if geometry.k() == 5 {
        let list = rest
            .iter()
            .map(|&(cell, _)| geometry.cell_name(cell))
            .collect::<Vec<_>>()
            .join(", then ");
        return format!("{me} wins by force: four at {list}, and five at {last}.");
    }
    let list = rest
        .iter()
        .map(|&(cell, threats)| {
            let threat = if threats > 1 {
                "a double threat"
            } else {
                "a threat"
            };
            format!("{threat} at {}", geometry.cell_name(cell))
        })
        .collect::<Vec<_>>()
        .join(", then ");
    let wins = in_a_row(geometry.k());
    format!("{me} wins by force: {list}, and {wins} at {last}.")
}

/// The mover's moves of `pv`, each with the number of cells that then win at once, when `pv` is
/// a proven win by continuous threats from `position`: an odd number of moves, at least three,
/// where each of the mover's moves but the last threatens to win at once and the opponent's next
/// move takes a winning cell (at the end, a double threat leaves two), and the last move wins.
fn forcing_threats(
    position: &Position,
    chosen: &MoveScore,
    pv: &[usize],
) -> Option<Vec<(usize, usize)>> {
    let MoveValue::Proven {
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
    let mut attacks = Vec::with_capacity(pv.len() / 2 + 1);
    for pair in pv[..pv.len() - 1].chunks(2) {
        let (attack, block) = (pair[0], pair[1]);
        if cells.get(attack).copied().flatten().is_some() {
            return None;
        }
        cells[attack] = Some(me);
        let wins = immediate_wins(geometry, &cells, me);
        if !wins.contains(&block) {
            return None;
        }
        attacks.push((attack, wins.len()));
        cells[block] = Some(me.opponent());
    }
    let last = pv[pv.len() - 1];
    immediate_wins(geometry, &cells, me)
        .contains(&last)
        .then(|| {
            attacks.push((last, 0));
            attacks
        })
}

/// How the search rates an unproven position, from the view of `me` whose value is `h`: "not
/// proven, the search rates the position in O's favour (-0.27)". Beyond ±0.9 the search sees a
/// win (a win its selective search found, or a proven outcome whose length is not): a likely
/// win, still not a proof.
fn rating(me: Player, h: f64) -> String {
    let them = me.opponent();
    let how = if h > 0.9 {
        format!("as a likely win for {me}")
    } else if h < -0.9 {
        format!("as a likely win for {them}")
    } else if h > 0.25 {
        format!("in {me}'s favour")
    } else if h < -0.25 {
        format!("in {them}'s favour")
    } else {
        "about even".to_owned()
    };
    format!(
        "not proven, the search rates the position {how} ({})",
        rounded(h)
    )
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
        MoveValue::Proven {
            outcome: Outcome::Win,
            plies,
            ..
        } => format!(
            "{drops} and wins by the {} move.",
            ordinal(played + plies as usize)
        ),
        MoveValue::Proven {
            outcome: Outcome::Loss,
            plies,
            ..
        } => format!(
            "{drops}; with best play {} wins by the {} move.",
            me.opponent(),
            ordinal(played + plies as usize)
        ),
        MoveValue::Proven { .. } => format!("{drops}; with best play the game is a draw."),
        MoveValue::Estimate(h) => format!("{drops}; {}.", rating(me, h)),
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
