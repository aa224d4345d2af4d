//! Program-memory files (`.cnpim`): a [`Memory`] as safetensors.
//!
//! Tensors hold everything the machine computes with: `m_key`, `m_prog`
//! and `m_kind` (program memory), `w_key` and per detector its classifier
//! (`detector.I.w1` ...) and its condition's code (`detector.I.condition`,
//! what its encoder reads), and per program the code of its pointers'
//! initial positions (`unit.U.pointers`) and of its declared data's lengths
//! and initial values (`unit.U.data`). The `memory` metadata entry (JSON)
//! holds what diagnostics and traces need: names, source spans, each
//! program's source text, environment and entry, and the definition of
//! each combinator a program defines (its row's embedding is its learned
//! initial state, verified on the core before any run). [`read`] checks all of it
//! before a run can start ([`read_file`] and [`write_file`] do the same
//! for a path): the checksum, every shape, that the keys are
//! unit-norm and distinct, that every applier parses into rows that exist,
//! and it verifies every detector again on its whole domain. A file that
//! fails any check is an E1102 error, never a panic.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::codec::{self, Code, Decoder};
use crate::detector::{Condition, Detector, Encoder, read_classifier, write_classifier};
use crate::memory::keys::Table;
use crate::memory::{
    ActKind, DefinedRow, DetectorRow, EMBED_DIM, KEY_DIM, KeyIndex, Memory, Parsed, Row, RowKind,
    Unit, fixed_rows, keys,
};
use crate::tensors::{Reader, Writer};
use cnpi::diagnostic::{Diagnostic, codes};
use cnpi::env::Declarations;
use cnpi::program::EnvKind;
use cnpi::program::{Behaviour, Data, DataKind, Pointer, PointerId, PosExpr, PosKind, Slot};
use cnpi::span::{SourceId, Span};

/// The format of the files this version writes and reads (the `format`
/// metadata entry). Version 2: ACT rows come from the environment registry
/// and ACT arguments and observations are written by their declared types.
/// Version 3: the `ram` environment's ACT rows, cells of declared data in
/// codes, and each program's declared data (`unit.U.data`).
pub const FORMAT: &str = "cnpi-memory-3";

#[derive(Serialize, Deserialize)]
struct Header {
    seed: u64,
    rows: Vec<RowHeader>,
    detectors: Vec<DetectorHeader>,
    units: Vec<UnitHeader>,
}

#[derive(Serialize, Deserialize)]
struct RowHeader {
    name: String,
    unit: Option<usize>,
    span: [usize; 2],
    spans: Vec<[usize; 2]>,
    /// For a combinator a program defines: its definition.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    combinator: Option<CombinatorHeader>,
}

/// A defined combinator's body: the slot names of each branch.
#[derive(Serialize, Deserialize)]
struct CombinatorHeader {
    when_true: Vec<String>,
    when_false: Vec<String>,
    reads_c: bool,
}

impl CombinatorHeader {
    fn new(defined: &DefinedRow) -> CombinatorHeader {
        let names = |slots: &[Slot]| slots.iter().map(|s| s.name().to_string()).collect();
        CombinatorHeader {
            when_true: names(&defined.behaviour.when_true),
            when_false: names(&defined.behaviour.when_false),
            reads_c: defined.reads_c,
        }
    }

    /// The definition, if every name is a slot of the family.
    fn read(&self, row: usize) -> Result<DefinedRow, String> {
        let slots = |names: &[String]| {
            names
                .iter()
                .map(|name| {
                    let family = [Slot::SelfSlot, Slot::A1, Slot::A2, Slot::A3, Slot::Nop];
                    family
                        .into_iter()
                        .find(|slot| slot.name() == name)
                        .ok_or_else(|| format!("combinator row {row} calls `{name}`, not a slot"))
                })
                .collect::<Result<Vec<_>, _>>()
        };
        let behaviour = Behaviour {
            when_true: slots(&self.when_true)?,
            when_false: slots(&self.when_false)?,
        };
        if cnpi::stdlib::full_set::member(&behaviour, self.reads_c).is_none() {
            return Err(format!(
                "combinator row {row} is not a member of the family"
            ));
        }
        Ok(DefinedRow {
            row,
            behaviour,
            reads_c: self.reads_c,
        })
    }
}

