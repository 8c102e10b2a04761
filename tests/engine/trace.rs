//! The traced search against an independent minimax and alpha-beta written here: on random
//! small positions (m,n,k and gravity) and random textbook trees, the same root value, the same
//! node counts, the same cutoffs under the same order, and α ≥ β at every recorded cutoff. Also
//! the textbook tree A…G, AIMA's tree, the empty board's 549,946 nodes and the size limits.

use minimax_move::engine::{
    Algorithm, CutoffBound, TraceError, TraceInput, TraceNode, TraceOptions, Tree,
};

use crate::door::trace;
use minimax_move::engine::{Geometry, Player, Position, Scoring};

use crate::oracle::{Shape, Win};

/// A small deterministic generator (xorshift64*), so that a failure replays.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

// ------------------------------------------------------------------ the oracle's own game

/// A board as the oracle sees it: 0 empty, 1 and 2 the two sides.
#[derive(Clone)]
struct Board {
    rows: usize,
    cols: usize,
    k: usize,
    gravity: bool,
    cells: Vec<u8>,
}

impl Board {
    /// Whether `side` has k in a row through `cell`, by the rule checker of tests/common.
    fn wins_through(&self, cell: usize, side: u8) -> bool {
        let shape = Shape::free(self.rows, self.cols, self.k);
        shape.wins(&self.cells, cell, (side, 3 - side), Win::AtLeast)
    }

    fn moves(&self) -> Vec<usize> {
        (0..self.cells.len())
            .filter(|&i| self.cells[i] == 0)
            .filter(|&i| {
                !self.gravity || i + self.cols >= self.cells.len() || self.cells[i + self.cols] != 0
            })
            .collect()
    }

    /// All lines of k cells, for the static evaluation.
    fn lines(&self) -> Vec<Vec<usize>> {
        let mut lines = Vec::new();
        for r in 0..self.rows as isize {
            for c in 0..self.cols as isize {
                for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                    let cells: Vec<(isize, isize)> = (0..self.k as isize)
                        .map(|i| (r + i * dr, c + i * dc))
                        .collect();
                    if cells.iter().all(|&(rr, cc)| {
                        rr >= 0 && cc >= 0 && rr < self.rows as isize && cc < self.cols as isize
                    }) {
                        lines.push(
                            cells
                                .iter()
                                .map(|&(rr, cc)| rr as usize * self.cols + cc as usize)
                                .collect(),
                        );
                    }
                }
            }
        }
        lines
    }
}

/// One cutoff as the oracle records it: the moves from the root to the node, and the moves it
/// left unsearched.
type Cut = (Vec<usize>, Vec<usize>);

struct Oracle {
    max: u8,
    w: f64,
    classic: bool,
    max_depth: Option<u32>,
    lines: Vec<Vec<usize>>,
    nodes: u64,
    cuts: Vec<Cut>,
}

impl Oracle {
    fn new(board: &Board, max: u8, classic: bool, max_depth: Option<u32>) -> Self {
        Self {
            max,
            w: (board.cells.len() + 1) as f64,
            classic,
            max_depth,
            lines: board.lines(),
            nodes: 0,
            cuts: Vec::new(),
        }
    }

    fn end(&self, winner: u8, depth: u32) -> f64 {
        let d = f64::from(depth);
        match (winner == self.max, self.classic) {
            (true, true) => 10.0,
            (false, true) => -10.0,
            (true, false) => self.w - d,
            (false, false) => d - self.w,
        }
    }

    fn evaluate(&self, board: &Board) -> f64 {
        let open = |side: u8| {
            self.lines
                .iter()
                .filter(|line| line.iter().all(|&i| board.cells[i] != 3 - side))
                .count() as f64
        };
        (open(self.max) - open(3 - self.max)) / (self.lines.len() as f64 + 1.0)
    }

