//! The `array` environment: an array `A` of i64 and an output tape.
//!
//! Input `[5, 3, 9, 1]`; ACTs `SWAP`, `OUT`, `OUT(OK)`, `CLEAR` and
//! `OUTCLEAR` (plus the common `NOP`, `MOVE`, `SET`); observation `A[e]`, END off the array.
//! Output: the final `A` and the tape.

use serde_json::{Map, Value};

use super::errors::{self, Extent};
use super::input::{self, integer, not_i64};
use super::{
    ActContext, EnvState, Environment, InputForm, Mark, Panel, Picture, Shape, index, len_i64,
    list, object_text, row,
};
use crate::diagnostic::Diagnostic;
use crate::program::declared::{MOVE, NOP, SET};
use crate::program::{ActArg, ActDecl, EnvAct, EnvKind, Observation, ObservationKind, ParamType};

const ACTS: &[ActDecl] = &[
    NOP,
    MOVE,
    ActDecl::new("SWAP", &[ParamType::Pointer, ParamType::Pointer]),
    SET,
    ActDecl::new("OUT", &[ParamType::Pointer]),
    ActDecl::new("OUT", &[ParamType::Ok]),
    ActDecl::new("CLEAR", &[ParamType::Pointer]),
    ActDecl::new("OUTCLEAR", &[ParamType::Pointer]),
];

const OBSERVATIONS: &[Observation] = &[Observation {
    name: "A",
    indexed: true,
    kind: ObservationKind::Value,
}];

/// The array environment (registered in `env::ENVIRONMENTS`).
pub(super) const ARRAY: Environment = Environment {
    name: "array",
    stdlib: include_str!("../../stdlib/array.cnpi"),
    acts: ACTS,
    observations: OBSERVATIONS,
    input: InputForm {
        shape: "a JSON array of integers",
        example: "[5, 3, 9, 1]",
        empty: "[]",
    },
    abilities: &[],
    read: |layout, input| {
        let value = input.parsed(layout.env)?;
        Ok(Box::new(ArrayState::from_json(layout.env, value)?))
    },
};

/// One entry of the output tape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tape {
    Int(i64),
    /// The symbol written by `OUT(OK)`.
    Ok,
}

impl std::fmt::Display for Tape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Tape::Int(k) => write!(f, "{k}"),
            Tape::Ok => f.write_str("OK"),
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ArrayState {
    pub a: Vec<i64>,
    pub output: Vec<Tape>,
}

impl ArrayState {
    fn from_json(kind: EnvKind, value: Value) -> Result<ArrayState, Diagnostic> {
        let items = input::top_array(kind, value)?;
        let a = items
            .iter()
            .enumerate()
            .map(|(i, item)| {
                integer(item).map_err(|why| not_i64(kind, &format!("element {i}"), item, why))
            })
            .collect::<Result<_, _>>()?;
        Ok(ArrayState {
            a,
            output: Vec::new(),
        })
    }

    fn extent(&self) -> Extent {
        Extent {
            needs: "on the array",
            verdict: "reads as END",
            describe: errors::describe_extent("the array", self.a.len(), "element", "elements"),
        }
    }
}

impl EnvState for ArrayState {
    fn len(&self) -> i64 {
        len_i64(self.a.len())
    }

    fn value(&self, observation: &Observation, at: i64) -> Option<i64> {
        match observation.name {
            "A" => index(at, self.a.len()).map(|i| self.a[i]),
            _ => None,
        }
    }

