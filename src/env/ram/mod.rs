//! The `ram` environment: a random-access machine, CLRS's model of
//! computation.
//!
//! A program declares its memory by name (`program::Data`): inputs read
//! from one JSON object (integers, arrays, matrices), the sizes their
//! shapes bind, and scratch variables, arrays and matrices whose lengths
//! are computed from the input. Registers are the machine's pointers. ACTs
//! `WRITE(place, e)`, `SWAP(place, place)` and `OUT(e)` (plus `NOP`,
//! `MOVE`, `SET`); reads outside an array are END, writes there are E0702.
//! Output: every register and declared name with its final value, and the
//! tape. Scratch memory and the tape are bounded ([`MAX_SCRATCH`],
//! [`super::MAX_OUTPUT`]).

use std::sync::Arc;

use serde_json::Value;

use super::input;
use super::{
    Ability, ActContext, Declarations, EnvState, Environment, InputForm, Member, Source, View,
    index, list, row,
};
use crate::diagnostic::{Diagnostic, codes};
use crate::program::declared::{MOVE, NOP, SET};
use crate::program::hidden::{hidden, written};
use crate::program::{ActArg, ActDecl, Cell, Data, DataKind, EnvAct, EnvKind, ParamType, PosKind};

mod alloc;
mod cells;
mod compiled;
mod output;
mod picture;
mod read;
mod typed;

pub use cells::{Cells, RawRegion};
pub use compiled::{ArrayStore, CompiledAct};

/// The most integers all scratch data of a run may hold together (256 MiB).
pub const MAX_SCRATCH: usize = 1 << 25;

const ACTS: &[ActDecl] = &[
    NOP,
    MOVE,
    SET,
    ActDecl::new("WRITE", &[ParamType::Place, ParamType::Position]),
    ActDecl::new("SWAP", &[ParamType::Place, ParamType::Place]),
    ActDecl::new("OUT", &[ParamType::Position]),
    ActDecl::new(
        "ALLOC",
        &[ParamType::Place, ParamType::Position, ParamType::Position],
    ),
    ActDecl::new(
        "ALLOC2",
        &[
            ParamType::Place,
            ParamType::Position,
            ParamType::Position,
            ParamType::Position,
        ],
    ),
    ActDecl::new("STASH", &[ParamType::Place]),
    ActDecl::new("UNSTASH", &[ParamType::Place]),
];

/// The ram environment (registered in `env::ENVIRONMENTS`).
pub(super) const RAM: Environment = Environment {
    name: "ram",
    stdlib: include_str!("../../../stdlib/ram.cnpi"),
    acts: ACTS,
    observations: &[],
    input: InputForm {
        shape: "a JSON object with a member for each `input` the program declares",
        example: r#"{"A": [5, 3, 9], "x": 9}"#,
        empty: "{}",
    },
    abilities: &[Ability::DeclaredMemory, Ability::Registers],
    read: |layout, input| Ok(Box::new(RamState::read(layout, input)?)),
};

/// The names of a run's registers and data, shared by its states.
#[derive(Debug, Default, PartialEq, Eq)]
struct Names {
    /// The registers a run reports (no local, no hidden one), by name.
    registers: Vec<String>,
    /// Where each of them stands among all the registers.
    shown: Vec<usize>,
    data: Vec<String>,
}

/// One declared name's region of memory: a scalar, an array or a matrix
/// (`Memory` is program memory, `cnpi_neural::memory::Memory`).
#[derive(Clone, Debug, PartialEq, Eq)]
// A tag of its own, which a read tests in one comparison (the default
// layout hides it in the vector's capacity).
#[repr(u8)]
pub(super) enum Region {
    Scalar(i64),
    Array(Vec<i64>),
    /// Row-major, `rows × cols`.
    Matrix {
        rows: usize,
        cols: usize,
        values: Vec<i64>,
    },
}

impl Region {
    /// The flat index of the element at `at`, if it is inside.
    #[inline]
    fn offset(&self, at: &[i64]) -> Option<usize> {
        match (self, at) {
            (Region::Scalar(_), []) => Some(0),
            (Region::Array(values), [i]) => index(*i, values.len()),
            (Region::Matrix { rows, cols, .. }, [i, j]) => {
                Some(index(*i, *rows)? * cols + index(*j, *cols)?)
            }
            _ => None,
        }
    }

