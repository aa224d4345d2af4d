//! ACT applications: `MOVE(P1, RIGHT)`, `OUT(OK)`, `NOP`, `_push(lo, hi)`.
//!
//! Checks an application against the ACT's stdlib declarations, choosing
//! among overloads by the number and the shape of the arguments, and builds
//! the [`Act`] from arguments of the declared types: pointer names where the
//! ACT names the place it acts on, `LEFT`/`RIGHT`, colours, `OK`, and
//! position expressions. `_push` takes as many positions as `state(...)`
//! names pointers.

use crate::diagnostic::{Diagnostic, codes};
use crate::program::{Act, ActApp, ActArg, ActDecl, FrameAct, ParamType, PosExpr, PosKind};
use crate::span::Span;
use crate::syntax::ast::{Call, Expr, ExprKind};

use super::Checker;
use super::names::{Expect, Meaning};

impl<'a> Checker<'a> {
    /// An application of an ACT of the environment, or of `_push`.
    pub(super) fn act_app(&mut self, call: &Call) -> Option<ActApp> {
        let args = call.args.as_deref().unwrap_or(&[]);
        let frame = FrameAct::ALL
            .into_iter()
            .find(|op| op.name() == call.name.name);
        let act = if call.name.name == "_push" {
            self.push(call, args)?
        } else if let Some(op) = frame {
            self.frame(call, op, args)?
        } else {
            self.declared_act(call, args)?
        };
        Some(ActApp {
            act,
            span: call.span,
        })
    }

    fn push(&mut self, call: &Call, args: &[Expr]) -> Option<Act> {
        self.state_values(call, args, "`_push`").map(Act::Push)
    }

    /// A built-in of the frame stack: `_goto(k)` and `_enter(k)` take a
    /// resume point, `_call(k, e1, ..., ek)` a resume point and a state,
    /// `_return` nothing. A resume point is an integer, 0 or more.
    fn frame(&mut self, call: &Call, op: FrameAct, args: &[Expr]) -> Option<Act> {
        let (resume, rest) = match (op, args) {
            (FrameAct::Return, []) => return Some(Act::Frame(op, Vec::new())),
            (FrameAct::Goto | FrameAct::Enter, [k]) => (k, &[][..]),
            (FrameAct::Call, [k, rest @ ..]) => (k, rest),
            _ => {
                let wanted = match op {
                    FrameAct::Return => "no arguments",
                    FrameAct::Goto | FrameAct::Enter => "one resume point",
                    FrameAct::Call => "a resume point and a state",
                };
                let diagnostic =
                    Diagnostic::error(codes::E0204, format!("`{}` takes {wanted}", op.name()))
                        .with_label(call.span, format!("{} arguments", args.len()));
                self.report(diagnostic);
                return None;
            }
        };
        let point = self.position(resume)?;
        if !matches!(point.kind, PosKind::Int(k) if k >= 0) {
            let diagnostic = Diagnostic::error(
                codes::E0306,
                "a resume point is an integer, 0 or more".to_string(),
            )
            .with_label(resume.span, "not an integer of 0 or more");
            self.report(diagnostic);
            return None;
        }
        let mut positions = vec![point];
        // `_call(k)` alone saves the pointers and sets none (a call with
        // arguments, whose parameters are set after it).
        if op == FrameAct::Call && !rest.is_empty() {
            positions.extend(self.state_values(call, rest, "`_call`")?);
        }
        Some(Act::Frame(op, positions))
    }

    /// The positions of a new treerec state (`_push(...)` or a state call
    /// `F(...)`): one per pointer of `state(...)`, which must exist.
    pub(super) fn state_values(
        &mut self,
        call: &Call,
        args: &[Expr],
        what: &str,
    ) -> Option<Vec<PosExpr>> {
        let positions: Vec<_> = args.iter().map(|arg| self.position(arg)).collect();
        let Some((state, state_span)) = &self.state else {
            self.report(missing_state(call.span, what));
            return None;
        };
        if state.len() != args.len() {
            let diagnostic = state_arity(call.span, state.len(), args.len(), *state_span);
            self.report(diagnostic);
            return None;
        }
        positions.into_iter().collect()
    }

