//! Checked programs built by hand, for testing the interpreter without the
//! front end: a small builder, expression helpers, the stdlib combinator
//! behaviours, and the programs of section 8 of the language contract.

use cnpi::env;
use cnpi::program::{
    Act, ActApp, ActArg, Applier, Behaviour, Body, BoolExpr, Callee, Color, Combinator,
    Combinators, Def, DefId, Direction, EnvKind, Observation, Operand, Pointer, PointerId, PosExpr,
    PosKind, Program, Slot, Stmt, SymExpr, ValExpr,
};
use cnpi::span::{SourceId, Span};
use cnpi::syntax::ast::{ArithOp, CompareOp};

/// The behaviours of `stdlib/core.cnpi`.
pub fn combinators() -> Combinators {
    use Slot::*;
    let b = |when_true: &[Slot], when_false: &[Slot]| Behaviour {
        when_true: when_true.to_vec(),
        when_false: when_false.to_vec(),
    };
    Combinators {
        seq: b(&[A1, A2, A3], &[A1, A2, A3]),
        cond: b(&[A1, A2], &[A3]),
        linrec: b(&[A1, A2, SelfSlot], &[A3]),
        treerec: b(&[A1, PushSentinel, A2, MapSelf, A3], &[Nop]),
        mapself: b(&[LoadState, Pop, SelfSlot, MapSelf], &[LoadState, Pop]),
        defined: Vec::new(),
    }
}

/// A span no other node has, so tests can tell labels apart.
pub fn span(k: usize) -> Span {
    Span::new(SourceId::USER, k, k + 1)
}

pub struct Builder {
    env: EnvKind,
    pointers: Vec<Pointer>,
    state: Option<Vec<PointerId>>,
    defs: Vec<Def>,
}

impl Builder {
    pub fn new(env: EnvKind, pointers: &[(&str, PosExpr)]) -> Builder {
        let pointers = pointers
            .iter()
            .map(|(name, init)| Pointer {
                name: name.to_string(),
                init: init.clone(),
                span: Span::default(),
                owner: None,
            })
            .collect();
        Builder {
            env,
            pointers,
            state: None,
            defs: Vec::new(),
        }
    }

    pub fn state(mut self, names: &[&str]) -> Builder {
        self.state = Some(names.iter().map(|n| self.p(n)).collect());
        self
    }

    /// The id of pointer `name`.
    pub fn p(&self, name: &str) -> PointerId {
        self.pointers
            .iter()
            .position(|p| p.name == name)
            .unwrap_or_else(|| panic!("no pointer {name}"))
    }

    /// `ptr(name)`: the pointer as a position expression.
    pub fn ptr(&self, name: &str) -> PosExpr {
        pos(PosKind::Pointer(self.p(name)))
    }

    fn def(&mut self, name: &str, body: Body) -> DefId {
        self.defs.push(Def {
            name: name.to_string(),
            span: span(1000 + self.defs.len()),
            params: Vec::new(),
            body,
        });
        self.defs.len() - 1
    }

    /// `def NAME: COMB(detector?; a1, a2, a3)`
    pub fn comb(
        &mut self,
        name: &str,
        combinator: Combinator,
        detector: Option<BoolExpr>,
        args: [Callee; 3],
    ) -> DefId {
        let applier = Applier::Combinator {
            combinator,
            detector,
            args,
            span: Span::default(),
        };
        self.def(name, Body::Applier(applier))
    }

    pub fn seq(&mut self, name: &str, args: [Callee; 3]) -> DefId {
        self.comb(name, Combinator::Seq, None, args)
    }

    /// `def NAME(): ...`; the body may call NAME itself (its id is the
    /// next one: [`Builder::next_id`]).
    pub fn normal(&mut self, name: &str, body: Vec<Stmt>) -> DefId {
        self.def(name, Body::Normal(body))
    }

    pub fn next_id(&self) -> DefId {
        self.defs.len()
    }

