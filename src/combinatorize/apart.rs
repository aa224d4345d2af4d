//! Calls without arguments that would clobber the values held across
//! them, run on a frame of their own.
//!
//! A call without arguments (`H()`) shares the registers with its caller:
//! what it changes in them, the caller sees. Lowering holds values of an
//! expression in hidden registers across its calls (`lower.rs`); where a
//! caller holds some across a call without arguments whose program (or a
//! program it reaches by such calls) uses hidden registers itself, the
//! callee would overwrite them. [`apart`] turns such a call into a call
//! with no arguments on a frame of its own (`_call(k)`, which saves every
//! register and puts it back at `_return`), and makes the sharing
//! explicit: before each of its returns the callee copies every register
//! the user declared into a hidden variable, and after the call the
//! caller copies them back. So the caller's hidden registers survive, and
//! the registers the user declared end as the callee left them, as with
//! a shared call; recursion included, since each activation has its
//! frame. A call without arguments that may run its caller again runs
//! apart the same way when the caller has locals (language.md §5.2):
//! the frame puts the caller's locals back, and only the user's
//! registers are shared.

use super::walk::{calls, rewrite};
use crate::program::locals::Keeps;
use crate::program::{
    Act, ActApp, ActArg, Body, CallExpr, Cell, Data, DataKind, DefId, PointerId, PosExpr, PosKind,
    Program, Stmt,
};
use crate::span::Span;

/// `lowered` with each call of `shared` ((caller, callee, the call) of
/// calls without arguments inside expressions) that may clobber what its
/// caller holds run apart. `uses_temps` says, for each definition, whether
/// its statements use hidden registers; hidden names are numbered from
/// `first`.
pub fn apart(
    lowered: &mut Program,
    shared: &[(DefId, DefId, Span)],
    uses_temps: &[bool],
    first: usize,
) {
    let mut clobbering: Vec<(DefId, DefId, Span)> = (shared.iter().copied())
        .filter(|&(caller, callee, _)| {
            uses_temps.get(caller) == Some(&true) && reaches_temps(lowered, callee, uses_temps)
        })
        .collect();
    clobbering.extend(keeping_locals(lowered));
    clobbering
        .sort_unstable_by_key(|&(caller, callee, span)| (caller, callee, span.start, span.end));
    clobbering.dedup();
    if clobbering.is_empty() {
        return;
    }
    // The registers shared with the callee: the user's, not the locals
    // (each activation keeps its own), nor the hidden ones.
    let registers: Vec<PointerId> = (0..lowered.pointers.len())
        .filter(|&p| lowered.pointers[p].reported())
        .collect();
    let copies: Vec<Cell> = (registers.iter().enumerate())
        .map(|(k, _)| {
            let name = format!("_{}", first + k);
            lowered.data.push(Data {
                name: name.clone(),
                span: Span::default(),
                kind: DataKind::Var {
                    init: PosExpr::int(0, Span::default()),
                },
                dims: Vec::new(),
            });
            Cell {
                data: lowered.data.len() - 1,
                name,
                at: Vec::new(),
                span: Span::default(),
            }
        })
        .collect();
    let env = lowered.env;
    let copy_out: Vec<Stmt> = (registers.iter().zip(&copies))
        .filter_map(|(&p, cell)| {
            let args = vec![
                ActArg::Place(cell.clone()),
                ActArg::Position(PosExpr::pointer(p, Span::default())),
            ];
            let act = crate::env::build_act(env, "WRITE", args)?;
            Some(act_stmt(act))
        })
        .collect();
    let copy_back: Vec<Stmt> = (registers.iter().zip(&copies))
        .map(|(&p, cell)| {
            let read = PosExpr {
                kind: PosKind::Read(Box::new(cell.clone())),
                span: Span::default(),
            };
            act_stmt(Act::Set(p, read))
        })
        .collect();
    let mut callees: Vec<DefId> = clobbering.iter().map(|&(_, callee, _)| callee).collect();
    callees.sort_unstable();
    callees.dedup();
    let names: Vec<String> = lowered.defs.iter().map(|d| d.name.clone()).collect();
    for (id, def) in lowered.defs.iter_mut().enumerate() {
        let end = def.span;
        let Body::Normal(body) = &mut def.body else {
            continue;
        };
        let own: Vec<(DefId, Span)> = (clobbering.iter())
            .filter(|&&(caller, _, _)| caller == id)
            .map(|&(_, callee, span)| (callee, span))
            .collect();
        if !own.is_empty() {
            call_apart(body, &own, &copy_back, &names);
        }
        if callees.contains(&id) {
            copy_before_returns(body, &copy_out);
            body.extend(at(&copy_out, end));
        }
    }
}

/// The calls without arguments that must keep their caller's locals
/// ([`Keeps`]): the callee may run the caller again.
pub(super) fn keeping_locals(lowered: &Program) -> Vec<(DefId, DefId, Span)> {
    let keeps = Keeps::of(lowered);
    let mut found = Vec::new();
    for (caller, def) in lowered.defs.iter().enumerate() {
        if let Body::Normal(body) = &def.body {
            for stmt in calls(body) {
                if let Stmt::Call(callee, span) = stmt
                    && keeps.keeps(caller, *callee)
                {
                    found.push((caller, *callee, *span));
                }
            }
        }
    }
    found
}

/// `stmts`, each ACT marked as coming from `span`.
fn at(stmts: &[Stmt], span: Span) -> impl Iterator<Item = Stmt> + '_ {
    stmts.iter().map(move |stmt| match stmt {
        Stmt::Act(app) => Stmt::Act(ActApp {
            act: app.act.clone(),
            span,
        }),
        other => other.clone(),
    })
}

/// Whether running `callee` may run code that uses hidden registers,
/// through calls without arguments.
fn reaches_temps(lowered: &Program, callee: DefId, uses_temps: &[bool]) -> bool {
    let mut seen = vec![false; lowered.defs.len()];
    let mut todo = vec![callee];
    while let Some(id) = todo.pop() {
        match seen.get_mut(id) {
            Some(s) if !*s => *s = true,
            _ => continue,
        }
        if uses_temps.get(id) == Some(&true) {
            return true;
        }
        if let Some(Body::Normal(body)) = lowered.defs.get(id).map(|d| &d.body) {
            todo.extend(calls(body).into_iter().filter_map(|s| match s {
                Stmt::Call(id, _) => Some(*id),
                _ => None,
            }));
        }
    }
    false
}

/// Each call `own` lists, made a call on its own frame followed by
/// `copy_back`.
fn call_apart(stmts: &mut Vec<Stmt>, own: &[(DefId, Span)], copy_back: &[Stmt], names: &[String]) {
    rewrite(stmts, &mut |stmt| match stmt {
        Stmt::Call(callee, span) if own.contains(&(callee, span)) => {
            let call = Stmt::ParamCall(CallExpr {
                def: callee,
                name: names.get(callee).cloned().unwrap_or_default(),
                args: Vec::new(),
                span,
            });
            std::iter::once(call).chain(at(copy_back, span)).collect()
        }
        other => vec![other],
    });
}

/// `copy_out` before each `return` of `stmts`.
fn copy_before_returns(stmts: &mut Vec<Stmt>, copy_out: &[Stmt]) {
    rewrite(stmts, &mut |stmt| match stmt {
        Stmt::Return { span, .. } => at(copy_out, span).chain([stmt]).collect(),
        other => vec![other],
    });
}

fn act_stmt(act: Act) -> Stmt {
    Stmt::Act(ActApp {
        act,
        span: Span::default(),
    })
}
