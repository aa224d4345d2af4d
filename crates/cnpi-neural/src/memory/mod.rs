//! Program memory and detector memory: what the network runs.
//!
//! `M_key` holds one unit-norm key per program (the five combinators, the
//! built-ins of `treerec`, every ACT, and the appliers of each program
//! added) and `M_prog` one embedding per program, with a [`RowKind`] tag per
//! row. An applier's embedding is written per equation 1 of the paper:
//! `k_prog | k_det | k_a1 | k_a2 | k_a3`, five keys; an ACT applier keeps
//! its argument values in the places of the three argument keys
//! (`crate::codec`). The five stdlib combinator rows have no embedding
//! here: theirs is the core's initial state (Emb-as-State0). A combinator a
//! program defines gets a row of its own ([`RowKind::Defined`]) whose
//! embedding is that initial state, `h | c`, learned on the fixed core
//! ([`crate::core::embedding`]). `W_key` and the detectors are the
//! detector memory. The fixed parser of Algorithm 1 ([`Memory::parse`])
//! splits an applier's embedding and maps each key to its row by `argmax`;
//! [`Memory::parse_indexed`] is its exact, constant-time cache.
//!
//! Rows are only ever appended ([`Memory::add`]), and each key depends only
//! on the seed and its row ([`keys`]), so adding programs leaves every
//! existing row, key and detector as it was (Theorem 1).

mod build;
mod builtin;
pub(crate) mod keys;
mod verify;

pub use crate::codec::{ActKind, Readout};
pub use build::condition_code;
pub use keys::KEY_DIM;

use crate::codec::Decoder;
use crate::detector::{Cache, Condition, Detector, Encoder};
use cnpi::diagnostic::{Diagnostic, codes};
use cnpi::env::{Declarations, internal};
use cnpi::program::{ActApp, Behaviour, Combinator, CombinatorKind, PointerId, Program, Slot};
use cnpi::span::Span;

/// The length of a program embedding: five keys.
pub const EMBED_DIM: usize = 5 * KEY_DIM;

/// The numbers an ACT applier has for its arguments: the places of the
/// three argument keys.
pub const ARGUMENT_DIM: usize = 3 * KEY_DIM;

/// The seed of the keys when none is given.
pub const DEFAULT_SEED: u64 = 2018;

/// Index of a row of `M_key` / `M_prog`.
pub type RowId = usize;
/// Index of a row of `W_key` (a detector).
pub type DetectorId = usize;

/// The blind detector (always true) and `_mapself`'s, rows 0 and 1.
pub const BLIND: DetectorId = 0;
pub const STACK_TOP: DetectorId = 1;

/// Both key tables, each as the parser reads it ([`keys::Lookup`]).
pub struct KeyTables<T> {
    programs: T,
    detectors: T,
}

/// Both key tables by the bits of their keys ([`Memory::key_index`]).
pub type KeyIndex = KeyTables<keys::Index>;

/// Both key tables laid out for `argmax` ([`Memory::key_search`]).
pub type KeySearch = KeyTables<keys::Search>;

/// The built-in programs of `treerec`'s frame, besides `_mapself`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Builtin {
    PushSentinel,
    Pop,
    LoadState,
}

/// What a row of program memory is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RowKind {
    Combinator(CombinatorKind),
    Builtin(Builtin),
    Act(ActKind),
    Applier,
    /// A combinator a program defines; its embedding is its learned
    /// initial state.
    Defined,
}

/// The built-ins in row order, with their names.
const BUILTINS: [(Builtin, &str); 3] = [
    (Builtin::PushSentinel, "_push_sentinel"),
    (Builtin::Pop, "_pop"),
    (Builtin::LoadState, "_load_state"),
];

/// The rows every memory starts with, in order: the combinators in the
/// core's embedding order, the built-ins, the ACTs.
pub fn fixed_rows() -> Vec<(RowKind, String)> {
    let combinators = crate::core::COMBINATORS
        .iter()
        .map(|&(kind, name)| (RowKind::Combinator(kind), name.to_string()));
    let builtins = BUILTINS.map(|(b, name)| (RowKind::Builtin(b), name.to_string()));
    let acts = ActKind::all().map(|a| (RowKind::Act(a), a.name()));
    combinators.chain(builtins).chain(acts).collect()
}