    pub fn finish(self, entry: DefId) -> Program {
        Program {
            env: self.env,
            pointers: self.pointers,
            data: Vec::new(),
            state: self.state,
            defs: self.defs,
            combinators: combinators(),
            entry,
            blanks: Vec::new(),
        }
    }
}

pub fn pos(kind: PosKind) -> PosExpr {
    PosExpr {
        kind,
        span: Span::default(),
    }
}

pub fn int(k: i64) -> PosExpr {
    pos(PosKind::Int(k))
}

pub fn arith(op: ArithOp, a: PosExpr, b: PosExpr) -> PosExpr {
    pos(PosKind::Arith(op, Box::new(a), Box::new(b)))
}

/// The registered environment `name`.
pub fn kind(name: &str) -> EnvKind {
    EnvKind::from_name(name).unwrap_or_else(|| panic!("no environment {name}"))
}

/// The registered observation `name`.
pub fn observation(name: &str) -> &'static Observation {
    let all = env::all_observations();
    all.into_iter()
        .find(|o| o.name == name)
        .unwrap_or_else(|| panic!("no observation {name}"))
}

/// The ACT `name` of environment `env` on `args`, as the checker builds it.
fn env_act(env: &str, name: &str, args: Vec<ActArg>) -> Act {
    env::build_act(kind(env), name, args).unwrap_or_else(|| panic!("no ACT {name}"))
}

pub fn swap(p: PointerId, q: PointerId) -> Act {
    env_act(
        "array",
        "SWAP",
        vec![ActArg::Pointer(p), ActArg::Pointer(q)],
    )
}

pub fn out(p: PointerId) -> Act {
    env_act("array", "OUT", vec![ActArg::Pointer(p)])
}

pub fn out_ok() -> Act {
    env_act("array", "OUT", vec![ActArg::Ok])
}

pub fn clear(p: PointerId) -> Act {
    env_act("array", "CLEAR", vec![ActArg::Pointer(p)])
}

pub fn outclear(p: PointerId) -> Act {
    env_act("array", "OUTCLEAR", vec![ActArg::Pointer(p)])
}

pub fn paint(v: PointerId, c: Color) -> Act {
    env_act("graph", "COLOR", vec![ActArg::Pointer(v), ActArg::Color(c)])
}

pub fn emit(v: PointerId) -> Act {
    env_act("graph", "EMIT", vec![ActArg::Pointer(v)])
}

pub fn next_child(v: PointerId) -> Act {
    env_act("graph", "NEXT_CHILD", vec![ActArg::Pointer(v)])
}

pub fn write_sum(i: PointerId) -> Act {
    env_act("addition", "WRITE_SUM", vec![ActArg::Pointer(i)])
}

pub fn carry(i: PointerId) -> Act {
    env_act("addition", "CARRY", vec![ActArg::Pointer(i)])
}

pub fn child(v: PosExpr) -> PosExpr {
    pos(PosKind::Observe(observation("child"), Box::new(v)))
}

pub fn has_child(v: PosExpr) -> BoolExpr {
    BoolExpr::Test(observation("has_child"), v)
}

/// An observation such as `A[e]` or `sum(i)`.
pub fn val(name: &str, at: PosExpr) -> Operand {
    Operand::Val(ValExpr {
        observation: observation(name),
        at,
        span: Span::default(),
    })
}

pub fn cmp(op: CompareOp, a: Operand, b: Operand) -> BoolExpr {
    BoolExpr::Compare(op, a, b)
}

pub fn color_of(v: PosExpr) -> Operand {
    Operand::Sym(SymExpr::Observe(observation("color"), v, Span::default()))
}

pub fn color(c: Color) -> Operand {
    Operand::Sym(SymExpr::Literal(c, Span::default()))
}

pub fn app(act: Act) -> ActApp {
    ActApp {
        act,
        span: Span::default(),
    }
}

pub fn call(def: DefId) -> Callee {
    Callee::Def(def, Span::default())
}

pub fn inline(act: Act) -> Callee {
    Callee::Act(app(act))
}

pub fn nop() -> Callee {
    inline(Act::Nop)
}

pub fn right(p: PointerId) -> Act {
    Act::Move(p, Direction::Right)
}

