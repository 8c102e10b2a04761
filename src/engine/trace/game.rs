//! The two kinds of tree the trace searches: a textbook tree, and the game tree of a position.

use std::hash::Hash;

use super::Leaf;
use super::tree::FlatTree;
use crate::engine::analysis::Scoring;
use crate::engine::game::{Player, Position};

/// What the search needs of a tree. Values are from MAX's point of view (the root's mover).
pub(super) trait GameTree {
    /// A node of the tree.
    type State;
    /// What identifies a node for the transposition table.
    type Key: Hash + Eq;

    /// The root.
    fn root(&self) -> Self::State;
    /// The node's value if the search stops there: the end of the game or a textbook leaf, or
    /// the static evaluation when `horizon` (the depth limit) is reached.
    fn leaf(&self, state: &Self::State, depth: u32, horizon: bool) -> Option<(f64, Leaf)>;
    /// The children with the moves that lead to them, in search order.
    fn children(&self, state: &Self::State, ordering: bool) -> Vec<(usize, Self::State)>;
    /// Whether MAX moves at this node.
    fn is_max(&self, state: &Self::State) -> bool;
    /// The node's key in the transposition table; `None` when it has no transpositions.
    fn key(&self, state: &Self::State) -> Option<Self::Key>;
    /// The node's name, for textbook trees.
    fn label(&self, state: &Self::State) -> Option<String>;
}

/// A textbook tree; a state is a node's index in the flattened tree.
pub(super) struct TreeGame(pub FlatTree);

impl GameTree for TreeGame {
    type State = usize;
    type Key = ();

    fn root(&self) -> usize {
        0
    }

    fn leaf(&self, &state: &usize, _: u32, _: bool) -> Option<(f64, Leaf)> {
        self.0.nodes[state].value.map(|v| (v, Leaf::Given))
    }

    fn children(&self, &state: &usize, _: bool) -> Vec<(usize, usize)> {
        self.0.nodes[state]
            .children
            .iter()
            .copied()
            .enumerate()
            .collect()
    }

    fn is_max(&self, &state: &usize) -> bool {
        self.0.nodes[state].depth.is_multiple_of(2)
    }

    fn key(&self, _: &usize) -> Option<()> {
        None
    }

    fn label(&self, &state: &usize) -> Option<String> {
        Some(self.0.nodes[state].label.clone())
    }
}

/// The game tree of a position: MAX is the side to move at the root. Its own light nodes
/// (the cells and the side to move) and the lines through each cell, so that a node costs a
/// copy of the cells and a look at the lines through the last move, whatever the board's size.
pub(super) struct PositionGame {
    root: Position,
    scoring: Scoring,
    /// The indices in `geometry.line_list()` of the lines through each cell.
    lines_through: Vec<Vec<usize>>,
}

/// A node of a position's game tree: the cells, the side to move, and how the game ended if it
/// did (`Some(None)` for a draw).
pub(super) struct PositionState {
    cells: Vec<Option<Player>>,
    to_move: Player,
    over: Option<Option<Player>>,
}

impl PositionGame {
    /// The game tree of `root` under freestyle rules (k or more in a row wins).
    pub fn new(root: Position, scoring: Scoring) -> Self {
        let geometry = root.geometry();
        let mut lines_through = vec![Vec::new(); geometry.cells()];
        for (i, line) in geometry.line_list().iter().enumerate() {
            for &cell in line {
                lines_through[cell].push(i);
            }
        }
        Self {
            root,
            scoring,
            lines_through,
        }
    }

    fn max_player(&self) -> Player {
        self.root.to_move()
    }

    /// Whether `player` owns a whole line through `cell`.
    fn wins_through(&self, cells: &[Option<Player>], cell: usize, player: Player) -> bool {
        let lines = self.root.geometry().line_list();
        self.lines_through[cell]
            .iter()
            .any(|&l| lines[l].iter().all(|&i| cells[i] == Some(player)))
    }

