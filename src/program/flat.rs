//! Expressions compiled once to a flat form, for the engines' hot paths.
//!
//! A [`Flat`] is a position expression as a short sequence of stack
//! operations ([`Op`]), made once from its [`PosExpr`] and evaluated with
//! no allocation and no recursion; a [`FlatOperand`] is one side of a
//! comparison, its positions computed the same way and then read as
//! [`PosExpr`]'s operand evaluation reads them. Common shapes are fused
//! into one operation (`A[i]`, `i + 1`). The flat form computes exactly
//! what the tree computes whenever the tree gives a value; where the tree
//! would fail (a zero divisor, an overflow, END in arithmetic) the flat
//! form only says [`Slow`], and the caller evaluates the tree, whose error
//! carries the source span. Expressions the flat form does not cover
//! (calls for a value, deeper than [`STACK`]) have none.

use super::expr::{Evaluated, relate};
use super::{Color, DataId, Observation, PointerId};
use super::{Operand, PosExpr, PosKind, Relation, SymExpr, World};
use crate::operators::ArithOp;

/// The deepest evaluation stack a flat expression may need.
pub const STACK: usize = 8;

/// The flat form could not give the value: evaluate the tree for its error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slow;

/// One operation of the evaluation stack.
#[derive(Clone, Copy, Debug)]
enum Op {
    Int(i64),
    Pointer(u32),
    /// `p + k`, checked.
    PointerPlus(u32, i64),
    /// n
    Len,
    /// n − 1
    Last,
    Resume,
    /// Pops a position, pushes the position observation there.
    Observe(&'static Observation),
    Neg,
    Arith(ArithOp),
    /// Pops `dims` indices, pushes the cell there (END is [`Slow`]).
    Read(DataId, u8),
    /// The cell of one-dimensional data at a pointer: `A[i]`.
    ReadAt(DataId, u32),
    /// The cell of two-dimensional data at two pointers: `A[i][j]`.
    ReadAt2(DataId, u32, u32),
}

/// A position expression, flat.
#[derive(Clone, Debug)]
pub struct Flat {
    ops: Box<[Op]>,
}

/// How a [`FlatOperand`] reads its computed positions.
#[derive(Clone, Copy, Debug)]
enum Top {
    /// The one computed position.
    Position,
    /// The literal `END`.
    End,
    /// A cell at the `dims` computed indices; END outside.
    Cell(DataId, u8),
    /// A value observation at the computed position.
    Value(&'static Observation),
    /// A symbol observation at the computed position.
    Symbol(&'static Observation),
    Color(Color),
}

/// One side of a comparison, flat.
#[derive(Clone, Debug)]
pub struct FlatOperand {
    ops: Box<[Op]>,
    top: Top,
    /// The same side in one of the shapes most sides have, if it is.
    fast: Option<Fast>,
}

/// The shapes of most sides of comparisons, read with no stack, no failure
/// and no dispatch on the shape: a number `P[p] + k` (an integer has no
/// pointer, a pointer no `k`), or a cell at up to two pointers (`n`,
/// `A[i]`, `A[u][v]`; END outside). A missing pointer reads as 0.
#[derive(Clone, Copy, Debug)]
struct Fast {
    k: i64,
    p: u32,
    q: u32,
    data: u32,
    /// The cell's dimensions, or [`NUMBER`] for a number.
    dims: u8,
}

/// [`Fast::p`] or [`Fast::q`] of a side without that pointer.
const NO_POINTER: u32 = u32::MAX;

/// [`Fast::dims`] of a number.
const NUMBER: u8 = u8::MAX;

impl Fast {
    fn number(k: i64, p: u32) -> Fast {
        Fast {
            k,
            p,
            q: NO_POINTER,
            data: 0,
            dims: NUMBER,
        }
    }

    fn cell(data: DataId, p: u32, q: u32, dims: u8) -> Option<Fast> {
        Some(Fast {
            k: 0,
            p,
            q,
            data: u32::try_from(data).ok()?,
            dims,
        })
    }

    /// The shape of the side computed by `ops` and read by `top`, if it
    /// has one.
    fn of(ops: &[Op], top: Top) -> Option<Fast> {
        if ops.iter().any(|op| matches!(op, Op::Pointer(NO_POINTER))) {
            return None;
        }
        match (top, ops) {
            (Top::Position, &[Op::Int(k)]) => Some(Fast::number(k, NO_POINTER)),
            (Top::Position, &[Op::Pointer(p)]) => Some(Fast::number(0, p)),
            (Top::Cell(data, 0), []) => Fast::cell(data, NO_POINTER, NO_POINTER, 0),
            (Top::Cell(data, 1), &[Op::Pointer(p)]) => Fast::cell(data, p, NO_POINTER, 1),
            (Top::Cell(data, 2), &[Op::Pointer(p), Op::Pointer(q)]) => Fast::cell(data, p, q, 2),
            _ => None,
        }
    }

    /// The side by its shape.
    fn side(self) -> FastSide {
        match self.dims {
            NUMBER if self.p == NO_POINTER => FastSide::Int(self.k),
            NUMBER => FastSide::Pointer(self.p, self.k),
            0 => FastSide::Scalar(self.data),
            1 => FastSide::At(self.data, self.p),
            _ => FastSide::At2(self.data, self.p, self.q),
        }
    }

    /// The side's number; `None` for a cell outside its data (END).
    #[inline(always)]
    fn eval<W: World + ?Sized>(self, world: &W) -> Option<i64> {
        let at = |p: u32| world.pointer_or_zero(p as PointerId);
        let (i, j) = (at(self.p), at(self.q));
        if self.dims == NUMBER {
            // One of `i` and `k` is 0.
            return Some(i.wrapping_add(self.k));
        }
        world.cell_ij(self.data as DataId, self.dims, i, j)
    }
}

/// A side [`FastPair`] reads, by its shape, or `_resume`, for an engine
/// that compiles the reading further (a pointer read 0 where the program
/// lacks it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FastSide {
    /// An integer.
    Int(i64),
    /// `P[p] + k` (`k` wrapping: it is 0 for a side written `p`).
    Pointer(u32, i64),
    /// The scalar data `.0` (`n`).
    Scalar(u32),
    /// The array `.0` at `P[p]`.
    At(u32, u32),
    /// The matrix `.0` at `P[p], P[q]`.
    At2(u32, u32, u32),
    /// `_resume`: the top frame's resume point (0 without frames).
    Resume,
}

/// Two sides of a comparison both in the shapes [`Fast`] reads: how they
/// relate is had with no stack and no failure.
#[derive(Clone, Copy, Debug)]
pub struct FastPair(Fast, Fast);

impl FastPair {
    /// The pair of `lhs` and `rhs`, if both have such shapes.
    pub fn new(lhs: &FlatOperand, rhs: &FlatOperand) -> Option<FastPair> {
        Some(FastPair(lhs.fast?, rhs.fast?))
    }

