//! The checked program printed back as source text: ACT applications,
//! position expressions and conditions, as a user would write them
//! (`SWAP(P1, P2)`, `_push(pivot + 1, hi)`, `A[j] <= A[hi]`).
//!
//! The checked program keeps spans, not text, so these rebuild the source
//! form from the IR with the pointers' names, with parentheses only where
//! precedence needs them. Traces, the combinatorizer's output and the
//! detector cache's keys all read programs through these functions.
//!
//! They all write through one [`Writer`], which also hands back each value
//! it wrote with its spans pointing into the text, as the parser gives
//! them: a node covers its own text without its own parentheses, a name
//! its name. The combinatorizer builds its checked output that way,
//! without parsing what it printed.

use super::{
    Act, ActArg, Behaviour, BoolExpr, CallExpr, Cell, Color, Combinator, CombinatorKind, Data,
    DataKind, Defined, Direction, EnvAct, EnvKind, FrameAct, Observation, Operand, Pointer,
    PosExpr, PosKind, Slot, SymExpr, ValExpr,
};
use crate::operators::Strength;
use crate::span::{SourceId, Span};

/// The `env` line without its keyword: `array(P1 = 0, P2 = LAST)`.
pub fn env_line(env: EnvKind, pointers: &[Pointer]) -> String {
    let mut writer = Writer::new(pointers, SourceId::USER, 0);
    writer.env_line(env);
    writer.text
}

/// `SWAP(P1, P2)`, `OUT(OK)`, `NOP`, `_push(lo, pivot - 1)`: the name,
/// then each argument as its type is written.
pub fn act(act: &Act, pointers: &[Pointer]) -> String {
    let mut writer = Writer::new(pointers, SourceId::USER, 0);
    writer.act(act);
    writer.text
}

/// The name of pointer `p`, `?` for one the program does not have.
fn pointer(p: usize, pointers: &[Pointer]) -> &str {
    pointers.get(p).map_or("?", |d| d.name.as_str())
}

/// A declaration of data as written: `input A[n]`, `var d[n + 1] = -1`;
/// `None` for a size, which the first input naming it declares.
pub fn data(data: &Data, pointers: &[Pointer]) -> Option<String> {
    let mut writer = Writer::new(pointers, SourceId::USER, 0);
    writer.data(data)?;
    Some(writer.text)
}

/// A cell of declared data: `t`, `A[i]`, `D[i][j + 1]`.
pub fn cell(cell: &Cell, pointers: &[Pointer]) -> String {
    let mut writer = Writer::new(pointers, SourceId::USER, 0);
    writer.cell(cell);
    writer.text
}

/// `FIB(k - 1)`: a call, with its arguments.
pub fn call(call: &CallExpr, pointers: &[Pointer]) -> String {
    let mut writer = Writer::new(pointers, SourceId::USER, 0);
    writer.call(call);
    writer.text
}

pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "WHITE",
        Color::Grey => "GREY",
        Color::Black => "BLACK",
    }
}

/// A position expression, parenthesized only where precedence needs it.
pub fn position(expr: &PosExpr, pointers: &[Pointer]) -> String {
    let mut writer = Writer::new(pointers, SourceId::USER, 0);
    writer.position(expr);
    writer.text
}

/// An integer as source text. i64::MIN has no literal (its magnitude does
/// not fit in an i64), so it is written as a difference.
pub fn integer(k: i64) -> String {
    if k == i64::MIN {
        format!("({} - 1)", i64::MIN + 1)
    } else {
        k.to_string()
    }
}

/// The name of a stdlib combinator; a program's own combinators are named
/// by [`Combinators::name`](super::Combinators::name), which knows them.
pub fn combinator_name(kind: CombinatorKind) -> &'static str {
    match kind {
        CombinatorKind::User(Combinator::Defined(_)) => "a defined combinator",
        CombinatorKind::User(Combinator::Seq) => "seq",
        CombinatorKind::User(Combinator::Cond) => "cond",
        CombinatorKind::User(Combinator::Linrec) => "linrec",
        CombinatorKind::User(Combinator::Treerec) => "treerec",
        CombinatorKind::MapSelf => "_mapself",
    }
}