    /// The element at `at`, if it is inside: [`Self::offset`] and
    /// [`Self::get`] in one match.
    #[inline]
    fn read(&self, at: &[i64]) -> Option<i64> {
        match (self, at) {
            (Region::Scalar(k), []) => Some(*k),
            (Region::Array(values), [i]) => values.get(usize::try_from(*i).ok()?).copied(),
            (Region::Matrix { rows, cols, values }, [i, j]) => values
                .get(index(*i, *rows)? * cols + index(*j, *cols)?)
                .copied(),
            _ => None,
        }
    }

    /// [`Self::read`] at the first `dims` of `i, j` (the others 0), by
    /// arithmetic on the region's shape rather than a match on both.
    #[inline(always)]
    fn read_ij(&self, dims: u8, i: i64, j: i64) -> Option<i64> {
        let (own, rows, cols, values) = match self {
            Region::Scalar(k) => (0, 1, 1, std::slice::from_ref(k)),
            Region::Array(values) => (1, values.len(), 1, values.as_slice()),
            Region::Matrix { rows, cols, values } => (2, *rows, *cols, values.as_slice()),
        };
        let inside = dims == own && (i as u64) < rows as u64 && (j as u64) < cols as u64;
        // Inside, `i * cols + j` is below `rows * cols` (the values' length).
        inside.then(|| values.get(i as usize * cols + j as usize).copied())?
    }

    #[inline]
    fn get(&self, offset: usize) -> i64 {
        match self {
            Region::Scalar(k) => *k,
            Region::Array(values) | Region::Matrix { values, .. } => values[offset],
        }
    }

    #[inline]
    fn slot(&mut self, offset: usize) -> &mut i64 {
        match self {
            Region::Scalar(k) => k,
            Region::Array(values) | Region::Matrix { values, .. } => &mut values[offset],
        }
    }

    fn to_text(&self) -> String {
        match self {
            Region::Scalar(k) => k.to_string(),
            Region::Array(values) => list(values),
            Region::Matrix { .. } => {
                let rows: Vec<String> = self.rows().map(list).collect();
                format!("[{}]", rows.join(", "))
            }
        }
    }

    /// The region as a member of the output object.
    fn member(&self) -> Member<'_> {
        match self {
            Region::Scalar(k) => Member::Integer(*k),
            Region::Array(values) => Member::List(values),
            Region::Matrix { rows, cols, values } => Member::Rows {
                rows: *rows,
                cols: *cols,
                values,
            },
        }
    }

    /// A matrix's rows, every one of them (a `3 × 0` matrix has three
    /// empty rows); nothing for a scalar or an array.
    fn rows(&self) -> impl Iterator<Item = &[i64]> {
        self.member().rows()
    }
}

#[derive(Clone, Debug, Default)]
pub struct RamState {
    names: Arc<Names>,
    memory: Vec<Region>,
    /// The registers' final values, recorded when the run finishes.
    registers: Vec<i64>,
    output: Vec<i64>,
    /// The bytes the arrays `ALLOC` made hold now (the local arrays of
    /// language.md §5.2), counted against the run's memory limit.
    allocated: usize,
    /// The arrays `STASH` put away, by data id, the last one last.
    stashed: Vec<(usize, Region)>,
}

/// Two runs end alike when what they report is the same: the registers
/// and memory the conversion adds for calls with results (hidden names,
/// [`hidden`]) are its own business.
impl PartialEq for RamState {
    fn eq(&self, other: &Self) -> bool {
        self.names == other.names
            && self.registers == other.registers
            && self.output == other.output
            && self.memory().eq(other.memory())
    }
}

impl Eq for RamState {}

impl RamState {
    /// The bytes the arrays `ALLOC` made hold now.
    pub(super) fn allocated(&self) -> usize {
        self.allocated
    }