impl RowKind {
    /// The tag stored in files: the index among the fixed rows, or the
    /// number of fixed rows for an applier (one more for a defined
    /// combinator). Also the row of a fixed kind.
    pub fn code(self) -> usize {
        let combinators = crate::core::COMBINATORS.len();
        match self {
            RowKind::Combinator(kind) => crate::core::index(kind),
            RowKind::Builtin(builtin) => combinators + builtin as usize,
            RowKind::Act(act) => combinators + BUILTINS.len() + act.index(),
            RowKind::Applier => combinators + BUILTINS.len() + ActKind::count(),
            RowKind::Defined => combinators + BUILTINS.len() + ActKind::count() + 1,
        }
    }

    pub fn from_code(code: usize) -> Option<RowKind> {
        let combinators = crate::core::COMBINATORS;
        if let Some(&(kind, _)) = combinators.get(code) {
            return Some(RowKind::Combinator(kind));
        }
        let code = code - combinators.len();
        if let Some(&(builtin, _)) = BUILTINS.get(code) {
            return Some(RowKind::Builtin(builtin));
        }
        let code = code - BUILTINS.len();
        match ActKind::from_index(code) {
            Some(act) => Some(RowKind::Act(act)),
            None if code == ActKind::count() => Some(RowKind::Applier),
            None => (code == ActKind::count() + 1).then_some(RowKind::Defined),
        }
    }
}

/// One row of program memory, with what diagnostics and traces need.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub kind: RowKind,
    /// The definition's name, or an inline ACT as written.
    pub name: String,
    /// The program (unit) an applier belongs to.
    pub unit: Option<usize>,
    /// Where the applier is written.
    pub span: Span,
    /// The spans of the expression nodes of an ACT applier's arguments.
    pub spans: Vec<Span>,
}

/// One row of detector memory.
#[derive(Clone, Debug)]
pub struct DetectorRow {
    pub detector: Detector,
    /// The condition's canonical text.
    pub text: String,
    pub unit: Option<usize>,
}

/// A combinator a program defines, as the memory keeps it: its row (name,
/// key, embedding `h | c`) and the definition the embedding is verified
/// against.
#[derive(Clone, Debug, PartialEq)]
pub struct DefinedRow {
    pub row: RowId,
    pub behaviour: Behaviour,
    /// Its body reads `c`.
    pub reads_c: bool,
}

/// One program added to the memory: a source file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    /// The file's name as given when it was added.
    pub name: String,
    /// The source text, for diagnostics.
    pub source: String,
    /// Its environment, registers and named data, which its input is read
    /// against.
    pub declared: Declarations,
    pub state: Option<Vec<PointerId>>,
    /// The row of the file's entry definition.
    pub entry: RowId,
}

/// Program memory and detector memory.
#[derive(Clone, Debug)]
pub struct Memory {
    pub seed: u64,
    /// `M_key`, `[rows, KEY_DIM]`.
    pub m_key: Vec<f32>,
    /// `M_prog`, `[rows, EMBED_DIM]`.
    pub m_prog: Vec<f32>,
    pub rows: Vec<Row>,
    /// `W_key`, `[detectors, KEY_DIM]`.
    pub w_key: Vec<f32>,
    pub detectors: Vec<DetectorRow>,
    pub units: Vec<Unit>,
    /// The combinators programs define, in row order: `Defined(k)` in a
    /// parse is `combinators[k]`.
    pub combinators: Vec<DefinedRow>,
}

/// Where a run starts: program `unit` of a memory (an index of its
/// `units`) and the applier `row` it starts from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub unit: usize,
    pub row: RowId,
}

