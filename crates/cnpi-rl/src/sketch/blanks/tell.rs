//! Telling a filling from the answer: the probe inputs, drawn from the
//! examples' shapes with their values drawn again and, in `ram`, from the
//! shapes the program declares, and how the answer ends on each; a
//! filling that passes every example but ends differently on one of
//! them makes the answer ambiguous.

use std::collections::HashMap;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Map, Value};

use cnpi::diagnostic::{Diagnostic, codes};
use cnpi::env::{self, Declarations, State};
use cnpi::exec::{Options, Outcome};
use cnpi::program::{DataKind, PosKind, Program};
use cnpi::symbolic;

use super::{BlankSketch, observed_applies};

/// Random inputs tried to tell two fillings apart.
const TELL_APART: usize = 500;

impl BlankSketch {
    /// The members some example asks for, in order of first mention.
    pub(super) fn members(&self) -> Vec<String> {
        let mut members: Vec<String> = Vec::new();
        for example in &self.examples {
            for member in example.output.keys() {
                if !members.contains(member) {
                    members.push(member.clone());
                }
            }
        }
        members
    }

    /// The inputs that may tell a filling from the answer (compiled), with
    /// how the answer ends on each (as the reference interpreter runs
    /// it): [`TELL_APART`] drawn with `seed`, the examples' own shapes
    /// with their values drawn again ([`varied`]) and, in `ram`, every
    /// other one of the shapes the program declares ([`random_input`]).
    pub(super) fn teller(&self, answer: &Program, seed: u64) -> Teller {
        let layout = Declarations::of(&self.program);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        // An array sorted in every example is drawn sorted.
        let sorted: Vec<&str> = (self.program.data.iter())
            .filter(|d| d.kind == DataKind::Input && d.dims.len() == 1)
            .map(|d| d.name.as_str())
            .filter(|name| {
                (self.examples.iter()).all(|e| {
                    let numbers = e.json.get(*name).and_then(Value::as_array);
                    numbers.is_some_and(|a| a.windows(2).all(|w| w[0].as_i64() <= w[1].as_i64()))
                })
            })
            .collect();
        let least = self.least_sizes();
        let all: Vec<Value> = self.examples.iter().map(|e| e.json.clone()).collect();
        let values = range(&Value::Array(all));
        let members = self.members();
        let mut inputs = Vec::new();
        for k in 0..TELL_APART {
            // In `ram`, every other input has an example's shape (its
            // values drawn again), the rest random sizes; the values
            // within the examples' own.
            let mut json = if observed_applies(&self.program) || k % 2 == 1 {
                let example = &self.examples[rng.random_range(0..self.examples.len())];
                varied(&example.json, &mut rng)
            } else {
                random_input(&self.program, values, &least, &mut rng)
            };
            for name in &sorted {
                if let Some(Value::Array(items)) = json.get_mut(*name) {
                    items.sort_by_key(Value::as_i64);
                }
            }
            let Ok(state) = env::read_value(&layout, json.clone()) else {
                continue;
            };
            let end = ends(answer, &state, self.options(), &members);
            inputs.push((json, state, end));
        }
        Teller { inputs, members }
    }
}

/// Inputs on which to tell fillings from the answer, and how the answer
/// ends on each.
pub(super) struct Teller {
    pub(super) inputs: Vec<(Value, State, Result<Vec<Value>, String>)>,
    /// The members some example asks for.
    pub(super) members: Vec<String>,
}

impl Teller {
    /// The first input on which `program` ends differently from the
    /// answer in a member the examples ask for.
    pub(super) fn differs(&self, sketch: &BlankSketch, program: &Program) -> Option<Value> {
        (self.inputs.iter())
            .find(|(_, state, end)| ends(program, state, sketch.options(), &self.members) != *end)
            .map(|(json, _, _)| json.clone())
    }
}

/// How a run ends: the values of `members`, or its error's code.
fn ends(
    program: &Program,
    state: &State,
    options: Options,
    members: &[String],
) -> Result<Vec<Value>, String> {
    end_of(symbolic::run(program, state.clone(), options), members)
}

