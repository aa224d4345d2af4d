//! Appliers: the bodies of `def NAME: APPLIER` (language.md §3).
//!
//! A combinator application must name a combinator, pass a detector exactly
//! when the combinator reads one, have three callable arguments, and (for
//! `treerec`) come with a `state(...)`. A callable argument names an ACT or
//! a definition, or applies an ACT inline; a combinator cannot be passed.
//! Every definition named is recorded as a reference, for the cycle and
//! entry checks. A hole (`def NAME: ?(COND?, ...)`) checks its listed
//! conditions and refers to nothing.

use crate::diagnostic::{Diagnostic, Fix, codes};
use crate::program::{self, Callee, Combinator};
use crate::span::Span;
use crate::stdlib::CombinatorInfo;
use crate::syntax::ast::{self, Call, Expr};

use super::Checker;
use super::acts::{how_many_given, missing_state};
use super::names::{Expect, Meaning, kind_error};

impl<'a> Checker<'a> {
    pub(super) fn applier(&mut self, applier: &ast::Applier) -> Option<program::Applier> {
        match applier {
            ast::Applier::Combinator {
                combinator,
                detector,
                args,
                span,
            } => self.combinator_app(combinator, detector.as_ref(), args, *span),
            ast::Applier::Act(call) => {
                let name = &call.name;
                match self.lookup(&name.name, name.span, Expect::Applier)? {
                    Meaning::Act | Meaning::Push | Meaning::Frame(_) => {
                        self.act_app(call).map(program::Applier::Act)
                    }
                    Meaning::Combinator(_) => {
                        let diagnostic = Diagnostic::error(
                            codes::E0202,
                            format!("`{}` is applied as `{}(; a1, a2, a3)`", name.name, name.name),
                        )
                        .with_label(call.span, "a combinator needs a `;` and three callable arguments")
                        .with_help("put the detector (if any) before the `;` and the callable arguments after it");
                        self.report(diagnostic);
                        None
                    }
                    found @ Meaning::Def { id, .. } => {
                        self.refer(id, name.span);
                        let diagnostic = kind_error(&name.name, name.span, found, Expect::Applier)
                            .with_help(format!(
                                "a definition cannot rename another; to run it, write `seq(; {}, NOP, NOP)`",
                                name.name
                            ));
                        self.report(diagnostic);
                        None
                    }
                    other => {
                        self.wrong_kind(&name.name, name.span, other, Expect::Applier);
                        None
                    }
                }
            }
        }
    }

    /// A hole: its listed conditions are checked like any detector.
    pub(super) fn hole(&mut self, hole: &ast::Hole) -> Option<program::Hole> {
        let conditions: Vec<Option<_>> =
            hole.conditions.iter().map(|c| self.condition(c)).collect();
        Some(program::Hole {
            conditions: conditions.into_iter().collect::<Option<_>>()?,
            span: hole.span,
        })
    }

    fn combinator_app(
        &mut self,
        combinator: &ast::Ident,
        detector: Option<&Expr>,
        args: &[Call],
        span: Span,
    ) -> Option<program::Applier> {
        let info = match self.lookup(&combinator.name, combinator.span, Expect::Combinator) {
            Some(Meaning::Combinator(c)) => self.combinator_info(c, &combinator.name),
            Some(other) => {
                self.wrong_kind(&combinator.name, combinator.span, other, Expect::Combinator);
                None
            }
            None => None,
        };
        let callees: Vec<Option<Callee>> = args.iter().map(|arg| self.callable(arg)).collect();
        let checked_detector = detector.map(|d| self.condition(d));
        let info = info?;
        let name = &combinator.name;
        let mut valid = true;
        match (detector, info.needs_detector) {
            (Some(detector), false) => {
                let diagnostic =
                    Diagnostic::error(codes::E0203, format!("`{name}` takes no detector"))
                        .with_label(detector.span, format!("`{name}` does not read a condition"))
                        .with_help(format!(
                            "remove the condition: `{name}(; a1, a2, a3)`; to branch, use `cond`"
                        ));
                self.report(diagnostic);
                valid = false;
            }
            (None, true) => {
                let pointer = self.pointers.first().map_or("P", |p| p.name.name.as_str());
                let diagnostic =
                    Diagnostic::error(codes::E0203, format!("`{name}` needs a detector"))
                        .with_label(span, "no condition before the `;`")
                        .with_help(format!("add a condition: `{name}({pointer} != END?; ...)`"));
                self.report(diagnostic);
                valid = false;
            }
            _ => {}
        }
        if callees.len() != 3 {
            let (label, help) = if callees.len() < 3 {
                ("too few callable arguments", "pad with `NOP`")
            } else {
                (
                    "too many callable arguments",
                    "group the extra steps in another `def` and pass its name",
                )
            };
            let given = how_many_given(callees.len());
            let diagnostic = Diagnostic::error(
                codes::E0202,
                format!("`{name}` takes 3 callable arguments, but {given}"),
            )
            .with_label(span, label)
            .with_help(help);
            self.report(diagnostic);
            valid = false;
        }
        if info.needs_state && self.state.is_none() {
            self.report(missing_state(combinator.span, &format!("`{name}`")));
            valid = false;
        }
        if !valid {
            return None;
        }
        let detector = match checked_detector {
            Some(detector) => Some(detector?),
            None => None,
        };
        let callees = callees.into_iter().collect::<Option<Vec<_>>>()?;
        let args: [Callee; 3] = callees.try_into().ok()?;
        Some(program::Applier::Combinator {
            combinator: info.combinator,
            detector,
            args,
            span,
        })
    }

    /// What applying combinator `c`, named `name`, asks for: the stdlib's
    /// entry, or one made from the program's own definition.
    fn combinator_info(&self, c: Combinator, name: &str) -> Option<CombinatorInfo> {
        match c {
            Combinator::Defined(i) => self.defined.get(i).map(|defined| CombinatorInfo {
                name: defined.name.clone(),
                combinator: c,
                needs_detector: defined.reads_c,
                needs_state: false,
            }),
            _ => self
                .stdlib
                .combinator(name)
                .filter(|info| info.combinator == c)
                .cloned(),
        }
    }

    /// A callable argument of a combinator.
    fn callable(&mut self, call: &Call) -> Option<Callee> {
        let name = &call.name;
        match self.lookup(&name.name, name.span, Expect::Callable)? {
            Meaning::Def { id, .. } => {
                self.refer(id, name.span);
                if call.args.is_some() {
                    let diagnostic = Diagnostic::error(
                        codes::E0207,
                        format!(
                            "the definition `{}` is passed without parentheses",
                            name.name
                        ),
                    )
                    .with_label(call.span, "arguments given to a definition")
                    .with_fix(
                        Fix::new(call.span, &name.name),
                        format!("write `{}`", name.name),
                    );
                    self.report(diagnostic);
                    return None;
                }
                Some(Callee::Def(id, name.span))
            }
            Meaning::Act | Meaning::Push | Meaning::Frame(_) => self.act_app(call).map(Callee::Act),
            Meaning::Combinator(_) => {
                let diagnostic = Diagnostic::error(
                    codes::E0206,
                    format!("the combinator `{}` cannot be a callable argument", name.name),
                )
                .with_label(call.span, "a combinator passed as an argument")
                .with_help("define the application with `def` and pass its name, as in `def STEP: seq(; ...)`");
                self.report(diagnostic);
                None
            }
            other => {
                self.wrong_kind(&name.name, name.span, other, Expect::Callable);
                None
            }
        }
    }
}