impl Entry {
    /// Where program `unit` of `memory` starts: the applier its source
    /// names as the entry (`None` if the memory has no such program).
    pub fn of_unit(memory: &Memory, unit: usize) -> Option<Entry> {
        let row = memory.units.get(unit)?.entry;
        Some(Entry { unit, row })
    }
}

/// An applier, parsed.
#[derive(Clone, Debug)]
pub enum Parsed {
    /// Run the combinator `combinator` (a row) with `detector` and a new
    /// frame of `args`.
    Combinator {
        kind: CombinatorKind,
        combinator: RowId,
        detector: DetectorId,
        args: [RowId; 3],
    },
    /// Apply an ACT with these arguments.
    Act(ActApp),
}

/// The row an applier's program key names, with its kind (a defined
/// combinator's as the combinator it defines).
struct Named {
    row: RowId,
    kind: RowKind,
}

impl Memory {
    pub fn key(&self, row: RowId) -> &[f32] {
        &self.m_key[row * KEY_DIM..(row + 1) * KEY_DIM]
    }

    pub fn embedding(&self, row: RowId) -> &[f32] {
        &self.m_prog[row * EMBED_DIM..(row + 1) * EMBED_DIM]
    }

    /// The row of the fixed program `kind`.
    pub fn fixed(kind: RowKind) -> RowId {
        kind.code()
    }

    /// The row a frame slot other than `self`, `a1`..`a3` is bound to.
    pub fn builtin_slot(slot: Slot) -> Option<RowId> {
        let kind = match slot {
            Slot::PushSentinel => RowKind::Builtin(Builtin::PushSentinel),
            Slot::MapSelf => RowKind::Combinator(CombinatorKind::MapSelf),
            Slot::Pop => RowKind::Builtin(Builtin::Pop),
            Slot::LoadState => RowKind::Builtin(Builtin::LoadState),
            Slot::Nop => RowKind::Act(ActKind::NOP),
            Slot::SelfSlot | Slot::A1 | Slot::A2 | Slot::A3 => return None,
        };
        Some(Memory::fixed(kind))
    }

    /// The fixed parser: splits the embedding of applier `row` into its
    /// five keys and maps them to rows by `argmax` over `M_key` (`W_key`
    /// for the detector); an ACT's arguments are read from the places of
    /// the argument keys. An error says why the row is not an applier a
    /// machine can run.
    pub fn parse(&self, row: RowId) -> Result<Parsed, String> {
        let programs = |key: &[f32]| keys::argmax(&self.m_key, key);
        let detectors = |key: &[f32]| keys::argmax(&self.w_key, key);
        self.parse_with(row, programs, detectors)
    }

    /// The same parse as [`Memory::parse`] for a row whose keys are stored
    /// keys (every row [`Memory::add`] writes and every file `cnpim` accepts),
    /// with each key found by its bits in `index`: the row `argmax` picks,
    /// by Lemma 1, in constant time. A key that is not stored is an error.
    /// With a [`KeySearch`], the same `argmax` as [`Memory::parse`],
    /// over the tables laid out for it.
    pub fn parse_indexed<T: keys::Lookup>(
        &self,
        row: RowId,
        index: &KeyTables<T>,
    ) -> Result<Parsed, String> {
        let programs = |key: &[f32]| index.programs.row(key);
        let detectors = |key: &[f32]| index.detectors.row(key);
        self.parse_with(row, programs, detectors)
    }

    /// Both key tables by the bits of their keys, for [`Memory::parse_indexed`].
    pub fn key_index(&self) -> KeyIndex {
        KeyTables {
            programs: keys::Index::new(&self.m_key),
            detectors: keys::Index::new(&self.w_key),
        }
    }

    /// Both key tables laid out for the plain parser's `argmax`
    /// ([`keys::Search`]), for [`Memory::parse_indexed`].
    pub fn key_search(&self) -> KeySearch {
        KeyTables {
            programs: keys::Search::new(&self.m_key),
            detectors: keys::Search::new(&self.w_key),
        }
    }

