//! Adding a checked program to a memory: the compiler's last phase.
//!
//! [`Memory::add`] appends one row per applier definition and per inline
//! ACT argument (`MOVE(P1, RIGHT)` is an anonymous applier; a bare `NOP` is
//! the NOP row itself), draws their keys, writes their embeddings per
//! equation 1, and appends one detector per distinct condition written in
//! an applier (a condition the memory already detects reuses its detector),
//! trained (or taken from the cache) and verified. Each combinator the
//! program defines and applies gets a row whose embedding is learned on
//! the shipped core and verified (a behaviour the memory already holds
//! reuses its row); one that cannot be learned is refused (E1109). Nothing
//! that exists is touched. Normal programs are not appliers: they must be
//! combinatorized first. A hole (`def NAME: ?`) gets an applier row that
//! does nothing, `seq(; NOP, NOP, NOP)`, and a detector for each condition
//! it lists; [`Memory::write_applier`] rewrites such a row as an applier
//! is learned (`cnpi_rl::sketch`).

use std::collections::HashMap;

use super::keys::{self, Table};
use super::{
    ARGUMENT_DIM, ActKind, BLIND, DefinedRow, DetectorId, DetectorRow, EMBED_DIM, KEY_DIM, Memory,
    Row, RowId, RowKind, Unit,
};
use crate::codec::Code;
use crate::core::Core;
use crate::core::embedding::{self, Refused};
use crate::detector::{Cache, Condition, Detector, Failure, MAX_DOMAIN};
use cnpi::diagnostic::{Diagnostic, codes};
use cnpi::env::{Declarations, internal};
use cnpi::program::print;
use cnpi::program::print::condition as condition_text;
use cnpi::program::{
    Act, ActApp, Applier, Body, BoolExpr, Callee, Combinator, CombinatorKind, Def, DefId, Defined,
    Program,
};
use cnpi::span::Span;

