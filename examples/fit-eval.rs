//! Fits the big-board evaluation's weights (Texel-style logistic regression) to game results, or
//! to a stronger engine's judgement of the positions.
//!
//! - **Game results** (the default): every quiet position of the games (see
//!   [`EvalFeatures::quiet`]) from the sixth stone to two plies before the end, labelled with the
//!   result for the side to move.
//! - **Labels** (`--labels LABELS.tsv`, from `scripts/rapfi-label.py`): the quiet positions
//!   listed there (game number, counted from 0 over the files given, ply, value for the side to
//!   move; a fourth field, Rapfi's move, is ignored), each labelled with the win probability
//!   `sigmoid(value / 400)`. The tool prints how well those values predict the games' results
//!   on the held-out games, next to the engine's evaluation (of the scales 100 to 1,000, 400
//!   predicted the results best).
//! - **Moves** (`--moves LABELS.tsv`, the same file with Rapfi's moves): the terms are fitted so
//!   that, one ply down, Rapfi's move is the best-valued of a quiet position's candidates (a
//!   conditional logit over them: the Bonanza method of computer shogi), together with the game
//!   results of the quiet positions, which set the scale (the two mean log losses summed). See
//!   [`fit_to_moves`]. The engine does not play with these weights: they played no better.
//!
//! Prints the log loss of the engine's evaluation as it is, of the windows alone and of all the
//! fitted terms (on the games fitted and on every fifth game, held out), and the fitted weights in
//! the units of the engine's evaluation, as `gomoku/eval.rs` writes them. `--pairs` adds the
//! pair classes (`pair_class` in `gomoku/eval.rs`, not in the evaluation) as terms. The fit is
//! Newton's method with a slight ridge: the terms overlap (every threat cell is also in a pair
//! class), and the plain gradient descent used before did not converge on them.
//!
//! ```sh
//! cargo run --release --example fit-eval -- [--pairs] [--labels LABELS.tsv] GAMES.sgf ...
//! cargo run --release --example fit-eval -- --moves LABELS.tsv GAMES.sgf ...
//! ```
//!
//! The games are c-gomoku-cli's SGF (`scripts/match.sh` writes them to `OUT_DIR/games.sgf`), 15 ×
//! 15 and `k` = 5. BENCHMARKS-search.md, "The evaluation fitted to game results", "Pair
//! classes, Rapfi as a teacher, cheaper threat checks" and "The evaluation fitted to Rapfi's
//! moves", has the runs.

use minimax_move::engine::{EvalFeatures, Geometry, Player, evaluation_features};

/// The engine counts at most this many cells of one combination (`THREAT_CELLS_CAP`).
const CAP: u32 = 6;
/// Combinations fitted, by their index in [`EvalFeatures::threat_cells`]: for the side to move
/// three, open three and four (it wins with anything more); for the opponent also double three,
/// four-three and open four.
const OWN_THREATS: [usize; 3] = [1, 2, 4];
const OPPONENT_THREATS: [usize; 6] = [1, 2, 3, 4, 5, 6];
/// Terms before the pair classes: six window counts and the combinations above.
const FIRST_PAIR: usize = 15;
/// Pair classes fitted with `--pairs`: every class whose strongest line makes a two or better,
/// short of a five.
const PAIRS: std::ops::Range<usize> = 1..28;
/// A term seen in fewer positions than this is left out of the fit (its weight stays 0).
const MIN_SUPPORT: usize = 200;
/// Scale of the labels' values: the label is `sigmoid(value / LABEL_SCALE)`.
const LABEL_SCALE: f64 = 400.0;
/// The ridge penalty of the fit, on terms scaled to unit root mean square.
const RIDGE: f64 = 1e-4;
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

/// One position: its game, its label for the side to move (the result, 1, 0.5 or 0, or a win
/// probability), its terms and the engine's evaluation.
#[derive(Clone)]
struct Sample {
    game: usize,
    label: f64,
    terms: Vec<f64>,
    evaluation: f64,
}

/// One game: the result for black and the moves (column, row).
struct Game {
    black_result: f64,
    moves: Vec<(usize, usize)>,
}

