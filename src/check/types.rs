//! Condition typing (language.md §4).
//!
//! Sorts every expression into a [`Typed`]: an integer (integer-only
//! arithmetic is folded, so `-1` and `2*3` are literals), `END`, a position,
//! a value, a symbol or a bool, and builds the typed IR of
//! `program::expr`. Integers and `END` compare with positions and values;
//! values are only compared; symbols compare only with symbols and `END`,
//! and have no order; conditions are bools.

use crate::diagnostic::{Diagnostic, codes};
use crate::program::{
    BlankKind, BoolExpr, ObservationKind, Operand, PosExpr, PosKind, SymExpr, ValExpr,
};
use crate::span::Span;
use crate::syntax::ast::{ArithOp, CompareOp, Expr, ExprKind, Ident};

use super::Checker;
use super::names::{Expect, Meaning};

/// An expression with its type.
enum Typed {
    /// A constant integer.
    Int(i64),
    /// The literal `END`.
    End,
    Pos(PosExpr),
    Val(ValExpr),
    Sym(SymExpr),
    Bool(BoolExpr),
}

impl Typed {
    fn describe(&self) -> &'static str {
        match self {
            Typed::Int(_) => "an integer",
            Typed::End => "`END`",
            Typed::Pos(_) => "a position",
            Typed::Val(_) => "a value",
            Typed::Sym(_) => "a symbol",
            Typed::Bool(_) => "a bool",
        }
    }

    /// The position this is (`END` is the integer n), or what it is
    /// instead.
    fn into_position(self, span: Span) -> Result<PosExpr, &'static str> {
        let kind = match self {
            Typed::Int(k) => PosKind::Int(k),
            Typed::End => PosKind::End,
            Typed::Pos(e) => return Ok(e),
            other => return Err(other.describe()),
        };
        Ok(PosExpr { kind, span })
    }

    /// The comparison operand this is; `None` for a bool.
    fn into_operand(self) -> Option<Operand> {
        Some(match self {
            Typed::Int(k) => Operand::Int(k),
            Typed::End => Operand::End,
            Typed::Pos(e) => Operand::Pos(e),
            Typed::Val(v) => Operand::Val(v),
            Typed::Sym(s) => Operand::Sym(s),
            Typed::Bool(_) => return None,
        })
    }
}

impl<'a> Checker<'a> {
    /// A detector or `if`/`while` condition: must be a bool.
    pub(super) fn condition(&mut self, expr: &Expr) -> Option<BoolExpr> {
        if let Some(hole) = self.condition_hole(expr) {
            return hole;
        }
        let outer = std::mem::replace(&mut self.in_condition, true);
        let typed = self.typed(expr);
        self.in_condition = outer;
        match typed? {
            Typed::Bool(b) => Some(b),
            other => {
                let found = other.describe();
                let diagnostic = Diagnostic::error(
                    codes::E0301,
                    format!("a condition must be a bool, but this is {found}"),
                )
                .with_label(expr.span, format!("{found}, not a bool"))
                .with_help("compare it with something, as in `A[i] != END` or `p < q`");
                self.report(diagnostic);
                None
            }
        }
    }

    /// A position expression (`SET`'s second argument, `_push` and state
    /// call arguments, initial positions, observation arguments).
    pub(super) fn position(&mut self, expr: &Expr) -> Option<PosExpr> {
        let typed = self.typed(expr)?;
        if self.declared_memory && matches!(typed, Typed::End) {
            self.no_end(expr.span, "`END`");
            return None;
        }
        match typed.into_position(expr.span) {
            Ok(position) => Some(position),
            Err(found) => {
                let diagnostic = Diagnostic::error(
                    codes::E0306,
                    format!("expected a position, but this is {found}"),
                )
                .with_label(expr.span, format!("{found}, not a position"))
                .with_help(
                    "positions are pointers, integers, `LAST`, `END` and arithmetic on them",
                );
                self.report(diagnostic);
                None
            }
        }
    }

    /// A hole where a condition goes: `Some` of its node (`Some(None)`
    /// where no hole may stand), `None` for anything else.
    fn condition_hole(&mut self, expr: &Expr) -> Option<Option<BoolExpr>> {
        if expr.kind != ExprKind::Hole {
            return None;
        }
        let blank = self.blank(BlankKind::Condition, expr.span);
        Some(blank.map(|blank| BoolExpr::Hole(blank, expr.span)))
    }