#[derive(Serialize, Deserialize)]
struct DetectorHeader {
    text: String,
    unit: Option<usize>,
    /// `blind`, `stack_top` or `source`.
    kind: String,
    spans: Vec<[usize; 2]>,
    /// The number of feature vectors verified (informative).
    domain: usize,
}

#[derive(Serialize, Deserialize)]
struct UnitHeader {
    name: String,
    env: String,
    source: String,
    pointers: Vec<PointerHeader>,
    init_spans: Vec<[usize; 2]>,
    /// The declared data (`ram`); their lengths and initial values are
    /// the code `unit.U.data`, with the spans `data_spans`.
    data: Vec<DataHeader>,
    data_spans: Vec<[usize; 2]>,
    state: Option<Vec<PointerId>>,
    entry: usize,
}

#[derive(Serialize, Deserialize)]
struct DataHeader {
    name: String,
    span: [usize; 2],
    /// `input`, `size` or `var`.
    kind: String,
    /// The number of dimensions.
    dims: usize,
}

#[derive(Serialize, Deserialize)]
struct PointerHeader {
    name: String,
    span: [usize; 2],
}

fn pair(span: Span) -> [usize; 2] {
    [span.start, span.end]
}

fn span([start, end]: [usize; 2]) -> Span {
    Span::new(SourceId::USER, start, end)
}

/// The bytes of a `.cnpim` file holding `memory`; `command` is recorded.
pub fn write(memory: &Memory, command: &str) -> Result<Vec<u8>, Diagnostic> {
    let n = memory.rows.len();
    let mut writer = Writer::new(FORMAT);
    writer.tensor("m_key", &[n, KEY_DIM], &memory.m_key);
    writer.tensor("m_prog", &[n, EMBED_DIM], &memory.m_prog);
    let kinds: Vec<f32> = memory.rows.iter().map(|r| r.kind.code() as f32).collect();
    writer.tensor("m_kind", &[n], &kinds);
    writer.tensor("w_key", &[memory.detectors.len(), KEY_DIM], &memory.w_key);
    let detectors = (memory.detectors.iter().enumerate())
        .map(|(i, row)| write_detector(&mut writer, i, row))
        .collect();
    let units = (memory.units.iter().enumerate())
        .map(|(u, unit)| write_unit(&mut writer, u, unit))
        .collect();
    let header = Header {
        seed: memory.seed,
        rows: (memory.rows.iter().enumerate())
            .map(|(i, row)| row_header(memory, i, row))
            .collect(),
        detectors,
        units,
    };
    let json = serde_json::to_string(&header)
        .map_err(|e| cnpi::env::internal(format!("cannot encode the memory: {e}")))?;
    writer.metadata("memory", json);
    writer.metadata("command", command);
    writer.metadata("cnpi_version", env!("CARGO_PKG_VERSION"));
    Ok(writer.finish())
}

/// Writes detector `i`'s classifier and condition code; its header.
fn write_detector(writer: &mut Writer, i: usize, row: &DetectorRow) -> DetectorHeader {
    write_classifier(writer, &format!("detector.{i}."), row.detector.classifier());
    let (kind, code) = match row.detector.condition() {
        Condition::Blind => ("blind", Code::default()),
        Condition::StackTop => ("stack_top", Code::default()),
        Condition::Source(expr) => {
            let mut code = Code::default();
            code.condition(expr);
            ("source", code)
        }
    };
    writer.tensor(
        format!("detector.{i}.condition"),
        &[code.values.len()],
        &code.values,
    );
    DetectorHeader {
        text: row.text.clone(),
        unit: row.unit,
        kind: kind.into(),
        spans: code.spans.into_iter().map(pair).collect(),
        domain: row.detector.domain(),
    }
}