/// A program's own combinator as source, with its parameters named
/// `a1, a2, a3`: `combinator twice(a1, a2, a3):` and its body.
pub fn defined(defined: &Defined) -> String {
    let mut writer = Writer::new(&[], SourceId::USER, 0);
    writer.defined(defined);
    writer.text
}

/// A combinator body in canonical form, four spaces deep: the slot names,
/// one per line, under `if c:` and `else:` when it reads `c`. Two bodies
/// behave the same exactly when their canonical forms are equal.
pub fn body(behaviour: &Behaviour, reads_c: bool) -> String {
    let lines = |slots: &[Slot], indent: &str| -> String {
        slots
            .iter()
            .map(|slot| format!("{indent}{}\n", slot.name()))
            .collect()
    };
    if reads_c {
        format!(
            "    if c:\n{}    else:\n{}",
            lines(&behaviour.when_true, "        "),
            lines(&behaviour.when_false, "        ")
        )
    } else {
        lines(&behaviour.when_true, "    ")
    }
}

/// A condition as it would be written.
pub fn condition(expr: &BoolExpr, pointers: &[Pointer]) -> String {
    let mut writer = Writer::new(pointers, SourceId::USER, 0);
    writer.condition(expr);
    writer.text
}

/// Source text being written, with the values written into it: each
/// method appends a value's text and returns the value with its spans
/// (in `source`, counted from `base`) where the parser would put them.
pub struct Writer<'p> {
    pub text: String,
    pointers: &'p [Pointer],
    source: SourceId,
    /// Where `text` starts in the file it is part of.
    base: usize,
}