    fn typed(&mut self, expr: &Expr) -> Option<Typed> {
        let span = expr.span;
        match &expr.kind {
            // An integer expression left out: typed by its place, a
            // position (kept unfolded).
            ExprKind::Hole => {
                let blank = self.blank(BlankKind::Expression, span)?;
                Some(Typed::Pos(PosExpr {
                    kind: PosKind::Hole(blank),
                    span,
                }))
            }
            ExprKind::Error => {
                self.incomplete = true;
                None
            }
            ExprKind::Tuple(_) => {
                self.not_in_this_env(span, "several values");
                None
            }
            ExprKind::Int(k) => Some(Typed::Int(*k)),
            ExprKind::Char(c) => Some(Typed::Int(i64::from(u32::from(*c)))),
            ExprKind::Name(name) => self.name_operand(name, span),
            ExprKind::Neg(e) => {
                let operand = self.numeric(e)?;
                Some(match operand {
                    Typed::Int(k) => match k.checked_neg() {
                        Some(k) => Typed::Int(k),
                        None => return self.overflow(span),
                    },
                    other => {
                        let e = other.into_position(e.span).ok()?;
                        Typed::Pos(PosExpr {
                            kind: PosKind::Neg(Box::new(e)),
                            span,
                        })
                    }
                })
            }
            ExprKind::Arith(op, lhs, rhs) => self.arith(*op, lhs, rhs, span),
            ExprKind::Compare(op, lhs, rhs) => self.compare(*op, lhs, rhs, span),
            ExprKind::And(lhs, rhs) => {
                let (lhs, rhs) = (self.boolean(lhs, "and"), self.boolean(rhs, "and"));
                Some(Typed::Bool(BoolExpr::And(Box::new(lhs?), Box::new(rhs?))))
            }
            ExprKind::Or(lhs, rhs) => {
                let (lhs, rhs) = (self.boolean(lhs, "or"), self.boolean(rhs, "or"));
                Some(Typed::Bool(BoolExpr::Or(Box::new(lhs?), Box::new(rhs?))))
            }
            ExprKind::Not(e) => {
                let e = self.boolean(e, "not")?;
                Some(Typed::Bool(BoolExpr::Not(Box::new(e))))
            }
            ExprKind::Index(name, at) => match self.names.get(name.name.as_str()) {
                Some(&Meaning::Data(id)) => {
                    self.read_cell(id, &name.name, &[at], span).map(Typed::Pos)
                }
                _ => self.observe(name, std::slice::from_ref(at), true, span),
            },
            ExprKind::Index2(name, row, column) => {
                match self.lookup(&name.name, name.span, Expect::Observation)? {
                    Meaning::Data(id) => self
                        .read_cell(id, &name.name, &[row, column], span)
                        .map(Typed::Pos),
                    other => {
                        self.wrong_kind(&name.name, name.span, other, Expect::Observation);
                        None
                    }
                }
            }
            ExprKind::Apply(name, args) => match self.names.get(name.name.as_str()) {
                Some(&Meaning::Def { id, applier }) => self
                    .call_for_value(name, id, applier, args, span)
                    .map(Typed::Pos),
                _ => self.observe(name, args, false, span),
            },
        }
    }

    fn name_operand(&mut self, name: &str, span: Span) -> Option<Typed> {
        let meaning = self.lookup(name, span, Expect::Operand)?;
        Some(match meaning {
            Meaning::Pointer(p) if self.pointers_allowed => Typed::Pos(PosExpr {
                kind: PosKind::Pointer(p),
                span,
            }),
            Meaning::Pointer(_) => return self.not_in_init(name, span),
            Meaning::Data(id) => return self.read_cell(id, name, &[], span).map(Typed::Pos),
            Meaning::Last if self.declared_memory => return self.no_end(span, "`LAST`"),
            Meaning::Last => Typed::Pos(PosExpr {
                kind: PosKind::Last,
                span,
            }),
            Meaning::End => Typed::End,
            Meaning::Resume if self.in_normal || !self.in_condition => {
                self.report(super::normal::frame_in_normal(name, span));
                return None;
            }
            Meaning::Resume => Typed::Pos(PosExpr {
                kind: PosKind::Resume,
                span,
            }),
            Meaning::Symbol(color) => Typed::Sym(SymExpr::Literal(color, span)),
            Meaning::Observation => {
                let form = match self.env.observation(name) {
                    Some(o) if o.indexed => format!("`{name}[i]`"),
                    _ => format!("`{name}(i)`"),
                };
                let diagnostic = Diagnostic::error(
                    codes::E0208,
                    format!("the observation `{name}` needs a position to read at"),
                )
                .with_label(span, "an observation, not a position or a value")
                .with_help(format!("read it at a position: {form}"));
                self.report(diagnostic);
                return None;
            }
            other => {
                self.wrong_kind(name, span, other, Expect::Operand);
                return None;
            }
        })
    }