    /// Plain minimax: the value of `board` with `side` to move after `last` was played.
    fn minimax(&mut self, board: &mut Board, side: u8, depth: u32, last: Option<usize>) -> f64 {
        self.nodes += 1;
        if let Some(v) = self.leaf(board, side, depth, last) {
            return v;
        }
        let mut values = Vec::new();
        for m in board.moves() {
            board.cells[m] = side;
            values.push(self.minimax(board, 3 - side, depth + 1, Some(m)));
            board.cells[m] = 0;
        }
        let pick = if side == self.max { f64::max } else { f64::min };
        values.into_iter().reduce(pick).expect("a move")
    }

    fn leaf(&self, board: &Board, side: u8, depth: u32, last: Option<usize>) -> Option<f64> {
        if let Some(m) = last
            && board.wins_through(m, 3 - side)
        {
            return Some(self.end(3 - side, depth));
        }
        if board.moves().is_empty() {
            return Some(0.0);
        }
        (self.max_depth == Some(depth)).then(|| self.evaluate(board))
    }

    /// Alpha-beta as AIMA writes it (fail-soft), recording each cutoff that leaves moves.
    #[allow(clippy::too_many_arguments)]
    fn alphabeta(
        &mut self,
        board: &mut Board,
        side: u8,
        depth: u32,
        last: Option<usize>,
        mut alpha: f64,
        mut beta: f64,
        path: &mut Vec<usize>,
    ) -> f64 {
        self.nodes += 1;
        if let Some(v) = self.leaf(board, side, depth, last) {
            return v;
        }
        let moves = board.moves();
        let maximising = side == self.max;
        let mut v = if maximising {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        for (i, &m) in moves.iter().enumerate() {
            board.cells[m] = side;
            path.push(m);
            let child = self.alphabeta(board, 3 - side, depth + 1, Some(m), alpha, beta, path);
            path.pop();
            board.cells[m] = 0;
            if maximising {
                v = v.max(child);
                if v >= beta && i + 1 < moves.len() {
                    self.cuts.push((path.clone(), moves[i + 1..].to_vec()));
                    return v;
                }
                alpha = alpha.max(v);
            } else {
                v = v.min(child);
                if v <= alpha && i + 1 < moves.len() {
                    self.cuts.push((path.clone(), moves[i + 1..].to_vec()));
                    return v;
                }
                beta = beta.min(v);
            }
        }
        v
    }
}

/// Every cutoff in a traced tree, with the path to its node, in the order the search made them
/// (a node's cutoff comes after its children's); asserts α ≥ β at each.
fn cutoffs(node: &TraceNode, path: &mut Vec<usize>, out: &mut Vec<Cut>) {
    for child in &node.children {
        path.push(child.mv.expect("a child has a move"));
        cutoffs(child, path, out);
        path.pop();
    }
    if let Some(cut) = &node.cutoff {
        assert!(
            cut.alpha >= cut.beta,
            "α ≥ β at the cutoff at {path:?}: {cut:?}"
        );
        let expected = if node.depth.is_multiple_of(2) {
            CutoffBound::Beta
        } else {
            CutoffBound::Alpha
        };
        assert_eq!(cut.by, expected, "a MAX node is cut by β, a MIN node by α");
        out.push((path.clone(), cut.pruned.clone()));
    }
}

/// Asserts two lists of cutoffs are equal, naming the first difference only.
fn same_cuts(found: &[Cut], expected: &[Cut], what: &str) {
    let first = found.iter().zip(expected).position(|(a, b)| a != b);
    assert!(
        found.len() == expected.len() && first.is_none(),
        "{what}: {} cutoffs traced, {} expected; first difference at {first:?}: {:?} vs {:?}",
        found.len(),
        expected.len(),
        first.map(|i| &found[i]),
        first.map(|i| &expected[i]),
    );
}

fn count_listed(node: &TraceNode) -> u64 {
    1 + node.children.iter().map(count_listed).sum::<u64>()
}

fn options(algorithm: Algorithm) -> TraceOptions {
    TraceOptions {
        algorithm,
        max_listed: 10_000,
        ..TraceOptions::default()
    }
}

/// A random legal position on `board`'s geometry, reached by `plies` random moves, or `None`
/// when the game ended on the way.
fn random_position(rng: &mut Rng, template: &Board, plies: usize) -> Option<(Board, u8)> {
    let mut board = template.clone();
    let mut side = 1 + rng.below(2) as u8;
    for _ in 0..plies {
        let moves = board.moves();
        let m = moves[rng.below(moves.len())];
        board.cells[m] = side;
        if board.wins_through(m, side) || board.moves().is_empty() {
            return None;
        }
        side = 3 - side;
    }
    Some((board, side))
}

fn to_position(board: &Board, side: u8) -> Position {
    let geometry = Geometry::new(board.rows as u64, board.cols as u64, board.k as u64)
        .unwrap()
        .with_gravity(board.gravity)
        .unwrap();
    let cells = board
        .cells
        .iter()
        .map(|&c| match c {
            1 => Some(Player::X),
            2 => Some(Player::O),
            _ => None,
        })
        .collect();
    let player = if side == 1 { Player::X } else { Player::O };
    Position::new(geometry, cells, Some(player)).expect("a legal position")
}

#[test]
fn random_positions_match_an_independent_minimax_and_alpha_beta() {
    let mut rng = Rng(0x7ace_5eed);
    let templates = [
        (3, 3, 3, false, 1),
        (3, 4, 3, false, 4),
        (4, 4, 3, false, 8),
        (4, 3, 3, true, 3),
        (4, 4, 4, true, 7),
    ];
    let mut checked = 0;
    while checked < 60 {
        let (rows, cols, k, gravity, min_plies) = templates[checked % templates.len()];
        let template = Board {
            rows,
            cols,
            k,
            gravity,
            cells: vec![0; rows * cols],
        };
        let plies = min_plies + rng.below(3);
        let Some((mut board, side)) = random_position(&mut rng, &template, plies) else {
            continue;
        };
        let classic = rng.below(2) == 0;
        let max_depth = (rng.below(3) == 0).then(|| 1 + rng.below(3) as u32);
        let position = to_position(&board, side);
        let input = TraceInput::Position(position.clone());
        let scoring = if classic {
            Scoring::Classic
        } else {
            Scoring::Depth
        };
        let traced = |algorithm| {
            trace(
                &input,
                &TraceOptions {
                    scoring,
                    max_depth,
                    ..options(algorithm)
                },
            )
            .expect("traced")
        };

        let mut oracle = Oracle::new(&board, side, classic, max_depth);
        let value = oracle.minimax(&mut board, side, 0, None);
        let minimax = traced(Algorithm::Minimax);
        let what = format!(
            "{position} ({rows}×{cols}, k={k}, gravity {gravity}, classic {classic}, depth {max_depth:?})"
        );
        assert_eq!(minimax.value, value, "minimax value of {what}");
        assert_eq!(minimax.nodes, oracle.nodes, "minimax nodes of {what}");
        assert_eq!(minimax.counts.minimax, Some(oracle.nodes), "{what}");

        let mut oracle = Oracle::new(&board, side, classic, max_depth);
        let ab_value = oracle.alphabeta(
            &mut board,
            side,
            0,
            None,
            f64::NEG_INFINITY,
            f64::INFINITY,
            &mut Vec::new(),
        );
        let alphabeta = traced(Algorithm::AlphaBeta);
        assert_eq!(
            ab_value, value,
            "the oracle's alpha-beta agrees with its minimax on {what}"
        );
        assert_eq!(alphabeta.value, value, "alpha-beta value of {what}");
        assert_eq!(alphabeta.nodes, oracle.nodes, "alpha-beta nodes of {what}");
        if alphabeta.summarised {
            // Too many nodes to list them all (the listing's cap is 10,000): pick another.
            continue;
        }
        assert_eq!(
            count_listed(&alphabeta.root),
            alphabeta.nodes,
            "every node listed: {what}"
        );
        let mut cuts = Vec::new();
        cutoffs(&alphabeta.root, &mut Vec::new(), &mut cuts);
        same_cuts(&cuts, &oracle.cuts, &format!("alpha-beta on {what}"));
        assert_eq!(alphabeta.cutoffs, cuts.len() as u64, "{what}");

        let table = traced(Algorithm::AlphaBetaTable);
        assert_eq!(table.value, value, "alpha-beta with a table on {what}");
        assert!(
            table.nodes <= alphabeta.nodes,
            "the table never adds nodes: {what}"
        );
        let mut cuts = Vec::new();
        cutoffs(&table.root, &mut Vec::new(), &mut cuts);

        for ordered in [Algorithm::AlphaBeta, Algorithm::AlphaBetaTable] {
            let ordered = trace(
                &input,
                &TraceOptions {
                    scoring,
                    max_depth,
                    ordering: true,
                    ..options(ordered)
                },
            )
            .unwrap();
            assert_eq!(ordered.value, value, "ordered search on {what}");
            let mut cuts = Vec::new();
            cutoffs(&ordered.root, &mut Vec::new(), &mut cuts);
        }
        checked += 1;
    }
}

/// A random tree: up to `depth` levels, 1 to 3 children, leaves from -9 to 9 (ties included).
fn random_tree(rng: &mut Rng, depth: usize) -> Tree {
    if depth == 0 || (depth < 4 && rng.below(4) == 0) {
        return Tree::Leaf(rng.below(19) as f64 - 9.0);
    }
    Tree::Node(
        (0..1 + rng.below(3))
            .map(|_| random_tree(rng, depth - 1))
            .collect(),
    )
}

/// The oracle on a textbook tree: (value, nodes, cutoffs) under minimax or alpha-beta.
fn tree_oracle(tree: &Tree, prune: bool) -> (f64, u64, Vec<Cut>) {
    fn go(
        tree: &Tree,
        max: bool,
        mut alpha: f64,
        mut beta: f64,
        prune: bool,
        path: &mut Vec<usize>,
        out: &mut (u64, Vec<Cut>),
    ) -> f64 {
        out.0 += 1;
        let children = match tree {
            Tree::Leaf(v) => return *v,
            Tree::Node(children) => children,
        };
        let mut v = if max {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        for (i, child) in children.iter().enumerate() {
            path.push(i);
            let c = go(child, !max, alpha, beta, prune, path, out);
            path.pop();
            v = if max { v.max(c) } else { v.min(c) };
            if !prune {
                continue;
            }
            let crossed = if max { v >= beta } else { v <= alpha };
            if crossed && i + 1 < children.len() {
                out.1
                    .push((path.clone(), (i + 1..children.len()).collect()));
                return v;
            }
            if max {
                alpha = alpha.max(v);
            } else {
                beta = beta.min(v);
            }
        }
        v
    }
    let mut out = (0, Vec::new());
    let v = go(
        tree,
        true,
        f64::NEG_INFINITY,
        f64::INFINITY,
        prune,
        &mut Vec::new(),
        &mut out,
    );
    (v, out.0, out.1)
}

#[test]
fn random_trees_match_an_independent_minimax_and_alpha_beta() {
    let mut rng = Rng(0x0dd_7ee5);
    for round in 0..300 {
        let tree = random_tree(&mut rng, 1 + round % 6);
        let input = TraceInput::Tree(tree.clone());
        let (value, nodes, _) = tree_oracle(&tree, false);
        let (ab_value, ab_nodes, cuts) = tree_oracle(&tree, true);
        assert_eq!(ab_value, value, "the oracle agrees with itself on {tree:?}");
        let minimax = trace(&input, &options(Algorithm::Minimax)).unwrap();
        assert_eq!(
            (minimax.value, minimax.nodes),
            (value, nodes),
            "minimax on {tree:?}"
        );
        for algorithm in [Algorithm::AlphaBeta, Algorithm::AlphaBetaTable] {
            let traced = trace(&input, &options(algorithm)).unwrap();
            assert_eq!(
                (traced.value, traced.nodes),
                (value, ab_nodes),
                "{algorithm:?} on {tree:?}"
            );
            let mut found = Vec::new();
            cutoffs(&traced.root, &mut Vec::new(), &mut found);
            same_cuts(&found, &cuts, &format!("{algorithm:?} on {tree:?}"));
            assert_eq!(traced.counts.minimax, Some(nodes));
            assert_eq!(traced.counts.alphabeta, Some(ab_nodes));
        }
    }
}

fn textbook() -> Tree {
    Tree::Node(vec![
        Tree::Node(vec![
            Tree::Node(vec![Tree::Leaf(-1.0), Tree::Leaf(4.0)]),
            Tree::Node(vec![Tree::Leaf(2.0), Tree::Leaf(6.0)]),
        ]),
        Tree::Node(vec![
            Tree::Node(vec![Tree::Leaf(-3.0), Tree::Leaf(-5.0)]),
            Tree::Node(vec![Tree::Leaf(0.0), Tree::Leaf(7.0)]),
        ]),
    ])
}

#[test]
fn the_textbook_tree_has_root_value_4_and_alpha_beta_prunes_g() {
    let tree = textbook();
    assert_eq!(
        Tree::from_leaves(2, &[-1.0, 4.0, 2.0, 6.0, -3.0, -5.0, 0.0, 7.0]).unwrap(),
        tree
    );
    assert_eq!(Tree::parse("(((-1 4)(2 6))((-3 -5)(0 7)))").unwrap(), tree);
    let input = TraceInput::Tree(tree);
    let minimax = trace(&input, &options(Algorithm::Minimax)).unwrap();
    assert_eq!(minimax.value, 4.0);
    assert_eq!(minimax.best, Some(0), "MAX moves to B");
    let root = &minimax.root;
    let value_of = |path: &[usize]| path.iter().fold(root, |node, &i| &node.children[i]).value;
    let labels: Vec<_> = root
        .children
        .iter()
        .map(|c| c.label.clone().unwrap())
        .collect();
    assert_eq!(labels, ["B", "C"]);
    assert_eq!(root.label.as_deref(), Some("A"));
    assert_eq!(
        [
            value_of(&[0]),
            value_of(&[1]),
            value_of(&[0, 0]),
            value_of(&[0, 1]),
            value_of(&[1, 0]),
            value_of(&[1, 1])
        ],
        [4.0, -3.0, 4.0, 6.0, -3.0, 7.0],
        "B, C, D, E, F, G"
    );
    assert_eq!(minimax.nodes, 15);

    let alphabeta = trace(&input, &options(Algorithm::AlphaBeta)).unwrap();
    assert_eq!(alphabeta.value, 4.0);
    assert_eq!(
        alphabeta.nodes, 12,
        "G and its two leaves are never visited"
    );
    let c = &alphabeta.root.children[1];
    assert_eq!(c.label.as_deref(), Some("C"));
    assert_eq!(
        (c.alpha, c.beta),
        (4.0, f64::INFINITY),
        "C is entered with α = 4"
    );
    let cut = c.cutoff.as_ref().expect("C is cut off");
    assert_eq!(
        (cut.by, cut.alpha, cut.beta, cut.pruned.clone()),
        (CutoffBound::Alpha, 4.0, -3.0, vec![1])
    );
    assert_eq!(alphabeta.cutoffs, 1);
    let e = &alphabeta.root.children[0].children[1];
    assert_eq!(
        (e.label.as_deref(), e.alpha, e.beta),
        (Some("E"), f64::NEG_INFINITY, 4.0)
    );
}

#[test]
fn aimas_tree_in_parenthesised_text_has_root_value_3() {
    let tree = Tree::parse("((3 12 8)(2 4 6)(14 5 2))").unwrap();
    assert_eq!(
        Tree::parse("((3)(12)(8))").unwrap(),
        Tree::parse("(3, 12, 8)").unwrap()
    );
    let alphabeta = trace(&TraceInput::Tree(tree), &options(Algorithm::AlphaBeta)).unwrap();
    assert_eq!(alphabeta.value, 3.0);
    assert_eq!(
        alphabeta.root.children[1].cutoff.as_ref().unwrap().pruned,
        [1, 2],
        "C stops after 2"
    );
}

#[test]
fn plain_minimax_on_the_empty_board_visits_the_whole_game_tree() {
    let empty = Position::new(Geometry::TIC_TAC_TOE, vec![None; 9], None).unwrap();
    let input = TraceInput::Position(empty);
    let traced = trace(
        &input,
        &TraceOptions {
            max_listed: 100,
            ..TraceOptions::default()
        },
    )
    .unwrap();
    assert_eq!(traced.nodes, 549_946);
    assert_eq!(traced.counts.minimax, Some(549_946));
    assert_eq!(traced.value, 0.0, "a draw");
    assert!(
        traced.counts.alphabeta < Some(549_946)
            && traced.counts.alphabeta_table < traced.counts.alphabeta
    );
    assert_eq!(
        traced.root.nodes, 549_946,
        "the root's subtree count is exact"
    );
    assert_eq!(
        (traced.listed, traced.listed_depth, traced.summarised),
        (82, 2, true),
        "1 + 9 + 72 listed"
    );
    assert!(
        traced
            .root
            .children
            .iter()
            .all(|c| c.children.iter().all(|g| g.summarised))
    );
    let per_child: u64 = traced.root.children.iter().map(|c| c.nodes).sum();
    assert_eq!(per_child + 1, 549_946);
    assert_eq!(traced.alternatives.len(), 9);
    assert!(traced.alternatives.iter().all(|a| a.value == 0.0));
}

#[test]
fn a_search_past_the_work_limit_is_refused_naming_the_limit() {
    let empty = Position::new(Geometry::new(4, 4, 4).unwrap(), vec![None; 16], None).unwrap();
    let error = trace(
        &TraceInput::Position(empty.clone()),
        &TraceOptions {
            max_work: 10_000,
            ..TraceOptions::default()
        },
    )
    .unwrap_err();
    assert_eq!(
        error,
        TraceError::TooLarge {
            limit: 10_000,
            algorithm: Algorithm::Minimax
        }
    );
    assert!(error.to_string().contains("10000"), "{error}");
    // A depth limit makes it traceable; the minimax count may still pass the limit.
    let limited = trace(
        &TraceInput::Position(empty),
        &TraceOptions {
            max_depth: Some(2),
            algorithm: Algorithm::AlphaBeta,
            ..TraceOptions::default()
        },
    )
    .unwrap();
    assert!(limited.estimate);
    assert_eq!(limited.counts.minimax, Some(1 + 16 + 16 * 15));
}

#[test]
fn textbook_trees_over_the_limits_are_refused() {
    assert!(Tree::from_leaves(2, &vec![0.0; 8192]).is_err());
    assert!(Tree::from_leaves(2, &[1.0, 2.0, 3.0]).is_err());
    assert!(Tree::from_leaves(1, &[1.0]).is_err());
    let deep = format!("{}1 2{}", "(".repeat(30), ")".repeat(30));
    assert!(Tree::parse(&deep).is_err());
    for bad in ["", "(", "()", "(1 2", "(1 x)", "(1)(2)", "((1) 2))"] {
        assert!(Tree::parse(bad).is_err(), "{bad:?}");
    }
}
