//! Parameters, `return` and calls for a value (language.md §5.1, `ram`).
//!
//! `def F(x, y):` names registers: a register of the `env` line, or a new
//! one that starts at 0. A call with arguments `F(e1, ..., ek)` needs k =
//! F's number of parameters (E0405); it may stand as a statement or, like
//! `F()`, inside an expression of a normal program's statement, where it
//! stands for the value F returns. Parameters, `return` and calls inside
//! expressions belong to `ram` (E0406), and a call stands inside an
//! expression only in a normal program's statements (E0408). A definition
//! called for its value must end with `return e` on every path (E0407,
//! [`Checker::check_returns`]).

use crate::diagnostic::{Diagnostic, codes};
use crate::program::hidden::hidden;
use crate::program::{Body, CallExpr, DefId, PointerId, PosExpr, PosKind, Stmt};
use crate::span::Span;
use crate::syntax::ast::{self, Call, Expr, Ident};

use super::Checker;
use super::acts::how_many_given;
use super::names::Meaning;

impl<'a> Checker<'a> {
    /// The registers `def F(x, y):` names, introducing those the `env`
    /// line does not declare.
    pub(super) fn declare_params(&mut self, def: &'a ast::Def) -> Vec<PointerId> {
        let Some(first) = def.params.first() else {
            return Vec::new();
        };
        if !self.declared_memory {
            self.not_in_this_env(first.span, "parameters");
            return Vec::new();
        }
        let mut params: Vec<PointerId> = Vec::new();
        for (i, param) in def.params.iter().enumerate() {
            if def.params[..i].iter().any(|p| p.name == param.name) {
                self.report(named_twice(param));
                continue;
            }
            match self.names.get(param.name.as_str()).copied() {
                Some(Meaning::Pointer(id)) => params.push(id),
                // A new name, or one `shadow` gave a parameter named after
                // a file integer: a local of this program (language.md §5.2).
                None if !param.name.starts_with('_') || hidden(&param.name) => {
                    params.push(self.local(self.defs.len() - 1, param));
                }
                found => {
                    let what = found.map_or("a reserved name", Meaning::describe);
                    let diagnostic = Diagnostic::error(
                        codes::E0406,
                        format!("the parameter `{}` has the name of {what}", param.name),
                    )
                    .with_label(param.span, "not a register or a local")
                    .with_help(
                        "a parameter is a register of the `env` line or a local of its program \
                         (a new name, or one of the file's integers, which it hides there): \
                         choose a name that is not a definition or a built-in",
                    );
                    self.report(diagnostic);
                }
            }
        }
        params
    }

    /// How many parameters definition `id` names (checked or not).
    pub(super) fn arity_of(&self, id: DefId) -> usize {
        self.defs.get(id).map_or(0, |def| def.params.len())
    }

    /// E0406: a construct of §5.1 in an environment without registers
    /// and memory to hold its frames.
    pub(super) fn not_in_this_env(&mut self, span: Span, what: &str) {
        let diagnostic = Diagnostic::error(
            codes::E0406,
            format!(
                "{what} need the `ram` environment, but this file runs in `{}`",
                self.env.kind.name()
            ),
        )
        .with_label(span, "only `ram` programs have these")
        .with_help("write the program in `env ram(...)`, or pass values through the pointers");
        self.report(diagnostic);
    }

    /// E0405 unless `given` arguments fit definition `id`.
    fn arity(&mut self, id: DefId, given: usize, span: Span) -> Option<()> {
        let wanted = self.arity_of(id);
        if wanted == given {
            return Some(());
        }
        let name = self.def_name(id);
        let params: Vec<&str> = (self.defs.get(id))
            .map(|def| def.params.iter().map(|p| p.name.as_str()).collect())
            .unwrap_or_default();
        let takes = match wanted {
            1 => "1 argument".to_string(),
            n => format!("{n} arguments"),
        };
        let mut diagnostic = Diagnostic::error(
            codes::E0405,
            format!("`{name}` takes {takes}, but {}", how_many_given(given)),
        )
        .with_label(span, "wrong number of arguments")
        .with_help(format!("write `{name}({})`", params.join(", ")));
        if let Some(def) = self.defs.get(id) {
            diagnostic = diagnostic.with_label(def.name.span, "defined here");
        }
        self.report(diagnostic);
        None
    }

    /// `F(e1, ..., ek)` as a statement, F having k ≥ 1 parameters.
    pub(super) fn param_call(&mut self, call: &Call, id: DefId) -> Option<Stmt> {
        let args = call.args.as_deref().unwrap_or_default();
        let checked: Vec<Option<PosExpr>> = args.iter().map(|arg| self.position(arg)).collect();
        self.arity(id, args.len(), call.span)?;
        Some(Stmt::ParamCall(CallExpr {
            def: id,
            name: call.name.name.clone(),
            args: checked.into_iter().collect::<Option<_>>()?,
            span: call.span,
        }))
    }