    /// How the sides relate in `world`, as [`relation`] says.
    #[inline(always)]
    pub fn relation<W: World + ?Sized>(self, world: &W) -> Relation {
        relate_fast(self.0.eval(world), self.1.eval(world))
    }
}

/// The relations of two numbers, by how many of `a >= b` and `a > b`
/// hold.
const ORDERS: [Relation; 3] = [Relation::Less, Relation::Equal, Relation::Greater];

/// How two fast sides relate, as [`relate`] relates them: two numbers
/// (positions or values) by order; a value that is END (`None`) is the
/// same as another END and different from any number (a position is
/// never END here: only the literal and values are).
#[inline(always)]
pub fn relate_fast(lhs: Option<i64>, rhs: Option<i64>) -> Relation {
    match (lhs, rhs) {
        // Less, Equal, Greater by arithmetic rather than a branch on the
        // order.
        (Some(a), Some(b)) => ORDERS[usize::from(a >= b) + usize::from(a > b)],
        (None, None) => Relation::Same,
        _ => Relation::Different,
    }
}

/// The side that `ops` push as one value, read as [`run`] reads it, if it
/// has a shape [`FastPair`] reads (a cell outside its data is END).
fn term(ops: &[Op]) -> Option<FastSide> {
    let data = |data: DataId| u32::try_from(data).ok();
    match *ops {
        [Op::Int(k)] => Some(FastSide::Int(k)),
        [Op::Pointer(p)] if p != NO_POINTER => Some(FastSide::Pointer(p, 0)),
        [Op::Read(d, 0)] => Some(FastSide::Scalar(data(d)?)),
        [Op::ReadAt(d, p)] if p != NO_POINTER => Some(FastSide::At(data(d)?, p)),
        [Op::ReadAt2(d, p, q)] if p != NO_POINTER && q != NO_POINTER => {
            Some(FastSide::At2(data(d)?, p, q))
        }
        _ => None,
    }
}

/// The ops of `e` appended to `ops`; `None` where the flat form does not
/// cover it.
fn compile(e: &PosExpr, ops: &mut Vec<Op>) -> Option<()> {
    let op = match &e.kind {
        PosKind::Int(k) => Op::Int(*k),
        PosKind::Pointer(p) => Op::Pointer(u32::try_from(*p).ok()?),
        PosKind::Last => Op::Last,
        PosKind::End => Op::Len,
        PosKind::Resume => Op::Resume,
        PosKind::Hole(_) => return None,
        PosKind::Observe(o, at) => {
            compile(at, ops)?;
            Op::Observe(o)
        }
        PosKind::Neg(a) => {
            compile(a, ops)?;
            Op::Neg
        }
        PosKind::Arith(op, a, b) => {
            compile(a, ops)?;
            compile(b, ops)?;
            Op::Arith(*op)
        }
        PosKind::Read(cell) => {
            indices(&cell.at, ops)?;
            Op::Read(cell.data, cell.at.len() as u8)
        }
        PosKind::Call(_) => return None,
    };
    ops.push(op);
    Some(())
}

/// The ops of a cell's indices (at most two: see [`super::Cell::indices`]).
fn indices(at: &[PosExpr], ops: &mut Vec<Op>) -> Option<()> {
    if at.len() > 2 {
        return None;
    }
    at.iter().try_for_each(|e| compile(e, ops))
}

/// `ops` with common shapes fused (`A[i]`, `A[i][j]`, `i + k`, `i - k`),
/// if its stack stays within [`STACK`].
fn finish(ops: Vec<Op>) -> Option<Box<[Op]>> {
    let mut out: Vec<Op> = Vec::with_capacity(ops.len());
    for op in ops {
        let (fused, taken) = match (op, out.as_slice()) {
            (Op::Read(data, 1), [.., Op::Pointer(p)]) => (Op::ReadAt(data, *p), 1),
            (Op::Read(data, 2), [.., Op::Pointer(p), Op::Pointer(q)]) => {
                (Op::ReadAt2(data, *p, *q), 2)
            }
            (Op::Arith(ArithOp::Add), [.., Op::Pointer(p), Op::Int(k)]) => {
                (Op::PointerPlus(*p, *k), 2)
            }
            // `p - k` overflows exactly when `p + (-k)` does.
            (Op::Arith(ArithOp::Sub), [.., Op::Pointer(p), Op::Int(k)]) if *k != i64::MIN => {
                (Op::PointerPlus(*p, -*k), 2)
            }
            _ => (op, 0),
        };
        out.truncate(out.len() - taken);
        out.push(fused);
    }
    (depth(&out)? <= STACK).then(|| out.into_boxed_slice())
}

/// The deepest the stack gets running `ops`; `None` if it would underflow.
fn depth(ops: &[Op]) -> Option<usize> {
    let (mut now, mut most) = (0usize, 0usize);
    for op in ops {
        let (pops, pushes) = match op {
            Op::Int(_)
            | Op::Pointer(_)
            | Op::PointerPlus(..)
            | Op::Len
            | Op::Last
            | Op::Resume
            | Op::ReadAt(..)
            | Op::ReadAt2(..) => (0, 1),
            Op::Observe(_) | Op::Neg => (1, 1),
            Op::Arith(_) => (2, 1),
            Op::Read(_, dims) => (usize::from(*dims), 1),
        };
        now = now.checked_sub(pops)? + pushes;
        most = most.max(now);
    }
    Some(most)
}

/// A number `P[q] + k` (`k` where `q` is none), as [`Flat::affine`] gives it.
pub type Affine = (Option<PointerId>, i64);

/// Where a cell lies, for an engine that compiles flat forms further: an
/// array's one index or a matrix's two, each `P[q] + k` (failing where the
/// sum overflows).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellAt {
    One(Affine),
    Two(Affine, Affine),
}

/// A term of a value, for an engine that compiles flat forms further: a
/// number `P[q] + k`, or the cell of data `.0` at `.1` (END outside, where
/// the flat form fails).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Term {
    Number(Affine),
    Cell(u32, CellAt),
}

