//! The geometry every request carries: the five fields `rows`, `cols`, `k`, `gravity` and
//! `rule`, declared once in the `request!` macro for every request type, read as one
//! [`GeometryFields`], and the one way a board with them becomes a [`Position`].
//!
//! The fields stay at the top level of each request (the contract) and every request still
//! denies unknown fields: `#[serde(flatten)]` cannot do both, so the macro writes the fields
//! into each struct instead.

use serde_json::Value;

use super::board::{BoardStyle, parse_board};
use crate::api::problem::{ApiError, ProblemCode};
use crate::engine::{Geometry, Player, Position, PositionError, Rule};

/// A request's geometry as sent: every field may be absent (or null), each then meaning its
/// default (`rows`, `cols` and `k` 3, no gravity, `freestyle`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GeometryFields {
    /// Rows of the board.
    pub rows: Option<u64>,
    /// Columns of the board.
    pub cols: Option<u64>,
    /// Marks in a row needed to win.
    pub k: Option<u64>,
    /// Whether marks drop to the lowest empty cell of their column.
    pub gravity: Option<bool>,
    /// The gomoku rule.
    pub rule: Option<Rule>,
}

impl GeometryFields {
    /// The names of the fields that were given, in declaration order.
    #[must_use]
    pub fn given(&self) -> Vec<&'static str> {
        [
            ("rows", self.rows.is_some()),
            ("cols", self.cols.is_some()),
            ("k", self.k.is_some()),
            ("gravity", self.gravity.is_some()),
            ("rule", self.rule.is_some()),
        ]
        .into_iter()
        .filter_map(|(name, given)| given.then_some(name))
        .collect()
    }

    /// The rule, `freestyle` when absent.
    #[must_use]
    pub fn rule(&self) -> Rule {
        self.rule.unwrap_or_default()
    }

    /// The one way a request's geometry becomes a [`Geometry`]: every route that takes a board or
    /// a game reads it here, so each refusal is the same 422 `invalid_geometry` naming the field.
    ///
    /// # Errors
    /// [`ApiError::Geometry`] when the sides or `k` are out of range, gravity is asked for on too
    /// large a board, or the rule does not apply to the board.
    pub fn geometry(&self) -> Result<Geometry, ApiError> {
        Ok(Geometry::new(
            self.rows.unwrap_or(3),
            self.cols.unwrap_or(3),
            self.k.unwrap_or(3),
        )?
        .with_gravity(self.gravity.unwrap_or(false))?
        .with_rule(self.rule())?)
    }

    /// The position a board, a side to move and this geometry name, and how the board was
    /// written: the one edge every route that takes a board passes.
    ///
    /// # Errors
    /// A 422 for a bad cell, a geometry that is not supported, a board whose size is not
    /// rows × cols, or a position the engine refuses (impossible, finished, wrong side).
    pub fn position(
        &self,
        board: &Value,
        player: Option<Player>,
    ) -> Result<(Position, BoardStyle), ApiError> {
        let (cells, style) = parse_board(board)?;
        let geometry = self.geometry()?;
        if cells.len() != geometry.cells() {
            let hint = if self.rows.is_none() && self.cols.is_none() {
                "; send rows, cols and k for boards other than 3 × 3"
            } else {
                ""
            };
            return Err(ApiError::invalid(
                ProblemCode::InvalidBoard,
                "/board",
                format!(
                    "the board has {} cells, but rows × cols = {} × {} = {}{hint}",
                    cells.len(),
                    geometry.rows(),
                    geometry.cols(),
                    geometry.cells()
                ),
            ));
        }
        let position = Position::new(geometry, cells, player).map_err(position_error)?;
        Ok((position, style))
    }
}

/// The problem for a board the engine refused; a floating mark on a gravity board is named by
/// its pointer.
pub(crate) fn position_error(error: PositionError) -> ApiError {
    match error {
        PositionError::Floating { index } => ApiError::invalid(
            ProblemCode::for_position(&error),
            format!("/board/{index}"),
            error.to_string(),
        ),
        other => other.into(),
    }
}

