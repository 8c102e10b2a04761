//! The tactics one and two moves ahead that every move table agrees with, whatever the budget
//! of the search that made it.
//!
//! A search cut by its budget reports estimates, and the big-board engine does not search every
//! move. [`settle`] then replaces the estimate of each move whose outcome a few plies decide with
//! that outcome, proven:
//!
//! - a move that wins at once is a win in 1 ply;
//! - a move after which the opponent wins at once is a loss in 2;
//! - a move after which neither side can complete a line any more is a draw;
//! - a move that leaves the mover a threat no reply stops (an open four, a double threat, a five
//!   the opponent may not block under renju, a Connect Four threat above the opponent's only
//!   move) is a win in 3;
//! - a move after which the opponent has such a move is a loss in 4.
//!
//! Each is exact: a win in 1 is the fastest there is, the opponent of a move that loses in 2 has
//! no faster win, and so on. Every check plays the game's own rule (exactly five, caro's blocked
//! fives, renju's forbidden points for black, gravity's landing cells). A value the engine proved
//! is kept as it is.

use crate::engine::analysis::{Analysis, Evaluation, MoveScore, Scoring, best_of};
use crate::engine::game::renju::foul;
use crate::engine::game::{Geometry, Player, Position, Rule};

/// The four line directions as (row, column) steps.
const DIRECTIONS: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

/// What a few plies prove about one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    /// The mover wins in this many plies.
    Win(i32),
    /// The mover loses in this many plies.
    Loss(i32),
    /// No side can complete a line any more (or the move fills the board).
    Draw,
}

/// Replaces every estimate in `analysis` that the tactics a few plies deep decide (see the
/// module docs) with its proven value, and settles the best move again. Proven values stay.
pub(crate) fn settle(position: &Position, analysis: &mut Analysis, scoring: Scoring) {
    if analysis.moves.iter().all(|m| m.value.is_exact()) {
        return;
    }
    let geometry = position.geometry();
    let mut board = Scratch::new(position);
    let lookout = Lookout::new(&board, position.to_move());
    let empty = position.empty_count();
    let mut changed = false;
    for entry in &mut analysis.moves {
        if entry.value.is_exact() {
            continue;
        }
        let Some(verdict) = lookout.judge(&mut board, entry.index) else {
            continue;
        };
        let score = match verdict {
            Verdict::Win(plies) => geometry.max_score() - plies,
            Verdict::Loss(plies) => plies - geometry.max_score(),
            Verdict::Draw => 0,
        };
        *entry = MoveScore::new(
            entry.index,
            Evaluation::Exact(score),
            scoring,
            geometry,
            empty,
        );
        changed = true;
    }
    if changed {
        // The engine's own choice stays while nothing beats it: among moves the tactics proved
        // equal, the lowest index would be an arbitrary pick (a corner, on a lost board).
        let top = analysis.moves[best_of(&analysis.moves)];
        let kept = analysis.best_move().value.score() >= top.value.score();
        let best = if kept { analysis.best } else { top.index };
        if best != analysis.best {
            analysis.best = best;
            analysis.pv = vec![best];
        }
    }
}

/// The board as the checks play on it: the position's cells, stones put down and taken back.
struct Scratch {
    geometry: Geometry,
    cells: Vec<Option<Player>>,
}

impl Scratch {
    fn new(position: &Position) -> Self {
        Self {
            geometry: position.geometry(),
            cells: position.cells().to_vec(),
        }
    }

    fn cols(&self) -> usize {
        self.geometry.cols()
    }

    /// The cell `steps` steps from `at` in `direction`, if on the board.
    fn step(&self, at: usize, (dr, dc): (isize, isize), steps: isize) -> Option<usize> {
        let cols = self.cols() as isize;
        let (r, c) = (
            at as isize / cols + dr * steps,
            at as isize % cols + dc * steps,
        );
        let inside = r >= 0 && c >= 0 && r < self.geometry.rows() as isize && c < cols;
        inside.then(|| (r * cols + c) as usize)
    }

    /// Stones of `player` in a row from `at` (excluded) in `direction`, and the cell past them.
    fn run(&self, at: usize, direction: (isize, isize), player: Player) -> (usize, Option<usize>) {
        let mut length = 0;
        loop {
            match self.step(at, direction, length as isize + 1) {
                Some(next) if self.cells[next] == Some(player) => length += 1,
                past => return (length, past),
            }
        }
    }

