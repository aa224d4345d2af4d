//! The environments programs act on, one module each, and their registry.
//!
//! An environment is two things: an [`Environment`], one value that
//! describes it (its name, its `stdlib/<env>.cnpi`, the ACTs and
//! observations it implements, what its JSON input looks like, its
//! [`Ability`]s and how it reads that input), and the [`EnvState`] that
//! input becomes, which applies the environment's ACTs, answers its
//! observations and formats the final state. [`ENVIRONMENTS`] lists them
//! all; everything else (the stdlib loader, the checker's names, the
//! network's ACT rows, the tests that hold each stdlib file against its
//! Rust side) iterates over that list, and asks for an ability (declared
//! memory, registers), never for an environment by name. [`State`] is a
//! running environment as the engines hold it, and [`View`] what
//! conditions read of it (a `program::World`). The machine's own ACTs are
//! applied here for every environment: `MOVE` and `SET` change a pointer,
//! `NOP` nothing; the interpreters apply `_push` to their state stack.

mod addition;
mod array;
mod errors;
mod graph;
mod input;
mod picture;
mod ram;

pub use array::{ArrayState, Tape};
pub use errors::{eval_error, hole_reached, internal};
pub use input::parse_strict;
pub use picture::{Mark, Panel, Picture, Shape};
pub use ram::{ArrayStore, Cells, CompiledAct, MAX_SCRATCH, RawRegion};

use std::any::Any;

use serde_json::{Map, Value};

use crate::diagnostic::Diagnostic;
use crate::program::declared::NOP;
use crate::program::{
    Act, ActApp, ActDecl, Color, Data, DataId, Direction, EnvAct, EnvKind, Observation,
    ObservationKind, ParamType, Pointer, PointerId, Program, World,
};

/// Every environment, in the order of their stdlib files and of their ACTs'
/// rows in program memory. A new environment is one more line here.
pub const ENVIRONMENTS: &[&Environment] =
    &[&array::ARRAY, &graph::GRAPH, &addition::ADDITION, &ram::RAM];

/// The most entries a run may write on its output tape (E0707).
pub const MAX_OUTPUT: usize = 1 << 24;

/// What a program declares that its input is read against: the
/// environment it runs in, its registers (pointers) and its named data
/// (`ram`; empty elsewhere). The one record of it: a run plan keeps it, a
/// program memory keeps one per program, and the environments read an
/// input against it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Declarations {
    pub env: EnvKind,
    pub registers: Vec<Pointer>,
    pub data: Vec<Data>,
}

impl Declarations {
    /// What a checked program declares.
    pub fn of(program: &Program) -> Declarations {
        Declarations {
            env: program.env,
            registers: program.pointers.clone(),
            data: program.data.clone(),
        }
    }

    /// Nothing declared in `env` (an input read as the environment alone
    /// describes it).
    pub fn none(env: EnvKind) -> Declarations {
        Declarations {
            env,
            registers: Vec::new(),
            data: Vec::new(),
        }
    }
}

/// An environment's static description: one value per environment,
/// listed in [`ENVIRONMENTS`]. Everything but reading an input is data.
pub struct Environment {
    /// The name written after `env`.
    pub name: &'static str,
    /// The text of `stdlib/<name>.cnpi`, which declares to the checker the
    /// same ACTs and observations as `acts` and `observations` (a test
    /// holds them together).
    pub stdlib: &'static str,
    /// The ACTs it implements, the machine's `NOP`, `MOVE` and `SET`
    /// included, in the order of its stdlib file.
    pub acts: &'static [ActDecl],
    /// The observations it implements, in the order of its stdlib file.
    pub observations: &'static [Observation],
    /// What its JSON input looks like.
    pub input: InputForm,
    /// What it can do beyond ACTs and observations (none for most). The
    /// phases ask for an ability ([`Environment::has`]), never for an
    /// environment by name.
    pub abilities: &'static [Ability],
    /// The state its JSON input describes for a program that declares
    /// `layout`; every error is an E06xx diagnostic without labels, with
    /// the help of [`input`].
    pub read: Reader,
}

