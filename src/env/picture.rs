//! What an environment's state looks like, as data a viewer draws without
//! knowing the environment: [`EnvState::picture`](super::EnvState::picture).
//!
//! A [`Picture`] is a list of [`Panel`]s, each a titled sequence of
//! [`Mark`]s with a [`Shape`] that says how to lay them out: a row (an
//! array, a tape) or a grid (a scratch pad, a matrix), each optionally
//! with the machine's pointers drawn under the column they point at; a
//! list of named values (variables); or a graph's vertices with their
//! edges. The trace viewer (`cnpic run --html`) records a picture at each
//! step and draws it; a new environment supplies its own picture and the
//! viewer needs no change.

use crate::program::Color;

/// One value shown in a panel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mark {
    Int(i64),
    /// A symbol (`OK`, a colour, `END`), drawn as its name.
    Sym(&'static str),
}

impl From<i64> for Mark {
    fn from(value: i64) -> Mark {
        Mark::Int(value)
    }
}

impl From<Color> for Mark {
    fn from(color: Color) -> Mark {
        Mark::Sym(match color {
            Color::White => "WHITE",
            Color::Grey => "GREY",
            Color::Black => "BLACK",
        })
    }
}

/// How a panel's cells are laid out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// One row; with `pointers`, each pointer whose value is a column
    /// index is drawn under that column.
    Row { pointers: bool },
    /// Rows of `columns` cells each, named by `rows`; pointers as for a row.
    Grid {
        rows: Vec<String>,
        columns: usize,
        pointers: bool,
    },
    /// One cell per name: variables.
    Named { names: Vec<String> },
    /// Vertex `i`'s cell is its colour; `edges` are `(from, to)` pairs.
    Graph { edges: Vec<(usize, usize)> },
}

/// A titled group of cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Panel {
    pub title: String,
    pub shape: Shape,
    pub cells: Vec<Mark>,
}

impl Panel {
    pub fn new(title: impl Into<String>, shape: Shape, cells: Vec<Mark>) -> Panel {
        Panel {
            title: title.into(),
            shape,
            cells,
        }
    }

    /// A row of integers.
    pub fn row(title: impl Into<String>, pointers: bool, values: &[i64]) -> Panel {
        let cells = values.iter().map(|&v| Mark::Int(v)).collect();
        Panel::new(title, Shape::Row { pointers }, cells)
    }
}

/// An environment's state as panels, in the order they are drawn.
pub type Picture = Vec<Panel>;
