//! The data a `ram` program declares, and the cells its expressions read
//! and its ACTs write.
//!
//! A `ram` program names its memory: inputs (`input x`, `input A[n]`,
//! `input W[n][n]`), the sizes their shapes bind (`n`), and scratch
//! variables, arrays and matrices (`var t = 0`, `var d[n] = -1`). Each is a
//! [`Data`] of the checked program, numbered by [`DataId`] in declaration
//! order (a size just before the first input that binds it). A [`Cell`] is
//! one place of that memory: a scalar, or an element at computed indices.
//! Registers are not data: they are the machine's pointers.

use super::expr::EvalError;
use super::{PosExpr, World};
use crate::span::Span;

/// Index of a declared name in [`super::Program::data`].
pub type DataId = usize;

/// A declared name of a `ram` program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Data {
    pub name: String,
    /// Where the name is declared.
    pub span: Span,
    pub kind: DataKind,
    /// Its shape: none for a scalar, one length for an array, rows and
    /// columns for a matrix. An input's lengths are reads of sizes (`n`);
    /// a scratch array's are expressions of sizes and input scalars.
    pub dims: Vec<PosExpr>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DataKind {
    /// A member of the input object (writable, like any memory).
    Input,
    /// A length bound by an input's shape (`n` of `input A[n]`): read-only.
    Size,
    /// Scratch memory, every element starting at `init`.
    Var { init: PosExpr },
}

impl Data {
    /// How the declaration is written: `input A[n]`, `var d[n + 1] = -1`.
    pub fn shape(&self) -> &'static str {
        match self.dims.len() {
            0 => "an integer",
            1 => "an array",
            _ => "a matrix",
        }
    }
}

/// One place of a `ram` program's memory: a scalar (`t`, `n`, `x`) or an
/// element (`A[i]`, `D[i][j]`), with the name it was written with (for
/// printing) and its source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    pub data: DataId,
    pub name: String,
    /// The indices: as many as the data's dimensions.
    pub at: Vec<PosExpr>,
    pub span: Span,
}

impl Cell {
    /// The value in the cell; `None` (END) for an index outside its array.
    pub fn read(&self, world: &dyn World) -> Result<Option<i64>, EvalError> {
        let mut at = [0; 2];
        for (slot, e) in at.iter_mut().zip(&self.at) {
            *slot = e.eval(world)?;
        }
        Ok(world.cell(self.data, &at[..self.at.len().min(2)]))
    }

    /// The indices, evaluated.
    pub fn indices(&self, world: &dyn World) -> Result<Vec<i64>, EvalError> {
        self.at.iter().map(|e| e.eval(world)).collect()
    }
}
