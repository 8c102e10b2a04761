//! The two kinds of tree the trace searches: a textbook tree, and the game tree of a position.

use std::hash::Hash;

use super::Leaf;
use super::tree::FlatTree;
use crate::engine::{Player, Position, Scoring, game_result};

/// What the search needs of a tree. Values are from MAX's point of view (the root's mover).
pub(super) trait Game {
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

impl Game for TreeGame {
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
        self.0.nodes[state].depth % 2 == 0
    }

    fn key(&self, _: &usize) -> Option<()> {
        None
    }

    fn label(&self, &state: &usize) -> Option<String> {
        Some(self.0.nodes[state].label.clone())
    }
}

/// The game tree of a position: MAX is the side to move at the root.
pub(super) struct PositionGame {
    pub root: Position,
    pub scoring: Scoring,
}

/// A node of a position's game tree: a position in play, or a finished game and its winner.
pub(super) enum PositionState {
    InPlay(Position),
    Over {
        winner: Option<Player>,
        to_move: Player,
    },
}

impl PositionGame {
    fn max_player(&self) -> Player {
        self.root.to_move()
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
    pub fn evaluate(&self, position: &Position) -> f64 {
        let max = self.max_player();
        let lines = position.geometry().line_list();
        let cells = position.cells();
        let open = |player: Player| {
            lines
                .iter()
                .filter(|line| line.iter().all(|&i| cells[i] != Some(player.opponent())))
                .count() as f64
        };
        (open(max) - open(max.opponent())) / (lines.len() as f64 + 1.0)
    }
}

impl Game for PositionGame {
    type State = PositionState;
    type Key = Position;

    fn root(&self) -> PositionState {
        PositionState::InPlay(self.root.clone())
    }

    fn leaf(&self, state: &PositionState, depth: u32, horizon: bool) -> Option<(f64, Leaf)> {
        match state {
            PositionState::Over { winner, .. } => Some(self.end_value(*winner, depth)),
            PositionState::InPlay(position) if horizon => {
                Some((self.evaluate(position), Leaf::Horizon))
            }
            PositionState::InPlay(_) => None,
        }
    }

    fn children(&self, state: &PositionState, ordering: bool) -> Vec<(usize, PositionState)> {
        let PositionState::InPlay(position) = state else {
            return Vec::new();
        };
        let mut moves = position.legal_moves();
        if ordering {
            moves.sort_by_cached_key(|&cell| order_key(position, cell));
        }
        moves
            .into_iter()
            .filter_map(|cell| {
                let played = position.try_play(cell).ok()?;
                let child = match played.next {
                    Some(next) => PositionState::InPlay(next),
                    None => PositionState::Over {
                        winner: played.result.and_then(|r| r.winner),
                        to_move: position.to_move().opponent(),
                    },
                };
                Some((cell, child))
            })
            .collect()
    }

    fn is_max(&self, state: &PositionState) -> bool {
        let to_move = match state {
            PositionState::InPlay(position) => position.to_move(),
            PositionState::Over { to_move, .. } => *to_move,
        };
        to_move == self.max_player()
    }

    fn key(&self, state: &PositionState) -> Option<Position> {
        match state {
            PositionState::InPlay(position) => Some(position.clone()),
            PositionState::Over { .. } => None,
        }
    }

    fn label(&self, _: &PositionState) -> Option<String> {
        None
    }
}

/// Move ordering, best first: a move that wins at once, then one that blocks the opponent's
/// win at once, then the cells on the most lines still open to the mover; ties by index.
fn order_key(position: &Position, cell: usize) -> (u8, usize, usize) {
    let geometry = position.geometry();
    let mover = position.to_move();
    let mut cells = position.cells().to_vec();
    let wins_for = |player: Player, cells: &mut Vec<Option<Player>>| {
        cells[cell] = Some(player);
        let won = game_result(geometry, cells).is_some_and(|r| r.winner == Some(player));
        cells[cell] = None;
        won
    };
    let class = if wins_for(mover, &mut cells) {
        0
    } else if wins_for(mover.opponent(), &mut cells) {
        1
    } else {
        2
    };
    let open = geometry
        .line_list()
        .iter()
        .filter(|line| line.contains(&cell))
        .filter(|line| line.iter().all(|&i| cells[i] != Some(mover.opponent())))
        .count();
    (class, usize::MAX - open, cell)
}