fn main() {
    let mut pairs = false;
    let mut labels = None;
    let mut moves = None;
    let mut paths = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--pairs" => pairs = true,
            "--labels" => labels = args.next(),
            "--moves" => moves = args.next(),
            _ => paths.push(arg),
        }
    }
    if paths.is_empty() {
        eprintln!(
            "usage: fit-eval [--pairs] [--labels LABELS.tsv | --moves LABELS.tsv] GAMES.sgf ..."
        );
        std::process::exit(2);
    }
    let games: Vec<Game> = paths
        .iter()
        .flat_map(|path| {
            read(path)
                .split("(;")
                .skip(1)
                .filter_map(parse_game)
                .collect::<Vec<_>>()
        })
        .collect();
    let geometry = Geometry::new(15, 15, 5).expect("15 x 15, k = 5");
    if let Some(path) = moves {
        fit_to_moves(geometry, &games, &read(&path));
        return;
    }
    let samples = match &labels {
        None => from_results(geometry, &games, pairs),
        Some(path) => from_labels(geometry, &games, &read(path), pairs),
    };
    let (train, test): (Vec<&Sample>, Vec<&Sample>) =
        samples.iter().partition(|s| !held_out(s.game));
    println!(
        "{} games, {} quiet positions ({} fitted, {} held out)",
        games.len(),
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
    fit.report("engine's evaluation");
    // Windows alone (the evaluation before the threat cells), fitted, for comparison.
    let windows: Vec<Vec<f64>> = samples.iter().map(|s| s.terms[..6].to_vec()).collect();
    Fit::new(&samples, &windows).report("windows alone");
    let mut terms: Vec<Vec<f64>> = samples.iter().map(|s| s.terms.clone()).collect();
    for j in 0..terms[0].len() {
        if terms.iter().filter(|t| t[j] != 0.0).count() < MIN_SUPPORT {
            terms.iter_mut().for_each(|t| t[j] = 0.0);
        }
    }
    let fit = Fit::new(&samples, &terms);
    fit.report("fitted terms");
    let units: Vec<i64> = fit
        .weights
        .iter()
        .map(|w| (w / slope).round() as i64)
        .collect();
    print_units(&units);
    println!("  tempo: {}", (fit.bias / slope).round());
    if pairs {
        println!("  cells by pair class, side to move then opponent (classes 0 to 35):");
        let width = PAIRS.len();
        for side in 0..2 {
            let mut row = vec![0; PAIRS.start];
            row.extend(&units[FIRST_PAIR + side * width..FIRST_PAIR + (side + 1) * width]);
            row.resize(36, 0);
            println!("  {row:?}");
        }
    }
}

/// Prints fitted weights, in the engine's units, as `gomoku/eval.rs` writes them.
fn print_units(units: &[i64]) {
    println!("in units of the engine's evaluation:");
    println!(
        "  windows of the side to move, 1 to 3 stones: {:?}",
        &units[0..3]
    );
    // The engine subtracts the opponent's windows.
    let opponent_windows: Vec<i64> = units[3..6].iter().map(|u| -u).collect();
    println!("  windows of the opponent, 1 to 3 stones (subtracted): {opponent_windows:?}");
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
}

/// One position where the teacher chose a move: the terms of every candidate's position as the
/// opponent sees it, the engine's evaluation of it (for the opponent), and which one the teacher
/// chose.
struct Choice {
    game: usize,
    children: Vec<Vec<f64>>,
    evaluations: Vec<f64>,
    chosen: usize,
}