    /// The ACT [`Memory::parse_indexed`] of applier `row` gives, with its
    /// arguments' [`Readout`]; `None` when the parse fails or gives no ACT.
    pub fn act_readout<T: keys::Lookup>(
        &self,
        row: RowId,
        index: &KeyTables<T>,
    ) -> Option<(ActApp, Readout)> {
        let (program, info) = self.program_of(row, |key| index.programs.row(key)).ok()?;
        let RowKind::Act(kind) = program.kind else {
            return None;
        };
        Readout::of(self.decoder(row, info), kind, info.span)
    }

    /// Whether [`Memory::parse_indexed`] of applier `row` gives the ACT
    /// `expected` was read from ([`Memory::act_readout`]): the same keys
    /// searched and every number of the arguments read and checked against
    /// it as the decoder reads it, without building the ACT (so without
    /// allocating). `false` whenever the parse fails or gives anything
    /// else.
    pub fn parses_to<T: keys::Lookup>(
        &self,
        row: RowId,
        index: &KeyTables<T>,
        expected: &Readout,
    ) -> bool {
        let Ok((program, info)) = self.program_of(row, |key| index.programs.row(key)) else {
            return false;
        };
        let RowKind::Act(kind) = program.kind else {
            return false;
        };
        expected.reads(self.decoder(row, info), kind, info.span)
    }

    /// The program key of applier `row` mapped to its row by `programs`:
    /// that row (its kind a defined combinator's own) and `row`'s info.
    fn program_of(
        &self,
        row: RowId,
        programs: impl Fn(&[f32]) -> Option<usize>,
    ) -> Result<(Named, &Row), String> {
        let info = self.rows.get(row).ok_or_else(|| format!("no row {row}"))?;
        if info.kind != RowKind::Applier {
            return Err(format!("row {row} is a {:?}, not an applier", info.kind));
        }
        let embedding = self.embedding(row);
        let program = programs(&embedding[..KEY_DIM]).ok_or("its program key names no row")?;
        let kind = self.rows.get(program).map(|r| r.kind);
        let kind = match kind.ok_or("`M_key` has more rows than the memory")? {
            RowKind::Defined => {
                let k = (self.combinators.iter().position(|d| d.row == program))
                    .ok_or("its program key names a combinator the memory does not define")?;
                RowKind::Combinator(CombinatorKind::User(Combinator::Defined(k)))
            }
            other => other,
        };
        Ok((Named { row: program, kind }, info))
    }

    /// A decoder of the arguments of ACT applier `row`.
    fn decoder<'m>(&'m self, row: RowId, info: &'m Row) -> Decoder<'m> {
        let unit = info.unit.and_then(|u| self.units.get(u));
        let pointers = unit.map_or(0, |u| u.declared.registers.len());
        let data = unit.map_or(&[][..], |u| u.declared.data.as_slice());
        Decoder::new(
            &self.embedding(row)[2 * KEY_DIM..],
            &info.spans,
            pointers,
            data,
        )
    }

    /// The parser, with `programs` and `detectors` mapping a key to a row.
    fn parse_with(
        &self,
        row: RowId,
        programs: impl Fn(&[f32]) -> Option<usize>,
        detectors: impl Fn(&[f32]) -> Option<usize>,
    ) -> Result<Parsed, String> {
        let (Named { row: program, kind }, info) = self.program_of(row, &programs)?;
        let embedding = self.embedding(row);
        let part = |i: usize| &embedding[i * KEY_DIM..(i + 1) * KEY_DIM];
        match kind {
            RowKind::Combinator(kind) => {
                let detector = detectors(part(1)).ok_or("its detector key names no detector")?;
                let mut args = [0; 3];
                for (i, arg) in args.iter_mut().enumerate() {
                    *arg = programs(part(2 + i)).ok_or("an argument key names no row")?;
                }
                Ok(Parsed::Combinator {
                    kind,
                    combinator: program,
                    detector,
                    args,
                })
            }
            RowKind::Act(kind) => {
                let mut decoder = self.decoder(row, info);
                let app = decoder.act(kind, info.span).map_err(|e| e.0)?;
                if !decoder.finished() {
                    return Err("its arguments have trailing numbers or spans".into());
                }
                Ok(Parsed::Act(app))
            }
            other => Err(format!("its program key names a {other:?} row")),
        }
    }

