//! What a piece of code reads and writes, as data: [`Effect`] (the
//! pointers it may read and write, whether it reads or changes the
//! environment, and in `ram` which declared names it reads and writes) and
//! [`Flow`] (an effect with the pointers the code surely writes and those
//! it reads before writing), for expressions and ACTs. `effects` combines
//! them into summaries of statements and definitions.

use std::collections::BTreeSet;

use super::set::Pointers;
use crate::program::{Act, ActArg, BoolExpr, DataId, Operand, PosExpr, PosKind, SymExpr};

/// Declared names of a `ram` program (variables, arrays, matrices).
pub type DataSet = BTreeSet<DataId>;

/// What running a piece of code may do. `env_read` is a read of the
/// environment other than of a named cell (an observation such as
/// `child(v)` or `A[i]` of `array`); cells are `data_reads`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Effect {
    pub reads: Pointers,
    pub writes: Pointers,
    pub env_read: bool,
    pub env_write: bool,
    /// The `ram` names whose cells it may read, and those it may write.
    pub data_reads: DataSet,
    pub data_writes: DataSet,
    /// Whether it may change the environment elsewhere than in a named
    /// cell: in `ram`, the output tape.
    pub unnamed_write: bool,
}

impl Effect {
    pub fn add(&mut self, other: &Effect) {
        self.reads.union_with(&other.reads);
        self.writes.union_with(&other.writes);
        self.env_read |= other.env_read;
        self.env_write |= other.env_write;
        self.data_reads.extend(&other.data_reads);
        self.data_writes.extend(&other.data_writes);
        self.unnamed_write |= other.unnamed_write;
    }
}

/// What expressions read: pointers, `ram` names, and whether anything else
/// of the environment (an observation).
#[derive(Clone, Debug, Default)]
pub struct Reads {
    pub pointers: Pointers,
    pub data: DataSet,
    pub env: bool,
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
    pub fn reading(reads: Reads) -> Flow {
        Flow {
            exposed: reads.pointers.clone(),
            effect: Effect {
                reads: reads.pointers,
                env_read: reads.env,
                data_reads: reads.data,
                ..Effect::default()
            },
            must: Pointers::default(),
        }
    }

    /// The pointers live before this code, given those live after it.
    pub fn live_before(&self, after: &Pointers) -> Pointers {
        self.exposed.union(&after.minus(&self.must))
    }
}

/// What a position expression reads: its pointers, the `ram` names of
/// its cells, and whether it observes the environment otherwise (a
/// position observation such as `child(v)`).
pub fn position_reads(expr: &PosExpr, reads: &mut Reads) {
    match &expr.kind {
        PosKind::Int(_) | PosKind::Last | PosKind::End => {}
        PosKind::Pointer(p) => reads.pointers.insert(*p),
        // Only the combinatorizer's own appliers read it, never the code
        // it analyses; counted as observing the machine.
        PosKind::Resume => reads.env = true,
        PosKind::Hole(_) => {}
        PosKind::Observe(_, at) => {
            position_reads(at, reads);
            reads.env = true;
        }
        PosKind::Neg(e) => position_reads(e, reads),
        PosKind::Arith(_, a, b) => {
            position_reads(a, reads);
            position_reads(b, reads);
        }
        PosKind::Read(cell) => {
            positions_reads_into(&cell.at, reads);
            reads.data.insert(cell.data);
        }
        // `combinatorize` refuses calls inside expressions before converting.
        PosKind::Call(call) => positions_reads_into(&call.args, reads),
    }
}

/// [`position_reads`] of several positions into `reads`.
fn positions_reads_into(exprs: &[PosExpr], reads: &mut Reads) {
    for e in exprs {
        position_reads(e, reads);
    }
}

/// What a condition reads.
pub fn condition_reads(expr: &BoolExpr, reads: &mut Reads) {
    match expr {
        BoolExpr::Compare(_, a, b) => {
            operand_reads(a, reads);
            operand_reads(b, reads);
        }
        BoolExpr::Test(_, at) => {
            position_reads(at, reads);
            reads.env = true;
        }
        BoolExpr::And(a, b) | BoolExpr::Or(a, b) => {
            condition_reads(a, reads);
            condition_reads(b, reads);
        }
        BoolExpr::Not(a) => condition_reads(a, reads),
        BoolExpr::Hole(..) => {}
    }
}

fn operand_reads(operand: &Operand, reads: &mut Reads) {
    match operand {
        Operand::Int(_) | Operand::End | Operand::Sym(SymExpr::Literal(..)) => {}
        Operand::Pos(e) => position_reads(e, reads),
        Operand::Val(v) => {
            position_reads(&v.at, reads);
            reads.env = true;
        }
        Operand::Sym(SymExpr::Observe(_, at, _)) => {
            position_reads(at, reads);
            reads.env = true;
        }
    }
}

/// Positions read together, as the arguments of a call.
pub fn positions_reads(exprs: &[PosExpr]) -> Reads {
    let mut reads = Reads::default();
    positions_reads_into(exprs, &mut reads);
    reads
}

/// The flow of one ACT: `MOVE(p, ...)` reads and writes p, `SET(p, e)`
/// reads e and writes p, `_push` reads its positions; an ACT of the
/// environment reads its pointers and positions, reads the environment
/// where it takes one (`OUT(OK)` does not), and changes it: the cells of
/// its places (`ram`), or else somewhere unnamed (the tape, the array).
pub fn act_flow(act: &Act) -> Flow {
    let mut reads = Reads::default();
    let mut writes = Pointers::default();
    let mut data_writes = DataSet::new();
    let env_write = match act {
        Act::Nop => false,
        Act::Move(p, _) => {
            reads.pointers.insert(*p);
            writes.insert(*p);
            false
        }
        Act::Set(p, e) => {
            writes.insert(*p);
            position_reads(e, &mut reads);
            false
        }
        Act::Push(exprs) => {
            reads = positions_reads(exprs);
            false
        }
        // Never in the normal programs analysed; as an unnamed change.
        Act::Frame(_, exprs) => {
            reads = positions_reads(exprs);
            true
        }
        Act::Env(act) => {
            for arg in &act.args {
                match arg {
                    ActArg::Pointer(p) => {
                        reads.pointers.insert(*p);
                        reads.env = true;
                    }
                    ActArg::Position(e) => {
                        position_reads(e, &mut reads);
                        reads.env = true;
                    }
                    // A place is read too (`SWAP` exchanges two).
                    ActArg::Place(cell) => {
                        positions_reads_into(&cell.at, &mut reads);
                        reads.data.insert(cell.data);
                        data_writes.insert(cell.data);
                    }
                    ActArg::Direction(_) | ActArg::Color(_) | ActArg::Ok => {}
                }
            }
            true
        }
    };
    let unnamed_write = env_write && data_writes.is_empty();
    Flow {
        exposed: reads.pointers.clone(),
        must: writes.clone(),
        effect: Effect {
            reads: reads.pointers,
            writes,
            env_read: reads.env,
            env_write,
            data_reads: reads.data,
            data_writes,
            unnamed_write,
        },
    }
}