/// How an environment reads its input (see [`Environment::read`]).
pub type Reader = fn(&Declarations, Input) -> Result<Box<dyn EnvState>, Diagnostic>;

/// An input as an environment reads it: its JSON text (`cnpic run
/// --input`), that JSON already parsed (an input inside a larger JSON
/// file, as `cnpic learn`'s examples), or its members given as integers
/// by whoever has them so (the Python package's ints and lists). A reader
/// may read the text or the members its own faster way, as `ram` does, as
/// long as it gives what [`Input::parsed`] would.
pub enum Input<'t> {
    Text(&'t str),
    Value(Value),
    /// The members of an input object, by name.
    Given(Vec<(String, Given)>),
}

impl Input<'_> {
    /// The JSON value of an input of `kind`: the text parsed (E0601, E0602
    /// for a key twice at the top level), the value as it is, or the
    /// object of the given members.
    pub fn parsed(self, kind: EnvKind) -> Result<Value, Diagnostic> {
        match self {
            Input::Text(text) => input::parse_json(kind, text),
            Input::Value(value) => Ok(value),
            Input::Given(members) => {
                let mut object = Map::new();
                for (name, given) in members {
                    if object.contains_key(&name) {
                        return Err(input::key_twice(kind, &name));
                    }
                    object.insert(name, given.into_value());
                }
                Ok(Value::Object(object))
            }
        }
    }
}

/// An input member given as integers (see [`Input::Given`]): what the
/// member's JSON would be read into.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Given {
    Integer(i64),
    List(Vec<i64>),
    /// A matrix: `rows` rows of `cols` integers, row-major.
    Rows {
        rows: usize,
        cols: usize,
        values: Vec<i64>,
    },
}

impl Given {
    /// The member as JSON. A matrix whose values are not `rows` × `cols`
    /// has a last row of another length, which the reader finds.
    fn into_value(self) -> Value {
        match self {
            Given::Integer(k) => k.into(),
            Given::List(values) => values.into(),
            Given::Rows { rows, cols, values } => (0..rows)
                .map(|r| {
                    let take = if r + 1 == rows { usize::MAX } else { cols };
                    let row = values.iter().skip(r.saturating_mul(cols)).take(take);
                    row.copied().collect::<Value>()
                })
                .collect(),
        }
    }
}

/// What an environment's JSON input looks like, for messages and defaults.
pub struct InputForm {
    /// In words: "a JSON array of integers".
    pub shape: &'static str,
    /// A valid input, for help lines: `[5, 3, 9, 1]`.
    pub example: &'static str,
    /// The input `cnpic run` uses when none is given.
    pub empty: &'static str,
}

/// What only some environments can do: the memory-style environments
/// (`ram`) have both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ability {
    /// Programs declare their memory by name (`input x`, `var t = 0`,
    /// `input A[n]`): its cells are read and written by name
    /// ([`EnvState::cell`], the `place` parameters of its ACTs), the input
    /// is read by the declared names ([`Declarations::data`]), and the pointers
    /// are registers. Without it, `input` and `var` are E0112.
    DeclaredMemory,
    /// A run's output holds the registers' final values
    /// ([`EnvState::finish`]), so they are part of what a program
    /// computes: the combinatorizer keeps the entry's registers live.
    Registers,
}

impl Environment {
    /// Whether it has `ability`.
    pub fn has(&self, ability: Ability) -> bool {
        self.abilities.contains(&ability)
    }

    /// The words with a fixed meaning its programs use: `END`, `LAST`
    /// (not with declared memory, whose reads name their cells), and the
    /// values its ACTs' parameters and its observations take (`LEFT` and
    /// `RIGHT` for a direction, the colours for a colour or a symbol, `OK`).
    pub fn words(&self) -> Vec<&'static str> {
        let mut words = vec!["END"];
        if !self.has(Ability::DeclaredMemory) {
            words.push("LAST");
        }
        let params = self.acts.iter().flat_map(|act| act.params.iter().copied());
        let symbols = (self.observations.iter())
            .any(|observation| observation.kind == ObservationKind::Symbol)
            .then_some(ParamType::Color);
        for word in params.chain(symbols).flat_map(ParamType::words) {
            if !words.contains(word) {
                words.push(word);
            }
        }
        words
    }
}