    fn declared_act(&mut self, call: &Call, args: &[Expr]) -> Option<Act> {
        let name = call.name.name.as_str();
        let overloads: Vec<&'static ActDecl> = self.env.overloads(name).collect();
        let same_arity: Vec<&'static ActDecl> = overloads
            .iter()
            .copied()
            .filter(|o| o.params.len() == args.len())
            .collect();
        let Some(&first) = same_arity.first() else {
            self.report(act_arity(call, &overloads, args.len()));
            return None;
        };
        let chosen = same_arity
            .iter()
            .copied()
            .find(|o| o.params.iter().zip(args).all(|(p, a)| self.fits(*p, a)))
            .unwrap_or(first);
        let checked: Vec<Option<ActArg>> = chosen
            .params
            .iter()
            .zip(args)
            .enumerate()
            .map(|(i, (param, arg))| self.act_arg(chosen, &overloads, i, *param, arg))
            .collect();
        let checked = checked.into_iter().collect::<Option<Vec<_>>>()?;
        let act = Act::build(chosen, checked);
        if act.is_none() {
            let diagnostic = Diagnostic::error(
                codes::E0100,
                format!(
                    "internal error: the runtime cannot build `{}`",
                    chosen.display()
                ),
            )
            .with_label(call.span, "declared in the stdlib, unknown to the runtime")
            .with_note("this is a bug in cnpi, not in your program; please report it");
            self.report(diagnostic);
        }
        act
    }

    /// Whether `arg` has the shape `param` asks for (no diagnostics): how
    /// an overload is chosen.
    fn fits(&self, param: ParamType, arg: &Expr) -> bool {
        let meaning = match &arg.kind {
            ExprKind::Name(name) => self.names.get(name.as_str()).copied(),
            _ => None,
        };
        match param {
            ParamType::Pointer => matches!(meaning, Some(Meaning::Pointer(_))),
            ParamType::Direction => matches!(meaning, Some(Meaning::Direction(_))),
            ParamType::Color => matches!(meaning, Some(Meaning::Symbol(_))),
            ParamType::Ok => meaning == Some(Meaning::Ok),
            ParamType::Position => !matches!(
                meaning,
                Some(Meaning::Direction(_) | Meaning::Symbol(_) | Meaning::Ok)
            ),
            ParamType::Place => self.names_data(arg),
        }
    }

    /// The `index`-th argument of `chosen`, checked against its type.
    fn act_arg(
        &mut self,
        chosen: &ActDecl,
        overloads: &[&ActDecl],
        index: usize,
        param: ParamType,
        arg: &Expr,
    ) -> Option<ActArg> {
        match param {
            ParamType::Position => return self.position(arg).map(ActArg::Position),
            ParamType::Place => return self.place(arg).map(ActArg::Place),
            _ => {}
        }
        let name = match &arg.kind {
            ExprKind::Error => {
                self.incomplete = true;
                return None;
            }
            ExprKind::Name(name) => Some(name.as_str()),
            _ => None,
        };
        let meaning = match name {
            Some(name) => Some(self.lookup(name, arg.span, param_expect(param))?),
            None => None,
        };
        let checked = match (param, meaning) {
            (ParamType::Pointer, Some(Meaning::Pointer(p))) => Some(ActArg::Pointer(p)),
            (ParamType::Direction, Some(Meaning::Direction(d))) => Some(ActArg::Direction(d)),
            (ParamType::Color, Some(Meaning::Symbol(c))) => Some(ActArg::Color(c)),
            (ParamType::Ok, Some(Meaning::Ok)) => Some(ActArg::Ok),
            _ => None,
        };
        if checked.is_none() {
            let found = match (name, meaning) {
                (Some(name), Some(meaning)) => format!("`{name}` is {}", meaning.describe()),
                _ => "this is an expression".to_string(),
            };
            let wanted = match param {
                ParamType::Pointer => "a pointer name",
                ParamType::Direction => "`LEFT` or `RIGHT`",
                ParamType::Color => "`WHITE`, `GREY` or `BLACK`",
                ParamType::Ok | ParamType::Position | ParamType::Place => "`OK`",
            };
            let ordinal = ["first", "second", "third"]
                .get(index)
                .copied()
                .unwrap_or("next");
            let mut diagnostic = Diagnostic::error(
                codes::E0205,
                format!(
                    "the {ordinal} argument of `{}` must be {wanted}, but {found}",
                    chosen.name
                ),
            )
            .with_label(arg.span, format!("expected {}", param.name()));
            diagnostic = match (param, overloads) {
                (ParamType::Pointer, _) if name.is_none() => diagnostic.with_help(
                    "an ACT acts on the place a pointer names; to move a pointer to a computed position, use `SET(p, e)` first",
                ),
                (_, [_]) => diagnostic.with_help(format!("write `{}`", chosen.display())),
                _ => diagnostic.with_help(format!("write {}", forms(overloads))),
            };
            self.report(diagnostic);
        }
        checked
    }
}