    /// `F(e1, ..., ek)` inside an expression: the value F returns.
    pub(super) fn call_for_value(
        &mut self,
        name: &Ident,
        id: DefId,
        applier: bool,
        args: &[Expr],
        span: Span,
    ) -> Option<PosExpr> {
        if !self.declared_memory {
            self.not_in_this_env(span, "calls inside expressions");
            return None;
        }
        if !self.calls_allowed {
            let diagnostic = Diagnostic::error(
                codes::E0408,
                format!("`{}` cannot be called here", name.name),
            )
            .with_label(span, "a call inside this expression")
            .with_help(
                "a call may stand inside an expression only in a statement of a normal program; \
                 compute the value in a statement first",
            );
            self.report(diagnostic);
            return None;
        }
        self.refer(id, name.span);
        let checked: Vec<Option<PosExpr>> = args.iter().map(|arg| self.position(arg)).collect();
        if applier {
            let diagnostic = Diagnostic::error(
                codes::E0407,
                format!("`{}` is an applier, which returns no value", name.name),
            )
            .with_label(span, "called for its value")
            .with_help("only a normal program returns a value, with `return e`");
            self.report(diagnostic);
            return None;
        }
        self.arity(id, args.len(), span)?;
        self.value_calls.push((id, span));
        let call = CallExpr {
            def: id,
            name: name.name.clone(),
            args: checked.into_iter().collect::<Option<_>>()?,
            span,
        };
        Some(PosExpr {
            kind: PosKind::Call(Box::new(call)),
            span,
        })
    }

    /// `return e` or `return`.
    pub(super) fn return_statement(&mut self, value: Option<&Expr>, span: Span) -> Option<Stmt> {
        if !self.declared_memory {
            self.not_in_this_env(span, "`return` statements");
            return None;
        }
        let value = match value {
            Some(value) => Some(self.position(value)?),
            None => None,
        };
        Some(Stmt::Return { value, span })
    }

    /// E0407 for each definition called for its value that may end
    /// without one: its last statement is not a `return e`, an `if` whose
    /// branches both end so, or it has a bare `return`.
    pub(super) fn check_returns(&mut self, bodies: &[Option<Body>]) {
        let mut reported: Vec<DefId> = Vec::new();
        for (id, span) in std::mem::take(&mut self.value_calls) {
            if reported.contains(&id) {
                continue;
            }
            let Some(Some(Body::Normal(block))) = bodies.get(id) else {
                continue;
            };
            let Some(def) = self.defs.get(id) else {
                continue;
            };
            let Err(gap) = returns_value(block, def.name.span) else {
                continue;
            };
            reported.push(id);
            let name = &def.name.name;
            let diagnostic = Diagnostic::error(
                codes::E0407,
                format!("`{name}` is called for its value, but it may end without one"),
            )
            .with_label(span, "its value is used here")
            .with_label(gap, "a path through it ends without a value")
            .with_help("end every path of the definition with `return e`");
            self.report(diagnostic);
        }
    }
}

/// Ok when every path through `block` ends with `return e`; else where one
/// does not: a bare `return`, the block's last statement when it is
/// simple, or else `end` (the definition's name).
fn returns_value(block: &[Stmt], end: Span) -> Result<(), Span> {
    if branch_returns(block)? {
        return Ok(());
    }
    Err(match block.last() {
        Some(last @ (Stmt::Act(_) | Stmt::Call(..) | Stmt::StateCall(..) | Stmt::ParamCall(_))) => {
            last.span()
        }
        _ => end,
    })
}

/// Whether `stmt` ends every path through it with `return e`; Err at a
/// path that ends with a bare `return`.
fn always_returns_value(stmt: &Stmt) -> Result<bool, Span> {
    Ok(match stmt {
        Stmt::Return { value: Some(_), .. } => true,
        Stmt::If {
            then, otherwise, ..
        } => branch_returns(then)? && branch_returns(otherwise)?,
        _ => false,
    })
}

/// Whether every path through `block` ends with `return e` (Err at a bare
/// `return` found on the way).
fn branch_returns(block: &[Stmt]) -> Result<bool, Span> {
    for stmt in block {
        if let Some(gap) = bare_return(stmt) {
            return Err(gap);
        }
        if always_returns_value(stmt)? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// A bare `return` anywhere inside `stmt`.
fn bare_return(stmt: &Stmt) -> Option<Span> {
    match stmt {
        Stmt::Return { value: None, span } => Some(*span),
        Stmt::If {
            then, otherwise, ..
        } => then.iter().chain(otherwise).find_map(bare_return),
        Stmt::While { body, .. } => body.iter().find_map(bare_return),
        _ => None,
    }
}

/// E0406: a parameter named twice in one `def`. The array pass reports it
/// too, since it takes array parameters out of the `def` before this one.
pub(super) fn named_twice(param: &Ident) -> Diagnostic {
    Diagnostic::error(
        codes::E0406,
        format!("the parameter `{}` is named twice", param.name),
    )
    .with_label(param.span, "named again here")
    .with_help("each parameter is a different register or array: rename one")
}
