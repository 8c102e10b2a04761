//! Fits the big-board evaluation's weights to game results (Texel-style logistic regression):
//! every quiet position of the games (see [`EvalFeatures::quiet`]) from the sixth stone to two
//! plies before the end, labelled with the result for the side to move. Prints the fit of the
//! engine's evaluation as it is, of the windows alone and of all the fitted terms (log loss on the games it was fitted to,
//! and on every fifth game, held out), and the fitted weights in the units of the engine's
//! evaluation, as `gomoku/eval.rs` writes them.
//!
//! ```sh
//! cargo run --release --example fit-eval -- OUT_DIR/games.sgf ...
//! ```
//!
//! The games are c-gomoku-cli's SGF (`scripts/match.sh` writes them to `OUT_DIR/games.sgf`), 15 ×
//! 15 and `k` = 5. BENCHMARKS-search.md, "The evaluation fitted to game results", has the run.

use minimax_move::engine::{EvalFeatures, Geometry, Player, evaluation_features};

/// The engine counts at most this many cells of one combination (`THREAT_CELLS_CAP`).
const CAP: u32 = 6;
/// Combinations fitted, by their index in [`EvalFeatures::threat_cells`]: for the side to move
/// three, open three and four (it wins with anything more); for the opponent also double three,
/// four-three and open four.
const OWN_THREATS: [usize; 3] = [1, 2, 4];
const OPPONENT_THREATS: [usize; 6] = [1, 2, 3, 4, 5, 6];
const NAMES: [&str; 8] = [
    "nothing",
    "a three",
    "an open three",
    "a double three",
    "a four",
    "a four-three",
    "an open four",
    "a five",
];

/// One position: its game, the result for the side to move (1, 0.5 or 0), its terms.
struct Sample {
    game: usize,
    result: f64,
    terms: Vec<f64>,
    evaluation: f64,
}

fn main() {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        eprintln!("usage: fit-eval GAMES.sgf ...");
        std::process::exit(2);
    }
    let geometry = Geometry::new(15, 15, 5).expect("15 x 15, k = 5");
    let mut samples = Vec::new();
    let mut games = 0;
    for path in &paths {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
            eprintln!("fit-eval: {path}: {e}");
            std::process::exit(1)
        });
        for game in text.split("(;").skip(1) {
            let Some((black_result, moves)) = parse_game(game) else {
                continue;
            };
            games += 1;
            collect(geometry, games, black_result, &moves, &mut samples);
        }
    }
    let (train, test): (Vec<&Sample>, Vec<&Sample>) =
        samples.iter().partition(|s| !held_out(s.game));
    println!(
        "{games} games, {} quiet positions ({} fitted, {} held out)",
        samples.len(),
        train.len(),
        test.len()
    );
    if train.is_empty() || test.is_empty() {
        eprintln!("too few games");
        std::process::exit(1);
    }
    // The engine's evaluation alone: its slope sets the units of the fitted weights.
    let current: Vec<Vec<f64>> = samples.iter().map(|s| vec![s.evaluation]).collect();
    let fit = Fit::new(&samples, &current);
    let slope = fit.weights[0];
    println!(
        "engine's evaluation: loss {:.5} fitted, {:.5} held out",
        fit.loss(true),
        fit.loss(false)
    );
    // Windows alone (the evaluation before the threat cells), fitted, for comparison.
    let windows: Vec<Vec<f64>> = samples.iter().map(|s| s.terms[..6].to_vec()).collect();
    let fit = Fit::new(&samples, &windows);
    println!(
        "windows alone:       loss {:.5} fitted, {:.5} held out",
        fit.loss(true),
        fit.loss(false)
    );
    let terms: Vec<Vec<f64>> = samples.iter().map(|s| s.terms.clone()).collect();
    let fit = Fit::new(&samples, &terms);
    println!(
        "fitted terms:        loss {:.5} fitted, {:.5} held out",
        fit.loss(true),
        fit.loss(false)
    );
    let units: Vec<i64> = fit
        .weights
        .iter()
        .map(|w| (w / slope).round() as i64)
        .collect();
    println!("in units of the engine's evaluation:");
    println!(
        "  windows of the side to move, 1 to 3 stones: {:?}",
        &units[0..3]
    );
    println!(
        "  windows of the opponent, 1 to 3 stones:     {:?}",
        &units[3..6]
    );
    for (i, &t) in OWN_THREATS.iter().enumerate() {
        println!(
            "  a cell where the side to move makes {}: {}",
            NAMES[t],
            units[6 + i]
        );
    }
    for (i, &t) in OPPONENT_THREATS.iter().enumerate() {
        println!(
            "  a cell where the opponent makes {}: {}",
            NAMES[t],
            units[9 + i]
        );
    }
    println!("  tempo: {}", (fit.bias / slope).round());
}