    /// Where `cnpic run MEM.cnpim --entry SPEC` starts. `SPEC` is an
    /// applier's name, or `PROGRAM:NAME` with the program's file name;
    /// without it, the first program's entry.
    pub fn entry(&self, spec: Option<&str>) -> Result<Entry, Diagnostic> {
        let Some(spec) = spec else {
            return Entry::of_unit(self, 0).ok_or_else(|| {
                Diagnostic::error(codes::E1107, "the program memory holds no program")
            });
        };
        let (program, name) = match spec.rsplit_once(':') {
            Some((program, name)) => (Some(program), name),
            None => (None, spec),
        };
        let found: Vec<(usize, RowId)> = self
            .rows
            .iter()
            .enumerate()
            .filter(|(_, row)| row.kind == RowKind::Applier && row.name == name)
            .filter(|_| is_definition_name(name))
            .filter_map(|(id, row)| Some((row.unit?, id)))
            .filter(|&(unit, _)| program.is_none_or(|p| self.units[unit].name == p))
            .collect();
        match found.as_slice() {
            &[(unit, row)] => Ok(Entry { unit, row }),
            [] => Err(Diagnostic::error(
                codes::E1107,
                format!("no program in the memory has an applier `{spec}`"),
            )
            .with_help(format!(
                "the programs and their entries: {}",
                self.entries()
            ))),
            several => {
                let names: Vec<String> = several
                    .iter()
                    .map(|&(unit, _)| format!("`{}:{name}`", self.units[unit].name))
                    .collect();
                Err(Diagnostic::error(
                    codes::E1107,
                    format!("several programs have an applier `{name}`"),
                )
                .with_help(format!("name one of them: {}", names.join(", "))))
            }
        }
    }

    /// `quicksort.cnpi:QUICKSORT, reverse.cnpi:REVERSE`
    pub fn entries(&self) -> String {
        let entries: Vec<String> = self
            .units
            .iter()
            .map(|unit| {
                let entry = self.rows.get(unit.entry).map_or("?", |r| r.name.as_str());
                format!("`{}:{entry}`", unit.name)
            })
            .collect();
        entries.join(", ")
    }

    /// A memory with only the fixed rows and the built-in detectors, keys
    /// drawn from `seed`; the built-in detectors' classifiers are the kept
    /// ones for the default seed ([`builtin`]), else come from `cache` or
    /// are trained.
    pub fn new(seed: u64, cache: &Cache) -> Result<Memory, Diagnostic> {
        let fixed = fixed_rows();
        let mut m_key = Vec::new();
        keys::draw(&mut m_key, fixed.len(), seed, keys::Table::Programs)
            .map_err(|n| internal(format!("no room for fixed key {n}")))?;
        let rows = fixed
            .iter()
            .map(|(kind, name)| Row {
                kind: *kind,
                name: name.clone(),
                unit: None,
                span: Span::default(),
                spans: Vec::new(),
            })
            .collect();
        let mut memory = Memory {
            seed,
            m_key,
            m_prog: vec![0.0; fixed.len() * EMBED_DIM],
            rows,
            w_key: Vec::new(),
            detectors: Vec::new(),
            units: Vec::new(),
            combinators: Vec::new(),
        };
        for (condition, text) in [
            (Condition::Blind, "true"),
            (Condition::StackTop, "_top != SENTINEL"),
        ] {
            let kept = builtin::kept(&condition, seed).and_then(|classifier| {
                let encoder = Encoder::new(condition.clone()).ok()?;
                Detector::verified(encoder, classifier).ok()
            });
            let detector = match kept {
                Some(detector) => detector,
                None => Detector::train(condition, text, seed, cache).map_err(|e| {
                    internal(format!("the built-in detector `{text}` failed: {e:?}"))
                })?,
            };
            memory.detectors.push(DetectorRow {
                detector,
                text: text.to_string(),
                unit: None,
            });
        }
        keys::draw(&mut memory.w_key, 2, seed, keys::Table::Detectors)
            .map_err(|n| internal(format!("no room for built-in detector key {n}")))?;
        Ok(memory)
    }