/// The state of a running environment (the pointers and the state stack
/// belong to the interpreter). Observations an environment does not have
/// read as END (a value or symbol), false (a test) or n (a position).
#[allow(clippy::len_without_is_empty)] // n is a size to compute with, not a container's.
pub trait EnvState: std::fmt::Debug + Send + Sync + AnyState {
    /// n: the array length, the number of vertices or of columns.
    fn len(&self) -> i64;
    /// Applies one of the environment's ACTs (never `NOP`, `MOVE`, `SET`);
    /// says whether it changed anything (a write of the value already
    /// there, or a swap of equal values, does not; output always does).
    fn apply(&mut self, act: &EnvAct, ctx: &ActContext) -> Result<bool, Diagnostic>;
    fn value(&self, _observation: &Observation, _at: i64) -> Option<i64> {
        None
    }
    fn symbol(&self, _observation: &Observation, _at: i64) -> Option<Color> {
        None
    }
    fn test(&self, _observation: &Observation, _at: i64) -> bool {
        false
    }
    fn position(&self, _observation: &Observation, _at: i64) -> i64 {
        self.len()
    }
    /// A cell of declared memory, as [`World::cell`] (environments with
    /// [`Ability::DeclaredMemory`]).
    fn cell(&self, _data: DataId, _at: &[i64]) -> Option<i64> {
        None
    }
    /// Records what the finished run leaves in the pointers (environments
    /// with [`Ability::Registers`] report them).
    fn finish(&mut self, _pointers: &[i64]) {}
    /// The JSON object of `cnpic run --format json` with the members
    /// `more` added (each replacing a member of its name), as compact
    /// text (serde_json's layout): the one writer of a state's output,
    /// which [`State::to_json`] reads back. An environment of small states
    /// writes its members' `Value`s with [`object_text`]; one whose states
    /// grow large writes its [`Self::members`] without the `Value`s.
    fn to_json_text(&self, more: &[(&str, Value)]) -> String;
    /// The members of [`Self::to_json_text`]'s object as the integers
    /// they hold, in its key order, for a reader that makes its own
    /// objects of them (the Python package); `None` where the environment
    /// does not hold them so (only `ram` does).
    fn members<'s>(&'s self, _more: &'s [(&'s str, Value)]) -> Option<Vec<(&'s str, Member<'s>)>> {
        None
    }
    /// The final state as aligned lines (each ends with `\n`, see [`row`]).
    fn to_text(&self) -> String;
    /// The state as the trace viewer draws it (see [`picture`]); nothing
    /// by default.
    fn picture(&self) -> Picture {
        Picture::new()
    }
}

/// A member of a final state's JSON object (see [`EnvState::members`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Member<'s> {
    Integer(i64),
    List(&'s [i64]),
    /// A matrix: `rows` rows of `cols` integers, row-major.
    Rows {
        rows: usize,
        cols: usize,
        values: &'s [i64],
    },
    /// A member given as JSON (a run's `steps` and `engine`).
    Json(&'s Value),
}

impl<'s> Member<'s> {
    /// A matrix's rows (none for the other members).
    pub fn rows(self) -> impl Iterator<Item = &'s [i64]> {
        let (rows, cols, values) = match self {
            Member::Rows { rows, cols, values } => (rows, cols, values),
            _ => (0, 0, &[][..]),
        };
        (0..rows).map(move |r| &values[r * cols..(r + 1) * cols])
    }
}

/// What a boxed [`EnvState`] needs to be cloned, compared and looked into;
/// every `Clone + PartialEq` state has it.
pub trait AnyState {
    fn clone_box(&self) -> Box<dyn EnvState>;
    fn as_any(&self) -> &dyn Any;
    /// The box itself, to downcast without moving the state out of it.
    fn into_any(self: Box<Self>) -> Box<dyn Any>;
    fn same(&self, other: &dyn EnvState) -> bool;
}