    /// E0309: `LAST`, or `END` used as a number, in an environment with
    /// several arrays (`ram`), where neither has one meaning.
    fn no_end(&mut self, span: Span, what: &str) -> Option<Typed> {
        let diagnostic = Diagnostic::error(
            codes::E0309,
            format!("{what} has no single value here: a `ram` program has several arrays"),
        )
        .with_label(span, "whose length?")
        .with_help(
            "compute with the length's name (`n - 1`); `END` only tests an element read, \
             as in `A[i] == END`",
        );
        self.report(diagnostic);
        None
    }

    /// E0105: an initial position reading a pointer or an observation.
    fn not_in_init(&mut self, name: &str, span: Span) -> Option<Typed> {
        let diagnostic = Diagnostic::error(
            codes::E0105,
            format!("an initial position cannot read `{name}`"),
        )
        .with_label(span, "read before the program starts")
        .with_help("initial positions are built from integers, `LAST` and `END`");
        self.report(diagnostic);
        None
    }

    /// An operand of arithmetic: an integer, `END` or a position.
    fn numeric(&mut self, expr: &Expr) -> Option<Typed> {
        let typed = self.typed(expr)?;
        if self.declared_memory && matches!(typed, Typed::End) {
            return self.no_end(expr.span, "`END`");
        }
        if let Typed::Int(_) | Typed::End | Typed::Pos(_) = typed {
            return Some(typed);
        }
        let found = typed.describe();
        let diagnostic = Diagnostic::error(
            codes::E0302,
            format!("arithmetic works on positions, but this is {found}"),
        )
        .with_label(expr.span, found)
        .with_help("values and symbols are only compared, never computed with; compare them directly, as in `A[i] < A[j]`");
        self.report(diagnostic);
        None
    }

    fn arith(&mut self, op: ArithOp, lhs: &Expr, rhs: &Expr, span: Span) -> Option<Typed> {
        let (a, b) = (self.numeric(lhs), self.numeric(rhs));
        let (a, b) = (a?, b?);
        let divides = matches!(op, ArithOp::Div | ArithOp::Rem);
        if divides && matches!(b, Typed::Int(0)) {
            let diagnostic = Diagnostic::error(codes::E0307, "division by zero")
                .with_label(rhs.span, "this divisor is always zero")
                .with_help("divide by a nonzero number or by a position");
            self.report(diagnostic);
            return None;
        }
        if let (Typed::Int(a), Typed::Int(b)) = (&a, &b) {
            let folded = match op {
                ArithOp::Add => a.checked_add(*b),
                ArithOp::Sub => a.checked_sub(*b),
                ArithOp::Mul => a.checked_mul(*b),
                ArithOp::Div => a.checked_div(*b),
                ArithOp::Rem => a.checked_rem(*b),
            };
            return match folded {
                Some(k) => Some(Typed::Int(k)),
                None => self.overflow(span),
            };
        }
        let (a, b) = (
            a.into_position(lhs.span).ok()?,
            b.into_position(rhs.span).ok()?,
        );
        let kind = PosKind::Arith(op, Box::new(a), Box::new(b));
        Some(Typed::Pos(PosExpr { kind, span }))
    }

    fn overflow(&mut self, span: Span) -> Option<Typed> {
        let diagnostic = Diagnostic::error(codes::E0308, "this constant does not fit in 64 bits")
            .with_label(span, "overflows")
            .with_help("integers range from -9223372036854775808 to 9223372036854775807");
        self.report(diagnostic);
        None
    }

    fn boolean(&mut self, expr: &Expr, operator: &str) -> Option<BoolExpr> {
        if let Some(hole) = self.condition_hole(expr) {
            return hole;
        }
        match self.typed(expr)? {
            Typed::Bool(b) => Some(b),
            other => {
                let found = other.describe();
                let diagnostic = Diagnostic::error(
                    codes::E0305,
                    format!("`{operator}` works on bools, but this is {found}"),
                )
                .with_label(expr.span, format!("{found}, not a bool"))
                .with_help("make it a comparison, as in `p != END`");
                self.report(diagnostic);
                None
            }
        }
    }

