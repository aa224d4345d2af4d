//! The `addition` environment: grade-school addition on a scratch pad.
//!
//! Input `{"a": "1207", "b": "95"}`. The pad has n = max(len a, len b) + 1
//! columns, numbered from the left (column n − 1 holds the ones, column 0
//! is free for the last carry), and four rows of digits: `a` and `b`
//! (right-aligned, zero-padded), the carries and the output. Observations
//! `a(i)`, `b(i)`, `carry(i)`, `out(i)` and `sum(i)` (= a + b + carry) are
//! values, END off the pad. ACTs `WRITE_SUM(i)` (out := sum mod 10) and
//! `CARRY(i)` (a 1 into the carry row one column left), plus `NOP`, `MOVE`,
//! `SET`. Output: the output row as a decimal string.

use serde_json::{Map, Value};

use super::errors::{self, Extent};
use super::input;
use super::{
    ActContext, EnvState, Environment, InputForm, Mark, Panel, Picture, Shape, index, len_i64,
    object_text, row,
};
use crate::diagnostic::{Diagnostic, codes};
use crate::program::declared::{MOVE, NOP, SET};
use crate::program::{ActArg, ActDecl, EnvAct, EnvKind, Observation, ObservationKind, ParamType};

const ACTS: &[ActDecl] = &[
    NOP,
    MOVE,
    SET,
    ActDecl::new("WRITE_SUM", &[ParamType::Pointer]),
    ActDecl::new("CARRY", &[ParamType::Pointer]),
];

/// A digit row (or the column sum) read at a column.
const fn digits(name: &'static str) -> Observation {
    Observation {
        name,
        indexed: false,
        kind: ObservationKind::Value,
    }
}

const OBSERVATIONS: &[Observation] = &[
    digits("a"),
    digits("b"),
    digits("carry"),
    digits("out"),
    digits("sum"),
];

/// The addition environment (registered in `env::ENVIRONMENTS`).
pub(super) const ADDITION: Environment = Environment {
    name: "addition",
    stdlib: include_str!("../../stdlib/addition.cnpi"),
    acts: ACTS,
    observations: OBSERVATIONS,
    input: InputForm {
        shape: r#"a JSON object `{"a": "...", "b": "..."}`"#,
        example: r#"{"a": "1207", "b": "95"}"#,
        empty: r#"{"a": "0", "b": "0"}"#,
    },
    abilities: &[],
    read: |layout, input| {
        let value = input.parsed(layout.env)?;
        Ok(Box::new(AdditionState::from_json(layout.env, value)?))
    },
};

/// The scratch pad: four rows of digits, one entry per column, left to
/// right.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AdditionState {
    pub a: Vec<u8>,
    pub b: Vec<u8>,
    pub carry: Vec<u8>,
    pub out: Vec<u8>,
}

impl AdditionState {
    fn from_json(kind: EnvKind, value: Value) -> Result<AdditionState, Diagnostic> {
        let [a, b] = input::fields(kind, value, ["a", "b"])?;
        let (a, b) = (read_digits(kind, "a", &a)?, read_digits(kind, "b", &b)?);
        let n = a.len().max(b.len()) + 1;
        let pad = |row: Vec<u8>| [vec![0; n - row.len()], row].concat();
        Ok(AdditionState {
            a: pad(a),
            b: pad(b),
            carry: vec![0; n],
            out: vec![0; n],
        })
    }

    fn column(&self, at: i64) -> Option<usize> {
        index(at, self.out.len())
    }

    fn sum(&self, column: usize) -> u8 {
        self.a[column] + self.b[column] + self.carry[column]
    }

    fn extent(&self) -> Extent {
        Extent {
            needs: "on a column",
            verdict: "reads as END",
            describe: self.describe(),
        }
    }

    fn describe(&self) -> String {
        errors::describe_extent("the scratch pad", self.out.len(), "column", "columns")
    }

    /// E0702 for `CARRY(p)` when column p − 1 is off the pad.
    fn no_left_column(&self, ctx: &ActContext, p: usize) -> Diagnostic {
        let (value, name) = ctx.pointer(p);
        Diagnostic::error(
            codes::E0702,
            format!(
                "`CARRY` writes into the column left of `{name}`, but `{name}` = {value} has no \
                 such column ({})",
                self.describe()
            ),
        )
        .with_label(ctx.app.span, format!("`{name}` = {value} here"))
        .with_help(format!(
            "carry only from columns 1 and up, e.g. when `sum({name}) >= 10` holds"
        ))
    }

    /// The output row as a decimal number: leading zeros dropped, "0"
    /// when every digit is 0.
    pub fn sum_text(&self) -> String {
        let text = text(&self.out);
        match text.trim_start_matches('0') {
            "" => "0".to_string(),
            digits => digits.to_string(),
        }
    }
}

impl EnvState for AdditionState {
    fn len(&self) -> i64 {
        len_i64(self.out.len())
    }

    fn value(&self, observation: &Observation, at: i64) -> Option<i64> {
        let i = self.column(at)?;
        let digit = match observation.name {
            "a" => self.a[i],
            "b" => self.b[i],
            "carry" => self.carry[i],
            "out" => self.out[i],
            "sum" => self.sum(i),
            _ => return None,
        };
        Some(i64::from(digit))
    }