    fn apply(&mut self, act: &EnvAct, ctx: &ActContext) -> Result<bool, Diagnostic> {
        let cell = |p| {
            index(ctx.pointer(p).0, self.a.len())
                .ok_or_else(|| errors::off_environment(ctx, p, self.extent()))
        };
        Ok(match (act.name(), act.args.as_slice()) {
            ("SWAP", &[ActArg::Pointer(p), ActArg::Pointer(q)]) => {
                let (i, j) = (cell(p)?, cell(q)?);
                self.a.swap(i, j);
                self.a[i] != self.a[j]
            }
            ("OUT", &[ActArg::Pointer(p)]) => {
                let i = cell(p)?;
                super::room_on_tape(self.output.len(), ctx.app)?;
                self.output.push(Tape::Int(self.a[i]));
                true
            }
            ("OUT", [ActArg::Ok]) => {
                super::room_on_tape(self.output.len(), ctx.app)?;
                self.output.push(Tape::Ok);
                true
            }
            ("CLEAR", &[ActArg::Pointer(p)]) => {
                let i = cell(p)?;
                std::mem::replace(&mut self.a[i], -1) != -1
            }
            ("OUTCLEAR", &[ActArg::Pointer(p)]) => {
                let i = cell(p)?;
                super::room_on_tape(self.output.len(), ctx.app)?;
                self.output.push(Tape::Int(self.a[i]));
                self.a[i] = -1;
                true
            }
            _ => return Err(errors::foreign_act(ctx.app, "array")),
        })
    }

    fn to_json_text(&self, more: &[(&str, Value)]) -> String {
        let output = self
            .output
            .iter()
            .map(|t| match t {
                Tape::Int(k) => Value::from(*k),
                Tape::Ok => Value::from("OK"),
            })
            .collect();
        let mut object = Map::new();
        object.insert("A".into(), self.a.clone().into());
        object.insert("output".into(), Value::Array(output));
        object_text(object, more)
    }

    fn to_text(&self) -> String {
        row("A", list(&self.a)) + &row("output", list(&self.output))
    }

    /// `A` with the pointers under it, and the output tape.
    fn picture(&self) -> Picture {
        let tape = (self.output.iter())
            .map(|t| match t {
                Tape::Int(k) => Mark::Int(*k),
                Tape::Ok => Mark::Sym("OK"),
            })
            .collect();
        vec![
            Panel::row("A", true, &self.a),
            Panel::new("output", Shape::Row { pointers: false }, tape),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::codes;
    use crate::env::parse_input;

    fn array() -> EnvKind {
        EnvKind::from_name("array").expect("registered")
    }

    fn error(json: &str) -> Diagnostic {
        parse_input(array(), json).expect_err("the input is invalid")
    }

    #[test]
    fn reads_any_i64() {
        let state = parse_input(
            array(),
            "[3, -1, 9223372036854775807, -9223372036854775808]",
        )
        .expect("valid input");
        let s: &ArrayState = state.downcast().expect("an array state");
        assert_eq!(s.a, [3, -1, i64::MAX, i64::MIN]);
        assert!(parse_input(array(), " [ ] ").is_ok());
    }

    #[test]
    fn malformed_json_says_where() {
        let e = error("[1,\n 2 3]");
        assert_eq!(e.code, codes::E0601);
        assert_eq!(
            e.message,
            "the input is not valid JSON: expected `,` or `]` at line 2 column 4"
        );
        assert!(e.labels.is_empty());
    }

    #[test]
    fn wrong_shape_names_what_was_found() {
        let e = error(r#"{"A": [1]}"#);
        assert_eq!(e.code, codes::E0602);
        assert_eq!(
            e.message,
            "expected a JSON array of integers, found an object"
        );
    }

    #[test]
    fn non_integers_are_named_by_index() {
        let e = error("[1, 2, 3, 1.5]");
        assert_eq!(e.code, codes::E0603);
        assert_eq!(e.message, "element 3 is 1.5, not an integer");
        assert_eq!(error("[2.0]").message, "element 0 is 2.0, not an integer");
        assert_eq!(error("[9.1e18]").code, codes::E0603);
        assert_eq!(
            error(r#"[1, "7"]"#).message,
            r#"element 1 is "7", not an integer"#
        );
        assert_eq!(
            error("[[1]]").message,
            "element 0 is an array, not an integer"
        );
    }

    #[test]
    fn integers_outside_i64_are_rejected() {
        for big in [
            "9223372036854775808",
            "-9223372036854775809",
            "100000000000000000000",
        ] {
            let e = error(&format!("[0, {big}]"));
            assert_eq!(e.code, codes::E0604, "{big}");
            assert!(e.message.starts_with("element 1 is "), "{}", e.message);
        }
    }
}