/// What one new row will hold, before keys exist.
enum Plan<'p> {
    /// An applier of the combinator in row `program`.
    Combinator {
        program: RowId,
        detector: DetectorId,
        args: [RowId; 3],
    },
    Act(&'p ActApp),
    /// A combinator the program defines, to be learned.
    Defined(&'p Defined),
}

/// The rows and detectors a program adds, numbered but not yet keyed.
struct Planned<'p> {
    rows: Vec<(Row, Plan<'p>)>,
    /// Each condition with the span diagnostics point at.
    conditions: Vec<(&'p BoolExpr, Span)>,
    entry: RowId,
}

impl Memory {
    /// Adds the appliers of `program`, read from the file `name` with text
    /// `source`; returns the new unit's index. Detectors are trained with
    /// the memory's seed, through `cache`. On an error nothing is added.
    pub fn add(
        &mut self,
        program: &Program,
        name: &str,
        source: &str,
        cache: &Cache,
    ) -> Result<usize, Diagnostic> {
        self.add_reporting(program, name, source, cache, &mut |_, _| {})
    }

    /// [`Memory::add`], calling `progress(done, total)` as each new
    /// detector is trained and each new combinator learned (or taken from
    /// the cache), the slow parts.
    pub fn add_reporting(
        &mut self,
        program: &Program,
        name: &str,
        source: &str,
        cache: &Cache,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<usize, Diagnostic> {
        if self.units.iter().any(|unit| unit.name == name) {
            return Err(Diagnostic::error(
                codes::E1108,
                format!("the program memory already holds a program named `{name}`"),
            )
            .with_help(
                "programs are told apart by their file names (`--entry PROGRAM:NAME`); add \
                 the program from a copy with another name, or build a new memory",
            ));
        }
        let unit = self.units.len();
        let planned = self.plan(program, unit)?;
        let to_learn = planned
            .rows
            .iter()
            .filter(|(_, p)| matches!(p, Plan::Defined(_)));
        let total = planned.conditions.len() + to_learn.count();
        let mut detectors = Vec::with_capacity(planned.conditions.len());
        for (done, &(condition, span)) in planned.conditions.iter().enumerate() {
            progress(done, total);
            let text = condition_text(condition, &program.pointers);
            let source = Condition::Source(condition.clone());
            let detector = Detector::train(source, &text, self.seed, cache)
                .map_err(|failure| no_detector(failure, span))?;
            detectors.push(DetectorRow {
                detector,
                text,
                unit: Some(unit),
            });
        }
        let mut learned = Vec::new();
        for (row, plan) in &planned.rows {
            if let Plan::Defined(defined) = plan {
                progress(detectors.len() + learned.len(), total);
                learned.push(learn(defined, &row.name, cache)?);
            }
        }
        let mut learned = learned.into_iter();
        let (mut m_key, mut w_key) = (self.m_key.clone(), self.w_key.clone());
        keys::draw(&mut m_key, planned.rows.len(), self.seed, Table::Programs)
            .map_err(|n| full(n, "program"))?;
        keys::draw(&mut w_key, detectors.len(), self.seed, Table::Detectors)
            .map_err(|n| full(n, "detector"))?;
        // Sized once: grown row by row, it was copied at every doubling.
        let mut m_prog = Vec::with_capacity(self.m_prog.len() + planned.rows.len() * EMBED_DIM);
        m_prog.extend_from_slice(&self.m_prog);
        let mut rows = Vec::with_capacity(planned.rows.len());
        let mut combinators = Vec::new();
        for (mut row, plan) in planned.rows {
            let (embedding, spans) = match plan {
                Plan::Defined(defined) => {
                    combinators.push(DefinedRow {
                        row: self.rows.len() + rows.len(),
                        behaviour: defined.behaviour.clone(),
                        reads_c: defined.reads_c,
                    });
                    let embedding = learned
                        .next()
                        .ok_or_else(|| internal("a combinator row was not learned"))?;
                    (embedding, Vec::new())
                }
                plan => embed(&plan, &m_key, &w_key)?,
            };
            m_prog.extend(embedding);
            row.spans = spans;
            rows.push(row);
        }
        // Nothing can fail any more: append.
        self.m_key = m_key;
        self.w_key = w_key;
        self.m_prog = m_prog;
        self.rows.extend(rows);
        self.detectors.extend(detectors);
        self.combinators.extend(combinators);
        self.units.push(Unit {
            name: name.to_string(),
            source: source.to_string(),
            declared: Declarations::of(program),
            state: program.state.clone(),
            entry: planned.entry,
        });
        Ok(unit)
    }

    /// Numbers the rows of `program` (its applier definitions in order,
    /// then its inline ACT arguments) and its detectors (one per
    /// condition), after the existing ones.
    fn plan<'p>(&self, program: &'p Program, unit: usize) -> Result<Planned<'p>, Diagnostic> {
        let mut next = self.rows.len();
        let (defined_rows, mut rows) = self.plan_defined(program, unit, &mut next);
        let def_rows: Vec<Option<RowId>> = (program.defs.iter())
            .map(|def| {
                matches!(def.body, Body::Applier(_) | Body::Hole(_)).then(|| {
                    next += 1;
                    next - 1
                })
            })
            .collect();
        let mut planner = Planner {
            program,
            unit,
            defined_rows,
            def_rows,
            next,
            inline: Vec::new(),
            detectors: Detectors::new(self),
        };
        let entry_span = (program.defs.get(program.entry)).map_or(Span::default(), |d| d.span);
        let entry = planner.row_of(program.entry, entry_span)?;
        for def in &program.defs {
            if let Some(plan) = planner.def(def)? {
                rows.push((planner.row(def.name.clone(), def.span), plan));
            }
        }
        rows.extend(planner.inline);
        Ok(Planned {
            rows,
            conditions: planner.detectors.conditions,
            entry,
        })
    }

    /// The rows of the combinators `program` defines and applies, numbered
    /// from `next` on: a row each, unless the memory holds the same
    /// behaviour already. Each defined combinator's row (if applied), and
    /// the new rows.
    fn plan_defined<'p>(
        &self,
        program: &'p Program,
        unit: usize,
        next: &mut RowId,
    ) -> (Vec<Option<RowId>>, Vec<(Row, Plan<'p>)>) {
        let mut defined_rows: Vec<Option<RowId>> = vec![None; program.combinators.defined.len()];
        let mut plans = Vec::new();
        for def in &program.defs {
            let Body::Applier(Applier::Combinator {
                combinator: Combinator::Defined(i),
                ..
            }) = def.body
            else {
                continue;
            };
            let (Some(defined), Some(None)) =
                (program.combinators.defined.get(i), defined_rows.get(i))
            else {
                continue;
            };
            let same =
                |d: &&DefinedRow| d.behaviour == defined.behaviour && d.reads_c == defined.reads_c;
            let row = match self.combinators.iter().find(same) {
                Some(known) => known.row,
                None => {
                    let row = Row {
                        kind: RowKind::Defined,
                        name: defined.name.clone(),
                        unit: Some(unit),
                        span: defined.span,
                        spans: Vec::new(),
                    };
                    plans.push((row, Plan::Defined(defined)));
                    *next += 1;
                    *next - 1
                }
            };
            defined_rows[i] = Some(row);
        }
        (defined_rows, plans)
    }
}

/// One detector per distinct condition, in the program being added and
/// across the programs already in the memory.
struct Detectors<'p> {
    known: HashMap<Vec<u32>, DetectorId>,
    /// The memory's detectors before this program's.
    before: usize,
    /// Each new condition with the span diagnostics point at.
    conditions: Vec<(&'p BoolExpr, Span)>,
}

impl<'p> Detectors<'p> {
    fn new(memory: &Memory) -> Detectors<'p> {
        let known = (memory.detectors.iter().enumerate())
            .filter_map(|(id, row)| match row.detector.condition() {
                Condition::Source(condition) => Some((condition_code(condition), id)),
                _ => None,
            })
            .collect();
        Detectors {
            known,
            before: memory.detectors.len(),
            conditions: Vec::new(),
        }
    }

    /// The detector of `condition`, written in the applier at `span`.
    fn of(&mut self, condition: &'p BoolExpr, span: Span) -> DetectorId {
        let next = self.before + self.conditions.len();
        let id = *self.known.entry(condition_code(condition)).or_insert(next);
        if id == next {
            self.conditions
                .push((condition, condition_span(condition, span)));
        }
        id
    }
}