/// The number an operation that pops nothing pushes, if it is `P[q] + k`.
fn number(op: Op) -> Option<Affine> {
    match op {
        Op::Int(k) => Some((None, k)),
        Op::Pointer(p) if p != NO_POINTER => Some((Some(p as PointerId), 0)),
        Op::PointerPlus(p, k) if p != NO_POINTER => Some((Some(p as PointerId), k)),
        _ => None,
    }
}

/// The term `ops` computes, if it is one.
fn term_of(ops: &[Op]) -> Option<Term> {
    let data = |d: DataId| u32::try_from(d).ok();
    let pointer = |p: u32| number(Op::Pointer(p));
    Some(match *ops {
        [Op::ReadAt(d, p)] => Term::Cell(data(d)?, CellAt::One(pointer(p)?)),
        [Op::ReadAt2(d, p, q)] => Term::Cell(data(d)?, CellAt::Two(pointer(p)?, pointer(q)?)),
        [i, Op::Read(d, 1)] => Term::Cell(data(d)?, CellAt::One(number(i)?)),
        [i, j, Op::Read(d, 2)] => Term::Cell(data(d)?, CellAt::Two(number(i)?, number(j)?)),
        [n] => Term::Number(number(n)?),
        _ => return None,
    })
}

impl Flat {
    /// `(Some(p), k)` for `P[p] + k` or `P[p]` (`k` 0), `(None, k)` for the
    /// integer `k`: the expressions that read only the pointers, and fail
    /// only where the sum overflows.
    pub fn affine(&self) -> Option<Affine> {
        match *self.ops {
            [Op::Int(k)] => Some((None, k)),
            [Op::Pointer(p)] => Some((Some(p as PointerId), 0)),
            [Op::PointerPlus(p, k)] => Some((Some(p as PointerId), k)),
            _ => None,
        }
    }