impl<T: EnvState + Clone + PartialEq + 'static> AnyState for T {
    fn clone_box(&self) -> Box<dyn EnvState> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self
    }

    fn same(&self, other: &dyn EnvState) -> bool {
        other.as_any().downcast_ref::<T>() == Some(self)
    }
}

impl EnvKind {
    /// The registered environment called `name`.
    pub fn from_name(name: &str) -> Option<EnvKind> {
        kinds().find(|kind| kind.name() == name)
    }
}

/// Every registered environment's kind, in registry order.
pub fn kinds() -> impl Iterator<Item = EnvKind> {
    ENVIRONMENTS
        .iter()
        .enumerate()
        .map(|(index, env)| EnvKind::registered(index, env.name))
}

/// The registered environments that have `ability`, in registry order.
pub fn with(ability: Ability) -> impl Iterator<Item = &'static Environment> {
    ENVIRONMENTS
        .iter()
        .copied()
        .filter(move |env| env.has(ability))
}

/// The environment of `kind` (kinds are made only from the registry).
pub fn environment(kind: EnvKind) -> &'static Environment {
    ENVIRONMENTS[kind.index()]
}

/// The input `cnpic run` uses when none is given.
pub fn empty_input(kind: EnvKind) -> &'static str {
    environment(kind).input.empty
}

/// Parses and validates the JSON input of an environment. Every error is
/// an E06xx diagnostic without labels whose message names exactly what is
/// wrong (input is not a source file).
pub fn parse_input(kind: EnvKind, json: &str) -> Result<State, Diagnostic> {
    read_input(&Declarations::none(kind), json)
}

/// [`parse_input`] for a program that declares `layout` (a `ram`
/// program's inputs are read by the names it declares).
pub fn read_input(layout: &Declarations, json: &str) -> Result<State, Diagnostic> {
    read(layout, Input::Text(json))
}

/// [`read_input`] for an input whose members (by name) are given as
/// integers: the state, or the diagnostic, the same members' JSON text
/// gives.
pub fn read_given(
    layout: &Declarations,
    members: Vec<(String, Given)>,
) -> Result<State, Diagnostic> {
    read(layout, Input::Given(members))
}

/// [`read_input`] for JSON already parsed (an input inside a larger JSON
/// file, as `cnpic learn`'s examples).
pub fn read_value(layout: &Declarations, value: Value) -> Result<State, Diagnostic> {
    read(layout, Input::Value(value))
}

/// The state `input` describes for a program that declares `layout`.
fn read(layout: &Declarations, input: Input) -> Result<State, Diagnostic> {
    let inner = (environment(layout.env).read)(layout, input)?;
    Ok(State::new(layout.env, inner))
}

/// E0707 unless the tape, holding `held` entries, has room for one more
/// written by `app`.
pub(crate) fn room_on_tape(held: usize, app: &ActApp) -> Result<(), Diagnostic> {
    if held >= MAX_OUTPUT {
        return Err(errors::tape_full(MAX_OUTPUT, app));
    }
    Ok(())
}

/// The ACT `name` of the environment `kind` applied to `args`, of the
/// declaration whose parameters they fit (several share an overloaded
/// name); `None` when there is none.
pub fn build_act(kind: EnvKind, name: &str, args: Vec<crate::program::ActArg>) -> Option<Act> {
    let decl = environment(kind)
        .acts
        .iter()
        .find(|decl| decl.name == name && decl.fits(&args))?;
    Act::build(decl, args)
}

/// Every ACT some environment declares, once each, in registry order
/// (`NOP` first): the ACT rows of program memory.
pub fn all_acts() -> Vec<&'static ActDecl> {
    let mut acts: Vec<&'static ActDecl> = vec![&NOP];
    for decl in ENVIRONMENTS.iter().flat_map(|env| env.acts) {
        if !acts.contains(&decl) {
            acts.push(decl);
        }
    }
    acts
}

