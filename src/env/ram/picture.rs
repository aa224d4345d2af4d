//! The `ram` environment as the trace viewer (`cnpic run --html`) draws
//! it: one panel of the scalars (sizes, scalar inputs and `var`s, in
//! declaration order), a row per array with the registers that hold one
//! of its indices drawn under that cell, a table per matrix (rows numbered
//! like its columns), and the output tape. Registers are the machine's
//! pointers, which the page lists on its own.

use super::{RamState, Region};
use crate::env::{Mark, Panel, Picture, Shape};

/// The panels of `state`, in the order they are drawn.
pub(super) fn picture(state: &RamState) -> Picture {
    let mut names = Vec::new();
    let mut scalars = Vec::new();
    let mut panels = Vec::new();
    for (name, memory) in state.names.data.iter().zip(&state.memory) {
        match memory {
            Region::Scalar(value) => {
                names.push(name.clone());
                scalars.push(Mark::Int(*value));
            }
            Region::Array(values) => panels.push(Panel::row(name.as_str(), true, values)),
            Region::Matrix { rows, cols, values } => {
                let shape = Shape::Grid {
                    rows: (0..*rows).map(|r| r.to_string()).collect(),
                    columns: *cols,
                    pointers: false,
                };
                let cells = values.iter().map(|&v| Mark::Int(v)).collect();
                panels.push(Panel::new(name.as_str(), shape, cells));
            }
        }
    }
    if !names.is_empty() {
        panels.insert(0, Panel::new("variables", Shape::Named { names }, scalars));
    }
    panels.push(Panel::row("output", false, &state.output));
    panels
}

#[cfg(test)]
mod tests {
    use crate::env::{Declarations, Mark, Panel, Shape, read_input};

    #[test]
    fn scalars_arrays_matrices_and_the_tape_are_drawn() {
        let text = "env ram(i = 0)\ninput A[n]\ninput x\nvar t = 7\nvar D[2][n] = 1\n\
                    def MAIN: seq(; WRITE(A[i], x), OUT(t), NOP)\n";
        let program = crate::compile::compile("p.cnpi", text, None)
            .program
            .expect("the program compiles");
        let json = r#"{"A": [5, 3, 9], "x": 4}"#;
        let state = read_input(&Declarations::of(&program), json).expect("reads");
        let ints = |values: &[i64]| values.iter().map(|&v| Mark::Int(v)).collect::<Vec<_>>();
        let names = ["n", "x", "t"].map(String::from).to_vec();
        let grid = Shape::Grid {
            rows: vec!["0".into(), "1".into()],
            columns: 3,
            pointers: false,
        };
        assert_eq!(
            state.picture(),
            vec![
                Panel::new("variables", Shape::Named { names }, ints(&[3, 4, 7])),
                Panel::row("A", true, &[5, 3, 9]),
                Panel::new("D", grid, ints(&[1; 6])),
                Panel::row("output", false, &[]),
            ]
        );
    }
}