/// Writes the codes of unit `u`'s initial positions and declared data;
/// its header.
fn write_unit(writer: &mut Writer, u: usize, unit: &Unit) -> UnitHeader {
    let mut code = Code::default();
    for pointer in &unit.declared.registers {
        code.position(&pointer.init);
    }
    writer.tensor(
        format!("unit.{u}.pointers"),
        &[code.values.len()],
        &code.values,
    );
    let mut data_code = Code::default();
    for data in &unit.declared.data {
        for dim in &data.dims {
            data_code.position(dim);
        }
        if let DataKind::Var { init } = &data.kind {
            data_code.position(init);
        }
    }
    writer.tensor(
        format!("unit.{u}.data"),
        &[data_code.values.len()],
        &data_code.values,
    );
    UnitHeader {
        name: unit.name.clone(),
        env: unit.declared.env.name().into(),
        source: unit.source.clone(),
        pointers: (unit.declared.registers.iter())
            .map(|p| PointerHeader {
                name: p.name.clone(),
                span: pair(p.span),
            })
            .collect(),
        init_spans: code.spans.into_iter().map(pair).collect(),
        data: unit.declared.data.iter().map(data_header).collect(),
        data_spans: data_code.spans.into_iter().map(pair).collect(),
        state: unit.state.clone(),
        entry: unit.entry,
    }
}

fn data_header(data: &Data) -> DataHeader {
    let kind = match data.kind {
        DataKind::Input => "input",
        DataKind::Size => "size",
        DataKind::Var { .. } => "var",
    };
    DataHeader {
        name: data.name.clone(),
        span: pair(data.span),
        kind: kind.into(),
        dims: data.dims.len(),
    }
}

/// The header of row `i`, `row`.
fn row_header(memory: &Memory, i: usize, row: &Row) -> RowHeader {
    RowHeader {
        name: row.name.clone(),
        unit: row.unit,
        span: pair(row.span),
        spans: row.spans.iter().copied().map(pair).collect(),
        combinator: (memory.combinators.iter())
            .find(|d| d.row == i)
            .map(CombinatorHeader::new),
    }
}

/// Reads and checks a `.cnpim` file's bytes; `name` is how diagnostics
/// refer to the file.
pub fn read(bytes: &[u8], name: &str) -> Result<Memory, Diagnostic> {
    load(bytes).map_err(|why| {
        Diagnostic::error(
            codes::E1102,
            format!("`{name}` is not a valid program-memory file: {why}"),
        )
        .with_help("rebuild it from the source with `cnpic build FILE.cnpi -o FILE.cnpim`")
    })
}

