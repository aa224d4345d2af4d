//! The data a `ram` program declares, and the cells its expressions read
//! and its ACTs write.
//!
//! A `ram` program names its memory: inputs (`input x`, `input A[n]`,
//! `input W[n][n]`), the sizes their shapes bind (`n`), and scratch
//! variables, arrays and matrices (`var t = 0`, `var d[n] = -1`). Each is a
//! [`Data`] of the checked program, numbered by [`super::DataId`] in
//! declaration order (a size just before the first input that binds it). A
//! [`super::Cell`] is one place of that memory: a scalar, or an element at
//! computed indices; it is an expression, so it stands in [`super::expr`].
//! Registers are not data: they are the machine's pointers.

use super::PosExpr;
use crate::span::Span;

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
