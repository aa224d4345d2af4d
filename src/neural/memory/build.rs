//! Adding a checked program to a memory: the compiler's last phase.
//!
//! [`Memory::add`] appends one row per applier definition and per inline
//! ACT argument (`MOVE(P1, RIGHT)` is an anonymous applier; a bare `NOP` is
//! the NOP row itself), draws their keys, writes their embeddings per
//! equation 1, and appends one detector per condition written in an
//! applier, trained (or taken from the cache) and verified. Nothing that
//! exists is touched. Normal programs are not appliers: they must be
//! combinatorized first.

use super::codec::Code;
use super::keys::{self, Table};
use super::{
    ARGUMENT_DIM, ActKind, BLIND, DetectorId, DetectorRow, EMBED_DIM, KEY_DIM, Memory, Row, RowId,
    RowKind, Unit,
};
use crate::diagnostic::{Diagnostic, codes};
use crate::neural::detector::{Cache, Condition, Detector, Failure, MAX_DOMAIN, condition_text};
use crate::program::{Act, ActApp, Applier, Body, Callee, CombinatorKind, DefId, Program};
use crate::span::Span;
use crate::symbolic::trace;

/// What one new applier row will hold, before keys exist.
enum Plan<'p> {
    Combinator {
        kind: CombinatorKind,
        detector: DetectorId,
        args: [RowId; 3],
    },
    Act(&'p ActApp),
}

impl Memory {
    /// Adds the appliers of `program`, read from the file `name` with text
    /// `source`; returns the new unit's index. Detectors are trained with
    /// the memory's seed, through `cache`.
    pub fn add(
        &mut self,
        program: &Program,
        name: &str,
        source: &str,
        cache: &Cache,
    ) -> Result<usize, Diagnostic> {
        let unit = self.units.len();
        let first = self.rows.len();
        // Every applier definition gets a row, in definition order.
        let mut def_rows: Vec<Option<RowId>> = Vec::with_capacity(program.defs.len());
        let mut next = first;
        for def in &program.defs {
            let is_applier = matches!(def.body, Body::Applier(_));
            def_rows.push(is_applier.then(|| {
                next += 1;
                next - 1
            }));
        }
        let row_of = |id: DefId, span: Span| {
            def_rows
                .get(id)
                .copied()
                .flatten()
                .ok_or_else(|| normal_program(program, id, span))
        };
        let entry = row_of(program.entry, program.defs[program.entry].span)?;
        let mut new_rows: Vec<(Row, Plan)> = Vec::new();
        let mut inline: Vec<(Row, Plan)> = Vec::new();
        let mut conditions = Vec::new();
        let row = |name: String, span: Span| Row {
            kind: RowKind::Applier,
            name,
            unit: Some(unit),
            span,
            spans: Vec::new(),
        };
        for def in &program.defs {
            let plan = match &def.body {
                Body::Normal(_) => continue,
                Body::Applier(Applier::Act(app)) => Plan::Act(app),
                Body::Applier(Applier::Combinator {
                    combinator,
                    detector,
                    args,
                    span,
                }) => {
                    let detector = match detector {
                        None => BLIND,
                        Some(condition) => {
                            conditions.push((condition, condition_span(condition, *span)));
                            self.detectors.len() + conditions.len() - 1
                        }
                    };
                    let mut rows = [0; 3];
                    for (slot, callee) in rows.iter_mut().zip(args) {
                        *slot = match callee {
                            Callee::Def(id, span) => row_of(*id, *span)?,
                            Callee::Act(ActApp { act: Act::Nop, .. }) => {
                                Memory::fixed(RowKind::Act(ActKind::Nop))
                            }
                            Callee::Act(app) => {
                                let text = trace::act(&app.act, &program.pointers);
                                inline.push((row(text, app.span), Plan::Act(app)));
                                next + inline.len() - 1
                            }
                        };
                    }
                    Plan::Combinator {
                        kind: CombinatorKind::User(*combinator),
                        detector,
                        args: rows,
                    }
                }
            };
            new_rows.push((row(def.name.clone(), def.span), plan));
        }
        new_rows.extend(inline);

        let mut detectors = Vec::with_capacity(conditions.len());
        for (condition, span) in conditions {
            let text = condition_text(condition, &program.pointers);
            let source = Condition::Source(condition.clone());
            let detector = Detector::train(source, &text, self.seed, cache)
                .map_err(|failure| no_detector(failure, span))?;
            detectors.push((detector, text));
        }

        let (mut m_key, mut w_key) = (self.m_key.clone(), self.w_key.clone());
        keys::draw(&mut m_key, new_rows.len(), self.seed, Table::Programs)
            .map_err(|n| full(n, "program"))?;
        keys::draw(&mut w_key, detectors.len(), self.seed, Table::Detectors)
            .map_err(|n| full(n, "detector"))?;
        let key = |table: &[f32], row: usize| table[row * KEY_DIM..(row + 1) * KEY_DIM].to_vec();
        let mut m_prog = self.m_prog.clone();
        let mut rows = Vec::with_capacity(new_rows.len());
        for (mut info, plan) in new_rows {
            let mut embedding = Vec::with_capacity(EMBED_DIM);
            match plan {
                Plan::Combinator {
                    kind,
                    detector,
                    args,
                } => {
                    embedding.extend(key(&m_key, Memory::fixed(RowKind::Combinator(kind))));
                    embedding.extend(key(&w_key, detector));
                    for arg in args {
                        embedding.extend(key(&m_key, arg));
                    }
                }
                Plan::Act(app) => {
                    let act = RowKind::Act(ActKind::of(&app.act));
                    embedding.extend(key(&m_key, Memory::fixed(act)));
                    embedding.extend(key(&w_key, BLIND));
                    let mut code = Code::default();
                    code.act_arguments(&app.act);
                    if code.values.len() > ARGUMENT_DIM {
                        return Err(too_long(app, code.values.len()));
                    }
                    embedding.extend(code.values);
                    info.spans = code.spans;
                }
            }
            embedding.resize(EMBED_DIM, 0.0);
            m_prog.extend(embedding);
            rows.push(info);
        }

        // Nothing can fail any more: append.
        self.m_key = m_key;
        self.w_key = w_key;
        self.m_prog = m_prog;
        self.rows.extend(rows);
        self.detectors
            .extend(detectors.into_iter().map(|(detector, text)| DetectorRow {
                detector,
                text,
                unit: Some(unit),
            }));
        self.units.push(Unit {
            name: name.to_string(),
            env: program.env,
            source: source.to_string(),
            pointers: program.pointers.clone(),
            state: program.state.clone(),
            entry,
        });
        Ok(unit)
    }
}

/// The source text of `condition`: from its first to its last expression
/// node, or `applier` when it has none.
fn condition_span(condition: &crate::program::BoolExpr, applier: Span) -> Span {
    let mut code = Code::default();
    code.condition(condition);
    let mut spans = code.spans.into_iter();
    match spans.next() {
        Some(first) => spans.fold(first, Span::to),
        None => applier,
    }
}

/// E1105: an applier refers to a normal program, which has no row.
fn normal_program(program: &Program, id: DefId, span: Span) -> Diagnostic {
    let name = program.defs.get(id).map_or("?", |d| d.name.as_str());
    Diagnostic::error(
        codes::E1105,
        format!("`{name}` is a normal program, which the network cannot run as written"),
    )
    .with_label(span, "the network would run this")
    .with_help(
        "combinatorize it first (`cnpic combinatorize`), or run on the reference interpreter \
         with `--symbolic`",
    )
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