fn load(bytes: &[u8]) -> Result<Memory, String> {
    let reader = Reader::open(bytes, FORMAT).map_err(|e| e.to_string())?;
    let header: Header = serde_json::from_str(reader.metadata("memory")?)
        .map_err(|e| format!("its `memory` entry is not valid: {e}"))?;
    let n = header.rows.len();
    let m_key = reader.tensor("m_key", &[n, KEY_DIM])?;
    let m_prog = reader.tensor("m_prog", &[n, EMBED_DIM])?;
    let kinds = reader.tensor("m_kind", &[n])?;
    let w_key = reader.tensor("w_key", &[header.detectors.len(), KEY_DIM])?;
    keys::check(&m_key, header.seed, Table::Programs).map_err(|e| format!("in `M_key`, {e}"))?;
    keys::check(&w_key, header.seed, Table::Detectors).map_err(|e| format!("in `W_key`, {e}"))?;
    let units = header
        .units
        .iter()
        .enumerate()
        .map(|(u, unit)| read_unit(&reader, u, unit, n))
        .collect::<Result<Vec<_>, _>>()?;
    let fixed = fixed_rows();
    let mut rows = Vec::with_capacity(n);
    let mut combinators = Vec::new();
    for (i, (row, &code)) in header.rows.iter().zip(&kinds).enumerate() {
        let kind = RowKind::from_code(code as usize)
            .filter(|_| code.fract() == 0.0 && code >= 0.0)
            .ok_or_else(|| format!("row {i} has no valid kind ({code})"))?;
        let expected = fixed.get(i).map_or(RowKind::Applier, |&(k, _)| k);
        if kind != expected && !(kind == RowKind::Defined && i >= fixed.len()) {
            return Err(format!("row {i} is a {kind:?}, expected a {expected:?}"));
        }
        match (&row.combinator, kind) {
            (Some(header), RowKind::Defined) => combinators.push(header.read(i)?),
            (None, RowKind::Defined) => return Err(format!("combinator row {i} has no body")),
            (Some(_), _) => return Err(format!("row {i} has a body but is a {kind:?}")),
            (None, _) => {}
        }
        let spans: Vec<Span> = row.spans.iter().copied().map(span).collect();
        if matches!(kind, RowKind::Applier | RowKind::Defined) {
            let unit = row
                .unit
                .and_then(|u| units.get(u))
                .ok_or_else(|| format!("applier row {i} belongs to no program"))?;
            let all = std::iter::once(span(row.span)).chain(spans.iter().copied());
            check_spans(all, &unit.source)?;
        }
        rows.push(Row {
            kind,
            name: row.name.clone(),
            unit: (row.unit).filter(|_| matches!(kind, RowKind::Applier | RowKind::Defined)),
            span: span(row.span),
            spans,
        });
    }
    let mut memory = Memory {
        seed: header.seed,
        m_key,
        m_prog,
        rows,
        w_key,
        detectors: Vec::new(),
        units,
        combinators,
    };
    for (i, detector) in header.detectors.iter().enumerate() {
        let row = read_detector(&reader, i, detector, &memory)?;
        memory.detectors.push(row);
    }
    for (u, unit) in memory.units.iter().enumerate() {
        let entry = memory.rows.get(unit.entry);
        if entry.is_none_or(|r| r.kind != RowKind::Applier || r.unit != Some(u)) {
            return Err(format!("program {u}'s entry is not one of its appliers"));
        }
    }
    let index = memory.key_index();
    for row in 0..n {
        check_applier(&memory, row, &index)?;
    }
    Ok(memory)
}

/// Checks that every span lies in a source of `length` bytes.
/// Every span must lie inside `source` and start and end on character
/// boundaries: diagnostics cut the source at them.
fn check_spans(spans: impl Iterator<Item = Span>, source: &str) -> Result<(), String> {
    for span in spans {
        if span.start > span.end || span.end > source.len() {
            return Err(format!("a source span {span:?} lies outside its source"));
        }
        if !source.is_char_boundary(span.start) || !source.is_char_boundary(span.end) {
            return Err(format!(
                "a source span {span:?} starts or ends inside a character of its source"
            ));
        }
    }
    Ok(())
}