    /// The expression as one [`Term`] or the sum of two (`D[i][k] +
    /// D[k][j]`, `c[i - 1][j - 1] + 1`), if it is one: the flat form fails
    /// exactly where an index or the sum overflows or a cell is END.
    pub fn terms(&self) -> Option<(Term, Option<Term>)> {
        if let Some(term) = term_of(&self.ops) {
            return Some((term, None));
        }
        let (Op::Arith(ArithOp::Add), ops) = self.ops.split_last()? else {
            return None;
        };
        (1..ops.len()).find_map(|cut| Some((term_of(&ops[..cut])?, Some(term_of(&ops[cut..])?))))
    }

    /// The flat form of `e`, if it has one.
    pub fn new(e: &PosExpr) -> Option<Flat> {
        let mut ops = Vec::new();
        compile(e, &mut ops)?;
        Some(Flat { ops: finish(ops)? })
    }

    /// The value of the expression in `world`, as [`PosExpr::eval`] gives
    /// it; [`Slow`] where that fails.
    #[inline]
    pub fn eval<W: World + ?Sized>(&self, world: &W) -> Result<i64, Slow> {
        if let [op] = *self.ops {
            return leaf(op, world)?.ok_or(Slow);
        }
        let mut stack = [0; STACK];
        match run(&self.ops, world, &mut stack)? {
            1 => Ok(stack[0]),
            _ => Err(Slow),
        }
    }
}

impl FlatOperand {
    /// The side by its shape, if it is one [`FastPair`] reads.
    pub fn fast_side(&self) -> Option<FastSide> {
        match (self.top, &*self.ops) {
            (Top::Position, [Op::Resume]) => Some(FastSide::Resume),
            _ => self.fast.map(Fast::side),
        }
    }

    /// The two sides of a side that is their sum (`d[u] + A[u][v]`), each
    /// in a shape [`FastPair`] reads, if it is one: it fails where either
    /// is END or the sum overflows, as the flat form and the tree do.
    pub fn sum(&self) -> Option<[FastSide; 2]> {
        let Top::Position = self.top else {
            return None;
        };
        let (Op::Arith(ArithOp::Add), terms) = self.ops.split_last()? else {
            return None;
        };
        (1..terms.len()).find_map(|cut| Some([term(&terms[..cut])?, term(&terms[cut..])?]))
    }

    /// `(data, p, k)` for the array `data` at `P[p] + k` (`A[j - 1]`), if
    /// the side is one: it fails where the index overflows, as the flat
    /// form and the tree do, and is END outside the array.
    pub fn offset_at(&self) -> Option<(u32, u32, i64)> {
        match (self.top, &*self.ops) {
            (Top::Cell(data, 1), &[Op::PointerPlus(p, k)]) if p != NO_POINTER => {
                Some((u32::try_from(data).ok()?, p, k))
            }
            _ => None,
        }
    }