    fn apply(&mut self, act: &EnvAct, ctx: &ActContext) -> Result<bool, Diagnostic> {
        Ok(match (act.name(), act.args.as_slice()) {
            ("WRITE_SUM", &[ActArg::Pointer(p)]) => {
                let i = self
                    .column(ctx.pointer(p).0)
                    .ok_or_else(|| errors::off_environment(ctx, p, self.extent()))?;
                let digit = self.sum(i) % 10;
                std::mem::replace(&mut self.out[i], digit) != digit
            }
            ("CARRY", &[ActArg::Pointer(p)]) => {
                let (value, _) = ctx.pointer(p);
                let left = value.checked_sub(1).and_then(|at| self.column(at));
                let i = left.ok_or_else(|| self.no_left_column(ctx, p))?;
                std::mem::replace(&mut self.carry[i], 1) != 1
            }
            _ => return Err(errors::foreign_act(ctx.app, "addition")),
        })
    }

    fn to_json_text(&self, more: &[(&str, Value)]) -> String {
        let mut object = Map::new();
        object.insert("sum".into(), self.sum_text().into());
        object_text(object, more)
    }

    fn to_text(&self) -> String {
        [
            row("a", text(&self.a)),
            row("b", text(&self.b)),
            row("carry", text(&self.carry)),
            row("out", text(&self.out)),
            row("sum", self.sum_text()),
        ]
        .concat()
    }

    /// The pad: its four rows of digits, the pointers under the columns.
    fn picture(&self) -> Picture {
        let rows = [&self.a, &self.b, &self.carry, &self.out];
        let cells = (rows.iter().flat_map(|row| row.iter()))
            .map(|&d| Mark::Int(i64::from(d)))
            .collect();
        let shape = Shape::Grid {
            rows: ["a", "b", "carry", "out"].map(String::from).to_vec(),
            columns: self.a.len(),
            pointers: true,
        };
        vec![Panel::new("pad", shape, cells)]
    }
}

/// A row of digits as text.
fn text(digits: &[u8]) -> String {
    digits.iter().map(|d| char::from(b'0' + d)).collect()
}

/// The digits of the decimal string in field `field`.
fn read_digits(kind: EnvKind, field: &str, value: &Value) -> Result<Vec<u8>, Diagnostic> {
    let Value::String(text) = value else {
        return Err(input::wrong_shape(
            kind,
            &format!("`{field}` to be a string of decimal digits"),
            value,
        ));
    };
    let bad = |message: String| {
        Diagnostic::error(codes::E0606, message).with_help(format!(
            "write `{field}` as a non-negative decimal number in quotes, such as \"1207\""
        ))
    };
    if text.is_empty() {
        return Err(bad(format!(
            "`{field}` is empty, but it needs at least one digit"
        )));
    }
    text.chars()
        .enumerate()
        .map(|(i, c)| match c.to_digit(10) {
            // `to_digit(10)` accepts only `0`..`9`, so `d` fits in a u8.
            Some(d) => Ok(d as u8),
            _ => Err(bad(format!(
                "`{field}` is {}, but character {} (`{c}`) is not a decimal digit",
                input::show(value),
                i + 1
            ))),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::parse_input;

    fn pad(json: &str) -> Result<AdditionState, Diagnostic> {
        let kind = EnvKind::from_name("addition").expect("registered");
        parse_input(kind, json).map(|state| {
            let pad: &AdditionState = state.downcast().expect("a scratch pad");
            pad.clone()
        })
    }

    const SUM: Observation = digits("sum");
    const A: Observation = digits("a");

    #[test]
    fn digits_are_right_aligned_with_a_free_column() {
        let s = pad(r#"{"a": "1207", "b": "95"}"#).expect("valid");
        assert_eq!(
            (s.a.as_slice(), s.b.as_slice()),
            (&[0, 1, 2, 0, 7][..], &[0, 0, 0, 9, 5][..])
        );
        assert_eq!(s.len(), 5);
        assert_eq!(s.value(&SUM, 4), Some(12));
        assert_eq!(s.value(&A, 5), None);
        assert_eq!(s.value(&A, -1), None);
        assert_eq!(s.sum_text(), "0");
    }

    #[test]
    fn bad_digit_strings_are_named() {
        let e = pad(r#"{"a": "12x4", "b": "5"}"#).expect_err("x is no digit");
        assert_eq!(e.code, codes::E0606);
        assert_eq!(
            e.message,
            r#"`a` is "12x4", but character 3 (`x`) is not a decimal digit"#
        );
        let e = pad(r#"{"a": "1", "b": ""}"#).expect_err("empty");
        assert_eq!(
            (e.code, e.message.as_str()),
            (
                codes::E0606,
                "`b` is empty, but it needs at least one digit"
            )
        );
        assert_eq!(
            pad(r#"{"a": "-1", "b": "1"}"#).expect_err("sign").code,
            codes::E0606
        );
        assert_eq!(
            pad(r#"{"a": "١", "b": "1"}"#)
                .expect_err("arabic digit")
                .code,
            codes::E0606
        );
        let e = pad(r#"{"a": 12, "b": "1"}"#).expect_err("a number");
        assert_eq!(
            e.message,
            "expected `a` to be a string of decimal digits, found a number"
        );
        assert_eq!(
            pad(r#"{"a": "1"}"#).expect_err("no b").message,
            "the addition input has no `b` field"
        );
    }
}
