//! The `ram` environment as the trace viewer (`cnpic run --html`) draws
//! it: one panel of the scalars (sizes, scalar inputs and `var`s, in
//! declaration order), a row per array with the registers that hold one
//! of its indices drawn under that cell, a table per matrix (rows numbered
//! like its columns), and the output tape. Registers are the machine's
//! pointers, which the page lists on its own. A program's local array
//! (language.md §5.2) is drawn under its written name with "local" before
//! it, and the hidden lengths that go with it are not drawn.

use super::{RamState, Region};
use crate::env::{Mark, Panel, Picture, Shape};
use crate::program::hidden::{hidden, written};

/// The panels of `state`, in the order they are drawn.
pub(super) fn picture(state: &RamState) -> Picture {
    let mut names = Vec::new();
    let mut scalars = Vec::new();
    let mut panels = Vec::new();
    for (name, memory) in state.names.data.iter().zip(&state.memory) {
        let local = hidden(name) && written(name) != name;
        let title = match local {
            true => format!("local {}", written(name)),
            false => name.clone(),
        };
        match memory {
            Region::Scalar(_) if local => {}
            Region::Scalar(value) => {
                names.push(name.clone());
                scalars.push(Mark::Int(*value));
            }
            Region::Array(values) => panels.push(Panel::row(title, true, values)),
            Region::Matrix { rows, cols, values } => {
                let shape = Shape::Grid {
                    rows: (0..*rows).map(|r| r.to_string()).collect(),
                    columns: *cols,
                    pointers: false,
                };
                let cells = values.iter().map(|&v| Mark::Int(v)).collect();
                panels.push(Panel::new(title, shape, cells));
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

    #[test]
    fn a_local_array_is_drawn_by_its_written_name_without_its_length() {
        let text = "env ram(i = 0)\ninput A[n]\nvar _0n_L = 2\nvar _0a_L[n]\n\
                    def MAIN: seq(; WRITE(A[i], 1), NOP, NOP)\n";
        let program = crate::compile::compile("p.cnpi", text, None)
            .program
            .expect("the program compiles");
        let state = read_input(&Declarations::of(&program), r#"{"A": [5]}"#).expect("reads");
        let titles: Vec<String> = state.picture().iter().map(|p| p.title.clone()).collect();
        assert_eq!(titles, ["variables", "A", "local L", "output"]);
    }
}