/// Every observation some environment declares, once each, in registry
/// order.
pub fn all_observations() -> Vec<&'static Observation> {
    let mut observations: Vec<&'static Observation> = Vec::new();
    for observation in ENVIRONMENTS.iter().flat_map(|env| env.observations) {
        if !observations.contains(&observation) {
            observations.push(observation);
        }
    }
    observations
}

/// A running environment: its kind and its state.
#[derive(Debug)]
pub struct State {
    kind: EnvKind,
    inner: Inner,
}

/// A state's own data. A `ram` state is kept apart, so that a view finds
/// its memory, and a compiled ACT writes it, without a downcast each time.
#[derive(Debug)]
enum Inner {
    Ram(Box<ram::RamState>),
    Other(Box<dyn EnvState>),
}

impl Inner {
    /// `state`, a ram state in its own box downcast.
    fn of(state: Box<dyn EnvState>) -> Inner {
        if state.as_any().is::<ram::RamState>() {
            let ram = (state.into_any().downcast()).expect("`is` found a ram state");
            return Inner::Ram(ram);
        }
        Inner::Other(state)
    }

    #[inline]
    fn get(&self) -> &dyn EnvState {
        match self {
            Inner::Ram(ram) => ram.as_ref(),
            Inner::Other(state) => state.as_ref(),
        }
    }

    fn get_mut(&mut self) -> &mut dyn EnvState {
        match self {
            Inner::Ram(ram) => ram.as_mut(),
            Inner::Other(state) => state.as_mut(),
        }
    }
}

impl Clone for State {
    fn clone(&self) -> State {
        let inner = match &self.inner {
            Inner::Ram(ram) => Inner::Ram(ram.clone()),
            Inner::Other(state) => Inner::Other(state.clone_box()),
        };
        State {
            kind: self.kind,
            inner,
        }
    }
}

impl PartialEq for State {
    fn eq(&self, other: &State) -> bool {
        self.kind == other.kind && self.inner.get().same(other.inner.get())
    }
}

impl Eq for State {}

impl State {
    /// The running environment of `kind` holding `inner`, which must be
    /// that environment's own state type (an [`ArrayState`] for `array`):
    /// how a caller that builds states as values, not JSON, makes one.
    pub fn new(kind: EnvKind, inner: Box<dyn EnvState>) -> State {
        State {
            kind,
            inner: Inner::of(inner),
        }
    }

    pub fn kind(&self) -> EnvKind {
        self.kind
    }

    /// The bytes of the arrays the run made while it ran (ram's local
    /// arrays), which count against its memory limit.
    pub fn allocated(&self) -> usize {
        match &self.inner {
            Inner::Ram(ram) => ram.allocated(),
            Inner::Other(_) => 0,
        }
    }

    /// The state as the trace viewer draws it.
    pub fn picture(&self) -> Picture {
        self.inner.get().picture()
    }