/// How the run `run` ended: the values of `members`, or its error's code
/// (a run stopped at a loop tested twice on one state, [`angelic`], as one
/// that never ends: E0701).
pub(super) fn end_of(
    run: Result<Outcome, Diagnostic>,
    members: &[String],
) -> Result<Vec<Value>, String> {
    let run = run.map_err(|d| match d.code == codes::E0709 {
        true => codes::E0701.to_string(),
        false => d.code.to_string(),
    });
    run.map(|outcome: Outcome| {
        let json = outcome.to_json("symbolic");
        (members.iter())
            .map(|m| json.get(m).cloned().unwrap_or_default())
            .collect()
    })
}

/// A random input for `program`: every size from the least of `least` (0
/// for a size not there) to 7, every element and input integer between
/// the two of `values`.
fn random_input(
    program: &Program,
    values: (i64, i64),
    least: &HashMap<usize, usize>,
    rng: &mut ChaCha8Rng,
) -> Value {
    let mut sizes: HashMap<usize, usize> = HashMap::new();
    let mut object = Map::new();
    for (id, data) in program.data.iter().enumerate() {
        match data.kind {
            DataKind::Size => {
                let low = least.get(&id).copied().unwrap_or(0).min(7);
                sizes.insert(id, rng.random_range(low..=7));
            }
            DataKind::Input => {
                let dims: Vec<usize> = (data.dims.iter())
                    .map(|d| match &d.kind {
                        PosKind::Read(cell) => sizes.get(&cell.data).copied().unwrap_or(0),
                        _ => 0,
                    })
                    .collect();
                let mut element = || Value::from(rng.random_range(values.0..=values.1));
                let value = match dims.as_slice() {
                    [] => element(),
                    [n] => Value::Array((0..*n).map(|_| element()).collect()),
                    [rows, columns] => Value::Array(
                        (0..*rows)
                            .map(|_| Value::Array((0..*columns).map(|_| element()).collect()))
                            .collect(),
                    ),
                    _ => Value::Null,
                };
                object.insert(data.name.clone(), value);
            }
            DataKind::Var { .. } => {}
        }
    }
    Value::Object(object)
}

/// `input` (an environment's JSON input) with each integer drawn again
/// between the input's smallest and largest (0 and 1 at least: a graph's
/// vertices stay vertices) and each digit of a string drawn again: the
/// same shape, other values (an input the environment refuses is skipped).
fn varied(input: &Value, rng: &mut ChaCha8Rng) -> Value {
    fn draw(v: &Value, range: (i64, i64), rng: &mut ChaCha8Rng) -> Value {
        match v {
            Value::Number(_) => Value::from(rng.random_range(range.0..=range.1)),
            Value::String(text) => Value::from(
                (text.chars())
                    .map(|c| match c.is_ascii_digit() {
                        true => char::from(b'0' + rng.random_range(0..=9u8)),
                        false => c,
                    })
                    .collect::<String>(),
            ),
            Value::Array(items) => {
                Value::Array(items.iter().map(|v| draw(v, range, rng)).collect())
            }
            Value::Object(members) => Value::Object(
                (members.iter())
                    .map(|(k, v)| (k.clone(), draw(v, range, rng)))
                    .collect(),
            ),
            other => other.clone(),
        }
    }
    draw(input, range(input), rng)
}

/// The smallest and the largest integer in `json` (0 and 1 at least).
fn range(json: &Value) -> (i64, i64) {
    fn numbers(v: &Value, out: &mut Vec<i64>) {
        match v {
            Value::Number(k) => out.extend(k.as_i64()),
            Value::Array(items) => items.iter().for_each(|v| numbers(v, out)),
            Value::Object(members) => members.values().for_each(|v| numbers(v, out)),
            _ => {}
        }
    }
    let mut all = Vec::new();
    numbers(json, &mut all);
    let low = all.iter().copied().min().unwrap_or(0).min(0);
    let high = all.iter().copied().max().unwrap_or(1).max(1);
    (low, high)
}
