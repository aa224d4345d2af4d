//! W0103: a call without arguments that shares a register its caller
//! still needs.
//!
//! A call without arguments shares the registers of the `env` line with
//! its caller. When the callee may run the caller again (recursion), and
//! the caller assigns a register, calls, and then reads that register, the
//! value read may be the one an inner activation left: the
//! recursive-descent parser's trap. The program runs as written, so this
//! is a warning; its help suggests a local, which every activation keeps
//! for itself (language.md §5.2).

use crate::diagnostic::{Diagnostic, codes};
use crate::program::calls::calls_in_statement;
use crate::program::locals::Keeps;
use crate::program::{Act, Body, DefId, PointerId, PosExpr, Program, Stmt, reads};
use crate::span::Span;

/// The warnings of `program`.
pub(super) fn warnings(program: &Program) -> Vec<Diagnostic> {
    let writes: Vec<Vec<PointerId>> = (program.defs.iter())
        .map(|def| match &def.body {
            Body::Normal(body) => {
                let mut found = Vec::new();
                assigned(body, &mut found);
                found.retain(|&p| program.pointers.get(p).is_some_and(|p| p.reported()));
                found.sort_unstable();
                found.dedup();
                found
            }
            _ => Vec::new(),
        })
        .collect();
    let wanted: Vec<bool> = writes.iter().map(|w| !w.is_empty()).collect();
    let keeps = Keeps::among(program, &wanted);
    let mut out = Vec::new();
    for (caller, def) in program.defs.iter().enumerate() {
        if let Body::Normal(body) = &def.body
            && !writes[caller].is_empty()
        {
            let scan = Scan {
                program,
                keeps: &keeps,
                caller,
                writes: &writes[caller],
            };
            scan.block(body, &mut out);
        }
    }
    out
}

struct Scan<'p> {
    program: &'p Program,
    keeps: &'p Keeps,
    caller: DefId,
    writes: &'p [PointerId],
}

impl Scan<'_> {
    fn block(&self, stmts: &[Stmt], out: &mut Vec<Diagnostic>) {
        for (k, stmt) in stmts.iter().enumerate() {
            if let Some((callee, span)) = self.shared_call(stmt)
                && let Some((p, at)) = self.read_after(&stmts[k + 1..])
            {
                out.push(self.warning(callee, span, p, at));
            }
            match stmt {
                Stmt::If {
                    then, otherwise, ..
                } => {
                    self.block(then, out);
                    self.block(otherwise, out);
                }
                Stmt::While { body, .. } => self.block(body, out),
                _ => {}
            }
        }
    }

    /// The first read in `rest` of a register the caller assigns, before
    /// `rest` assigns it again.
    fn read_after(&self, rest: &[Stmt]) -> Option<(PointerId, Span)> {
        let mut live: Vec<PointerId> = self.writes.to_vec();
        for stmt in rest {
            let mut reads = Vec::new();
            read_in(stmt, &mut reads);
            if let Some(&found) = reads.iter().find(|(p, _)| live.contains(p)) {
                return Some(found);
            }
            if let Stmt::Act(app) = stmt
                && let Act::Set(p, _) = &app.act
            {
                live.retain(|q| q != p);
            }
        }
        None
    }

    /// The call without arguments `stmt` makes to a program that may run
    /// the caller again, if any.
    fn shared_call(&self, stmt: &Stmt) -> Option<(DefId, Span)> {
        if let Stmt::Call(callee, span) = stmt {
            return self
                .keeps
                .keeps(self.caller, *callee)
                .then_some((*callee, *span));
        }
        let mut inside = Vec::new();
        calls_in_statement(stmt, false, &mut inside);
        inside
            .iter()
            .filter(|call| call.args.is_empty())
            .find(|call| self.keeps.keeps(self.caller, call.def))
            .map(|call| (call.def, call.span))
    }

    fn warning(&self, callee: DefId, call: Span, p: PointerId, read: Span) -> Diagnostic {
        let name = self
            .program
            .pointers
            .get(p)
            .map_or("?", |p| p.name.as_str());
        let callee = self
            .program
            .defs
            .get(callee)
            .map_or("?", |d| d.name.as_str());
        Diagnostic::warning(
            codes::W0103,
            format!("`{callee}()` shares the register `{name}`, and may run this program again"),
        )
        .with_label(
            call,
            format!("this call may assign `{name}` in an inner activation"),
        )
        .with_label(
            read,
            format!("so `{name}` read here may not be this activation's"),
        )
        .with_help(format!(
            "if each activation needs its own `{name}`, make it a local: remove it from the `env` \
             line; if inner activations are meant to move it (a parser's position), declare it \
             `var {name} = 0` instead, which no call saves or puts back"
        ))
    }
}

/// The registers `stmts` assign (SET or MOVE), nested blocks included.
fn assigned(stmts: &[Stmt], found: &mut Vec<PointerId>) {
    for stmt in stmts {
        match stmt {
            Stmt::Act(app) => match &app.act {
                Act::Set(p, _) | Act::Move(p, _) => found.push(*p),
                _ => {}
            },
            Stmt::If {
                then, otherwise, ..
            } => {
                assigned(then, found);
                assigned(otherwise, found);
            }
            Stmt::While { body, .. } => assigned(body, found),
            _ => {}
        }
    }
}

/// The registers `stmt` reads (nested blocks included), with where.
fn read_in(stmt: &Stmt, found: &mut Vec<(PointerId, Span)>) {
    let mut positions: Vec<&PosExpr> = Vec::new();
    match stmt {
        Stmt::Act(app) => positions.extend(crate::program::calls::act_positions(&app.act)),
        Stmt::StateCall(_, args, _) => positions.extend(args),
        Stmt::ParamCall(call) => positions.extend(&call.args),
        Stmt::Return { value, .. } => positions.extend(value),
        Stmt::If {
            condition,
            then,
            otherwise,
            ..
        } => {
            condition_reads(condition, found);
            then.iter().chain(otherwise).for_each(|s| read_in(s, found));
        }
        Stmt::While {
            condition, body, ..
        } => {
            condition_reads(condition, found);
            body.iter().for_each(|s| read_in(s, found));
        }
        Stmt::Call(..) | Stmt::Pass(_) | Stmt::Hole(..) => {}
    }
    positions.into_iter().for_each(|e| pointer_reads(e, found));
}

fn condition_reads(condition: &crate::program::BoolExpr, found: &mut Vec<(PointerId, Span)>) {
    reads::condition(condition, &mut |p, span| found.push((p, span)));
}

fn pointer_reads(e: &PosExpr, found: &mut Vec<(PointerId, Span)>) {
    reads::position(e, &mut |p, span| found.push((p, span)));
}