    /// `(data, [(p, k), (q, l)])` for the matrix `data` at `P[p] + k,
    /// P[q] + l` (`c[i - 1][j]`; `k` or `l` is 0 for an index written as
    /// a pointer), if the side is one: it fails where an index overflows,
    /// as the flat form and the tree do, and is END outside the matrix.
    pub fn offset_at2(&self) -> Option<(u32, [(u32, i64); 2])> {
        let index = |op: Op| match op {
            Op::Pointer(p) if p != NO_POINTER => Some((p, 0)),
            Op::PointerPlus(p, k) if p != NO_POINTER => Some((p, k)),
            _ => None,
        };
        match (self.top, &*self.ops) {
            (Top::Cell(data, 2), &[a, b]) => {
                Some((u32::try_from(data).ok()?, [index(a)?, index(b)?]))
            }
            _ => None,
        }
    }

    /// The flat form of `operand`, if it has one.
    pub fn new(operand: &Operand) -> Option<FlatOperand> {
        let mut ops = Vec::new();
        let top = match operand {
            Operand::Int(k) => {
                ops.push(Op::Int(*k));
                Top::Position
            }
            Operand::End => Top::End,
            Operand::Pos(PosExpr {
                kind: PosKind::Read(cell),
                ..
            }) => {
                indices(&cell.at, &mut ops)?;
                Top::Cell(cell.data, cell.at.len() as u8)
            }
            Operand::Pos(e) => {
                compile(e, &mut ops)?;
                Top::Position
            }
            Operand::Val(v) => {
                compile(&v.at, &mut ops)?;
                Top::Value(v.observation)
            }
            Operand::Sym(SymExpr::Literal(c, _)) => Top::Color(*c),
            Operand::Sym(SymExpr::Observe(o, at, _)) => {
                compile(at, &mut ops)?;
                Top::Symbol(o)
            }
        };
        let ops = finish(ops)?;
        Some(FlatOperand {
            fast: Fast::of(&ops, top),
            ops,
            top,
        })
    }

    #[inline]
    fn eval<W: World + ?Sized>(&self, world: &W) -> Result<Evaluated, Slow> {
        // One operation that pops nothing (`i`, `A[i]`, `i + 1`): no stack.
        let one = match *self.ops {
            [op] => leaf(op, world)?,
            _ => None,
        };
        if let Some(at) = one {
            return Ok(match self.top {
                Top::Position => Evaluated::Position(at),
                Top::Cell(data, 1) => Evaluated::Value(world.cell(data, &[at])),
                Top::Value(o) => Evaluated::Value(world.value(o, at)),
                Top::Symbol(o) => Evaluated::Symbol(world.symbol(o, at)),
                _ => return Err(Slow),
            });
        }
        let mut stack = [0; STACK];
        let len = run(&self.ops, world, &mut stack)?;
        let computed = stack.get(..len).ok_or(Slow)?;
        Ok(match (self.top, computed) {
            (Top::Position, &[p]) => Evaluated::Position(p),
            (Top::End, []) => Evaluated::End,
            (Top::Cell(data, dims), at) if at.len() == usize::from(dims) => {
                Evaluated::Value(world.cell(data, at))
            }
            (Top::Value(o), &[at]) => Evaluated::Value(world.value(o, at)),
            (Top::Symbol(o), &[at]) => Evaluated::Symbol(world.symbol(o, at)),
            (Top::Color(c), []) => Evaluated::Symbol(Some(c)),
            _ => return Err(Slow),
        })
    }
}

/// How `lhs` and `rhs` relate in `world`, as [`super::relation`] says;
/// [`Slow`] where that fails.
#[inline]
pub fn relation<W: World + ?Sized>(
    lhs: &FlatOperand,
    rhs: &FlatOperand,
    world: &W,
) -> Result<Relation, Slow> {
    if let Some(pair) = FastPair::new(lhs, rhs) {
        return Ok(pair.relation(world));
    }
    Ok(relate(lhs.eval(world)?, rhs.eval(world)?, || world.len()))
}