    /// The environment's own state, when it is a `T`.
    pub fn downcast<T: 'static>(&self) -> Option<&T> {
        self.inner.get().as_any().downcast_ref()
    }

    /// n: the array length, the number of vertices or of columns.
    pub fn len(&self) -> i64 {
        self.inner.get().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The state as conditions see it, with the current pointer values.
    #[inline]
    pub fn view<'a>(&'a self, pointers: &'a [i64]) -> View<'a> {
        let source = match &self.inner {
            Inner::Ram(ram) => Source::Ram(ram),
            Inner::Other(state) => Source::Other(state.as_ref()),
        };
        View {
            source,
            pointers,
            resume: 0,
        }
    }

    /// Region `data` as generated code reads and writes it (no region
    /// outside `ram`).
    pub fn raw_region(&mut self, data: u32) -> RawRegion {
        match &mut self.inner {
            Inner::Ram(ram) => ram.raw(data),
            Inner::Other(_) => RawRegion::NONE,
        }
    }

    /// The state's cells and `pointers` as a compiled detector reads them
    /// (no cells outside `ram`).
    #[inline]
    pub fn cells<'a>(&'a self, pointers: &'a [i64]) -> Cells<'a> {
        match &self.inner {
            Inner::Ram(ram) => ram.cells(pointers),
            Inner::Other(_) => Cells::new(&[], pointers),
        }
    }

    /// Applies one ACT. `pointers` holds the value of each pointer of
    /// `decls` (same indices). `_push` and the frame stack's ACTs belong
    /// to the interpreter, which handles them before calling this; here
    /// they do nothing. Says whether the ACT changed the pointers or the
    /// environment.
    pub fn apply(
        &mut self,
        app: &ActApp,
        pointers: &mut [i64],
        decls: &[Pointer],
    ) -> Result<bool, Diagnostic> {
        self.apply_within(app, pointers, decls, usize::MAX)
    }

    /// [`Self::apply`] for a run that may take at most `room` more bytes
    /// (an ACT that allocates, such as ram's `ALLOC`, checks it first).
    pub fn apply_within(
        &mut self,
        app: &ActApp,
        pointers: &mut [i64],
        decls: &[Pointer],
        room: usize,
    ) -> Result<bool, Diagnostic> {
        match &app.act {
            Act::Nop | Act::Push(_) | Act::Frame(..) => Ok(false),
            Act::Move(p, direction) => {
                let step = match direction {
                    Direction::Left => -1,
                    Direction::Right => 1,
                };
                let at = &mut pointers[*p];
                *at = at
                    .checked_add(step)
                    .ok_or_else(|| errors::move_overflow(app, name(decls, *p), *at))?;
                Ok(true)
            }
            Act::Set(p, position) => {
                let value = position.eval(&self.view(pointers)).map_err(eval_error)?;
                let changed = pointers[*p] != value;
                pointers[*p] = value;
                Ok(changed)
            }
            Act::Env(act) => {
                let ctx = ActContext {
                    app,
                    pointers,
                    decls,
                    room,
                };
                self.inner.get_mut().apply(act, &ctx)
            }
        }
    }

    /// Records the pointers' final values (see [`EnvState::finish`]).
    pub fn finish(&mut self, pointers: &[i64]) {
        self.inner.get_mut().finish(pointers);
    }

    /// The final state as the JSON object of `cnpic run --format json`:
    /// [`Self::to_json_text`] read back, for callers that look members up.
    pub fn to_json(&self, steps: u64, engine: &str) -> serde_json::Value {
        let text = self.to_json_text(steps, engine);
        serde_json::from_str(&text).expect("the environments write valid JSON")
    }

    /// The final state as the JSON text of `cnpic run --format json` (one
    /// line, no newline).
    pub fn to_json_text(&self, steps: u64, engine: &str) -> String {
        self.inner.get().to_json_text(&run_members(steps, engine))
    }

    /// The members of [`Self::to_json_text`]'s object with `more` (what
    /// [`run_members`] gives) as integers, where the environment holds
    /// them so (see [`EnvState::members`]).
    pub fn members<'s>(
        &'s self,
        more: &'s [(&'s str, Value)],
    ) -> Option<Vec<(&'s str, Member<'s>)>> {
        self.inner.get().members(more)
    }

    /// The final state as aligned, readable lines (each ends with `\n`).
    pub fn to_text(&self, steps: u64, engine: &str) -> String {
        let mut text = self.inner.get().to_text();
        text.push_str(&row("steps", format!("{steps} ({engine})")));
        text
    }
}