/// Fits the evaluation's terms so that the teacher's move is the best-valued of a quiet
/// position's candidates one ply down (a conditional logit over the candidates: the Bonanza
/// method of computer shogi, with Rapfi's moves from `scripts/rapfi-label.py` as the teacher's).
/// Candidates are the empty cells within two of a stone, but those that make a four (the search
/// follows fours; their value is not the evaluation's); positions Rapfi already sees decided
/// (beyond ±3,000) are left out. Prints three fits and their weights in the engine's units:
/// to the moves alone, scaled as decisive as the engine's evaluation in the same fit; the same
/// weights scaled as predictive of game results, unit for unit, as the engine's evaluation; and
/// the joint fit to the moves and the results (see [`fit_moves`]).
fn fit_to_moves(geometry: Geometry, games: &[Game], labels: &str) {
    let mut choices = Vec::new();
    for line in labels.lines() {
        let Some((number, game, ply, value, teacher)) = label(games, line) else {
            continue;
        };
        let tb = teacher.unwrap_or_default().as_bytes();
        if value.abs() > 3000.0 || tb.len() != 2 {
            continue;
        }
        let teacher = usize::from(tb[1] - b'a') * geometry.cols() + usize::from(tb[0] - b'a');
        let mut cells = cells_after(geometry, &game.moves[..ply]);
        let mover = to_move(ply);
        let quiet = evaluation_features(geometry, &cells, mover).is_some_and(|f| f.quiet);
        if !quiet || teacher >= cells.len() || cells[teacher].is_some() {
            continue;
        }
        let mut choice = Choice {
            game: number,
            children: Vec::new(),
            evaluations: Vec::new(),
            chosen: usize::MAX,
        };
        let candidates: Vec<usize> = (0..cells.len())
            .filter(|&at| cells[at].is_none() && near_stone(geometry, &cells, at))
            .collect();
        for at in candidates {
            cells[at] = Some(mover);
            let f = evaluation_features(geometry, &cells, mover.opponent()).expect("15 x 15");
            cells[at] = None;
            // A four (or a five): the opponent's reply is forced, the search's business.
            if f.threat_cells[1][7] > 0 {
                continue;
            }
            if at == teacher {
                choice.chosen = choice.children.len();
            }
            choice.children.push(terms(&f, false));
            choice.evaluations.push(f64::from(f.evaluation));
        }
        if choice.chosen != usize::MAX && choice.children.len() > 1 {
            choices.push(choice);
        }
    }
    let held = choices.iter().filter(|c| held_out(c.game)).count();
    println!(
        "{} positions with the teacher's move ({} fitted, {held} held out), {:.1} candidates each",
        choices.len(),
        choices.len() - held,
        choices.iter().map(|c| c.children.len()).sum::<usize>() as f64 / choices.len() as f64
    );
    // Values are for the mover: minus the terms of the opponent's position.
    let engine: Vec<Vec<Vec<f64>>> = choices
        .iter()
        .map(|c| c.evaluations.iter().map(|&e| vec![-e]).collect())
        .collect();
    let slope = conditional_logit(&choices, &engine, "engine's evaluation")[0];
    let terms: Vec<Vec<Vec<f64>>> = choices
        .iter()
        .map(|c| {
            c.children
                .iter()
                .map(|t| t.iter().map(|x| -x).collect())
                .collect()
        })
        .collect();
    let weights = conditional_logit(&choices, &terms, "fitted terms");
    let units: Vec<i64> = weights.iter().map(|w| (w / slope).round() as i64).collect();
    println!("scaled by the engine's evaluation's slope in the same fit:");
    print_units(&units);
    // The scale that makes the fitted evaluation as predictive of game results, unit for unit,
    // as the engine's: the slopes of both fitted to the results of the same quiet positions.
    let samples = from_results(geometry, games, false);
    let engine: Vec<Vec<f64>> = samples.iter().map(|s| vec![s.evaluation]).collect();
    let engine = Fit::new(&samples, &engine);
    engine.report("engine, results");
    let raw: Vec<Vec<f64>> = samples
        .iter()
        .map(|s| vec![dot(&weights, &s.terms)])
        .collect();
    let fitted = Fit::new(&samples, &raw);
    fitted.report("fitted, results");
    let scale = fitted.weights[0] / engine.weights[0];
    let units: Vec<i64> = weights.iter().map(|w| (w * scale).round() as i64).collect();
    println!("scaled to the engine's slope on game results:");
    print_units(&units);
    println!("  tempo: {}", (fitted.bias / engine.weights[0]).round());
    // Both at once: the sum of the two mean log losses, the results' fit setting the scale.
    let (weights, bias) = fit_moves(&choices, &terms, &samples);
    let joint: Vec<Vec<f64>> = samples
        .iter()
        .map(|s| vec![dot(&weights, &s.terms)])
        .collect();
    Fit::new(&samples, &joint).report("joint, results");
    let scaled: Vec<f64> = weights.iter().map(|w| w / engine.weights[0]).collect();
    let values: Vec<Vec<Vec<f64>>> = terms
        .iter()
        .map(|v| v.iter().map(|x| vec![dot(&scaled, x)]).collect())
        .collect();
    conditional_logit(&choices, &values, "joint, moves");
    println!("joint fit, in the engine's units:");
    print_units(&scaled.iter().map(|w| w.round() as i64).collect::<Vec<_>>());
    println!("  tempo: {}", (bias / engine.weights[0]).round());
}