    /// The registers' final values a run reports, by name (hidden ones
    /// are not recorded).
    fn registers(&self) -> impl Iterator<Item = (&String, &i64)> {
        self.names.registers.iter().zip(&self.registers)
    }

    /// The declared memory a run reports, by name.
    fn memory(&self) -> impl Iterator<Item = (&String, &Region)> {
        let all = self.names.data.iter().zip(&self.memory);
        all.filter(|(name, _)| !hidden(name))
    }

    /// The state whose input members `take` gives, one call per declared
    /// input in declaration order (given its data id and declaration:
    /// its memory and lengths, or its diagnostic), the sizes they bind checked and the scratch memory
    /// made.
    fn build(
        layout: &Declarations,
        mut take: impl FnMut(usize, &Data) -> Result<typed::Member, Diagnostic>,
    ) -> Result<RamState, Diagnostic> {
        let mut state = RamState {
            names: Arc::new(Names {
                registers: (layout.registers.iter())
                    .filter(|r| r.reported())
                    .map(|r| r.name.clone())
                    .collect(),
                shown: (layout.registers.iter().enumerate())
                    .filter(|(_, r)| r.reported())
                    .map(|(i, _)| i)
                    .collect(),
                data: layout.data.iter().map(|d| d.name.clone()).collect(),
            }),
            memory: vec![Region::Scalar(0); layout.data.len()],
            registers: Vec::new(),
            output: Vec::new(),
            allocated: 0,
            stashed: Vec::new(),
        };
        // Which input bound each size, for E0608.
        let mut bound_by: Vec<Option<&str>> = vec![None; layout.data.len()];
        for (id, data) in layout.data.iter().enumerate() {
            if data.kind != DataKind::Input {
                continue;
            }
            let (memory, lengths) = take(id, data)?;
            for (dim, length) in data.dims.iter().zip(lengths) {
                let PosKind::Read(size) = &dim.kind else {
                    continue;
                };
                match bound_by[size.data] {
                    None => {
                        bound_by[size.data] = Some(&data.name);
                        state.memory[size.data] = Region::Scalar(super::len_i64(length));
                    }
                    Some(first) => {
                        let bound = state.memory[size.data].get(0);
                        if bound != super::len_i64(length) {
                            return Err(disagree(layout.env, size, first, bound, data, length));
                        }
                    }
                }
            }
            state.memory[id] = memory;
        }
        let mut scratch = 0usize;
        for (id, data) in layout.data.iter().enumerate() {
            let DataKind::Var { init } = &data.kind else {
                continue;
            };
            let view = View {
                source: Source::Ram(&state),
                pointers: &[],
                resume: 0,
            };
            let eval = |e: &crate::program::PosExpr| e.eval(&view).map_err(super::eval_error);
            let init = eval(init)?;
            let mut lengths = Vec::with_capacity(data.dims.len());
            for dim in &data.dims {
                let length = eval(dim)?;
                let length = usize::try_from(length).map_err(|_| bad_size(data, length))?;
                lengths.push(length);
            }
            let count = lengths.iter().try_fold(1usize, |a, &b| a.checked_mul(b));
            scratch = match count.and_then(|c| scratch.checked_add(c)) {
                Some(total) if total <= MAX_SCRATCH => total,
                _ => return Err(too_much_scratch(data, &lengths)),
            };
            state.memory[id] = match lengths.as_slice() {
                [] => Region::Scalar(init),
                [n] => Region::Array(vec![init; *n]),
                [rows, cols] => Region::Matrix {
                    rows: *rows,
                    cols: *cols,
                    values: vec![init; rows * cols],
                },
                _ => return Err(super::internal("data of more than two dimensions")),
            };
        }
        Ok(state)
    }

    /// The element `cell` names, evaluated in `view`: its data and flat
    /// offset, or E0702 when it lies outside.
    fn locate(
        &self,
        cell: &Cell,
        view: &View,
        ctx: &ActContext,
    ) -> Result<(usize, usize), Diagnostic> {
        let at = cell.indices(view).map_err(super::eval_error)?;
        let memory = self
            .memory
            .get(cell.data)
            .ok_or_else(|| super::internal("a cell of undeclared data"))?;
        memory
            .offset(&at)
            .map(|offset| (cell.data, offset))
            .ok_or_else(|| outside(cell, &at, memory, ctx))
    }
}

