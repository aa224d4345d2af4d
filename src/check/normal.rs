//! Normal programs: the bodies of `def NAME(): BLOCK` (language.md §5).
//!
//! Statements are ACT applications, calls `F()` (or bare `F`) to any
//! definition, calls `F(e1, ..., ek)` to a normal program with k
//! parameters (`params`), state calls `F(e1, ..., ek)` to a normal program
//! without parameters of a file with `state(...)` (k = its arity),
//! `if`/`else`, `while`, `pass` and `return`.
//! `_push` belongs to appliers: a normal program writes a state call.

use crate::diagnostic::{Diagnostic, codes};
use crate::program::{BlankKind, Stmt};
use crate::span::Span;
use crate::syntax::ast::{self, Call};

use super::Checker;
use super::names::{Expect, Meaning};

impl<'a> Checker<'a> {
    /// Every statement of a block is checked, even after a failed one.
    pub(super) fn block(&mut self, block: &[ast::Stmt]) -> Option<Vec<Stmt>> {
        let statements: Vec<Option<Stmt>> = block.iter().map(|s| self.statement(s)).collect();
        statements.into_iter().collect()
    }

    fn statement(&mut self, statement: &ast::Stmt) -> Option<Stmt> {
        Some(match statement {
            ast::Stmt::Call(call) => return self.call_statement(call),
            ast::Stmt::Assign {
                target,
                op: None,
                value,
                span,
            } => return self.assignment(target, value, *span),
            // What `sugar` rewrites in `ram`: anywhere else, not here.
            ast::Stmt::Assign { span, .. }
            | ast::Stmt::For { span, .. }
            | ast::Stmt::Break(span)
            | ast::Stmt::Continue(span) => {
                self.not_in_this_env(*span, "`for`, `break`, `continue` and `+=`");
                return None;
            }
            ast::Stmt::LocalArray(decl) => return self.local_array(decl),
            ast::Stmt::If {
                condition,
                then,
                otherwise,
                span,
                ..
            } => {
                let condition = self.condition(condition);
                let then = self.block(then);
                let otherwise = match otherwise {
                    Some(block) => self.block(block),
                    None => Some(Vec::new()),
                };
                Stmt::If {
                    condition: condition?,
                    then: then?,
                    otherwise: otherwise?,
                    span: *span,
                }
            }
            ast::Stmt::While {
                condition,
                body,
                span,
            } => {
                let condition = self.condition(condition);
                let body = self.block(body);
                Stmt::While {
                    condition: condition?,
                    body: body?,
                    span: *span,
                }
            }
            ast::Stmt::Pass(span) => Stmt::Pass(*span),
            ast::Stmt::Hole(span) => Stmt::Hole(self.blank(BlankKind::Statement, *span)?, *span),
            ast::Stmt::Return { value, span } => {
                return self.return_statement(value.as_ref(), *span);
            }
        })
    }

    fn call_statement(&mut self, call: &Call) -> Option<Stmt> {
        let name = &call.name;
        match self.lookup(&name.name, name.span, Expect::Statement)? {
            Meaning::Act => self.act_app(call).map(Stmt::Act),
            Meaning::Frame(op) => {
                self.report(frame_in_normal(op.name(), call.span));
                None
            }
            Meaning::Push => {
                let diagnostic = Diagnostic::error(
                    codes::E0403,
                    "`_push` cannot be used in a normal program",
                )
                .with_label(call.span, "pushes a state by hand")
                .with_help("write a state call instead: `F(e1, ..., ek)` runs `F` with the state pointers set to the positions");
                self.report(diagnostic);
                None
            }
            Meaning::Def { id, applier } => {
                self.refer(id, name.span);
                if !applier && self.arity_of(id) > 0 {
                    return self.param_call(call, id);
                }
                match call.args.as_deref() {
                    None | Some([]) => Some(Stmt::Call(id, call.span)),
                    Some(args) => self.state_call(call, id, applier, args),
                }
            }
            other => {
                self.wrong_kind(&name.name, name.span, other, Expect::Statement);
                None
            }
        }
    }

    /// `F(e1, ..., ek)`.
    fn state_call(
        &mut self,
        call: &Call,
        id: usize,
        applier: bool,
        args: &[ast::Expr],
    ) -> Option<Stmt> {
        let name = &call.name.name;
        if applier {
            let diagnostic = Diagnostic::error(
                codes::E0404,
                format!("a state call needs a normal program, but `{name}` is an applier"),
            )
            .with_label(call.span, "called with arguments")
            .with_help(format!(
                "call it without arguments: `{name}()`; appliers push states with `_push`"
            ));
            self.report(diagnostic);
            return None;
        }
        let what = format!("the state call `{name}(...)`");
        let positions = self.state_values(call, args, &what)?;
        Some(Stmt::StateCall(id, positions, call.span))
    }
}

/// E0403 for a built-in of the frame stack (`name`) in a normal program
/// (or `_resume` outside an applier's detector): the combinatorizer's own,
/// which runs normal programs on frames.
pub(super) fn frame_in_normal(name: &str, span: Span) -> Diagnostic {
    Diagnostic::error(
        codes::E0403,
        format!("`{name}` cannot be used in a normal program"),
    )
    .with_label(span, "a built-in of the frame stack")
    .with_help(
        "a normal program calls and returns as written; the combinatorizer puts in the frames",
    )
}