    fn compare(&mut self, op: CompareOp, lhs: &Expr, rhs: &Expr, span: Span) -> Option<Typed> {
        let (a, b) = (self.typed(lhs), self.typed(rhs));
        let (a, b) = (a?, b?);
        use Typed as T;
        let mismatch = match (&a, &b) {
            (T::Bool(_), _) | (_, T::Bool(_)) => {
                Some("bools are combined with `and`, `or` and `not`, not compared")
            }
            (T::Sym(_), T::Sym(_) | T::End) | (T::End, T::Sym(_)) => None,
            (T::Sym(_), _) | (_, T::Sym(_)) => Some("symbols compare only with symbols and `END`"),
            (T::Val(_), T::Pos(_)) | (T::Pos(_), T::Val(_)) => Some(
                "values (`A[i]`) compare with values, integers and `END`, never with positions",
            ),
            _ => None,
        };
        let ordering = !matches!(op, CompareOp::Eq | CompareOp::Ne);
        if self.declared_memory {
            let element = |t: &Typed| matches!(t, T::Pos(PosExpr { kind: PosKind::Read(cell), .. }) if !cell.at.is_empty());
            let end_against_number =
                (matches!(a, T::End) && !element(&b)) || (matches!(b, T::End) && !element(&a));
            if end_against_number {
                let at = if matches!(a, T::End) {
                    lhs.span
                } else {
                    rhs.span
                };
                return self.no_end(at, "`END`");
            }
        }
        if let Some(help) = mismatch {
            let diagnostic = Diagnostic::error(
                codes::E0303,
                format!("cannot compare {} with {}", a.describe(), b.describe()),
            )
            .with_label(lhs.span, a.describe())
            .with_label(rhs.span, b.describe())
            .with_help(help);
            self.report(diagnostic);
            return None;
        }
        if ordering && (matches!(a, T::Sym(_)) || matches!(b, T::Sym(_))) {
            let diagnostic = Diagnostic::error(codes::E0304, "symbols have no order")
                .with_label(span, "ordering comparison of symbols")
                .with_help("compare symbols with `==` or `!=`");
            self.report(diagnostic);
            return None;
        }
        if ordering && (matches!(a, T::End) || matches!(b, T::End)) {
            let diagnostic = Diagnostic::warning(codes::W0102, "this comparison is always false")
                .with_label(span, "an ordering comparison with `END`")
                .with_help("`END` is not ordered; test for it with `== END` or `!= END`");
            self.report(diagnostic);
        }
        let (a, b) = (a.into_operand()?, b.into_operand()?);
        Some(Typed::Bool(BoolExpr::Compare(op, a, b)))
    }

    /// `NAME[e]` (`indexed`) or `NAME(e, ...)` in a condition.
    fn observe(&mut self, name: &Ident, args: &[Expr], indexed: bool, span: Span) -> Option<Typed> {
        match self.lookup(&name.name, name.span, Expect::Observation)? {
            Meaning::Observation if self.pointers_allowed => {}
            Meaning::Observation => return self.not_in_init(&name.name, name.span),
            other => {
                self.wrong_kind(&name.name, name.span, other, Expect::Observation);
                return None;
            }
        }
        let positions: Vec<Option<PosExpr>> = args.iter().map(|a| self.position(a)).collect();
        let signature = self.env.observation(&name.name)?;
        if signature.indexed != indexed || args.len() != 1 {
            let form = if signature.indexed {
                format!("`{}[position]`", name.name)
            } else {
                format!("`{}(position)`", name.name)
            };
            let diagnostic = Diagnostic::error(
                codes::E0208,
                format!("the observation `{}` is read as {form}", name.name),
            )
            .with_label(span, "written differently here")
            .with_help(format!("write {form}"));
            self.report(diagnostic);
            return None;
        }
        // Exactly one argument, checked just above.
        let at = positions.into_iter().next()??;
        Some(match signature.kind {
            ObservationKind::Value => Typed::Val(ValExpr {
                observation: signature,
                at,
                span,
            }),
            ObservationKind::Symbol => Typed::Sym(SymExpr::Observe(signature, at, span)),
            ObservationKind::Test => Typed::Bool(BoolExpr::Test(signature, at)),
            ObservationKind::Position => Typed::Pos(PosExpr {
                kind: PosKind::Observe(signature, Box::new(at)),
                span,
            }),
        })
    }
}