fn read_unit(reader: &Reader, u: usize, unit: &UnitHeader, rows: usize) -> Result<Unit, String> {
    let env = EnvKind::from_name(&unit.env)
        .ok_or_else(|| format!("program {u} runs in an unknown environment `{}`", unit.env))?;
    let name = format!("unit.{u}.pointers");
    let values = reader.tensor(&name, &reader.shape(&name)?)?;
    let spans: Vec<Span> = unit.init_spans.iter().copied().map(span).collect();
    check_spans(spans.iter().copied(), &unit.source)?;
    let count = unit.pointers.len();
    let data = read_data(reader, u, unit)?;
    let mut decoder = Decoder::new(&values, &spans, count, &data);
    let mut pointers = Vec::with_capacity(count);
    for pointer in &unit.pointers {
        let init = decoder
            .position()
            .map_err(|e| format!("program {u}'s pointer `{}`: {}", pointer.name, e.0))?;
        pointers.push(Pointer {
            name: pointer.name.clone(),
            init,
            span: span(pointer.span),
            // A `.cnpim` holds the converted program, whose locals are
            // hidden registers.
            owner: None,
        });
    }
    if !decoder.finished() {
        return Err(format!("program {u}'s pointer code has trailing numbers"));
    }
    if let Some(state) = &unit.state
        && state.iter().any(|&p| p >= count)
    {
        return Err(format!(
            "program {u}'s state names a pointer it does not have"
        ));
    }
    if unit.entry >= rows {
        return Err(format!(
            "program {u}'s entry is row {}, past the end",
            unit.entry
        ));
    }
    Ok(Unit {
        name: unit.name.clone(),
        source: unit.source.clone(),
        declared: Declarations {
            env,
            registers: pointers,
            data,
        },
        state: unit.state.clone(),
        entry: unit.entry,
    })
}

/// Program `u`'s declared data: names and shapes from the header, lengths
/// and initial values from the code `unit.U.data` (read against every
/// declaration, since a length may name a size declared after it).
fn read_data(reader: &Reader, u: usize, unit: &UnitHeader) -> Result<Vec<Data>, String> {
    let name = format!("unit.{u}.data");
    let values = reader.tensor(&name, &reader.shape(&name)?)?;
    let spans: Vec<Span> = unit.data_spans.iter().copied().map(span).collect();
    check_spans(spans.iter().copied(), &unit.source)?;
    let zero = PosExpr {
        kind: PosKind::Int(0),
        span: Span::default(),
    };
    let mut shapes = Vec::with_capacity(unit.data.len());
    for header in &unit.data {
        let kind = match header.kind.as_str() {
            "input" => DataKind::Input,
            "size" => DataKind::Size,
            "var" => DataKind::Var { init: zero.clone() },
            other => return Err(format!("program {u} declares data of kind `{other}`")),
        };
        if header.dims > 2 {
            return Err(format!(
                "program {u}'s `{}` has {} dimensions",
                header.name, header.dims
            ));
        }
        check_spans(std::iter::once(span(header.span)), &unit.source)?;
        shapes.push(Data {
            name: header.name.clone(),
            span: span(header.span),
            kind,
            dims: vec![zero.clone(); header.dims],
        });
    }
    let mut decoder = Decoder::new(&values, &spans, unit.pointers.len(), &shapes);
    let mut data = shapes.clone();
    for item in &mut data {
        let what = |e: codec::CodeError| format!("program {u}'s `{}`: {}", item.name, e.0);
        for dim in &mut item.dims {
            *dim = decoder.position().map_err(what)?;
        }
        if let DataKind::Var { init } = &mut item.kind {
            *init = decoder.position().map_err(what)?;
        }
    }
    if !decoder.finished() {
        return Err(format!("program {u}'s data code has trailing numbers"));
    }
    Ok(data)
}

fn read_detector(
    reader: &Reader,
    i: usize,
    header: &DetectorHeader,
    memory: &Memory,
) -> Result<DetectorRow, String> {
    let prefix = format!("detector.{i}.");
    let classifier = read_classifier(reader, &prefix)?;
    let name = format!("{prefix}condition");
    let values = reader.tensor(&name, &reader.shape(&name)?)?;
    let spans: Vec<Span> = header.spans.iter().copied().map(span).collect();
    let unit = header.unit.map(|u| memory.units.get(u));
    let expected = match i {
        0 => "blind",
        1 => "stack_top",
        _ => "source",
    };
    if header.kind != expected {
        return Err(format!(
            "detector {i} is `{}`, expected `{expected}`",
            header.kind
        ));
    }
    let condition = match (expected, unit) {
        ("blind", None) => Condition::Blind,
        ("stack_top", None) => Condition::StackTop,
        ("source", Some(Some(unit))) => {
            check_spans(spans.iter().copied(), &unit.source)?;
            let mut decoder = Decoder::new(
                &values,
                &spans,
                unit.declared.registers.len(),
                &unit.declared.data,
            );
            let expr = decoder
                .condition()
                .map_err(|e| format!("detector {i}'s condition: {}", e.0))?;
            if !decoder.finished() {
                return Err(format!("detector {i}'s condition has trailing numbers"));
            }
            Condition::Source(expr)
        }
        _ => return Err(format!("detector {i} belongs to the wrong program")),
    };
    let encoder = Encoder::new(condition)
        .map_err(|e| format!("detector {i}'s domain ({}) is too large", e.domain))?;
    let detector = Detector::verified(encoder, classifier)
        .map_err(|_| format!("detector {i} (`{}`) fails verification", header.text))?;
    Ok(DetectorRow {
        detector,
        text: header.text.clone(),
        unit: header.unit,
    })
}

