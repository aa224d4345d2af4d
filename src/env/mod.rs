//! The environments programs act on: `array`, `graph` and `addition`.
//!
//! Each environment parses and validates its JSON input ([`parse_input`]),
//! applies ACTs ([`State::apply`]), answers the observations of conditions
//! (through [`View`], a `program::World` that borrows the state and the
//! pointers) and formats its final state as text or JSON. [`signatures`] is
//! the Rust truth of what each environment offers; `stdlib/<env>.cnpi`
//! declares the same for the checker, and a test keeps the two in sync.
//! The interpreters own the pointers and the state stack (`_push`); every
//! other ACT is applied here.

mod addition;
mod array;
mod errors;
mod graph;
mod input;

pub use addition::AdditionState;
pub use array::{ArrayState, Tape};
pub use errors::{eval_error, internal};
pub use graph::GraphState;

use crate::diagnostic::Diagnostic;
use crate::program::{
    Act, ActApp, Color, Direction, ObservationKind, ParamType, Pointer, PointerId,
    ValueObservation, World,
};

/// Which environment a program runs in (the `env KIND(...)` line).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EnvKind {
    Array,
    Graph,
    Addition,
}

impl EnvKind {
    pub const ALL: [EnvKind; 3] = [EnvKind::Array, EnvKind::Graph, EnvKind::Addition];

    /// The name written after `env`.
    pub fn name(self) -> &'static str {
        match self {
            EnvKind::Array => "array",
            EnvKind::Graph => "graph",
            EnvKind::Addition => "addition",
        }
    }

    pub fn from_name(name: &str) -> Option<EnvKind> {
        EnvKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// What an environment implements: its ACTs (with `NOP`, without `_push`)
/// and its observations. `stdlib/<env>.cnpi` must declare exactly these.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Signatures {
    pub acts: &'static [ActSignature],
    pub observations: &'static [(&'static str, ObservationKind)],
}

pub fn signatures(kind: EnvKind) -> Signatures {
    match kind {
        EnvKind::Array => array::SIGNATURES,
        EnvKind::Graph => graph::SIGNATURES,
        EnvKind::Addition => addition::SIGNATURES,
    }
}

/// The signature of an ACT: its name and parameter types.
type ActSignature = (&'static str, &'static [ParamType]);

// The ACTs every environment offers.
const NOP: ActSignature = ("NOP", &[]);
const MOVE: ActSignature = ("MOVE", &[ParamType::Pointer, ParamType::Direction]);
const SET: ActSignature = ("SET", &[ParamType::Pointer, ParamType::Position]);

/// The input `cnpic run` uses when none is given.
pub fn empty_input(kind: EnvKind) -> &'static str {
    match kind {
        EnvKind::Array => "[]",
        EnvKind::Graph => r#"{"graph": []}"#,
        EnvKind::Addition => r#"{"a": "0", "b": "0"}"#,
    }
}

/// Parses and validates the JSON input of an environment. Every error is
/// an E06xx diagnostic without labels whose message names exactly what is
/// wrong (input is not a source file).
pub fn parse_input(kind: EnvKind, json: &str) -> Result<State, Diagnostic> {
    let value = input::parse_json(kind, json)?;
    Ok(match kind {
        EnvKind::Array => State::Array(ArrayState::from_json(value)?),
        EnvKind::Graph => State::Graph(GraphState::from_json(value)?),
        EnvKind::Addition => State::Addition(AdditionState::from_json(value)?),
    })
}

/// The state of a running environment (pointers and the state stack
/// belong to the interpreter).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum State {
    Array(ArrayState),
    Graph(GraphState),
    Addition(AdditionState),
}

impl State {
    pub fn kind(&self) -> EnvKind {
        match self {
            State::Array(_) => EnvKind::Array,
            State::Graph(_) => EnvKind::Graph,
            State::Addition(_) => EnvKind::Addition,
        }
    }