    /// Whether `player` putting a stone on the empty cell `at` completes a winning line under
    /// the rule (whether it may play there is [`legal`](Self::legal)'s question).
    fn wins_at(&self, at: usize, player: Player) -> bool {
        let k = self.geometry.k();
        let rule = self.geometry.rule();
        DIRECTIONS.iter().any(|&(dr, dc)| {
            let (ahead, past_ahead) = self.run(at, (dr, dc), player);
            let (behind, past_behind) = self.run(at, (-dr, -dc), player);
            let length = 1 + ahead + behind;
            let blocked = |past: Option<usize>| {
                past.is_some_and(|cell| self.cells[cell] == Some(player.opponent()))
            };
            length >= k
                && !(rule.exact(player) && length > k)
                && !(rule == Rule::Caro
                    && length == k
                    && blocked(past_ahead)
                    && blocked(past_behind))
        })
    }

    /// Whether a stone can be put on `at`: it is empty and, under gravity, rests on the bottom
    /// row or on a stone.
    fn playable(&self, at: usize) -> bool {
        self.cells[at].is_none()
            && (!self.geometry.is_gravity()
                || at + self.cols() >= self.cells.len()
                || self.cells[at + self.cols()].is_some())
    }

    /// Whether `player` may play `at`: playable, and under renju not forbidden to black.
    fn legal(&self, at: usize, player: Player) -> bool {
        let g = self.geometry;
        self.playable(at)
            && !(g.rule().forbids(player)
                && foul(g.rows(), g.cols(), &self.cells, player, at).is_some())
    }

    /// The cell directly above `at` on a gravity board: the one a stone on `at` makes playable.
    fn above(&self, at: usize) -> Option<usize> {
        (self.geometry.is_gravity() && at >= self.cols()).then(|| at - self.cols())
    }

    /// Every cell where `player` wins at once.
    fn wins_now(&self, player: Player) -> Vec<usize> {
        (0..self.cells.len())
            .filter(|&at| self.playable(at) && self.wins_at(at, player))
            .collect()
    }

    /// The cells where `player` wins at once after a stone of its own on `at`, given `before`,
    /// where it won at once just before (the stone is on the board).
    fn wins_after_own(&self, player: Player, before: &[usize], at: usize) -> Vec<usize> {
        let reach = self.geometry.k() as isize - 1;
        let mut wins: Vec<usize> = before.iter().copied().filter(|&c| c != at).collect();
        for direction in DIRECTIONS {
            for steps in (-reach..=reach).filter(|&s| s != 0) {
                if let Some(cell) = self.step(at, direction, steps) {
                    wins.push(cell);
                }
            }
        }
        wins.sort_unstable();
        wins.dedup();
        wins.retain(|&c| self.playable(c) && self.wins_at(c, player));
        wins
    }

    /// The cells where `player` wins at once after an opponent's stone on `at`, given `before`
    /// (the stone is on the board): an opponent's stone takes wins away (it fills the cell, or
    /// blocks a caro five's second end) and, under gravity, may lift the cell above it into play.
    fn wins_after_other(&self, player: Player, before: &[usize], at: usize) -> Vec<usize> {
        let mut wins: Vec<usize> = before
            .iter()
            .copied()
            .filter(|&c| c != at && self.wins_at(c, player))
            .collect();
        if let Some(up) = self.above(at)
            && self.playable(up)
            && self.wins_at(up, player)
            && !wins.contains(&up)
        {
            wins.push(up);
        }
        wins
    }

    /// With `defender` to move and no win of its own at once, whether `attacker`, who wins at
    /// once on `wins`, wins after every move the defender may play (and it has one).
    fn unstoppable(&mut self, attacker: Player, wins: &[usize]) -> bool {
        let defender = attacker.opponent();
        if wins.is_empty() {
            return false;
        }
        // The attacker's winning cells first: one of them is usually the defence.
        let order = wins
            .iter()
            .copied()
            .chain((0..self.cells.len()).filter(|c| !wins.contains(c)));
        // Legality (a renju foul check) is asked only of a reply that stops every win, and of
        // replies until the first legal one: the defender must have a move at all.
        let mut has_move = false;
        for reply in order {
            if !self.playable(reply) {
                continue;
            }
            self.cells[reply] = Some(defender);
            let stopped = self.wins_after_other(attacker, wins, reply).is_empty();
            self.cells[reply] = None;
            if stopped || !has_move {
                let legal = self.legal(reply, defender);
                if stopped && legal {
                    return false;
                }
                has_move |= legal;
            }
        }
        has_move
    }
}