/// Fits a conditional logit of the teacher's choice on `values` (per choice, per candidate, the
/// terms), alone (`samples` empty) or with a logistic regression of the game results on the
/// samples' terms and a bias, the two mean log losses summed; Newton's method, damped, with a
/// slight ridge on the terms scaled to unit root mean square (over the samples, or without
/// them over the candidates). Returns the weights and the bias (0 without samples).
fn fit_moves(choices: &[Choice], values: &[Vec<Vec<f64>>], samples: &[Sample]) -> (Vec<f64>, f64) {
    let dims = values[0][0].len();
    let total = dims + 1;
    let squares: Vec<&[f64]> = if samples.is_empty() {
        values.iter().flatten().map(Vec::as_slice).collect()
    } else {
        samples.iter().map(|s| s.terms.as_slice()).collect()
    };
    let scale: Vec<f64> = (0..dims)
        .map(|j| {
            let sq: f64 = squares.iter().map(|t| t[j] * t[j]).sum();
            (sq / squares.len() as f64).sqrt().max(1e-9)
        })
        .collect();
    let rows: Vec<(Vec<f64>, f64)> = samples
        .iter()
        .filter(|s| !held_out(s.game))
        .map(|s| {
            let x = (0..dims).map(|j| s.terms[j] / scale[j]).chain([1.0]);
            (x.collect(), s.label)
        })
        .collect();
    let sets: Vec<(&Choice, Vec<Vec<f64>>)> = choices
        .iter()
        .zip(values)
        .filter(|(c, _)| !held_out(c.game))
        .map(|(c, v)| {
            let v = v
                .iter()
                .map(|x| (0..dims).map(|j| x[j] / scale[j]).collect())
                .collect();
            (c, v)
        })
        .collect();
    let (nr, nc) = (rows.len().max(1) as f64, sets.len() as f64);
    let objective = |w: &[f64]| {
        let results: f64 = rows
            .iter()
            .map(|(x, l)| log_loss(sigmoid(dot(w, x)), *l))
            .sum::<f64>()
            / nr;
        let moves: f64 = sets
            .iter()
            .map(|(c, v)| -softmax(w, v)[c.chosen].max(1e-300).ln())
            .sum::<f64>()
            / nc;
        results + moves + RIDGE / 2.0 * w.iter().map(|w| w * w).sum::<f64>()
    };
    let mut w = vec![0.0; total];
    for _ in 0..20 {
        let mut g = vec![0.0; total];
        let mut h = vec![vec![0.0; total]; total];
        for (x, l) in &rows {
            let p = sigmoid(dot(&w, x));
            for a in 0..total {
                g[a] += (p - l) * x[a] / nr;
                for b in a..total {
                    h[a][b] += p * (1.0 - p) * x[a] * x[b] / nr;
                }
            }
        }
        for (c, v) in &sets {
            let p = softmax(&w, v);
            let mean: Vec<f64> = (0..dims)
                .map(|a| v.iter().zip(&p).map(|(x, p)| p * x[a]).sum())
                .collect();
            for a in 0..dims {
                g[a] += (mean[a] - v[c.chosen][a]) / nc;
            }
            for (x, p) in v.iter().zip(&p) {
                for a in 0..dims {
                    for b in a..dims {
                        h[a][b] += p * (x[a] - mean[a]) * (x[b] - mean[b]) / nc;
                    }
                }
            }
        }
        mirror(&mut h);
        for a in 0..total {
            // Without samples the bias is not fitted: its row is the ridge alone, and it stays 0.
            g[a] += RIDGE * w[a];
            h[a][a] += RIDGE;
        }
        let step = solve(h, g);
        let before = objective(&w);
        let mut size = 1.0;
        while size > 1e-3 {
            let trial: Vec<f64> = w.iter().zip(&step).map(|(w, s)| w - size * s).collect();
            if objective(&trial) <= before {
                w = trial;
                break;
            }
            size /= 2.0;
        }
    }
    let weights = (0..dims).map(|j| w[j] / scale[j]).collect();
    (weights, w[dims])
}

