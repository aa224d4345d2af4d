//! Normal programs on the machine: blocks of statements, `if`, `while`,
//! plain calls (which share the pointers) and state calls (which save every
//! pointer, set the state pointers, and put everything back afterwards).
//!
//! Each statement executed is one step, and a `while` one step per test of
//! its condition. A block is popped before its last statement runs, so a
//! tail call to the same definition loops in constant stack.

use super::calls::Pending;
use super::{Block, Ends, Loop, Machine, Task};
use crate::diagnostic::Diagnostic;
use crate::env::{eval_error, internal};
use crate::exec;
use crate::program::print;
use crate::program::{DefId, PosExpr, Program, Stmt};
use crate::span::Span;

impl<'p> Machine<'p, '_> {
    /// Runs the next statement of the block `b` on top of the stack,
    /// moving it on in place; the block is popped before its last
    /// statement runs.
    pub(super) fn block_step(&mut self, b: Block<'p>) -> Result<(), Diagnostic> {
        let Some(stmt) = b.stmts.get(b.next) else {
            self.tasks.pop();
            return Ok(());
        };
        let b = Block {
            next: b.next + 1,
            ..b
        };
        let tail = b.next == b.stmts.len();
        if tail {
            self.tasks.pop();
        } else if let Some(top) = self.tasks.top_block() {
            top.next = b.next;
        }
        let deeper = b.depth.saturating_add(1);
        if !matches!(stmt, Stmt::While { .. }) {
            self.count_statement(b.def, b.depth, stmt)?;
        }
        // A `while` waits for its calls at each test (`while_step`).
        if !matches!(stmt, Stmt::While { .. })
            && let Some(site) = self.site_of(stmt)
        {
            let pending = if matches!(stmt, Stmt::If { .. }) {
                Pending::If {
                    site,
                    depth: b.depth,
                    version: b.version,
                }
            } else {
                self.trace_stmt(&b, |program| text(program, stmt));
                Pending::Stmt {
                    site,
                    depth: b.depth,
                }
            };
            return self.pending(pending, self.logs.len());
        }
        match stmt {
            Stmt::Act(app) => {
                self.trace_stmt(&b, |program| text(program, stmt));
                self.apply(app)
            }
            Stmt::Call(id, span) => {
                self.trace_stmt(&b, |program| format!("{}()", name(program, *id)));
                if *id == b.def && self.store.version() == b.version {
                    let def = self.def(b.def);
                    return Err(exec::never_finishes(&def.name, "its call to itself", *span));
                }
                // A tail call to itself is a loop: the trace keeps its depth.
                let depth = if b.last && tail && *id == b.def {
                    b.depth
                } else {
                    deeper
                };
                self.shared_call(b.def, *id, depth, *span)
            }
            Stmt::StateCall(id, args, span) => {
                self.trace_stmt(&b, |program| text(program, stmt));
                self.state_call(*id, args, deeper, *span)
            }
            Stmt::If { condition, .. } => {
                let c = self.eval(condition)?;
                self.branch(b, stmt, tail, c)
            }
            Stmt::While { .. } => {
                let looping = Loop {
                    def: b.def,
                    stmt,
                    depth: b.depth,
                    version: b.version,
                    tested: None,
                };
                self.push(Task::While(looping), b.def)
            }
            Stmt::Pass(_) => {
                self.trace_stmt(&b, |_| "pass".into());
                Ok(())
            }
            Stmt::Hole(_, span) => Err(crate::env::hole_reached(*span)),
            Stmt::ParamCall(_) | Stmt::Return { .. } => Err(internal(
                "a call or `return` was not run as a pending statement",
            )),
        }
    }

    /// The branch of the `if` statement `stmt` (of block `b`) that its
    /// condition `c` chooses.
    pub(super) fn branch(
        &mut self,
        b: Block<'p>,
        stmt: &'p Stmt,
        tail: bool,
        c: bool,
    ) -> Result<(), Diagnostic> {
        let Stmt::If {
            then, otherwise, ..
        } = stmt
        else {
            return Err(internal("a branch of a statement that is not `if`"));
        };
        self.trace_stmt(&b, |_| format!("if c={}", u8::from(c)));
        let branch = if c { then } else { otherwise };
        let block = Block {
            stmts: branch,
            next: 0,
            last: b.last && tail,
            ..b
        };
        self.push(Task::Block(block), b.def)
    }

    /// One test of a `while` condition, and a round of its body if it holds.
    pub(super) fn while_step(&mut self, l: Loop<'p>) -> Result<(), Diagnostic> {
        let Stmt::While { condition, .. } = l.stmt else {
            return Err(internal(
                "a loop task holds a statement that is not `while`",
            ));
        };
        self.count_statement(l.def, l.depth, l.stmt)?;
        if self.site_of(l.stmt).is_some() {
            return self.pending(Pending::While(l), self.logs.len());
        }
        let c = self.eval(condition)?;
        self.tested(l, c)
    }

    /// A test of the `while` loop `l` that gave `c`: a round of its body
    /// if it holds.
    pub(super) fn tested(&mut self, mut l: Loop<'p>, c: bool) -> Result<(), Diagnostic> {
        let Stmt::While { body, span, .. } = l.stmt else {
            return Err(internal(
                "a loop task holds a statement that is not `while`",
            ));
        };
        if self.store.tracing() {
            let line = format!("{}: while c={}", self.def(l.def).name, u8::from(c));
            self.store.trace(l.depth, &line);
        }
        if !c {
            return Ok(());
        }
        if l.tested == Some(self.store.version()) {
            let def = self.def(l.def);
            return Err(exec::never_finishes(&def.name, "its `while` loop", *span));
        }
        l.tested = Some(self.store.version());
        self.push(Task::While(l), l.def)?;
        let body = Block {
            def: l.def,
            stmts: body,
            next: 0,
            depth: l.depth,
            version: l.version,
            last: false,
        };
        self.push(Task::Block(body), l.def)
    }

    /// `F(e1, ..., ek)`: evaluates the arguments, saves every pointer, sets
    /// the state pointers and runs F; a `Restore` task undoes it after.
    fn state_call(
        &mut self,
        id: DefId,
        args: &[PosExpr],
        depth: u32,
        span: Span,
    ) -> Result<(), Diagnostic> {
        let view = self.store.view();
        self.scratch.clear();
        for arg in args {
            self.scratch.push(arg.eval(&view).map_err(eval_error)?);
        }
        let values = std::mem::take(&mut self.scratch);
        let targets: &[usize] = self.program.state.as_deref().unwrap_or_default();
        let set = self.with_registers(targets, &values, span);
        self.scratch = values;
        set?;
        self.push_end(Ends::RESTORE, id)?;
        self.enter(id, depth)
    }

    /// Puts back the pointers saved by the state call that just returned.
    pub(super) fn restore(&mut self, only_locals: bool) -> Result<(), Diagnostic> {
        let pointers = self.store.pointers_mut();
        let start = self
            .saved
            .len()
            .checked_sub(pointers.len())
            .ok_or_else(|| internal("a state call returned without saved pointers"))?;
        // `saved[start..]` holds exactly one value per pointer.
        let saved = &self.saved[start..];
        if only_locals {
            for ((pointer, &value), decl) in
                pointers.iter_mut().zip(saved).zip(&self.program.pointers)
            {
                if decl.owner.is_some() {
                    *pointer = value;
                }
            }
        } else {
            pointers.copy_from_slice(saved);
        }
        self.saved.truncate(start);
        self.store.changed();
        Ok(())
    }

    /// Writes `NAME: text` for a statement of block `b`, building the text
    /// only when tracing.
    fn trace_stmt(&mut self, b: &Block<'p>, text: impl FnOnce(&Program) -> String) {
        if self.store.tracing() {
            let line = format!("{}: {}", self.def(b.def).name, text(self.program));
            self.store.trace(b.depth, &line);
        }
    }
}

/// The trace's text of a simple statement: `SET(i, i + 1)`, `F(lo, hi)`,
/// `return FIB(k - 1) + FIB(k - 2)`.
fn text(program: &Program, stmt: &Stmt) -> String {
    let pointers = &program.pointers;
    match stmt {
        Stmt::Act(app) => print::act(&app.act, pointers),
        Stmt::StateCall(id, args, _) => {
            let args: Vec<String> = args.iter().map(|e| print::position(e, pointers)).collect();
            format!("{}({})", name(program, *id), args.join(", "))
        }
        Stmt::ParamCall(call) => print::call(call, pointers),
        Stmt::Return {
            value: Some(value), ..
        } => format!("return {}", print::position(value, pointers)),
        Stmt::Return { value: None, .. } => "return".into(),
        Stmt::Call(id, _) => format!("{}()", name(program, *id)),
        Stmt::If { .. } | Stmt::While { .. } | Stmt::Pass(_) | Stmt::Hole(..) => String::new(),
    }
}

/// The name of definition `id`, for the trace.
fn name(program: &Program, id: DefId) -> &str {
    program.defs.get(id).map_or("?", |d| d.name.as_str())
}