/// What is known of the position before any move: each side's wins at once, the windows still
/// open to each, and the opponent's cells that make a four (`k - 1` in an open window).
struct Lookout {
    mover: Player,
    /// Cells where the mover, and where the opponent, win at once.
    mover_wins: Vec<usize>,
    opponent_wins: Vec<usize>,
    /// Windows (of `k` cells) free of the opponent's stones: the mover can still complete one.
    open_to_mover: usize,
    /// For each cell, the windows free of the mover's stones that hold it; and their number.
    open_to_opponent_through: Vec<usize>,
    open_to_opponent: usize,
    /// Windows with `k - 2` of the opponent's stones and none of the mover's: a stone more makes
    /// a four. Under gravity, the cells below the opponent's winning cells that are not in play.
    four_windows: Vec<&'static [usize]>,
    lifts: Vec<usize>,
}

impl Lookout {
    fn new(board: &Scratch, mover: Player) -> Self {
        let opponent = mover.opponent();
        let geometry = board.geometry;
        let k = geometry.k();
        let count =
            |line: &[usize], p: Player| line.iter().filter(|&&c| board.cells[c] == Some(p)).count();
        let mut open_to_mover = 0;
        let mut open_to_opponent = 0;
        let mut open_to_opponent_through = vec![0; board.cells.len()];
        let mut four_windows = Vec::new();
        for line in geometry.line_list() {
            let (mine, theirs) = (count(line, mover), count(line, opponent));
            if theirs == 0 {
                open_to_mover += 1;
            }
            if mine == 0 {
                open_to_opponent += 1;
                for &c in line {
                    open_to_opponent_through[c] += 1;
                }
                if theirs + 2 == k {
                    four_windows.push(line.as_slice());
                }
            }
        }
        let lifts = (0..board.cells.len())
            .filter(|&c| board.cells[c].is_none() && !board.playable(c))
            .filter(|&c| board.wins_at(c, opponent))
            .filter_map(|c| Some(c + board.cols()).filter(|&below| board.playable(below)))
            .collect();
        Self {
            mover,
            mover_wins: board.wins_now(mover),
            opponent_wins: board.wins_now(opponent),
            open_to_mover,
            open_to_opponent_through,
            open_to_opponent,
            four_windows,
            lifts,
        }
    }

    /// What a few plies prove about the mover playing `at`, if anything.
    fn judge(&self, board: &mut Scratch, at: usize) -> Option<Verdict> {
        if board.wins_at(at, self.mover) {
            return Some(Verdict::Win(1));
        }
        board.cells[at] = Some(self.mover);
        let verdict = self.after(board, at);
        board.cells[at] = None;
        verdict
    }

    /// The verdict with the mover's stone on `at` (not a win at once).
    fn after(&self, board: &mut Scratch, at: usize) -> Option<Verdict> {
        let opponent = self.mover.opponent();
        let opponent_wins = board.wins_after_other(opponent, &self.opponent_wins, at);
        if !opponent_wins.is_empty() {
            return Some(Verdict::Loss(2));
        }
        let dead =
            self.open_to_mover == 0 && self.open_to_opponent == self.open_to_opponent_through[at];
        if dead || !board.cells.iter().any(Option::is_none) {
            return Some(Verdict::Draw);
        }
        let mover_wins = board.wins_after_own(self.mover, &self.mover_wins, at);
        if board.unstoppable(self.mover, &mover_wins) {
            return Some(Verdict::Win(3));
        }
        self.opponent_breaks_through(board, at, &mover_wins)
            .then_some(Verdict::Loss(4))
    }

    /// With the mover's stone on `at` and the opponent to move, no win at once for either side
    /// but `mover_wins` for the mover: whether the opponent has a move after which it wins
    /// whatever the mover does.
    fn opponent_breaks_through(
        &self,
        board: &mut Scratch,
        at: usize,
        mover_wins: &[usize],
    ) -> bool {
        let opponent = self.mover.opponent();
        let mut candidates: Vec<usize> = self
            .four_windows
            .iter()
            .filter(|line| !line.contains(&at))
            .flat_map(|line| line.iter().copied())
            .chain(self.lifts.iter().copied())
            .chain(board.above(at))
            .filter(|&c| board.cells[c].is_none())
            .collect();
        candidates.sort_unstable();
        candidates.dedup();
        candidates.into_iter().any(|reply| {
            if !board.playable(reply) {
                return false;
            }
            board.cells[reply] = Some(opponent);
            let threats = board.wins_after_own(opponent, &[], reply);
            let broken = !threats.is_empty()
                && board
                    .wins_after_other(self.mover, mover_wins, reply)
                    .is_empty()
                && board.unstoppable(opponent, &threats);
            board.cells[reply] = None;
            broken && board.legal(reply, opponent)
        })
    }
}