/// Runs `ops` on `stack`; the number of values left on it.
#[inline]
fn run<W: World + ?Sized>(ops: &[Op], world: &W, stack: &mut [i64; STACK]) -> Result<usize, Slow> {
    let mut sp = 0usize;
    for &op in ops {
        if let Some(value) = leaf(op, world)? {
            *stack.get_mut(sp).ok_or(Slow)? = value;
            sp += 1;
            continue;
        }
        let value = match op {
            Op::Observe(o) => {
                sp = sp.checked_sub(1).ok_or(Slow)?;
                world.position(o, *stack.get(sp).ok_or(Slow)?)
            }
            Op::Neg => {
                sp = sp.checked_sub(1).ok_or(Slow)?;
                stack.get(sp).ok_or(Slow)?.checked_neg().ok_or(Slow)?
            }
            Op::Arith(op) => {
                sp = sp.checked_sub(2).ok_or(Slow)?;
                let (a, b) = match stack.get(sp..sp + 2) {
                    Some(&[a, b]) => (a, b),
                    _ => return Err(Slow),
                };
                arith(op, a, b).ok_or(Slow)?
            }
            Op::Read(data, dims) => {
                let dims = usize::from(dims);
                sp = sp.checked_sub(dims).ok_or(Slow)?;
                let at = stack.get(sp..sp + dims).ok_or(Slow)?;
                world.cell(data, at).ok_or(Slow)?
            }
            // The operations that pop nothing were run by `leaf` above.
            _ => return Err(Slow),
        };
        *stack.get_mut(sp).ok_or(Slow)? = value;
        sp += 1;
    }
    Ok(sp)
}

/// The value of an operation that pops nothing; `None` for one that pops.
#[inline(always)]
fn leaf<W: World + ?Sized>(op: Op, world: &W) -> Result<Option<i64>, Slow> {
    Ok(Some(match op {
        Op::Int(k) => k,
        Op::Pointer(p) => world.pointer(p as PointerId),
        Op::PointerPlus(p, k) => world.pointer(p as PointerId).checked_add(k).ok_or(Slow)?,
        Op::Len => world.len(),
        Op::Last => world.len() - 1,
        Op::Resume => world.resume(),
        Op::ReadAt(data, p) => world
            .cell(data, &[world.pointer(p as PointerId)])
            .ok_or(Slow)?,
        Op::ReadAt2(data, p, q) => {
            let (i, j) = (world.pointer(p as PointerId), world.pointer(q as PointerId));
            world.cell_ij(data, 2, i, j).ok_or(Slow)?
        }
        Op::Observe(_) | Op::Neg | Op::Arith(_) | Op::Read(..) => return Ok(None),
    }))
}