/// Fits the teacher's choices on `values` alone (see [`fit_moves`]), prints the log loss and
/// how often the best-valued candidate is the teacher's, fitted and held out, and returns the
/// weights.
fn conditional_logit(choices: &[Choice], values: &[Vec<Vec<f64>>], name: &str) -> Vec<f64> {
    let (weights, _) = fit_moves(choices, values, &[]);
    for held in [false, true] {
        let (mut loss, mut top, mut n) = (0.0, 0.0, 0.0);
        for (c, v) in choices.iter().zip(values) {
            if held_out(c.game) != held {
                continue;
            }
            let p = softmax(&weights, v);
            loss -= p[c.chosen].max(1e-12).ln();
            let best = (0..p.len())
                .max_by(|&a, &b| p[a].total_cmp(&p[b]))
                .unwrap_or(0);
            top += f64::from(u8::from(best == c.chosen));
            n += 1.0;
        }
        println!(
            "{:<20} {}: log loss {:.4}, teacher's move best-valued {:.1} %",
            format!("{name}:"),
            if held { "held out" } else { "fitted  " },
            loss / n,
            100.0 * top / n
        );
    }
    weights
}

fn dot(w: &[f64], x: &[f64]) -> f64 {
    w.iter().zip(x).map(|(w, x)| w * x).sum()
}

/// The probabilities of the candidates `values` under the weights `w`.
fn softmax(w: &[f64], values: &[Vec<f64>]) -> Vec<f64> {
    let z: Vec<f64> = values.iter().map(|x| dot(w, x)).collect();
    let top = z.iter().copied().fold(f64::MIN, f64::max);
    let e: Vec<f64> = z.iter().map(|z| (z - top).exp()).collect();
    let sum: f64 = e.iter().sum();
    e.into_iter().map(|e| e / sum).collect()
}

fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("fit-eval: {path}: {e}");
        std::process::exit(1)
    })
}

/// One game of the SGF, if it has a result.
fn parse_game(game: &str) -> Option<Game> {
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
    Some(Game {
        black_result,
        moves,
    })
}

/// The side to move after `ply` moves.
fn to_move(ply: usize) -> Player {
    if ply.is_multiple_of(2) {
        Player::X
    } else {
        Player::O
    }
}

/// One line of a labels file (`scripts/rapfi-label.py`): the game's number and the game, the ply,
/// Rapfi's value and its move if the line has one; `None` for a line that does not parse. Exits
/// when the games have no such game or it is shorter than the ply.
fn label<'g>(
    games: &'g [Game],
    line: &'g str,
) -> Option<(usize, &'g Game, usize, f64, Option<&'g str>)> {
    let fields: Vec<&str> = line.split('\t').collect();
    let [game, ply, value, ..] = fields[..] else {
        return None;
    };
    let (Ok(number), Ok(ply), Ok(value)) = (game.parse(), ply.parse(), value.parse::<f64>()) else {
        return None;
    };
    let Some(game) = games.get::<usize>(number).filter(|g| ply <= g.moves.len()) else {
        eprintln!("fit-eval: no game {number} with {ply} moves for the label «{line}»");
        std::process::exit(1)
    };
    Some((number, game, ply, value, fields.get(3).copied()))
}

/// The cells after `moves` (column, row; black first).
fn cells_after(geometry: Geometry, moves: &[(usize, usize)]) -> Vec<Option<Player>> {
    let mut cells = vec![None; geometry.cells()];
    for (ply, &(col, row)) in moves.iter().enumerate() {
        cells[row * geometry.cols() + col] = Some(to_move(ply));
    }
    cells
}