/// The rows of one program being numbered: what [`Memory::plan`] knows
/// while it plans each definition.
struct Planner<'p> {
    program: &'p Program,
    unit: usize,
    /// The row of each combinator the program defines (if applied).
    defined_rows: Vec<Option<RowId>>,
    /// The row of each definition (none for a normal program).
    def_rows: Vec<Option<RowId>>,
    /// The first row after the definitions'.
    next: RowId,
    /// The rows of ACTs written inline as arguments, numbered from `next`.
    inline: Vec<(Row, Plan<'p>)>,
    detectors: Detectors<'p>,
}

impl<'p> Planner<'p> {
    fn row_of(&self, id: DefId, span: Span) -> Result<RowId, Diagnostic> {
        (self.def_rows.get(id).copied().flatten())
            .ok_or_else(|| normal_program(self.program, id, span))
    }

    fn row(&self, name: String, span: Span) -> Row {
        Row {
            kind: RowKind::Applier,
            name,
            unit: Some(self.unit),
            span,
            spans: Vec::new(),
        }
    }

    /// What the row of `def` will hold; `None` for a normal program.
    fn def(&mut self, def: &'p Def) -> Result<Option<Plan<'p>>, Diagnostic> {
        let nop = Memory::fixed(RowKind::Act(ActKind::NOP));
        Ok(Some(match &def.body {
            Body::Normal(_) => return Ok(None),
            Body::Hole(hole) => {
                for condition in &hole.conditions {
                    self.detectors.of(condition, hole.span);
                }
                Plan::Combinator {
                    program: Memory::fixed(RowKind::Combinator(CombinatorKind::User(
                        Combinator::Seq,
                    ))),
                    detector: BLIND,
                    args: [nop; 3],
                }
            }
            Body::Applier(Applier::Act(app)) => Plan::Act(app),
            Body::Applier(Applier::Combinator {
                combinator,
                detector,
                args,
                span,
            }) => {
                let detector = match detector {
                    None => BLIND,
                    Some(condition) => self.detectors.of(condition, *span),
                };
                let mut rows = [nop; 3];
                for (slot, callee) in rows.iter_mut().zip(args) {
                    *slot = self.argument(callee)?;
                }
                let program = match combinator {
                    Combinator::Defined(i) => (self.defined_rows.get(*i).copied().flatten())
                        .ok_or_else(|| internal(format!("combinator {i} has no row")))?,
                    stdlib => Memory::fixed(RowKind::Combinator(CombinatorKind::User(*stdlib))),
                };
                Plan::Combinator {
                    program,
                    detector,
                    args: rows,
                }
            }
        }))
    }

    /// The row an argument calls: a definition's, `NOP`'s, or a new row
    /// for an ACT written inline.
    fn argument(&mut self, callee: &'p Callee) -> Result<RowId, Diagnostic> {
        Ok(match callee {
            Callee::Def(id, span) => self.row_of(*id, *span)?,
            Callee::Act(ActApp { act: Act::Nop, .. }) => Memory::fixed(RowKind::Act(ActKind::NOP)),
            Callee::Act(app) => {
                let text = print::act(&app.act, &self.program.pointers);
                self.inline.push((self.row(text, app.span), Plan::Act(app)));
                self.next + self.inline.len() - 1
            }
        })
    }
}

impl Memory {
    /// Rewrites applier row `row` as the applier of combinator row
    /// `program` with detector `detector` and arguments `args`, per
    /// equation 1 from the keys the memory holds: how an applier being
    /// learned (a hole, `cnpic learn`) is tried. Nothing else changes.
    pub fn write_applier(
        &mut self,
        row: RowId,
        program: RowId,
        detector: DetectorId,
        args: [RowId; 3],
    ) -> Result<(), Diagnostic> {
        if self.rows.get(row).map(|r| r.kind) != Some(RowKind::Applier) {
            return Err(internal(format!("row {row} is not an applier")));
        }
        let plan = Plan::Combinator {
            program,
            detector,
            args,
        };
        let fits = |table: &[f32], at: usize| (at + 1) * KEY_DIM <= table.len();
        if !fits(&self.m_key, program)
            || !fits(&self.w_key, detector)
            || !args.iter().all(|&a| fits(&self.m_key, a))
        {
            return Err(internal(format!("row {row}: a key out of range")));
        }
        let (embedding, _) = embed(&plan, &self.m_key, &self.w_key)?;
        self.m_prog[row * EMBED_DIM..(row + 1) * EMBED_DIM].copy_from_slice(&embedding);
        self.rows[row].spans.clear();
        Ok(())
    }
}

/// The embedding of a planned applier row per equation 1, with the source
/// spans of an ACT's argument expressions.
fn embed(plan: &Plan, m_key: &[f32], w_key: &[f32]) -> Result<(Vec<f32>, Vec<Span>), Diagnostic> {
    let key = |table: &[f32], row: usize| table[row * KEY_DIM..(row + 1) * KEY_DIM].to_vec();
    let mut embedding = Vec::with_capacity(EMBED_DIM);
    let mut spans = Vec::new();
    match plan {
        Plan::Combinator {
            program,
            detector,
            args,
        } => {
            embedding.extend(key(m_key, *program));
            embedding.extend(key(w_key, *detector));
            for &arg in args {
                embedding.extend(key(m_key, arg));
            }
        }
        Plan::Act(app) => {
            let kind = ActKind::of(&app.act)
                .ok_or_else(|| internal(format!("no environment declares `{}`", app.act.name())))?;
            let act = RowKind::Act(kind);
            embedding.extend(key(m_key, Memory::fixed(act)));
            embedding.extend(key(w_key, BLIND));
            let mut code = Code::new();
            code.act_arguments(&app.act);
            if code.values.len() > ARGUMENT_DIM {
                return Err(too_long(app, code.values.len()));
            }
            embedding.extend(code.values);
            spans = code.spans;
        }
        Plan::Defined(_) => {}
    }
    embedding.resize(EMBED_DIM, 0.0);
    Ok((embedding, spans))
}

/// What identifies a condition: its code (structure, pointers by index,
/// constants), as bits. Two conditions with the same code detect the same
/// thing, whatever their spans.
pub fn condition_code(condition: &BoolExpr) -> Vec<u32> {
    let mut code = Code::new();
    code.condition(condition);
    code.values.iter().map(|v| v.to_bits()).collect()
}

/// The source text of `condition`: from its first to its last expression
/// node, or `applier` when it has none.
fn condition_span(condition: &BoolExpr, applier: Span) -> Span {
    let mut code = Code::new();
    code.condition(condition);
    let mut spans = code.spans.into_iter();
    match spans.next() {
        Some(first) => spans.fold(first, Span::to),
        None => applier,
    }
}

/// The row embedding of the combinator `defined` (its row is `name`):
/// `h | c` learned on the shipped core with [`embedding::SEED`], or E1109.
fn learn(defined: &Defined, name: &str, cache: &Cache) -> Result<Vec<f32>, Diagnostic> {
    let core = Core::shipped()?;
    if 2 * core.cells() > EMBED_DIM {
        return Err(internal(format!(
            "a {}-cell core's state does not fit in a memory row",
            core.cells()
        )));
    }
    match embedding::learn(core, name, &defined.behaviour, embedding::SEED, cache) {
        Ok(learned) => {
            let mut row = learned.embedding.h;
            row.extend(learned.embedding.c);
            row.resize(EMBED_DIM, 0.0);
            Ok(row)
        }
        Err(Refused(verification)) => Err(Diagnostic::error(
            codes::E1109,
            format!(
                "the core cannot learn the combinator `{name}`: no embedding passed \
                 verification, so it is refused"
            ),
        )
        .with_label(defined.span, "defined here")
        .with_note(verification.to_string())
        .with_help(format!(
            "the fixed core found no starting state that follows this body in {} attempts; \
             write it with the stdlib combinators, or as a different body of the family",
            embedding::ATTEMPTS
        ))),
    }
}

/// E1105: an applier refers to a normal program, which has no row.
fn normal_program(program: &Program, id: DefId, span: Span) -> Diagnostic {
    let name = program.defs.get(id).map_or("?", |d| d.name.as_str());
    Diagnostic::error(
        codes::E1105,
        format!("`{name}` is a normal program, which has no place in program memory"),
    )
    .with_label(span, "the network would run this")
    .with_help("combinatorize it first (`cnpi::combinatorize`, as `cnpic build` does)")
}

/// E1103: no verified detector for the condition at `span`.
fn no_detector(failure: Failure, span: Span) -> Diagnostic {
    let (message, help) = match failure {
        Failure::TooLarge(domain) => (
            format!(
                "this condition is too large for a detector: its encoder has {domain} feature \
                 vectors, more than {MAX_DOMAIN}"
            ),
            "split it: test part of it in an outer `cond` and the rest inside",
        ),
        Failure::Untrainable(domain) | Failure::Refuted(domain) => (
            format!(
                "no classifier for this condition passed verification on its {domain} feature \
                 vectors"
            ),
            "this is a bug in cnpic's detector training; please report it with the program",
        ),
    };
    Diagnostic::error(codes::E1103, message)
        .with_label(span, "this condition")
        .with_help(help)
}

// The conversion cuts ACTs of normal programs to this room.
const _: () = assert!(ARGUMENT_DIM == cnpi::combinatorize::ROOM);

/// E1104: an ACT's arguments do not fit in the places of three keys.
fn too_long(app: &ActApp, numbers: usize) -> Diagnostic {
    Diagnostic::error(
        codes::E1104,
        format!(
            "the arguments of `{}` take {numbers} numbers, but an applier embedding has room \
             for {ARGUMENT_DIM}",
            app.act.name()
        ),
    )
    .with_label(app.span, "too long to store in program memory")
    .with_help("compute the position in steps, e.g. with `SET` into a spare pointer first")
}

/// E1104: a key table has no room left.
fn full(n: usize, table: &str) -> Diagnostic {
    Diagnostic::error(
        codes::E1104,
        format!("the {table} memory has no room for another distinct key after {n} rows"),
    )
}