pub fn left(p: PointerId) -> Act {
    Act::Move(p, Direction::Left)
}

fn a(b: &Builder, name: &str) -> Operand {
    val("A", b.ptr(name))
}

/// Bubble sort, section 8.
pub fn bubblesort() -> Program {
    use CompareOp::*;
    let mut b = Builder::new(
        kind("array"),
        &[("P1", int(0)), ("P2", int(1)), ("P3", int(0))],
    );
    let (p1, p2, p3) = (b.p("P1"), b.p("P2"), b.p("P3"));
    let c = cmp(Gt, a(&b, "P1"), a(&b, "P2"));
    let compswap = b.comb(
        "COMPSWAP",
        Combinator::Cond,
        Some(c),
        [inline(swap(p1, p2)), nop(), nop()],
    );
    let rshift = b.seq("RSHIFT", [inline(right(p1)), inline(right(p2)), nop()]);
    let c = cmp(Ne, a(&b, "P2"), Operand::End);
    let bstep = b.comb(
        "BSTEP",
        Combinator::Linrec,
        Some(c),
        [call(compswap), call(rshift), nop()],
    );
    let c = cmp(Ne, a(&b, "P1"), Operand::End);
    let lshift = b.comb(
        "LSHIFT",
        Combinator::Linrec,
        Some(c),
        [inline(left(p1)), inline(left(p2)), nop()],
    );
    let reset = b.seq("RESET", [call(lshift), inline(right(p3)), nop()]);
    let c = cmp(Ne, a(&b, "P3"), Operand::End);
    let sort = b.comb(
        "BUBBLESORT",
        Combinator::Linrec,
        Some(c),
        [call(bstep), call(reset), nop()],
    );
    b.finish(sort)
}

fn quicksort_builder() -> Builder {
    let last = pos(PosKind::Last);
    Builder::new(
        kind("array"),
        &[
            ("lo", int(0)),
            ("hi", last),
            ("pivot", int(0)),
            ("j", int(0)),
        ],
    )
    .state(&["lo", "hi"])
}

/// Quick sort as appliers, section 8.
pub fn quicksort() -> Program {
    use CompareOp::*;
    let mut b = quicksort_builder();
    let (hi, pivot, j) = (b.p("hi"), b.p("pivot"), b.p("j"));
    let pre_loop = b.seq(
        "PRE_LOOP",
        [
            inline(Act::Set(pivot, b.ptr("lo"))),
            inline(Act::Set(j, b.ptr("lo"))),
            nop(),
        ],
    );
    let c = cmp(Le, a(&b, "j"), a(&b, "hi"));
    let compswap = b.comb(
        "COMPSWAP",
        Combinator::Cond,
        Some(c),
        [inline(swap(pivot, j)), inline(right(pivot)), nop()],
    );
    let c = cmp(Ne, Operand::Pos(b.ptr("j")), Operand::Pos(b.ptr("hi")));
    let looping = b.comb(
        "LOOP",
        Combinator::Linrec,
        Some(c),
        [call(compswap), inline(right(j)), nop()],
    );
    let partition = b.seq(
        "PARTITION",
        [call(pre_loop), call(looping), inline(swap(pivot, hi))],
    );
    let right_part = Act::Push(vec![
        arith(ArithOp::Add, b.ptr("pivot"), int(1)),
        b.ptr("hi"),
    ]);
    let left_part = Act::Push(vec![
        b.ptr("lo"),
        arith(ArithOp::Sub, b.ptr("pivot"), int(1)),
    ]);
    let divide = b.seq(
        "DIVIDE",
        [call(partition), inline(right_part), inline(left_part)],
    );
    let c = cmp(Lt, Operand::Pos(b.ptr("lo")), Operand::Pos(b.ptr("hi")));
    let sort = b.comb(
        "QUICKSORT",
        Combinator::Treerec,
        Some(c),
        [nop(), call(divide), nop()],
    );
    b.finish(sort)
}

