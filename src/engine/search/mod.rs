//! Alpha-beta search for boards other than 3 × 3 (placeholder: plain depth-limited negamax).

use super::{Analysis, Evaluation, MoveScore, Player, Position, Scoring, SearchLimits};

/// Searches a position that is not 3 × 3 tic-tac-toe.
pub fn analyze(position: &Position, scoring: Scoring, limits: &SearchLimits) -> Analysis {
    let geometry = position.geometry();
    let lines = geometry.lines();
    let mut cells = position.cells().to_vec();
    let empty = position.empty_count();
    let depth = limits.max_depth.unwrap_or(u32::MAX);
    let mut nodes = 0;
    let moves = position
        .empty_cells()
        .collect::<Vec<_>>()
        .into_iter()
        .map(|index| {
            cells[index] = Some(position.to_move());
            let v = child_value(
                &lines,
                &mut cells,
                position.to_move(),
                1,
                depth,
                &mut nodes,
                geometry.max_score(),
            );
            cells[index] = None;
            MoveScore::new(index, v, scoring, geometry, empty)
        })
        .collect();
    Analysis::from_moves(moves, nodes, Some(depth))
}

fn child_value(
    lines: &[Vec<usize>],
    cells: &mut [Option<Player>],
    mover: Player,
    ply: u32,
    depth: u32,
    nodes: &mut u64,
    w: i32,
) -> Evaluation {
    *nodes += 1;
    if lines
        .iter()
        .any(|l| l.iter().all(|&i| cells[i] == Some(mover)))
    {
        return Evaluation::Exact(w - ply as i32);
    }
    if cells.iter().all(Option::is_some) {
        return Evaluation::Exact(0);
    }
    if ply >= depth {
        return Evaluation::Heuristic(0.0);
    }
    let opponent = mover.opponent();
    let mut best: Option<Evaluation> = None;
    for i in 0..cells.len() {
        if cells[i].is_some() {
            continue;
        }
        cells[i] = Some(opponent);
        let v = child_value(lines, cells, opponent, ply + 1, depth, nodes, w);
        cells[i] = None;
        let better = match (best, v) {
            (None, _) => true,
            (Some(b), v) => value(v) > value(b),
        };
        if better {
            best = Some(v);
        }
    }
    match best.expect("a non-full board has a move") {
        Evaluation::Exact(s) => Evaluation::Exact(-s),
        Evaluation::Heuristic(h) => Evaluation::Heuristic(-h),
    }
}

fn value(e: Evaluation) -> f64 {
    match e {
        Evaluation::Exact(s) => f64::from(s),
        Evaluation::Heuristic(h) => h,
    }
}
