//! Boards on the wire: reading either form (the row-major array or the compact string), with every
//! bad cell reported up to the cap, and writing a board back the way the request wrote it.

use serde::Serialize;
use serde_json::Value;

use crate::api::problem::{ApiError, FieldError, FieldErrors, ProblemCode};
use crate::engine::{Player, Position};

/// What kind of JSON value this is, for error messages.
pub(crate) fn describe(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Reads one cell of the array form.
fn parse_cell(index: usize, value: &Value) -> Result<Option<Player>, ()> {
    match value {
        Value::Null => Ok(None),
        Value::String(s) => match s.as_str() {
            "X" | "x" => Ok(Some(Player::X)),
            "O" | "o" => Ok(Some(Player::O)),
            "" | " " | "-" | "_" | "." => Ok(None),
            _ => Err(()),
        },
        Value::Number(n) if n.as_u64() == Some(index as u64) => Ok(None),
        _ => Err(()),
    }
}

/// Why a cell that [`parse_cell`] refused is not a cell.
fn cell_error(index: usize, value: &Value) -> String {
    match value {
        Value::String(other) => format!(
            "{other:?} is not a mark: expected \"X\", \"O\", the cell's index {index}, or an empty marker (null, \"\", \" \", \"-\", \"_\", \".\")"
        ),
        Value::Number(n) => match n.as_u64() {
            Some(v) => format!(
                "{v} is not this cell's index ({index}): an empty cell holds its own index, and numeric codes such as 0/1/2 for marks are not accepted"
            ),
            None if n.is_i64() => {
                format!("{n} is not this cell's index ({index}): an empty cell holds its own index")
            }
            None => format!("{n} is not an integer: an empty cell holds its own index ({index})"),
        },
        other => format!(
            "expected \"X\", \"O\", the cell's index {index}, or an empty marker, got {}",
            describe(other)
        ),
    }
}

/// "1 cell of the board is" / "3 cells of the board are", for the detail of a problem.
fn counted(n: usize, noun: &str, place: &str) -> String {
    if n == 1 {
        format!("1 {noun} {place} is")
    } else {
        format!("{n} {noun}s {place} are")
    }
}

/// Reads the array form, reporting the bad cells (the first [`MAX_FIELD_ERRORS`] of them, the
/// rest counted).
///
/// [`MAX_FIELD_ERRORS`]: crate::api::problem::MAX_FIELD_ERRORS
fn parse_array(values: &[Value]) -> Result<(Vec<Option<Player>>, BoardStyle), ApiError> {
    let mut errors = FieldErrors::default();
    let cells: Vec<Option<Player>> = values
        .iter()
        .enumerate()
        .map(|(i, v)| {
            parse_cell(i, v).unwrap_or_else(|()| {
                errors.push_with(|| FieldError {
                    pointer: format!("/board/{i}"),
                    detail: cell_error(i, v),
                });
                None
            })
        })
        .collect();
    if !errors.is_empty() {
        let detail = format!(
            "{} not a mark, its own index or an empty marker",
            counted(errors.len(), "cell", "of the board")
        );
        return Err(errors.into_error(ProblemCode::InvalidCell, detail));
    }
    // Empty cells come back as the request wrote them: indices if any cell used its index,
    // else the first empty marker seen.
    let style = if values
        .iter()
        .zip(&cells)
        .any(|(v, c)| c.is_none() && v.is_number())
    {
        BoardStyle::Array(None)
    } else {
        let empty = values
            .iter()
            .zip(&cells)
            .find(|(_, c)| c.is_none())
            .map(|(v, _)| v.clone());
        BoardStyle::Array(empty)
    };
    Ok((cells, style))
}

/// Reads the compact string form, reporting the bad characters up to the cap.
fn parse_compact(board: &str) -> Result<(Vec<Option<Player>>, BoardStyle), ApiError> {
    let cells = Position::parse_compact(board).map_err(|found| {
        let mut errors = FieldErrors::default();
        for error in &found {
            errors.push_with(|| FieldError {
                pointer: "/board".to_owned(),
                detail: error.to_string(),
            });
        }
        let detail = format!(
            "{} not X, O or an empty cell",
            counted(errors.len(), "character", "of the board string")
        );
        errors.into_error(ProblemCode::InvalidCell, detail)
    })?;
    let empty = board
        .chars()
        .find(|c| Player::from_char(*c).is_none())
        .unwrap_or('.');
    Ok((cells, BoardStyle::Compact(empty)))
}

/// Reads the board in either form, reporting every bad cell at once (up to the cap).
pub(crate) fn parse_board(board: &Value) -> Result<(Vec<Option<Player>>, BoardStyle), ApiError> {
    match board {
        Value::Array(values) => parse_array(values),
        Value::String(s) => parse_compact(s),
        other => Err(ApiError::invalid(
            ProblemCode::InvalidBoard,
            "/board",
            format!(
                "the board must be an array of cells or a string, got {}",
                describe(other)
            ),
        )),
    }
}

/// How the board was written, so the board after the move comes back the same way.
#[derive(Clone, Debug, PartialEq)]
pub enum BoardStyle {
    /// An array whose empty cells were written like this (`None`: each as its own index).
    Array(Option<Value>),
    /// The compact string form with this empty character.
    Compact(char),
}

impl BoardStyle {
    /// `cells` written in this style.
    #[must_use]
    pub fn render(&self, cells: Vec<Option<Player>>) -> RenderedBoard {
        RenderedBoard {
            cells,
            style: self.clone(),
        }
    }
}

/// A board written in a request's style. It serializes straight to JSON, with no intermediate
/// `Value`: it is part of every response.
#[derive(Clone, Debug, PartialEq)]
pub struct RenderedBoard {
    cells: Vec<Option<Player>>,
    style: BoardStyle,
}

impl RenderedBoard {
    /// The board's cells, row-major.
    #[must_use]
    pub fn cells(&self) -> &[Option<Player>] {
        &self.cells
    }
}

impl Serialize for RenderedBoard {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        match &self.style {
            BoardStyle::Array(empty) => {
                let mut seq = serializer.serialize_seq(Some(self.cells.len()))?;
                for (i, cell) in self.cells.iter().enumerate() {
                    match (cell, empty) {
                        (Some(p), _) => seq.serialize_element(p.as_str())?,
                        (None, Some(e)) => seq.serialize_element(e)?,
                        (None, None) => seq.serialize_element(&i)?,
                    }
                }
                seq.end()
            }
            BoardStyle::Compact(empty) => serializer.serialize_str(
                &self
                    .cells
                    .iter()
                    .map(|c| c.map_or(*empty, Player::as_char))
                    .collect::<String>(),
            ),
        }
    }
}