/// Quick sort as normal programs, section 8.
pub fn quicksort_normal() -> Program {
    use CompareOp::*;
    let mut b = quicksort_builder();
    let (hi, pivot, j) = (b.p("hi"), b.p("pivot"), b.p("j"));
    let act = |a: Act| Stmt::Act(app(a));
    let partition = b.normal(
        "PARTITION",
        vec![
            act(Act::Set(pivot, b.ptr("lo"))),
            act(Act::Set(j, b.ptr("lo"))),
            Stmt::While {
                condition: cmp(Ne, Operand::Pos(b.ptr("j")), Operand::Pos(b.ptr("hi"))),
                body: vec![
                    Stmt::If {
                        condition: cmp(Le, a(&b, "j"), a(&b, "hi")),
                        then: vec![act(swap(pivot, j)), act(right(pivot))],
                        otherwise: vec![],
                        span: Span::default(),
                    },
                    act(right(j)),
                ],
                span: Span::default(),
            },
            act(swap(pivot, hi)),
        ],
    );
    let me = b.next_id();
    let state_call = |args: Vec<PosExpr>| Stmt::StateCall(me, args, Span::default());
    let body = vec![Stmt::If {
        condition: cmp(Lt, Operand::Pos(b.ptr("lo")), Operand::Pos(b.ptr("hi"))),
        then: vec![
            Stmt::Call(partition, Span::default()),
            state_call(vec![
                b.ptr("lo"),
                arith(ArithOp::Sub, b.ptr("pivot"), int(1)),
            ]),
            state_call(vec![
                arith(ArithOp::Add, b.ptr("pivot"), int(1)),
                b.ptr("hi"),
            ]),
        ],
        otherwise: vec![],
        span: Span::default(),
    }];
    let sort = b.normal("QUICKSORT", body);
    b.finish(sort)
}

/// Topological sort by depth-first search, section 8.
pub fn toposort() -> Program {
    use CompareOp::*;
    let mut b = Builder::new(kind("graph"), &[("u", int(0)), ("v", int(0))]).state(&["v"]);
    let (u, v) = (b.p("u"), b.p("v"));
    let c = has_child(b.ptr("v"));
    let push = inline(Act::Push(vec![child(b.ptr("v"))]));
    let divide = b.comb(
        "DIVIDE",
        Combinator::Linrec,
        Some(c),
        [push, inline(next_child(v)), nop()],
    );
    let post = b.seq(
        "POST",
        [inline(paint(v, Color::Black)), inline(emit(v)), nop()],
    );
    let c = cmp(Eq, color_of(b.ptr("v")), color(Color::White));
    let grey = inline(paint(v, Color::Grey));
    let traverse = b.comb(
        "TRAVERSE",
        Combinator::Treerec,
        Some(c),
        [grey, call(divide), call(post)],
    );
    let visit = b.seq(
        "VISIT",
        [inline(Act::Set(v, b.ptr("u"))), call(traverse), nop()],
    );
    let c = cmp(Ne, Operand::Pos(b.ptr("u")), Operand::End);
    let sort = b.comb(
        "TOPOSORT",
        Combinator::Linrec,
        Some(c),
        [call(visit), inline(right(u)), nop()],
    );
    b.finish(sort)
}

/// Grade-school addition, the design of `env addition`.
pub fn addition() -> Program {
    use CompareOp::*;
    let mut b = Builder::new(kind("addition"), &[("i", pos(PosKind::Last))]);
    let i = b.p("i");
    let c = cmp(Ge, val("sum", b.ptr("i")), Operand::Int(10));
    let carry_if = b.comb(
        "CARRY_IF",
        Combinator::Cond,
        Some(c),
        [inline(carry(i)), nop(), nop()],
    );
    let add1 = b.seq(
        "ADD1",
        [inline(write_sum(i)), call(carry_if), inline(left(i))],
    );
    let c = cmp(Ne, Operand::Pos(b.ptr("i")), Operand::End);
    let add = b.comb(
        "ADD",
        Combinator::Linrec,
        Some(c),
        [call(add1), nop(), nop()],
    );
    b.finish(add)
}