    /// The finished game's value at `depth` plies from the root.
    fn end_value(&self, winner: Option<Player>, depth: u32) -> (f64, Leaf) {
        let w = f64::from(self.root.geometry().max_score());
        let d = f64::from(depth);
        match (winner, self.scoring) {
            (None, _) => (0.0, Leaf::Draw),
            (Some(p), Scoring::Classic) if p == self.max_player() => (10.0, Leaf::Win),
            (Some(_), Scoring::Classic) => (-10.0, Leaf::Loss),
            (Some(p), Scoring::Depth) if p == self.max_player() => (w - d, Leaf::Win),
            (Some(_), Scoring::Depth) => (d - w, Leaf::Loss),
        }
    }

    /// The static evaluation: the lines still open to MAX (no mark of MIN's on them) minus those
    /// open to MIN, divided by one more than the number of lines, so that it stays strictly
    /// between -1 and 1 and never looks like a proven result.
    fn evaluate(&self, cells: &[Option<Player>]) -> f64 {
        let max = self.max_player();
        let lines = self.root.geometry().line_list();
        let open = |player: Player| {
            lines
                .iter()
                .filter(|line| line.iter().all(|&i| cells[i] != Some(player.opponent())))
                .count() as f64
        };
        (open(max) - open(max.opponent())) / (lines.len() as f64 + 1.0)
    }

    /// Move ordering, best first: a move that wins at once, then one that blocks the
    /// opponent's win at once, then the cells on the most lines still open to the mover; ties
    /// by index.
    fn order_key(&self, state: &PositionState, cell: usize) -> (u8, usize, usize) {
        let mover = state.to_move;
        let mut cells = state.cells.clone();
        let mut wins_for = |player: Player| {
            cells[cell] = Some(player);
            let won = self.wins_through(&cells, cell, player);
            cells[cell] = None;
            won
        };
        let class = if wins_for(mover) {
            0
        } else if wins_for(mover.opponent()) {
            1
        } else {
            2
        };
        let lines = self.root.geometry().line_list();
        let open = self.lines_through[cell]
            .iter()
            .filter(|&&l| {
                lines[l]
                    .iter()
                    .all(|&i| state.cells[i] != Some(mover.opponent()))
            })
            .count();
        (class, usize::MAX - open, cell)
    }
}

impl GameTree for PositionGame {
    type State = PositionState;
    type Key = Vec<Option<Player>>;

    fn root(&self) -> PositionState {
        PositionState {
            cells: self.root.cells().to_vec(),
            to_move: self.root.to_move(),
            over: None,
        }
    }

    fn leaf(&self, state: &PositionState, depth: u32, horizon: bool) -> Option<(f64, Leaf)> {
        match state.over {
            Some(winner) => Some(self.end_value(winner, depth)),
            None if horizon => Some((self.evaluate(&state.cells), Leaf::Horizon)),
            None => None,
        }
    }

    fn children(&self, state: &PositionState, ordering: bool) -> Vec<(usize, PositionState)> {
        if state.over.is_some() {
            return Vec::new();
        }
        let mut moves = self.root.geometry().playable_cells(&state.cells);
        if ordering {
            moves.sort_by_cached_key(|&cell| self.order_key(state, cell));
        }
        moves
            .into_iter()
            .map(|cell| {
                let mut cells = state.cells.clone();
                cells[cell] = Some(state.to_move);
                let over = if self.wins_through(&cells, cell, state.to_move) {
                    Some(Some(state.to_move))
                } else if cells.iter().all(Option::is_some) {
                    Some(None)
                } else {
                    None
                };
                let child = PositionState {
                    cells,
                    to_move: state.to_move.opponent(),
                    over,
                };
                (cell, child)
            })
            .collect()
    }

    fn is_max(&self, state: &PositionState) -> bool {
        state.to_move == self.max_player()
    }

    fn key(&self, state: &PositionState) -> Option<Vec<Option<Player>>> {
        state.over.is_none().then(|| state.cells.clone())
    }

    fn label(&self, _: &PositionState) -> Option<String> {
        None
    }
}