impl<'p> Writer<'p> {
    /// A writer of text that starts at byte `base` of file `source`, whose
    /// pointers are `pointers`.
    pub fn new(pointers: &'p [Pointer], source: SourceId, base: usize) -> Writer<'p> {
        Writer {
            text: String::new(),
            pointers,
            source,
            base,
        }
    }

    pub fn push(&mut self, text: &str) {
        self.text.push_str(text);
    }

    /// The span from `start` (a length of `text`) to the end of the text.
    pub fn since(&self, start: usize) -> Span {
        Span::new(self.source, self.base + start, self.base + self.text.len())
    }

    /// `name`, and its span.
    pub fn name(&mut self, name: &str) -> Span {
        let start = self.text.len();
        self.push(name);
        self.since(start)
    }

    /// The `env` line without its keyword, and the pointers it declares.
    pub fn env_line(&mut self, env: EnvKind) -> Vec<Pointer> {
        self.push(env.name());
        self.push("(");
        let mut declared = Vec::new();
        for (i, p) in self.pointers.iter().enumerate() {
            if i > 0 {
                self.push(", ");
            }
            let span = self.name(&p.name);
            self.push(" = ");
            let init = self.position(&p.init);
            declared.push(Pointer {
                name: p.name.clone(),
                init,
                span,
                owner: None,
            });
        }
        self.push(")");
        declared
    }

    /// A declaration of data (see [`data`]); `None` for a size.
    pub fn data(&mut self, data: &Data) -> Option<Data> {
        let keyword = match data.kind {
            DataKind::Input => "input ",
            DataKind::Var { .. } => "var ",
            DataKind::Size => return None,
        };
        self.push(keyword);
        let span = self.name(&data.name);
        let dims = self.indices(&data.dims);
        let kind = match &data.kind {
            DataKind::Var { init } => {
                self.push(" = ");
                DataKind::Var {
                    init: self.position(init),
                }
            }
            other => other.clone(),
        };
        Some(Data {
            name: data.name.clone(),
            span,
            kind,
            dims,
        })
    }

    /// A program's own combinator (see [`defined`]).
    pub fn defined(&mut self, defined: &Defined) -> Defined {
        self.push("combinator ");
        let span = self.name(&defined.name);
        self.push("(a1, a2, a3):\n");
        self.push(&body(&defined.behaviour, defined.reads_c));
        Defined {
            span,
            ..defined.clone()
        }
    }

    /// An ACT application (see [`act`]). Its arguments are written where
    /// they are, in the order [`Act::args`] gives them (which copies them).
    pub fn act(&mut self, act: &Act) -> Act {
        self.push(act.name());
        if matches!(act, Act::Nop | Act::Frame(FrameAct::Return, _)) {
            return act.clone();
        }
        self.push("(");
        let written = match act {
            Act::Move(p, d) => {
                self.act_args(&[ActArg::Pointer(*p), ActArg::Direction(*d)]);
                act.clone()
            }
            Act::Set(p, e) => {
                self.act_arg(&ActArg::Pointer(*p));
                self.push(", ");
                Act::Set(*p, self.position(e))
            }
            Act::Push(exprs) => Act::Push(self.separated(exprs, Self::position)),
            Act::Frame(op, exprs) => Act::Frame(*op, self.separated(exprs, Self::position)),
            Act::Env(env) => Act::Env(EnvAct {
                decl: env.decl,
                args: self.act_args(&env.args),
            }),
            Act::Nop => act.clone(),
        };
        self.push(")");
        written
    }

    /// `args`, separated by commas, as written.
    fn act_args(&mut self, args: &[ActArg]) -> Vec<ActArg> {
        self.separated(args, Self::act_arg)
    }

    /// Each of `items` written by `write`, separated by commas.
    fn separated<T, U>(
        &mut self,
        items: &[T],
        mut write: impl FnMut(&mut Self, &T) -> U,
    ) -> Vec<U> {
        let mut written = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                self.push(", ");
            }
            written.push(write(self, item));
        }
        written
    }

    fn act_arg(&mut self, arg: &ActArg) -> ActArg {
        match arg {
            ActArg::Pointer(p) => self.push(pointer(*p, self.pointers)),
            ActArg::Position(e) => return ActArg::Position(self.position(e)),
            ActArg::Direction(Direction::Left) => self.push("LEFT"),
            ActArg::Direction(Direction::Right) => self.push("RIGHT"),
            ActArg::Color(color) => self.push(color_name(*color)),
            ActArg::Ok => self.push("OK"),
            ActArg::Place(cell) => return ActArg::Place(self.cell(cell)),
        }
        arg.clone()
    }

    /// An observation read at `at`, `A[i]` or `child(v)`: the position
    /// read at, as written.
    fn observation(&mut self, o: &Observation, at: &PosExpr) -> PosExpr {
        self.push(o.name);
        self.push(if o.indexed { "[" } else { "(" });
        let at = self.position(at);
        self.push(if o.indexed { "]" } else { ")" });
        at
    }

    /// `[i][j + 1]`: each position in brackets.
    fn indices(&mut self, indices: &[PosExpr]) -> Vec<PosExpr> {
        (indices.iter())
            .map(|index| {
                self.push("[");
                let index = self.position(index);
                self.push("]");
                index
            })
            .collect()
    }

    /// A cell of declared data (see [`cell`]).
    pub fn cell(&mut self, cell: &Cell) -> Cell {
        let start = self.text.len();
        self.push(&cell.name);
        let at = self.indices(&cell.at);
        Cell {
            data: cell.data,
            name: cell.name.clone(),
            at,
            span: self.since(start),
        }
    }

    /// A call for a value (see [`call`]).
    pub fn call(&mut self, call: &CallExpr) -> CallExpr {
        let start = self.text.len();
        self.push(&call.name);
        self.push("(");
        let args = self.separated(&call.args, Self::position);
        self.push(")");
        CallExpr {
            def: call.def,
            name: call.name.clone(),
            args,
            span: self.since(start),
        }
    }

    /// A position expression (see [`position`]).
    pub fn position(&mut self, expr: &PosExpr) -> PosExpr {
        self.position_in(expr, Strength::Or)
    }

    /// Writes `expr`, in parentheses when it binds less tightly than `outer`.
    fn position_in(&mut self, expr: &PosExpr, outer: Strength) -> PosExpr {
        let parens = match &expr.kind {
            PosKind::Int(k) => *k == i64::MIN || (*k < 0 && outer >= Strength::Unary),
            PosKind::Arith(op, ..) => op.strength() < outer,
            _ => false,
        };
        if parens {
            self.push("(");
        }
        let start = self.text.len();
        let kind = match &expr.kind {
            PosKind::Int(i64::MIN) => {
                self.push(&format!("{} - 1", i64::MIN + 1));
                PosKind::Int(i64::MIN)
            }
            PosKind::Int(k) => {
                self.push(&k.to_string());
                PosKind::Int(*k)
            }
            PosKind::Pointer(p) => {
                self.push(pointer(*p, self.pointers));
                PosKind::Pointer(*p)
            }
            PosKind::Last => {
                self.push("LAST");
                PosKind::Last
            }
            PosKind::Resume => {
                self.push("_resume");
                PosKind::Resume
            }
            PosKind::Hole(blank) => {
                self.push("?");
                PosKind::Hole(*blank)
            }
            PosKind::End => {
                self.push("END");
                PosKind::End
            }
            PosKind::Observe(o, at) => PosKind::Observe(o, Box::new(self.observation(o, at))),
            PosKind::Read(c) => PosKind::Read(Box::new(self.cell(c))),
            PosKind::Call(call) => PosKind::Call(Box::new(self.call(call))),
            PosKind::Neg(e) => {
                self.push("-");
                PosKind::Neg(Box::new(self.position_in(e, Strength::Unary)))
            }
            PosKind::Arith(op, lhs, rhs) => {
                let own = op.strength();
                let lhs = self.position_in(lhs, own);
                self.push(&format!(" {} ", op.symbol()));
                // Operators associate to the left: a right operand of the
                // same precedence needs parentheses (`a - (b - c)`).
                let rhs = self.position_in(rhs, own.tighter());
                PosKind::Arith(*op, Box::new(lhs), Box::new(rhs))
            }
        };
        let span = self.since(start);
        if parens {
            self.push(")");
        }
        PosExpr { kind, span }
    }

    /// A condition (see [`condition`]).
    pub fn condition(&mut self, expr: &BoolExpr) -> BoolExpr {
        self.condition_in(expr, Strength::Or)
    }

    /// Writes `expr`, in parentheses when it binds less tightly than `outer`
    /// (`Strength::Atom` puts anything in parentheses).
    fn condition_in(&mut self, expr: &BoolExpr, outer: Strength) -> BoolExpr {
        let own = match expr {
            BoolExpr::Or(..) => Strength::Or,
            BoolExpr::And(..) => Strength::And,
            BoolExpr::Not(_) => Strength::Not,
            BoolExpr::Test(..) | BoolExpr::Compare(..) | BoolExpr::Hole(..) => Strength::Compare,
        };
        if own < outer {
            self.push("(");
        }
        let written = match expr {
            BoolExpr::Or(a, b) | BoolExpr::And(a, b) => {
                let a = Box::new(self.condition_in(a, own));
                let or = matches!(expr, BoolExpr::Or(..));
                self.push(if or { " or " } else { " and " });
                let b = Box::new(self.condition_in(b, own.tighter()));
                if or {
                    BoolExpr::Or(a, b)
                } else {
                    BoolExpr::And(a, b)
                }
            }
            // `not (lo >= hi)`: the parentheses are not needed, but read
            // better.
            BoolExpr::Not(a) => {
                self.push("not ");
                let inner = if matches!(**a, BoolExpr::Compare(..)) {
                    Strength::Atom
                } else {
                    Strength::Not
                };
                BoolExpr::Not(Box::new(self.condition_in(a, inner)))
            }
            BoolExpr::Test(o, at) => BoolExpr::Test(o, self.observation(o, at)),
            BoolExpr::Hole(blank, _) => {
                let start = self.text.len();
                self.push("?");
                BoolExpr::Hole(*blank, self.since(start))
            }
            BoolExpr::Compare(op, a, b) => {
                let a = self.operand(a);
                self.push(&format!(" {} ", op.symbol()));
                BoolExpr::Compare(*op, a, self.operand(b))
            }
        };
        if own < outer {
            self.push(")");
        }
        written
    }

    fn operand(&mut self, operand: &Operand) -> Operand {
        let start = self.text.len();
        match operand {
            Operand::Int(k) => self.push(&integer(*k)),
            Operand::End => self.push("END"),
            Operand::Pos(e) => return Operand::Pos(self.position(e)),
            Operand::Val(v) => {
                let at = self.observation(v.observation, &v.at);
                return Operand::Val(ValExpr {
                    observation: v.observation,
                    at,
                    span: self.since(start),
                });
            }
            Operand::Sym(SymExpr::Literal(color, _)) => {
                let span = self.name(color_name(*color));
                return Operand::Sym(SymExpr::Literal(*color, span));
            }
            Operand::Sym(SymExpr::Observe(o, at, _)) => {
                let at = self.observation(o, at);
                return Operand::Sym(SymExpr::Observe(o, at, self.since(start)));
            }
        }
        operand.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::operators::ArithOp;
    use crate::program::{ActDecl, ObservationKind, ParamType};
    use crate::span::Span;

    const CHILD: Observation = Observation {
        name: "child",
        indexed: false,
        kind: ObservationKind::Position,
    };

    fn e(kind: PosKind) -> PosExpr {
        PosExpr {
            kind,
            span: Span::default(),
        }
    }

    fn arith(op: ArithOp, a: PosKind, b: PosKind) -> PosKind {
        PosKind::Arith(op, Box::new(e(a)), Box::new(e(b)))
    }

    fn pointers() -> Vec<Pointer> {
        ["lo", "pivot"]
            .map(|name| Pointer {
                name: name.into(),
                init: e(PosKind::Int(0)),
                span: Span::default(),
                owner: None,
            })
            .into()
    }

    #[test]
    fn acts_read_as_written() {
        let names = pointers();
        let push = Act::Push(vec![
            e(arith(ArithOp::Add, PosKind::Pointer(1), PosKind::Int(1))),
            e(PosKind::Last),
        ]);
        assert_eq!(act(&push, &names), "_push(pivot + 1, LAST)");
        assert_eq!(
            act(&Act::Move(0, Direction::Left), &names),
            "MOVE(lo, LEFT)"
        );
        const OUT_OK: ActDecl = ActDecl::new("OUT", &[ParamType::Ok]);
        const COLOR: ActDecl = ActDecl::new("COLOR", &[ParamType::Pointer, ParamType::Color]);
        let build = |decl, args| Act::build(decl, args).expect("the arguments fit");
        assert_eq!(act(&build(&OUT_OK, vec![ActArg::Ok]), &names), "OUT(OK)");
        assert_eq!(act(&Act::Nop, &names), "NOP");
        let color = vec![ActArg::Pointer(1), ActArg::Color(Color::Grey)];
        assert_eq!(act(&build(&COLOR, color), &names), "COLOR(pivot, GREY)");
        assert!(Act::build(&COLOR, vec![ActArg::Ok]).is_none());
    }

    #[test]
    fn parentheses_only_where_needed() {
        let names = pointers();
        let sum = arith(ArithOp::Sub, PosKind::Pointer(0), PosKind::Int(1));
        let nested = arith(ArithOp::Sub, PosKind::Pointer(1), sum.clone());
        assert_eq!(position(&e(nested), &names), "pivot - (lo - 1)");
        let product = arith(ArithOp::Mul, sum.clone(), PosKind::Int(2));
        assert_eq!(position(&e(product), &names), "(lo - 1) * 2");
        let left = arith(
            ArithOp::Add,
            sum,
            PosKind::Observe(&CHILD, Box::new(e(PosKind::Pointer(0)))),
        );
        assert_eq!(position(&e(left), &names), "lo - 1 + child(lo)");
        let neg = PosKind::Neg(Box::new(e(PosKind::Int(-2))));
        assert_eq!(position(&e(neg), &names), "-(-2)");
        let min = PosKind::Neg(Box::new(e(PosKind::Int(i64::MIN))));
        assert_eq!(position(&e(min), &names), "-(-9223372036854775807 - 1)");
    }
}