/// The kind of name a parameter type calls for, for suggestions.
fn param_expect(param: ParamType) -> Expect {
    match param {
        ParamType::Pointer => Expect::Pointer,
        ParamType::Position | ParamType::Place => Expect::Operand,
        ParamType::Direction | ParamType::Color | ParamType::Ok => Expect::Word,
    }
}

/// "`OUT(pointer)` or `OUT(OK)`".
fn forms(overloads: &[&ActDecl]) -> String {
    let forms: Vec<String> = overloads
        .iter()
        .map(|o| format!("`{}`", o.display()))
        .collect();
    forms.join(" or ")
}

/// E0204: no declaration of the ACT takes `given` arguments.
fn act_arity(call: &Call, overloads: &[&ActDecl], given: usize) -> Diagnostic {
    let name = &call.name.name;
    let mut counts: Vec<usize> = overloads.iter().map(|o| o.params.len()).collect();
    counts.sort_unstable();
    counts.dedup();
    let counts: Vec<String> = counts.iter().map(usize::to_string).collect();
    let takes = match counts.as_slice() {
        [one] if one == "1" => "1 argument".to_string(),
        [one] => format!("{one} arguments"),
        many => format!("{} arguments", many.join(" or ")),
    };
    let given = how_many_given(given);
    Diagnostic::error(codes::E0204, format!("`{name}` takes {takes}, but {given}"))
        .with_label(call.span, "wrong number of arguments")
        .with_help(format!("write {}", forms(overloads)))
}

/// E0401: a use of the state stack in a file without `state(...)`.
pub(super) fn missing_state(span: Span, what: &str) -> Diagnostic {
    Diagnostic::error(
        codes::E0401,
        format!("{what} needs a `state(...)` declaration"),
    )
    .with_label(span, "uses the state stack")
    .with_help("declare the pointers each recursive call gets, as in `state(lo, hi)`")
}

/// E0402: `_push` or a state call with the wrong number of positions.
fn state_arity(span: Span, wanted: usize, given: usize, state: Span) -> Diagnostic {
    let plural = if wanted == 1 { "" } else { "s" };
    let given = how_many_given(given);
    Diagnostic::error(
        codes::E0402,
        format!("a state holds {wanted} position{plural}, but {given}"),
    )
    .with_label(span, "wrong number of positions")
    .with_label(state, "the state is declared here")
    .with_help("give one position per pointer of `state(...)`, in its order")
}

/// "none was given", "1 was given", "3 were given".
pub(super) fn how_many_given(given: usize) -> String {
    match given {
        0 => "none was given".to_string(),
        1 => "1 was given".to_string(),
        n => format!("{n} were given"),
    }
}
