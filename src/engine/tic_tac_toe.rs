//! Tic-tac-toe solved once: every position's every move, as a depth score.

use std::sync::OnceLock;

use crate::engine::analysis::{Analysis, Evaluation, MoveScore, Scoring};
use crate::engine::game::{Geometry, Player, Position};
use crate::engine::gomoku;

const CELLS: usize = 9;
const BOARDS: usize = 19_683; // 3^9
const W: i8 = 10;
const OCCUPIED: i8 = i8::MIN;
const POW3: [usize; CELLS] = [1, 3, 9, 27, 81, 243, 729, 2187, 6561];

/// The depth score of every move from every 3 × 3 board with either side to move, indexed by
/// `board_code * 2 + mover`; `OCCUPIED` marks cells that are not legal moves.
struct SolvedTable {
    moves: Vec<[i8; CELLS]>,
}

static TABLE: OnceLock<SolvedTable> = OnceLock::new();

/// Builds, if not built yet, the tables that are the same for every engine of the process (see
/// [`Engine::warm_up`](crate::engine::Engine::warm_up)): the solved 3 × 3 table, the gomoku
/// pattern tables of every `k` and every rule, the move-ordering lookup of the gomoku weights and
/// the winning lines of the usual gomoku boards (15 × 15 and 20 × 20).
pub fn warm_up() {
    table();
    gomoku::PatternTable::build_all();
    gomoku::WEIGHTS.combos();
    for size in [15, 20] {
        if let Ok(geometry) = Geometry::new(size, size, 5) {
            let _ = geometry.line_list();
        }
    }
}

/// Whether every table that [`warm_up`] builds once for the life of the process is built.
#[must_use]
pub fn warmed_up() -> bool {
    TABLE.get().is_some()
        && gomoku::PatternTable::all_built()
        && gomoku::WEIGHTS.combos.get().is_some()
}

fn table() -> &'static SolvedTable {
    TABLE.get_or_init(SolvedTable::build)
}

/// Cell value in base 3: 0 empty, 1 X, 2 O.
const fn digit(player: Player) -> usize {
    match player {
        Player::X => 1,
        Player::O => 2,
    }
}

fn cell(code: usize, i: usize) -> usize {
    code / POW3[i] % 3
}

fn has_line(code: usize, d: usize) -> bool {
    Geometry::TIC_TAC_TOE
        .line_list()
        .iter()
        .any(|line| line.iter().all(|&i| cell(code, i) == d))
}

impl SolvedTable {
    fn build() -> Self {
        let mut builder = Builder {
            values: vec![None; BOARDS * 2],
            moves: vec![[OCCUPIED; CELLS]; BOARDS * 2],
        };
        for code in 0..BOARDS {
            let finished =
                has_line(code, 1) || has_line(code, 2) || (0..CELLS).all(|i| cell(code, i) != 0);
            if !finished {
                builder.value(code, Player::X);
                builder.value(code, Player::O);
            }
        }
        Self {
            moves: builder.moves,
        }
    }
}

struct Builder {
    values: Vec<Option<i8>>,
    moves: Vec<[i8; CELLS]>,
}

impl Builder {
    /// Depth score of a board that is not finished, for `mover`; fills in its moves.
    fn value(&mut self, code: usize, mover: Player) -> i8 {
        let key = code * 2 + mover as usize;
        if let Some(v) = self.values[key] {
            return v;
        }
        let mut row = [OCCUPIED; CELLS];
        for (i, slot) in row.iter_mut().enumerate() {
            if cell(code, i) != 0 {
                continue;
            }
            let child = code + digit(mover) * POW3[i];
            *slot = if has_line(child, digit(mover)) {
                W - 1
            } else if (0..CELLS).all(|j| cell(child, j) != 0) {
                0
            } else {
                // The opponent's score, one ply further from the end, seen from our side.
                match self.value(child, mover.opponent()) {
                    v if v > 0 => -(v - 1),
                    v if v < 0 => -(v + 1),
                    _ => 0,
                }
            };
        }
        let best = row
            .iter()
            .copied()
            .filter(|&s| s != OCCUPIED)
            .max()
            .unwrap_or(0);
        self.values[key] = Some(best);
        self.moves[key] = row;
        best
    }
}

/// Answers a 3 × 3 position by lookup.
pub fn look_up(position: &Position, scoring: Scoring) -> Analysis {
    let code: usize = position
        .cells()
        .iter()
        .enumerate()
        .map(|(i, c)| c.map_or(0, |p| digit(p) * POW3[i]))
        .sum();
    let row = &table().moves[code * 2 + position.to_move() as usize];
    let empty = row.iter().filter(|&&s| s != OCCUPIED).count();
    let moves = row
        .iter()
        .enumerate()
        .filter(|&(_, &s)| s != OCCUPIED)
        .map(|(index, &s)| {
            MoveScore::new(
                index,
                Evaluation::Exact(i32::from(s)),
                scoring,
                Geometry::TIC_TAC_TOE,
                empty,
            )
        })
        .collect();
    Analysis::from_moves(moves, 0, None)
}

/// The expected line of best play from a 3 × 3 position starting with `first`: each reply is the
/// best move by depth score (lowest index among equals), until the game ends. Lookups only.
pub fn principal_variation(position: &Position, first: usize) -> Vec<usize> {
    let mut code: usize = position
        .cells()
        .iter()
        .enumerate()
        .map(|(i, c)| c.map_or(0, |p| digit(p) * POW3[i]))
        .sum();
    let mut mover = position.to_move();
    let mut line = vec![first];
    let mut next = first;
    let table = table();
    loop {
        code += digit(mover) * POW3[next];
        if has_line(code, digit(mover)) || (0..CELLS).all(|i| cell(code, i) != 0) {
            return line;
        }
        mover = mover.opponent();
        let row = &table.moves[code * 2 + mover as usize];
        next = (0..CELLS)
            .filter(|&i| row[i] != OCCUPIED)
            .fold(None, |best: Option<usize>, i| match best {
                Some(b) if row[b] >= row[i] => Some(b),
                _ => Some(i),
            })
            .expect("a board in play has a move");
        line.push(next);
    }
}