/// The members a run adds to the final state's JSON object.
pub fn run_members(steps: u64, engine: &str) -> [(&'static str, Value); 2] {
    [("steps", steps.into()), ("engine", engine.into())]
}

/// The JSON object `object` with the members `more` added (each replacing
/// a member of its name), as compact text: how an environment of small
/// states writes its output ([`EnvState::to_json_text`]).
fn object_text(mut object: Map<String, Value>, more: &[(&str, Value)]) -> String {
    for (name, value) in more {
        object.insert((*name).into(), value.clone());
    }
    Value::Object(object).to_string()
}

/// One line of text output: a label padded to a common width, then the
/// content.
fn row(label: &str, content: impl std::fmt::Display) -> String {
    format!("{label:<6} {content}\n")
}

/// `[1, 2, 3]`
fn list<T: std::fmt::Display>(items: &[T]) -> String {
    use std::fmt::Write;
    let mut text = String::from("[");
    for (i, item) in items.iter().enumerate() {
        let comma = if i == 0 { "" } else { ", " };
        // Writing to a `String` cannot fail.
        let _ = write!(text, "{comma}{item}");
    }
    text.push(']');
    text
}

/// The name of pointer `p`, for messages.
fn name(decls: &[Pointer], p: PointerId) -> &str {
    decls.get(p).map_or("?", |d| d.name.as_str())
}

/// An environment's ACT being applied, with what its error messages need.
pub struct ActContext<'a> {
    app: &'a ActApp,
    pointers: &'a [i64],
    decls: &'a [Pointer],
    /// The bytes the run may still take (its memory limit less what it
    /// holds), for an ACT that allocates.
    room: usize,
}

impl ActContext<'_> {
    /// Where the ACT is written.
    pub fn span(&self) -> crate::span::Span {
        self.app.span
    }

    /// The value and the name of pointer `p`.
    pub fn pointer(&self, p: PointerId) -> (i64, &str) {
        (self.pointers[p], name(self.decls, p))
    }
}

/// The index `at` if it lies in `0..len`.
#[inline]
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
    source: Source<'a>,
    pointers: &'a [i64],
    /// `_resume`: the top frame's resume point (0 without frames).
    resume: i64,
}

/// The state a [`View`] reads: a `ram` state's memory is read directly,
/// rather than through the state's dynamic `cell` at every read.
#[derive(Clone, Copy)]
enum Source<'a> {
    Ram(&'a ram::RamState),
    Other(&'a dyn EnvState),
}

impl<'a> View<'a> {
    /// The view with `_resume` reading `resume`.
    #[inline]
    pub fn with_resume(self, resume: i64) -> Self {
        View { resume, ..self }
    }

    /// The ram state the view reads, if it reads one.
    #[inline]
    fn ram(&self) -> Option<&'a ram::RamState> {
        match self.source {
            Source::Ram(ram) => Some(ram),
            Source::Other(_) => None,
        }
    }

    /// The environment's state as the view sees it.
    #[inline]
    pub fn state(&self) -> &dyn EnvState {
        match self.source {
            Source::Ram(ram) => ram,
            Source::Other(state) => state,
        }
    }
}

impl World for View<'_> {
    #[inline]
    fn len(&self) -> i64 {
        match self.source {
            Source::Ram(ram) => ram.len(),
            Source::Other(state) => state.len(),
        }
    }

    #[inline]
    fn pointer(&self, pointer: PointerId) -> i64 {
        self.pointers[pointer]
    }

    fn value(&self, observation: &Observation, at: i64) -> Option<i64> {
        self.state().value(observation, at)
    }

    fn symbol(&self, observation: &Observation, at: i64) -> Option<Color> {
        self.state().symbol(observation, at)
    }

    fn test(&self, observation: &Observation, at: i64) -> bool {
        self.state().test(observation, at)
    }

    fn position(&self, observation: &Observation, at: i64) -> i64 {
        self.state().position(observation, at)
    }

    #[inline]
    fn cell(&self, data: DataId, at: &[i64]) -> Option<i64> {
        match self.source {
            Source::Ram(ram) => ram::cell(ram.regions(), data, at),
            Source::Other(state) => state.cell(data, at),
        }
    }

    #[inline(always)]
    fn pointer_or_zero(&self, pointer: PointerId) -> i64 {
        // A pointer it lacks is `u32::MAX`, the only one read this way.
        self.pointers.get(pointer).copied().unwrap_or(0)
    }

    #[inline(always)]
    fn cell_ij(&self, data: DataId, dims: u8, i: i64, j: i64) -> Option<i64> {
        match self.source {
            Source::Ram(ram) => ram::cell_ij(ram.regions(), data, dims, i, j),
            Source::Other(state) => state.cell(data, &[i, j][..usize::from(dims).min(2)]),
        }
    }

    #[inline]
    fn resume(&self) -> i64 {
        self.resume
    }
}