/// Declares a request type: a strict (`deny_unknown_fields`) JSON object (or, after `query;`, a
/// query string) with its own fields and
/// the five geometry fields between them, each geometry field with the description given for
/// this request (`rows`, `cols` and `k` may be left out for the common descriptions), plus
/// [`GeometryFields`] read from them (`geometry_fields()`).
///
/// ```text
/// request! {
///     /// The body of ...
///     pub struct PlayRequest {
///         /// The position.
///         pub board: Value,
///     }
///     geometry {
///         /// Rows of the board ...
///         rows,
///         /// Columns ...
///         cols,
///         /// Marks in a row ...
///         k,
///         /// Gravity ...
///         gravity,
///         /// The gomoku rule ...
///         rule,
///     }
///     {
///         /// Fields after the geometry, in the order of the contract.
///     }
/// }
/// ```
macro_rules! request {
    // A query string (`query;` first): the same fields as query parameters, for `IntoParams`.
    (query; $($rest:tt)*) => {
        $crate::api::wire::geometry::request! {
            @common [
                "Rows of the board, 1..=15, or 1..=20 when k = 5 (3 when absent)."
                "Columns of the board, 1..=15, or 1..=20 when k = 5 (3 when absent)."
                "Marks in a row needed to win, 1..=max(rows, cols) (3 when absent)."
            ]
            [param [utoipa::IntoParams] [#[into_params(parameter_in = Query)]]]
            $($rest)*
        }
    };
    // The common descriptions of `rows`, `cols` and `k` (literal doc strings, which the schema
    // derives read); the request describes the rest.
    (
        @common [$rows:tt $cols:tt $k:tt] [$($how:tt)*]
        $(#[$attr:meta])*
        pub struct $name:ident { $($before:tt)* }
        geometry {
            $(#[$gravity:meta])* gravity,
            $(#[$rule:meta])* rule $(,)?
        }
        { $($after:tt)* }
    ) => {
        $crate::api::wire::geometry::request! {
            @emit $($how)*
            $(#[$attr])*
            pub struct $name { $($before)* }
            geometry {
                #[doc = $rows]
                rows,
                #[doc = $cols]
                cols,
                #[doc = $k]
                k,
                $(#[$gravity])* gravity,
                $(#[$rule])* rule,
            }
            { $($after)* }
        }
    };
    // The struct itself: `$helper` is the derive's attribute (`schema` or `param`).
    (
        @emit $helper:ident [$derive:path] [$($extra:tt)*]
        $(#[$attr:meta])*
        pub struct $name:ident { $($before:tt)* }
        geometry {
            $(#[$rows:meta])* rows,
            $(#[$cols:meta])* cols,
            $(#[$k:meta])* k,
            $(#[$gravity:meta])* gravity,
            $(#[$rule:meta])* rule $(,)?
        }
        { $($after:tt)* }
    ) => {
        #[derive(Clone, Debug, serde::Deserialize, $derive)]
        #[serde(deny_unknown_fields)]
        $($extra)*
        $(#[$attr])*
        pub struct $name {
            $($before)*
            $(#[$rows])*
            #[serde(default)]
            #[$helper(value_type = Option<i32>, minimum = 1, maximum = 20)]
            pub rows: Option<u64>,
            $(#[$cols])*
            #[serde(default)]
            #[$helper(value_type = Option<i32>, minimum = 1, maximum = 20)]
            pub cols: Option<u64>,
            $(#[$k])*
            #[serde(default)]
            #[$helper(value_type = Option<i32>, minimum = 1, maximum = 20)]
            pub k: Option<u64>,
            $(#[$gravity])*
            #[serde(default)]
            pub gravity: Option<bool>,
            $(#[$rule])*
            #[serde(default)]
            pub rule: Option<$crate::engine::Rule>,
            $($after)*
        }

        impl $name {
            /// The request's geometry fields, as sent.
            #[must_use]
            pub fn geometry_fields(&self) -> $crate::api::wire::GeometryFields {
                $crate::api::wire::GeometryFields {
                    rows: self.rows,
                    cols: self.cols,
                    k: self.k,
                    gravity: self.gravity,
                    rule: self.rule,
                }
            }

            /// This request with `fields` as its geometry (a request read from another form).
            #[must_use]
            pub fn with_geometry_fields(self, fields: $crate::api::wire::GeometryFields) -> Self {
                let $crate::api::wire::GeometryFields {
                    rows,
                    cols,
                    k,
                    gravity,
                    rule,
                } = fields;
                Self {
                    rows,
                    cols,
                    k,
                    gravity,
                    rule,
                    ..self
                }
            }
        }
    };
    // A JSON body with the common descriptions of `rows`, `cols` and `k`.
    (
        $(#[$attr:meta])*
        pub struct $name:ident { $($before:tt)* }
        geometry {
            $(#[$gravity:meta])* gravity,
            $(#[$rule:meta])* rule $(,)?
        }
        { $($after:tt)* }
    ) => {
        $crate::api::wire::geometry::request! {
            @common [
                "Rows of the board, 1..=15, or 1..=20 when k = 5 (3 when absent or null)."
                "Columns of the board, 1..=15, or 1..=20 when k = 5 (3 when absent or null)."
                "Marks in a row needed to win, 1..=max(rows, cols) (3 when absent or null)."
            ]
            [schema [utoipa::ToSchema] []]
            $(#[$attr])*
            pub struct $name { $($before)* }
            geometry { $(#[$gravity])* gravity, $(#[$rule])* rule }
            { $($after)* }
        }
    };
    // A JSON body that describes every geometry field itself.
    (
        $(#[$attr:meta])*
        pub struct $name:ident { $($before:tt)* }
        geometry { $($geometry:tt)* }
        { $($after:tt)* }
    ) => {
        $crate::api::wire::geometry::request! {
            @emit schema [utoipa::ToSchema] []
            $(#[$attr])*
            pub struct $name { $($before)* }
            geometry { $($geometry)* }
            { $($after)* }
        }
    };
}

pub(crate) use request;
