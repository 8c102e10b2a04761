//! An independent reader of the service's sentences, shared by the engine and the API tests: it
//! finds gomoku words outside gomoku, bare cell indices where a game names its cells otherwise,
//! and numbers with more decimals than people read.

/// Which names a game gives its cells in sentences.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Naming {
    /// Small m,n,k boards: cells by index.
    Index,
    /// Gomoku boards: cells by coordinate (`h8`).
    Coordinate,
    /// Gravity boards: columns, from 1.
    Column,
}

/// Everything wrong with `text`, a sentence (or several) about a game with `k` in a row whose
/// cells go by `naming`; empty when nothing is.
pub fn problems(text: &str, k: usize, naming: Naming) -> Vec<String> {
    let mut problems = Vec::new();
    let words: Vec<&str> = text
        .split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| !w.is_empty())
        .collect();
    let k_word = [
        "zero", "one", "two", "three", "four", "five", "six", "seven",
    ]
    .get(k)
    .copied()
    .unwrap_or("");
    for (i, word) in words.iter().enumerate() {
        let lower = word.to_ascii_lowercase();
        let gomoku_word = matches!(lower.as_str(), "four" | "fours" | "five" | "fives");
        let k_in_a_row = lower == k_word && words.get(i + 1..i + 3) == Some(&["in", "a"][..]);
        if gomoku_word && k != 5 && !k_in_a_row {
            problems.push(format!("the gomoku word {word:?} on a k = {k} board"));
        }
    }
    for (start, number) in numbers(text) {
        if let Some((_, decimals)) = number.split_once('.')
            && decimals.len() > 3
        {
            problems.push(format!("{number} has more than three decimals"));
        }
        if naming != Naming::Index && !number.contains('.') && is_bare(text, start, &number) {
            problems.push(format!("{number} at byte {start} looks like a cell index"));
        }
    }
    problems
}

/// Every number in `text` with where it starts: digits, with a decimal part when digits follow a
/// point.
fn numbers(text: &str) -> Vec<(usize, String)> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        if i + 1 < bytes.len() && bytes[i] == b'.' && bytes[i + 1].is_ascii_digit() {
            i += 1;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
        }
        found.push((start, text[start..i].to_owned()));
    }
    found
}

/// Whether the integer `number` at `start` names a cell by index: it is not part of a
/// coordinate (`h8`), an ordinal (`41st`), a list number at a line's start (`3. X …`), a count
/// of plies or moves, a score (also a move table's, before its outcome) or cost, a move number,
/// or a column or row named as such.
fn is_bare(text: &str, start: usize, number: &str) -> bool {
    let before = &text[..start];
    let after = &text[start + number.len()..];
    if before.ends_with(|c: char| c.is_ascii_lowercase()) {
        return false;
    }
    let next_word: String = after
        .trim_start()
        .chars()
        .take_while(char::is_ascii_alphabetic)
        .collect();
    // A move table's score comes before its outcome: "column 4: -3, loss in 40 plies".
    let outcome_next: String = after
        .strip_prefix(", ")
        .unwrap_or_default()
        .chars()
        .take_while(char::is_ascii_alphabetic)
        .collect();
    if ["st", "nd", "rd", "th"]
        .iter()
        .any(|s| after.starts_with(s))
        || ["win", "loss", "draw", "unknown"].contains(&outcome_next.as_str())
        || ["ply", "plies", "move", "moves"].contains(&next_word.as_str())
        || ((before.is_empty() || before.ends_with('\n')) && after.starts_with(". "))
    {
        return false;
    }
    // The word before, past other numbers of a list or range ("columns 1, 2, 4", "1-4").
    let previous: String = before
        .trim_end_matches(|c: char| c.is_ascii_digit() || " ,-".contains(c))
        .chars()
        .rev()
        .take_while(char::is_ascii_alphabetic)
        .collect::<String>()
        .chars()
        .rev()
        .collect();
    !["column", "columns", "row", "move", "score", "cost"].contains(&previous.as_str())
}

#[test]
fn the_reader_flags_indices_gomoku_words_and_long_decimals() {
    let bad = "O wins by force: four at 3, then 4, and five at 8 (0.00698588589756974).";
    assert_eq!(problems(bad, 3, Naming::Index).len(), 3, "{bad}");
    assert_eq!(problems(bad, 5, Naming::Index).len(), 1, "{bad}");
    assert_eq!(problems(bad, 5, Naming::Coordinate).len(), 4, "{bad}");
    let good = "X drops in column 4 and wins by the 41st move, completing a diagonal across \
                columns 1-4; score 0.27, cost 2, in 3 plies, four in a row.";
    assert_eq!(problems(good, 4, Naming::Column), Vec::<String>::new());
    let review = "X won; the turning point was move 5, where O played h8.\n1. X h8: best";
    assert_eq!(
        problems(review, 5, Naming::Coordinate),
        Vec::<String>::new()
    );
    assert_eq!(
        problems("X played 36 (7 was best)", 4, Naming::Column).len(),
        2
    );
}