/// `a op b`, `None` on a zero divisor or an overflow.
#[inline]
fn arith(op: ArithOp, a: i64, b: i64) -> Option<i64> {
    match op {
        ArithOp::Add => a.checked_add(b),
        ArithOp::Sub => a.checked_sub(b),
        ArithOp::Mul => a.checked_mul(b),
        ArithOp::Div => a.checked_div(b),
        ArithOp::Rem => a.checked_rem(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::{Declarations, read_input};
    use crate::program::{Applier, Body, BoolExpr, relation as tree_relation};

    /// The comparisons of `expr`, left to right.
    fn sides(expr: &BoolExpr, out: &mut Vec<(Operand, Operand)>) {
        match expr {
            BoolExpr::Compare(_, lhs, rhs) => out.push((lhs.clone(), rhs.clone())),
            BoolExpr::And(a, b) | BoolExpr::Or(a, b) => {
                sides(a, out);
                sides(b, out);
            }
            BoolExpr::Not(a) => sides(a, out),
            BoolExpr::Test(..) | BoolExpr::Hole(..) => {}
        }
    }

    /// The value of `terms` computed term by term from `world`, `None`
    /// where an index or the sum overflows or a cell is END.
    fn by_terms<W: World + ?Sized>(terms: (Term, Option<Term>), world: &W) -> Option<i64> {
        let number = |(q, k): Affine| match q {
            Some(q) => world.pointer(q).checked_add(k),
            None => Some(k),
        };
        let term = |term: Term| match term {
            Term::Number(a) => number(a),
            Term::Cell(data, CellAt::One(i)) => world.cell(data as DataId, &[number(i)?]),
            Term::Cell(data, CellAt::Two(i, j)) => {
                world.cell(data as DataId, &[number(i)?, number(j)?])
            }
        };
        match terms {
            (a, None) => term(a),
            (a, Some(b)) => term(a)?.checked_add(term(b)?),
        }
    }

    /// The values written as one term or the sum of two have their terms,
    /// which compute what the flat form computes (and fail where it
    /// does); other values have none.
    #[test]
    fn terms_compute_what_the_flat_form_computes() {
        let text = "env ram(i = 0, j = 0)\ninput A[n][n]\ninput B[n]\n\
                    def ONE: seq(; WRITE(B[0], A[i - 1][j - 1] + 1), \
                    WRITE(B[0], B[i] + A[i][j + 1]), WRITE(B[0], j - 2))\n\
                    def TWO: seq(; WRITE(B[0], A[0][i]), WRITE(B[0], 2 * B[i]), \
                    WRITE(B[0], B[B[i]]))\n\
                    def MAIN: seq(; ONE, TWO, WRITE(B[0], i + j + 1))\n";
        let compiled = crate::compile::compile("p.cnpi", text, None).program;
        let program = compiled.expect("the program compiles");
        let args = (program.defs.iter()).flat_map(|def| match &def.body {
            Body::Applier(Applier::Combinator { args, .. }) => args.as_slice(),
            _ => &[],
        });
        let values: Vec<Flat> = args
            .filter_map(|callee| match callee {
                crate::program::Callee::Act(app) => match &app.act {
                    crate::program::Act::Env(act) => match act.args.as_slice() {
                        [_, crate::program::ActArg::Position(e)] => Flat::new(e),
                        _ => None,
                    },
                    _ => None,
                },
                _ => None,
            })
            .collect();
        let has: Vec<bool> = values.iter().map(|f| f.terms().is_some()).collect();
        assert_eq!(has, [true, true, true, true, false, false, false]);
        let layout = Declarations::of(&program);
        let json = r#"{"A": [[1, 5, -2], [3, 9223372036854775807, 0], [7, 1, 2]], "B": [3, 0, 2]}"#;
        let state = read_input(&layout, json).expect("reads");
        let mut computed = 0;
        for i in [-1, 0, 1, 2, 3, i64::MIN, i64::MAX] {
            for j in [-1, 0, 1, 2, 3, i64::MIN, i64::MAX] {
                let pointers = [i, j];
                let view = state.view(&pointers);
                for flat in values.iter().filter(|f| f.terms().is_some()) {
                    let terms = flat.terms().expect("terms");
                    let value = by_terms(terms, &view);
                    assert_eq!(value, flat.eval(&view).ok(), "i = {i}, j = {j}");
                    computed += usize::from(value.is_some());
                }
            }
        }
        assert!(computed > 40, "{computed} values computed");
    }

    #[test]
    fn the_fast_sides_relate_as_the_tree_does() {
        let text = "env ram(i = 0, j = 0)\ninput A[n][n]\ninput B[n]\ninput x\n\
                    def MAIN: cond(A[i][j] < B[i] and x == i or j != -1 and B[j] > n \
                    and i + 1 < B[i + 1]?; NOP, NOP, NOP)\n";
        let compiled = crate::compile::compile("p.cnpi", text, None).program;
        let program = compiled.expect("the program compiles");
        let Body::Applier(Applier::Combinator {
            detector: Some(condition),
            ..
        }) = &program.defs[0].body
        else {
            panic!("a cond applier");
        };
        let mut pairs = Vec::new();
        sides(condition, &mut pairs);
        let flat: Vec<_> = (pairs.iter())
            .map(|(a, b)| (FlatOperand::new(a).unwrap(), FlatOperand::new(b).unwrap()))
            .collect();
        let fast = |f: &FlatOperand| f.fast.is_some();
        let shapes: Vec<_> = flat.iter().map(|(a, b)| (fast(a), fast(b))).collect();
        assert_eq!(
            shapes,
            [
                (true, true),
                (true, true),
                (true, true),
                (true, true),
                (false, false)
            ]
        );
        let layout = Declarations::of(&program);
        let json = r#"{"A": [[1, 5, -2], [3, 3, 0], [7, 1, 2]], "B": [3, 0, 2], "x": 1}"#;
        let state = read_input(&layout, json).expect("reads");
        for i in -1..=3 {
            for j in -1..=3 {
                let pointers = [i, j];
                let view = state.view(&pointers);
                for ((a, b), (fa, fb)) in pairs.iter().zip(&flat) {
                    let tree = tree_relation(a, b, &view).ok();
                    assert_eq!(relation(fa, fb, &view).ok(), tree, "i = {i}, j = {j}");
                }
            }
        }
    }
}