    /// n: the array length, the number of vertices or of columns.
    pub fn len(&self) -> i64 {
        match self {
            State::Array(s) => s.len(),
            State::Graph(s) => s.len(),
            State::Addition(s) => s.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The state as conditions see it, with the current pointer values.
    pub fn view<'a>(&'a self, pointers: &'a [i64]) -> View<'a> {
        View {
            state: self,
            pointers,
        }
    }

    /// Applies one ACT. `pointers` holds the value of each pointer of
    /// `decls` (same indices). `_push` belongs to the interpreter, which
    /// handles it before calling this; here it does nothing.
    pub fn apply(
        &mut self,
        app: &ActApp,
        pointers: &mut [i64],
        decls: &[Pointer],
    ) -> Result<(), Diagnostic> {
        match &app.act {
            Act::Nop | Act::Push(_) => Ok(()),
            Act::Move(p, direction) => {
                let step = match direction {
                    Direction::Left => -1,
                    Direction::Right => 1,
                };
                let at = &mut pointers[*p];
                *at = at
                    .checked_add(step)
                    .ok_or_else(|| errors::move_overflow(app, name(decls, *p), *at))?;
                Ok(())
            }
            Act::Set(p, position) => {
                let value = position.eval(&self.view(pointers)).map_err(eval_error)?;
                pointers[*p] = value;
                Ok(())
            }
            _ => {
                let ctx = ActContext {
                    app,
                    pointers,
                    decls,
                };
                match self {
                    State::Array(s) => s.apply(&ctx),
                    State::Graph(s) => s.apply(&ctx),
                    State::Addition(s) => s.apply(&ctx),
                }
            }
        }
    }

    /// The final state as the JSON object of `cnpic run --format json`.
    pub fn to_json(&self, steps: u64, engine: &str) -> serde_json::Value {
        let mut object = match self {
            State::Array(s) => s.to_json(),
            State::Graph(s) => s.to_json(),
            State::Addition(s) => s.to_json(),
        };
        object.insert("steps".into(), steps.into());
        object.insert("engine".into(), engine.into());
        serde_json::Value::Object(object)
    }

    /// The final state as aligned, readable lines (each ends with `\n`).
    pub fn to_text(&self, steps: u64, engine: &str) -> String {
        let mut text = match self {
            State::Array(s) => s.to_text(),
            State::Graph(s) => s.to_text(),
            State::Addition(s) => s.to_text(),
        };
        text.push_str(&row("steps", format!("{steps} ({engine})")));
        text
    }
}

/// One line of text output: a label padded to a common width, then the
/// content.
fn row(label: &str, content: impl std::fmt::Display) -> String {
    format!("{label:<6} {content}\n")
}

/// `[1, 2, 3]`
fn list<T: std::fmt::Display>(items: &[T]) -> String {
    let inner: Vec<String> = items.iter().map(T::to_string).collect();
    format!("[{}]", inner.join(", "))
}

/// The name of pointer `p`, for messages.
fn name(decls: &[Pointer], p: PointerId) -> &str {
    decls.get(p).map_or("?", |d| d.name.as_str())
}

/// An environment-specific ACT being applied, with what its error
/// messages need.
struct ActContext<'a> {
    app: &'a ActApp,
    pointers: &'a [i64],
    decls: &'a [Pointer],
}

impl ActContext<'_> {
    /// The value and the name of pointer `p`.
    fn pointer(&self, p: PointerId) -> (i64, &str) {
        (self.pointers[p], name(self.decls, p))
    }
}

/// The index `at` if it lies in `0..len`.
fn index(at: i64, len: usize) -> Option<usize> {
    usize::try_from(at).ok().filter(|&i| i < len)
}

/// `len` as an i64 (collections longer than i64::MAX cannot exist).
fn len_i64(len: usize) -> i64 {
    i64::try_from(len).unwrap_or(i64::MAX)
}

/// What the conditions of a running program read: an environment state
/// and the pointer values, both borrowed.
#[derive(Clone, Copy)]
pub struct View<'a> {
    state: &'a State,
    pointers: &'a [i64],
}

impl World for View<'_> {
    fn len(&self) -> i64 {
        self.state.len()
    }

    fn pointer(&self, pointer: PointerId) -> i64 {
        self.pointers[pointer]
    }

    fn value(&self, observation: ValueObservation, at: i64) -> Option<i64> {
        match self.state {
            State::Array(s) => s.value(observation, at),
            State::Addition(s) => s.value(observation, at),
            State::Graph(_) => None,
        }
    }

    fn color(&self, at: i64) -> Option<Color> {
        match self.state {
            State::Graph(s) => s.color(at),
            _ => None,
        }
    }

    fn has_child(&self, at: i64) -> bool {
        match self.state {
            State::Graph(s) => s.has_child(at),
            _ => false,
        }
    }

    fn child(&self, at: i64) -> i64 {
        match self.state {
            State::Graph(s) => s.child(at),
            _ => self.state.len(),
        }
    }
}