/// Checks that applier `row` parses into rows its program may run: a
/// combinator with a detector of the source (its program's or an earlier
/// one's, since detectors are shared) and arguments among its program's
/// appliers and NOP, or an ACT. Every key in the row must be a stored key,
/// so the indexed parse is the parse (Lemma 1) and the check is linear.
fn check_applier(memory: &Memory, row: usize, index: &KeyIndex) -> Result<(), String> {
    let info = &memory.rows[row];
    if info.kind != RowKind::Applier {
        return Ok(());
    }
    match memory
        .parse_indexed(row, index)
        .map_err(|e| format!("applier {row} does not parse: {e}"))?
    {
        Parsed::Act(_) => Ok(()),
        Parsed::Combinator { detector, args, .. } => {
            let own = |r: &Row| r.unit == info.unit;
            let detector_ok = memory
                .detectors
                .get(detector)
                .is_some_and(|d| d.unit.is_none() || d.unit <= info.unit)
                && detector != crate::memory::STACK_TOP;
            let nop = Memory::fixed(RowKind::Act(ActKind::NOP));
            let args_ok = args.iter().all(|&a| {
                a == nop
                    || memory
                        .rows
                        .get(a)
                        .is_some_and(|r| r.kind == RowKind::Applier && own(r))
            });
            if detector_ok && args_ok {
                Ok(())
            } else {
                Err(format!("applier {row} refers to rows of another program"))
            }
        }
    }
}

/// True for a path that names a program memory: by its extension
/// (`.cnpim`), or by its contents under any other name.
pub fn is_memory_file(path: &Path) -> bool {
    is_memory_path(path) || cnpi::read::bytes(path).is_ok_and(|bytes| is_memory(&bytes))
}

/// True for a path with the extension `.cnpim`.
pub fn is_memory_path(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "cnpim")
}

/// True for the bytes of a program memory, whatever the file's name.
pub fn is_memory(bytes: &[u8]) -> bool {
    crate::tensors::format_of(bytes).as_deref() == Some(FORMAT)
}

/// Reads and checks the `.cnpim` file at `path`.
pub fn read_file(path: &Path) -> Result<Memory, Diagnostic> {
    let bytes = cnpi::read::bytes(path).map_err(|error| {
        Diagnostic::error(
            codes::E1101,
            format!(
                "cannot read the program memory `{}`: {error}",
                path.display()
            ),
        )
        .with_help("build one with `cnpic build FILE.cnpi -o FILE.cnpim`")
    })?;
    read(&bytes, &path.display().to_string())
}

/// Writes `memory` to `path`, recording `command` (the command line).
pub fn write_file(path: &Path, memory: &Memory, command: &str) -> Result<(), Diagnostic> {
    let bytes = write(memory, command)?;
    cnpi::files::write_atomic(path, &bytes).map_err(|error| {
        Diagnostic::error(
            codes::E1101,
            format!(
                "cannot write the program memory `{}`: {error}",
                path.display()
            ),
        )
    })
}