impl RamState {
    /// The declared memory (what [`super::View`] reads cells from without
    /// a dynamic call per read).
    #[inline]
    pub(super) fn regions(&self) -> &[Region] {
        &self.memory
    }

    /// Region `data` as generated code reads and writes it.
    pub(super) fn raw(&mut self, data: u32) -> RawRegion {
        cells::raw(self.memory.get_mut(data as usize))
    }

    /// The memory and `pointers` as a compiled detector reads them.
    #[inline]
    pub(super) fn cells<'a>(&'a self, pointers: &'a [i64]) -> Cells<'a> {
        Cells::new(&self.memory, pointers)
    }
}

/// The cell of `memory` at `at` in data `data`, as [`EnvState::cell`] reads
/// it (`None` outside).
#[inline]
pub(super) fn cell(memory: &[Region], data: usize, at: &[i64]) -> Option<i64> {
    memory.get(data)?.read(at)
}

/// [`cell`] at the first `dims` of `i, j` (at most two; the others 0).
#[inline(always)]
pub(super) fn cell_ij(memory: &[Region], data: usize, dims: u8, i: i64, j: i64) -> Option<i64> {
    memory.get(data)?.read_ij(dims, i, j)
}

/// The flat offset of the cell of `memory` at `at` in data `data`, if it
/// lies inside.
#[inline]
fn cell_offset(memory: &[Region], data: usize, at: &[i64]) -> Option<usize> {
    memory.get(data)?.offset(at)
}

impl EnvState for RamState {
    fn len(&self) -> i64 {
        0
    }

    fn picture(&self) -> super::Picture {
        picture::picture(self)
    }

    fn cell(&self, data: usize, at: &[i64]) -> Option<i64> {
        cell(&self.memory, data, at)
    }

    fn apply(&mut self, act: &EnvAct, ctx: &ActContext) -> Result<bool, Diagnostic> {
        let view = View {
            source: Source::Ram(self),
            pointers: ctx.pointers,
            resume: 0,
        };
        Ok(match (act.name(), act.args.as_slice()) {
            ("WRITE", [ActArg::Place(cell), ActArg::Position(e)]) => {
                let (data, offset) = self.locate(cell, &view, ctx)?;
                let value = e.eval(&view).map_err(super::eval_error)?;
                std::mem::replace(self.memory[data].slot(offset), value) != value
            }
            ("SWAP", [ActArg::Place(a), ActArg::Place(b)]) => {
                let (da, oa) = self.locate(a, &view, ctx)?;
                let (db, ob) = self.locate(b, &view, ctx)?;
                let (x, y) = (self.memory[da].get(oa), self.memory[db].get(ob));
                *self.memory[da].slot(oa) = y;
                *self.memory[db].slot(ob) = x;
                x != y
            }
            ("OUT", [ActArg::Position(e)]) => {
                let value = e.eval(&view).map_err(super::eval_error)?;
                super::room_on_tape(self.output.len(), ctx.app)?;
                self.output.push(value);
                true
            }
            ("ALLOC", [ActArg::Place(cell), lengths @ .., ActArg::Position(init)])
            | ("ALLOC2", [ActArg::Place(cell), lengths @ .., ActArg::Position(init)]) => {
                let eval = |e: &ActArg| match e {
                    ActArg::Position(e) => e.eval(&view).map_err(super::eval_error),
                    _ => Err(super::internal("ALLOC's lengths are positions")),
                };
                let lengths: Vec<i64> = lengths.iter().map(eval).collect::<Result<_, _>>()?;
                let init = init.eval(&view).map_err(super::eval_error)?;
                let region = alloc::region(cell, &lengths, init, ctx)?;
                self.allocated = alloc::account(self.allocated, &self.memory[cell.data], &region);
                self.memory[cell.data] = region;
                true
            }
            ("STASH", [ActArg::Place(cell)]) => {
                self.allocated = alloc::stash(self.allocated, cell, ctx)?;
                let empty = alloc::emptied(&self.memory[cell.data]);
                let kept = std::mem::replace(&mut self.memory[cell.data], empty);
                self.stashed.push((cell.data, kept));
                true
            }
            ("UNSTASH", [ActArg::Place(cell)]) => {
                let last = self
                    .stashed
                    .iter()
                    .rposition(|(data, _)| *data == cell.data);
                let back = match last {
                    Some(at) => self.stashed.remove(at).1,
                    None => alloc::emptied(&self.memory[cell.data]),
                };
                let current = std::mem::replace(&mut self.memory[cell.data], back);
                self.allocated = alloc::unstash(self.allocated, &current, last.is_some());
                true
            }
            _ => return Err(super::errors::foreign_act(ctx.app, "ram")),
        })
    }