    /// A new memory (keys from `seed`) holding `program`, the file `name`
    /// with text `source`: what `cnpic build` writes and `cnpic run` runs.
    pub fn with_program(
        program: &Program,
        name: &str,
        source: &str,
        seed: u64,
        cache: &Cache,
    ) -> Result<Memory, Diagnostic> {
        let mut memory = Memory::new(seed, cache)?;
        memory.add(program, name, source, cache)?;
        Ok(memory)
    }
}

/// True for the name of a definition: an identifier. The other applier
/// rows are inline ACT arguments, named by their text (`SWAP(pivot, hi)`),
/// which are no definitions and so, as in the source, no entries.
fn is_definition_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_rows_are_numbered_by_their_codes() {
        for (row, &(kind, _)) in fixed_rows().iter().enumerate() {
            assert_eq!(kind.code(), row, "{kind:?}");
            assert_eq!(RowKind::from_code(row), Some(kind));
        }
        let appliers = RowKind::Applier.code();
        assert_eq!(appliers, fixed_rows().len());
        assert_eq!(RowKind::from_code(appliers), Some(RowKind::Applier));
        assert_eq!(RowKind::from_code(appliers + 1), Some(RowKind::Defined));
        assert_eq!(RowKind::Defined.code(), appliers + 1);
        assert_eq!(RowKind::from_code(appliers + 2), None);
    }

    #[test]
    fn builtin_slots_are_bound_to_their_rows() {
        let names = fixed_rows();
        let name = |slot| Memory::builtin_slot(slot).map(|row| names[row].1.as_str());
        assert_eq!(name(Slot::PushSentinel), Some("_push_sentinel"));
        assert_eq!(name(Slot::MapSelf), Some("_mapself"));
        assert_eq!(name(Slot::Pop), Some("_pop"));
        assert_eq!(name(Slot::LoadState), Some("_load_state"));
        assert_eq!(name(Slot::Nop), Some("NOP"));
        assert_eq!(name(Slot::A2), None);
    }

    #[test]
    fn the_parser_reads_back_what_was_written() {
        let text = "env array(i = 0, j = 1)\n\
                    def STEP: seq(; SWAP(i, j), MOVE(i, RIGHT), NOP)\n\
                    def LOOP: linrec(A[j] != END?; STEP, SET(j, i + 2), NOP)\n";
        let program = cnpi::compile::compile("t.cnpi", text, None)
            .program
            .expect("compiles");
        let memory =
            Memory::with_program(&program, "t.cnpi", text, 3, &Cache::none()).expect("builds");
        let row = |name: &str| memory.rows.iter().position(|r| r.name == name).expect(name);
        let Ok(Parsed::Combinator {
            kind,
            detector,
            args,
            ..
        }) = memory.parse(row("LOOP"))
        else {
            panic!("LOOP is a combinator applier");
        };
        assert_eq!(
            kind,
            CombinatorKind::User(cnpi::program::Combinator::Linrec)
        );
        assert_eq!(memory.detectors[detector].text, "A[j] != END");
        let nop = Memory::fixed(RowKind::Act(ActKind::NOP));
        assert_eq!(args, [row("STEP"), row("SET(j, i + 2)"), nop]);
        let Ok(Parsed::Act(app)) = memory.parse(row("SET(j, i + 2)")) else {
            panic!("an ACT applier");
        };
        let names = &memory.units[0].declared.registers;
        assert_eq!(cnpi::program::print::act(&app.act, names), "SET(j, i + 2)");
        assert_eq!(&text[app.span.range()], "SET(j, i + 2)");
        assert!(memory.parse(0).is_err(), "a combinator row is no applier");
    }
}