/// Whether a stone stands within two cells of `at` (a candidate move, as the search has them).
fn near_stone(geometry: Geometry, cells: &[Option<Player>], at: usize) -> bool {
    let (rows, cols) = (geometry.rows() as isize, geometry.cols() as isize);
    let (r, c) = ((at as isize) / cols, (at as isize) % cols);
    (-2..=2).any(|dr| {
        (-2..=2).any(|dc| {
            let (rr, cc) = (r + dr, c + dc);
            (0..rows).contains(&rr)
                && (0..cols).contains(&cc)
                && cells[(rr * cols + cc) as usize].is_some()
        })
    })
}

/// A sample of the position after the first `ply` moves of `game`, if it is quiet.
fn sample(
    geometry: Geometry,
    game: usize,
    moves: &[(usize, usize)],
    label_for_black: f64,
    pairs: bool,
) -> Option<Sample> {
    let cells = cells_after(geometry, moves);
    let player = to_move(moves.len());
    let f = evaluation_features(geometry, &cells, player).filter(|f| f.quiet)?;
    Some(Sample {
        game,
        label: if player == Player::X {
            label_for_black
        } else {
            1.0 - label_for_black
        },
        terms: terms(&f, pairs),
        evaluation: f64::from(f.evaluation),
    })
}

/// The quiet positions of the games from the sixth stone to two plies before the end, labelled
/// with the results.
fn from_results(geometry: Geometry, games: &[Game], pairs: bool) -> Vec<Sample> {
    let mut samples = Vec::new();
    for (number, game) in games.iter().enumerate() {
        for ply in 6..game.moves.len().saturating_sub(2) {
            let moves = &game.moves[..ply];
            samples.extend(sample(geometry, number, moves, game.black_result, pairs));
        }
    }
    samples
}

/// The quiet positions listed in `labels` (game, ply, value for the side to move), labelled
/// with their win probabilities. Prints how well the values predict the games' results on the
/// held-out games, against the engine's evaluation (its slope fitted to the results).
fn from_labels(geometry: Geometry, games: &[Game], labels: &str, pairs: bool) -> Vec<Sample> {
    let mut samples = Vec::new();
    // The same positions labelled with the results, and the labels' log loss on them.
    let mut by_result = Vec::new();
    let (mut loss, mut count) = (0.0, 0.0);
    for line in labels.lines() {
        // Rapfi's move, if the line has it, is unused here.
        let Some((number, game, ply, value, _)) = label(games, line) else {
            continue;
        };
        let probability = sigmoid(value / LABEL_SCALE);
        let for_black = if to_move(ply) == Player::X {
            probability
        } else {
            1.0 - probability
        };
        let moves = &game.moves[..ply];
        let Some(labelled) = sample(geometry, number, moves, for_black, pairs) else {
            continue;
        };
        let mut result = labelled.clone();
        result.label = if to_move(ply) == Player::X {
            game.black_result
        } else {
            1.0 - game.black_result
        };
        if held_out(number) {
            loss += log_loss(probability, result.label);
            count += 1.0;
        }
        samples.push(labelled);
        by_result.push(result);
    }
    let evaluation: Vec<Vec<f64>> = by_result.iter().map(|s| vec![s.evaluation]).collect();
    let ours = Fit::new(&by_result, &evaluation).loss(false);
    println!(
        "labelled quiet positions of the held-out games, log loss to the results: the labels' \
         values {:.5}, the engine's evaluation {ours:.5}",
        loss / count
    );
    samples
}

/// The fitted terms of a position: windows of one to three stones for each side, then the capped
/// counts of the combinations fitted, then (with `pairs`) those of the pair classes for each
/// side.
fn terms(f: &EvalFeatures, pairs: bool) -> Vec<f64> {
    let windows = (0..2).flat_map(|s| (1..=3).map(move |n| f64::from(f.windows[s][n])));
    let own = OWN_THREATS.iter().map(|&t| f.threat_cells[0][t]);
    let opponent = OPPONENT_THREATS.iter().map(|&t| f.threat_cells[1][t]);
    let classes = (0..2)
        .filter(|_| pairs)
        .flat_map(|s| PAIRS.map(move |c| f.pair_cells[s][c]));
    windows
        .chain(
            own.chain(opponent)
                .chain(classes)
                .map(|c| f64::from(c.min(CAP))),
        )
        .collect()
}