/// The result for black and the moves (column, row) of one game, if it has both.
fn parse_game(game: &str) -> Option<(f64, Vec<(usize, usize)>)> {
    let result = game.split("RE[").nth(1)?.chars().next()?;
    let black_result = match result {
        'B' => 1.0,
        'W' => 0.0,
        _ => 0.5,
    };
    let moves = game
        .split(';')
        .filter_map(|node| {
            let node = node.trim().as_bytes();
            let stone = node.len() >= 5 && (node[0] == b'B' || node[0] == b'W') && node[1] == b'[';
            let on_board = |b: u8| (b'a'..b'a' + 15).contains(&b);
            (stone && on_board(node[2]) && on_board(node[3]))
                .then(|| (usize::from(node[2] - b'a'), usize::from(node[3] - b'a')))
        })
        .collect();
    Some((black_result, moves))
}

/// Adds the quiet positions of one game to `samples`.
fn collect(
    geometry: Geometry,
    game: usize,
    black_result: f64,
    moves: &[(usize, usize)],
    samples: &mut Vec<Sample>,
) {
    let mut cells: Vec<Option<Player>> = vec![None; geometry.cells()];
    for (ply, &(col, row)) in moves.iter().enumerate() {
        let player = if ply % 2 == 0 { Player::X } else { Player::O };
        if ply >= 6
            && ply + 2 < moves.len()
            && let Some(f) = evaluation_features(geometry, &cells, player)
            && f.quiet
        {
            let result = if player == Player::X {
                black_result
            } else {
                1.0 - black_result
            };
            samples.push(Sample {
                game,
                result,
                terms: terms(&f),
                evaluation: f64::from(f.evaluation),
            });
        }
        cells[row * geometry.cols() + col] = Some(player);
    }
}

/// The fitted terms of a position: windows of one to three stones for each side, then the capped
/// counts of the combinations fitted.
fn terms(f: &EvalFeatures) -> Vec<f64> {
    let windows = (0..2).flat_map(|s| (1..=3).map(move |n| f64::from(f.windows[s][n])));
    let own = OWN_THREATS.iter().map(|&t| f.threat_cells[0][t]);
    let opponent = OPPONENT_THREATS.iter().map(|&t| f.threat_cells[1][t]);
    windows
        .chain(own.chain(opponent).map(|c| f64::from(c.min(CAP))))
        .collect()
}

/// A logistic regression of the results on some terms of the positions.
struct Fit<'a> {
    samples: &'a [Sample],
    terms: &'a [Vec<f64>],
    /// Per term, in its own units.
    weights: Vec<f64>,
    bias: f64,
}

impl<'a> Fit<'a> {
    /// Fits by gradient descent on the terms scaled to unit root mean square, on the positions
    /// not held out.
    fn new(samples: &'a [Sample], terms: &'a [Vec<f64>]) -> Self {
        let dims = terms[0].len();
        let scale: Vec<f64> = (0..dims)
            .map(|j| {
                let square: f64 = terms.iter().map(|t| t[j] * t[j]).sum();
                (square / terms.len() as f64).sqrt().max(1e-9)
            })
            .collect();
        let fitted: Vec<usize> = (0..samples.len())
            .filter(|&i| !held_out(samples[i].game))
            .collect();
        let mut w = vec![0.0; dims];
        let mut bias = 0.0;
        for _ in 0..4_000 {
            let mut gradient = vec![0.0; dims];
            let mut gradient_bias = 0.0;
            for &i in &fitted {
                let x = &terms[i];
                let z = bias + (0..dims).map(|j| w[j] * x[j] / scale[j]).sum::<f64>();
                let error = sigmoid(z) - samples[i].result;
                gradient_bias += error;
                for j in 0..dims {
                    gradient[j] += error * x[j] / scale[j];
                }
            }
            let n = fitted.len() as f64;
            bias -= 0.5 * gradient_bias / n;
            for j in 0..dims {
                w[j] -= 0.5 * gradient[j] / n;
            }
        }
        let weights = (0..dims).map(|j| w[j] / scale[j]).collect();
        Self {
            samples,
            terms,
            weights,
            bias,
        }
    }

    /// Mean log loss on the fitted positions (`true`) or on the held-out ones.
    fn loss(&self, fitted: bool) -> f64 {
        let (mut sum, mut n) = (0.0, 0.0);
        for (s, x) in self.samples.iter().zip(self.terms) {
            if held_out(s.game) == fitted {
                continue;
            }
            let z = self.bias + self.weights.iter().zip(x).map(|(w, x)| w * x).sum::<f64>();
            let p = sigmoid(z).clamp(1e-9, 1.0 - 1e-9);
            sum -= s.result * p.ln() + (1.0 - s.result) * (1.0 - p).ln();
            n += 1.0;
        }
        sum / n
    }
}

/// Every fifth game is held out of the fit.
fn held_out(game: usize) -> bool {
    game.is_multiple_of(5)
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}
