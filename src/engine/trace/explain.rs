//! A trace in a few sentences: the move chosen and what it leads to, the alternatives and why
//! they are worse or no better, and what pruning saved.

use super::{Algorithm, Alternative, Trace, TraceInput};
use crate::engine::analysis::{Outcome, Scoring};
use crate::engine::explain::rounded;
use crate::engine::game::{Geometry, Position};

/// What a position's value means for MAX: its outcome when proven, `None` when `estimate` and
/// the value is a static evaluation (strictly between -1 and 1).
#[must_use]
pub fn outcome_of(value: f64, estimate: bool) -> Option<Outcome> {
    if estimate && value.abs() < 1.0 {
        return None;
    }
    Some(if value > 0.0 {
        Outcome::Win
    } else if value < 0.0 {
        Outcome::Loss
    } else {
        Outcome::Draw
    })
}

/// Thousands separated by commas: 549946 → "549,946".
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A value as given, exactly: an integer without a decimal point, any other number in its
/// shortest form that reads back as the same number ("2.5", "0.1", "1e300").
fn exact(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{}", value as i64)
    } else if value.abs() < 1e15 {
        format!("{value}")
    } else {
        format!("{value:e}")
    }
}

/// A position's value: an integer (a proven end of game) exactly, a static evaluation (strictly
/// between -1 and 1) rounded as the other estimates are.
fn position_value(value: f64) -> String {
    if value.fract() == 0.0 {
        exact(value)
    } else {
        rounded(value)
    }
}

/// "1 node", "12 nodes".
fn nodes(n: u64) -> String {
    if n == 1 {
        "1 node".to_owned()
    } else {
        format!("{} nodes", grouped(n))
    }
}

/// "1", "1 and 2", "1, 2 and 3".
fn listed(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

impl Trace {
    /// The trace of `input` in a few plain sentences.
    ///
    /// ```
    /// use minimax_move::engine::{Engine, Tree, TraceInput, TraceOptions};
    /// let input = TraceInput::Tree(Tree::parse("((3 12 8)(2 4 6)(14 5 2))").unwrap());
    /// let options = TraceOptions::default();
    /// let result = Engine::default().trace(&input, &options).unwrap();
    /// assert!(result.explanation(&input, &options).starts_with("MAX moves to B, worth 3."));
    /// ```
    #[must_use]
    pub fn explanation(&self, input: &TraceInput, options: &super::TraceOptions) -> String {
        explain(input, self, options)
    }
}

/// The trace in a few plain sentences (see [`Trace::explanation`]).
#[must_use]
pub fn explain(input: &TraceInput, trace: &Trace, options: &super::TraceOptions) -> String {
    let mut text = match input {
        TraceInput::Position(position) => position_sentences(position, trace, options.scoring),
        TraceInput::Tree(_) => tree_sentences(trace),
    };
    text.push(' ');
    text.push_str(&savings(trace));
    text
}

fn tree_sentences(trace: &Trace) -> String {
    let Some(best) = trace.best else {
        return format!("The tree is a lone leaf worth {}.", exact(trace.value));
    };
    let name = |a: &Alternative| a.label.clone().unwrap_or_else(|| format!("child {}", a.mv));
    let chosen = trace.alternatives.iter().find(|a| a.mv == best);
    let mut text = format!(
        "MAX moves to {}, worth {}.",
        chosen.map_or_else(|| format!("child {best}"), name),
        exact(trace.value)
    );
    let others: Vec<String> = trace
        .alternatives
        .iter()
        .filter(|a| a.mv != best)
        .map(|a| format!("{} is worth {}", name(a), exact(a.value)))
        .collect();
    if !others.is_empty() {
        text.push_str(&format!(
            " Against best replies by MIN, {}.",
            listed(&others)
        ));
    }
    text
}

fn position_sentences(position: &Position, trace: &Trace, scoring: Scoring) -> String {
    let geometry = position.geometry();
    let player = position.to_move();
    let Some(best) = trace.best else {
        return String::new();
    };
    let outcome = outcome_of(trace.value, trace.estimate);
    let mut text = format!(
        "{player} plays {}: {} (value {}).",
        geometry.cell_name(best),
        outcome_phrase(outcome, trace.value, geometry, scoring),
        position_value(trace.value)
    );
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for a in trace.alternatives.iter().filter(|a| a.mv != best) {
        let phrase = match outcome_of(a.value, a.estimate) {
            Some(o) if Some(o) == outcome => format!("also {}", verb(o)),
            Some(o) => verb(o).to_owned(),
            None => format!("are estimated at {}", rounded(a.value)),
        };
        let name = geometry.cell_name(a.mv);
        match groups.iter_mut().find(|(p, _)| *p == phrase) {
            Some((_, names)) => names.push(name),
            None => groups.push((phrase, vec![name])),
        }
    }
    if !groups.is_empty() {
        let parts: Vec<String> = groups
            .into_iter()
            .map(|(phrase, names)| {
                let phrase = if names.len() == 1 {
                    singular(&phrase)
                } else {
                    phrase
                };
                format!("{} {phrase}", listed(&names))
            })
            .collect();
        text.push_str(&format!(" Against best replies, {}.", listed(&parts)));
    }
    text
}

fn verb(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Win => "win",
        Outcome::Draw => "draw",
        Outcome::Loss => "lose",
    }
}

fn singular(phrase: &str) -> String {
    phrase
        .replace("are estimated", "is estimated")
        .replace("win", "wins")
        .replace("draw", "draws")
        .replace("lose", "loses")
}

fn outcome_phrase(
    outcome: Option<Outcome>,
    value: f64,
    geometry: Geometry,
    scoring: Scoring,
) -> String {
    let plies = || {
        let n = f64::from(geometry.max_score()) - value.abs();
        if n == 1.0 {
            "1 ply".to_owned()
        } else {
            format!("{} plies", exact(n))
        }
    };
    match (outcome, scoring) {
        (None, _) => "the static evaluation at the depth limit favours it".to_owned(),
        (Some(Outcome::Draw), _) => "with best play from both sides it is a draw".to_owned(),
        (Some(Outcome::Win), Scoring::Depth) => format!("it wins in {}", plies()),
        (Some(Outcome::Loss), Scoring::Depth) => {
            format!("every move loses, this one in {}, the slowest", plies())
        }
        (Some(Outcome::Win), Scoring::Classic) => "it forces a win".to_owned(),
        (Some(Outcome::Loss), Scoring::Classic) => "every move loses against best play".to_owned(),
    }
}

/// What pruning saved: each algorithm's node count against plain minimax's.
fn savings(trace: &Trace) -> String {
    let counts = trace.counts;
    let Some(minimax) = counts.minimax else {
        return format!(
            "{} visits {}; plain minimax would visit more than the trace limit.",
            name(trace.algorithm),
            nodes(trace.nodes)
        );
    };
    let mut parts = vec![format!("Plain minimax visits {}", nodes(minimax))];
    for algorithm in [Algorithm::AlphaBeta, Algorithm::AlphaBetaTable] {
        if let Some(n) = counts.get(algorithm) {
            let saved = 100.0 * (minimax.saturating_sub(n)) as f64 / minimax as f64;
            parts.push(format!(
                "{} {} ({saved:.0}% fewer)",
                name(algorithm),
                grouped(n)
            ));
        }
    }
    format!("{}.", parts.join("; "))
}

fn name(algorithm: Algorithm) -> &'static str {
    match algorithm {
        Algorithm::Minimax => "plain minimax",
        Algorithm::AlphaBeta => "alpha-beta",
        Algorithm::AlphaBetaTable => "alpha-beta with a table",
    }
}