/// A logistic regression of the labels on some terms of the positions.
struct Fit<'a> {
    samples: &'a [Sample],
    terms: &'a [Vec<f64>],
    /// Per term, in its own units.
    weights: Vec<f64>,
    bias: f64,
}

impl<'a> Fit<'a> {
    /// Fits by Newton's method (iteratively reweighted least squares) on the terms scaled to unit
    /// root mean square, with a slight ridge so that terms that move together stay finite, on the
    /// positions not held out.
    fn new(samples: &'a [Sample], terms: &'a [Vec<f64>]) -> Self {
        // The last coefficient is the bias.
        let dims = terms[0].len() + 1;
        let scale: Vec<f64> = (0..dims - 1)
            .map(|j| {
                let square: f64 = terms.iter().map(|t| t[j] * t[j]).sum();
                (square / terms.len() as f64).sqrt().max(1e-9)
            })
            .chain([1.0])
            .collect();
        let rows: Vec<(Vec<f64>, f64)> = (0..samples.len())
            .filter(|&i| !held_out(samples[i].game))
            .map(|i| {
                let x = (0..dims - 1).map(|j| terms[i][j] / scale[j]).chain([1.0]);
                (x.collect(), samples[i].label)
            })
            .collect();
        let n = rows.len() as f64;
        let mut w = vec![0.0; dims];
        for _ in 0..12 {
            let mut gradient = vec![0.0; dims];
            let mut hessian = vec![vec![0.0; dims]; dims];
            for (x, label) in &rows {
                let p = sigmoid(w.iter().zip(x).map(|(w, x)| w * x).sum());
                let curvature = p * (1.0 - p);
                for a in 0..dims {
                    gradient[a] += (p - label) * x[a];
                    if x[a] != 0.0 {
                        for b in a..dims {
                            hessian[a][b] += curvature * x[a] * x[b];
                        }
                    }
                }
            }
            mirror(&mut hessian);
            for a in 0..dims {
                gradient[a] = gradient[a] / n + RIDGE * w[a];
                hessian[a].iter_mut().for_each(|h| *h /= n);
                hessian[a][a] += RIDGE;
            }
            for (w, step) in w.iter_mut().zip(solve(hessian, gradient)) {
                *w -= step;
            }
        }
        Self {
            samples,
            terms,
            weights: (0..dims - 1).map(|j| w[j] / scale[j]).collect(),
            bias: w[dims - 1],
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
            sum += log_loss(sigmoid(z), s.label);
            n += 1.0;
        }
        sum / n
    }

    fn report(&self, name: &str) {
        println!(
            "{:<20} loss {:.5} fitted, {:.5} held out",
            format!("{name}:"),
            self.loss(true),
            self.loss(false)
        );
    }
}

/// Fills the lower triangle of a symmetric matrix of which only the upper one was summed.
fn mirror(m: &mut [Vec<f64>]) {
    for a in 1..m.len() {
        let (upper, lower) = m.split_at_mut(a);
        for (b, row) in upper.iter().enumerate() {
            lower[0][b] = row[a];
        }
    }
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting (`a` is positive definite
/// here).
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Vec<f64> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .unwrap_or(col);
        a.swap(col, pivot);
        b.swap(col, pivot);
        let (top, rest) = a.split_at_mut(col + 1);
        let pivot_row = &top[col];
        for (offset, row) in rest.iter_mut().enumerate() {
            let factor = row[col] / pivot_row[col];
            for (value, &p) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                *value -= factor * p;
            }
            b[col + 1 + offset] -= factor * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for r in (0..n).rev() {
        let rest: f64 = (r + 1..n).map(|c| a[r][c] * x[c]).sum();
        x[r] = (b[r] - rest) / a[r][r];
    }
    x
}

/// The log loss of predicting `p` for `label` (a result or a probability).
fn log_loss(p: f64, label: f64) -> f64 {
    let p = p.clamp(1e-9, 1.0 - 1e-9);
    -(label * p.ln() + (1.0 - label) * (1.0 - p).ln())
}

/// Every fifth game is held out of the fit.
fn held_out(game: usize) -> bool {
    game.is_multiple_of(5)
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}