    fn finish(&mut self, pointers: &[i64]) {
        let shown = self.names.shown.iter();
        self.registers = shown
            .map(|&i| pointers.get(i).copied().unwrap_or(0))
            .collect();
    }

    fn to_json_text(&self, more: &[(&str, Value)]) -> String {
        output::to_json_text(self, more)
    }

    fn members<'s>(&'s self, more: &'s [(&'s str, Value)]) -> Option<Vec<(&'s str, Member<'s>)>> {
        Some(self.fields(more).into_iter().collect())
    }

    fn to_text(&self) -> String {
        let mut text = String::new();
        for (name, value) in self.registers() {
            text.push_str(&row(name, value));
        }
        for (name, memory) in self.memory() {
            text.push_str(&row(name, memory.to_text()));
        }
        if !self.output.is_empty() {
            text.push_str(&row("output", list(&self.output)));
        }
        text
    }
}

/// E0608: `data` gives the size `size` a length other than `first` bound.
fn disagree(
    kind: EnvKind,
    size: &Cell,
    first: &str,
    bound: i64,
    data: &Data,
    length: usize,
) -> Diagnostic {
    Diagnostic::error(
        codes::E0608,
        format!(
            "`{first}` makes `{}` = {bound}, but `{}` has length {length} there",
            size.name, data.name
        ),
    )
    .with_help(format!(
        "inputs that share the size `{}` must have equal lengths; give an independent length its own name",
        size.name
    ))
    .with_note(input::help(kind))
}

/// E0609: a scratch length is negative.
fn bad_size(data: &Data, length: i64) -> Diagnostic {
    Diagnostic::error(
        codes::E0609,
        format!("the scratch `{}` would have length {length}", data.name),
    )
    .with_label(data.span, "declared here")
    .with_help("lengths are at least 0; check the expression and the input")
}

/// E0609: the scratch data would pass [`MAX_SCRATCH`].
fn too_much_scratch(data: &Data, lengths: &[usize]) -> Diagnostic {
    let shape: Vec<String> = lengths.iter().map(usize::to_string).collect();
    Diagnostic::error(
        codes::E0609,
        format!(
            "the scratch `{}` ({}) would pass the bound of {MAX_SCRATCH} integers for all scratch data",
            data.name,
            shape.join(" × ")
        ),
    )
    .with_label(data.span, "declared here")
    .with_help("the input asks for more memory than a run may take; use a smaller input")
}

/// E0702: a write at `at`, outside the data of `cell`.
fn outside(cell: &Cell, at: &[i64], memory: &Region, ctx: &ActContext) -> Diagnostic {
    let at: Vec<String> = at.iter().map(|i| format!("[{i}]")).collect();
    let extent = match memory {
        Region::Scalar(_) => "a scalar".to_string(),
        Region::Array(values) => format!("an array of length {}", values.len()),
        Region::Matrix { rows, cols, .. } => format!("a {rows} × {cols} matrix"),
    };
    Diagnostic::error(
        codes::E0702,
        format!(
            "`{}` writes `{}{}`, outside `{}` ({extent})",
            ctx.app.act.name(),
            written(&cell.name),
            at.concat(),
            written(&cell.name)
        ),
    )
    .with_label(cell.span, "outside the data here")
    .with_help("write only inside the array; reads outside it are END, writes are errors")
}
