//! What a piece of code reads and writes, as data: [`Effect`] (the
//! pointers it may read and write, and whether it reads or changes the
//! environment) and [`Flow`] (an effect with the pointers the code surely
//! writes and those it reads before writing), for expressions and ACTs.
//! `effects` combines them into summaries of statements and definitions.

use super::set::Pointers;
use crate::program::{Act, ActArg, BoolExpr, Operand, PosExpr, PosKind, SymExpr};

/// What running a piece of code may do.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Effect {
    pub reads: Pointers,
    pub writes: Pointers,
    pub env_read: bool,
    pub env_write: bool,
}

impl Effect {
    pub fn add(&mut self, other: &Effect) {
        self.reads.union_with(&other.reads);
        self.writes.union_with(&other.writes);
        self.env_read |= other.env_read;
        self.env_write |= other.env_write;
    }
}

/// The effect of code together with what it surely writes and what it
/// reads before writing, relative to its start.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Flow {
    pub effect: Effect,
    pub must: Pointers,
    pub exposed: Pointers,
}

impl Flow {
    /// `self` followed by `next`.
    pub fn then(mut self, next: &Flow) -> Flow {
        self.effect.add(&next.effect);
        self.exposed.union_with(&next.exposed.minus(&self.must));
        self.must.union_with(&next.must);
        self
    }

    /// Code that only reads (a condition, the arguments of a state call).
    pub fn reading(reads: Pointers, env_read: bool) -> Flow {
        Flow {
            effect: Effect {
                reads: reads.clone(),
                env_read,
                ..Effect::default()
            },
            exposed: reads,
            must: Pointers::default(),
        }
    }

    /// The pointers live before this code, given those live after it.
    pub fn live_before(&self, after: &Pointers) -> Pointers {
        self.exposed.union(&after.minus(&self.must))
    }
}

/// Pointers read by a position expression; true when it reads the
/// environment (a position observation such as `child(v)`).
pub fn position_reads(expr: &PosExpr, reads: &mut Pointers) -> bool {
    match &expr.kind {
        PosKind::Int(_) | PosKind::Last | PosKind::End => false,
        PosKind::Pointer(p) => {
            reads.insert(*p);
            false
        }
        PosKind::Observe(_, at) => {
            position_reads(at, reads);
            true
        }
        PosKind::Neg(e) => position_reads(e, reads),
        PosKind::Arith(_, a, b) => position_reads(a, reads) | position_reads(b, reads),
        PosKind::Read(cell) => {
            positions_reads_into(&cell.at, reads);
            true
        }
    }
}

/// [`position_reads`] of several positions into `reads`.
fn positions_reads_into(exprs: &[PosExpr], reads: &mut Pointers) -> bool {
    exprs
        .iter()
        .fold(false, |env, e| position_reads(e, reads) | env)
}

/// Pointers read by a condition; true when it reads the environment.
pub fn condition_reads(expr: &BoolExpr, reads: &mut Pointers) -> bool {
    match expr {
        BoolExpr::Compare(_, a, b) => operand_reads(a, reads) | operand_reads(b, reads),
        BoolExpr::Test(_, at) => {
            position_reads(at, reads);
            true
        }
        BoolExpr::And(a, b) | BoolExpr::Or(a, b) => {
            condition_reads(a, reads) | condition_reads(b, reads)
        }
        BoolExpr::Not(a) => condition_reads(a, reads),
    }
}

fn operand_reads(operand: &Operand, reads: &mut Pointers) -> bool {
    match operand {
        Operand::Int(_) | Operand::End | Operand::Sym(SymExpr::Literal(..)) => false,
        Operand::Pos(e) => position_reads(e, reads),
        Operand::Val(v) => {
            position_reads(&v.at, reads);
            true
        }
        Operand::Sym(SymExpr::Observe(_, at, _)) => {
            position_reads(at, reads);
            true
        }
    }
}

/// Positions read together, as the arguments of a call.
pub fn positions_reads(exprs: &[PosExpr]) -> (Pointers, bool) {
    let mut reads = Pointers::default();
    let env = positions_reads_into(exprs, &mut reads);
    (reads, env)
}

/// The flow of one ACT: `MOVE(p, ...)` reads and writes p, `SET(p, e)`
/// reads e and writes p, `_push` reads its positions; an ACT of the
/// environment reads its pointers and positions, reads the environment
/// where it takes one (`OUT(OK)` does not), and changes it.
pub fn act_flow(act: &Act) -> Flow {
    let mut reads = Pointers::default();
    let mut writes = Pointers::default();
    let (env_read, env_write) = match act {
        Act::Nop => (false, false),
        Act::Move(p, _) => {
            reads.insert(*p);
            writes.insert(*p);
            (false, false)
        }
        Act::Set(p, e) => {
            writes.insert(*p);
            (position_reads(e, &mut reads), false)
        }
        Act::Push(exprs) => {
            let (read, env) = positions_reads(exprs);
            reads = read;
            (env, false)
        }
        Act::Env(act) => {
            let mut env_read = false;
            for arg in &act.args {
                match arg {
                    ActArg::Pointer(p) => {
                        reads.insert(*p);
                        env_read = true;
                    }
                    ActArg::Position(e) => {
                        position_reads(e, &mut reads);
                        env_read = true;
                    }
                    ActArg::Place(cell) => {
                        positions_reads_into(&cell.at, &mut reads);
                    }
                    ActArg::Direction(_) | ActArg::Color(_) | ActArg::Ok => {}
                }
            }
            (env_read, true)
        }
    };
    Flow {
        exposed: reads.clone(),
        must: writes.clone(),
        effect: Effect {
            reads,
            writes,
            env_read,
            env_write,
        },
    }
}
