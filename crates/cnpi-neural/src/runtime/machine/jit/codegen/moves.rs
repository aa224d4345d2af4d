//! The moves of edges in the machine code: a `SET` from the pointers or
//! of a cell's value, a `WRITE` or `SWAP` of array or matrix cells with
//! their bounds and overflow checked and the change counter moved as the
//! interpreter moves it, calls, tail calls and restarts, and every other
//! ACT through the step helper.

use std::mem::offset_of;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I8, I32, I64};
use cranelift_codegen::ir::{AbiParam, Block, InstBuilder, Signature, Value};

use super::{Read, Writer, flags, held};
use crate::runtime::automaton::{CONTEXT, Move, NONE};
use crate::runtime::machine::jit::{CodeAct, Exit, Running, State};
use cnpi::env::{ArrayStore, RawRegion};
use cnpi::program::PointerId;
use cnpi::program::flat::{Affine, CellAt, Term};

impl Writer<'_, '_, '_> {
    /// Move `m` of edge `e`.
    pub(super) fn take(&mut self, e: u32, m: u32, what: Move) {
        match what {
            Move::Set { p, q, k, .. } => self.set(e, m, p, q, k),
            Move::Act(row) => match (self.acts)(row) {
                Some(CodeAct::Store(store)) => self.array_store(e, m, store),
                Some(CodeAct::Set(p, value)) => self.set_terms(e, m, p, value),
                None => self.step(e, m),
            },
            Move::Builtin(_) | Move::Flush(_) => self.step(e, m),
            Move::Call { next, depth } => {
                self.hold(depth);
                self.begin(next);
            }
            Move::Tail { next } => self.begin(next),
            Move::Restart { next, same, depth } => {
                if same {
                    let version = self.version();
                    let top = self.b.use_var(self.vars.top_version);
                    let unchanged = self.b.ins().icmp(IntCC::Equal, version, top);
                    let fail = self.exit_block(Exit::Loops(e, m));
                    self.branch(unchanged, fail);
                }
                if depth != NONE {
                    self.hold(depth);
                }
                self.begin(next);
            }
            Move::Pop { depth } => {
                if (depth as usize) < CONTEXT {
                    let at = held(depth);
                    let entry = self.load32(at + offset_of!(Running, entry));
                    let version = self.load(at + offset_of!(Running, version));
                    self.b.def_var(self.vars.top_entry, entry);
                    self.b.def_var(self.vars.top_version, version);
                }
            }
        }
    }

    /// The store's change counter now.
    pub(super) fn version(&mut self) -> Value {
        let at = self.b.use_var(self.vars.counter);
        self.b.ins().load(I64, flags(), at, 0)
    }

    /// Holds the top activation at `depth` of the context.
    pub(super) fn hold(&mut self, depth: u32) {
        if (depth as usize) < CONTEXT {
            let at = held(depth);
            let entry = self.b.use_var(self.vars.top_entry);
            self.store(entry, at + offset_of!(Running, entry));
            let version = self.b.use_var(self.vars.top_version);
            self.store(version, at + offset_of!(Running, version));
        }
    }

    /// The top activation begun as entry `next`.
    pub(super) fn begin(&mut self, next: u32) {
        let entry = self.b.ins().iconst(I32, i64::from(next));
        self.b.def_var(self.vars.top_entry, entry);
        let version = self.version();
        self.b.def_var(self.vars.top_version, version);
    }

    /// `SET(p, P[q] + k)` from the pointers, or where the sum overflows
    /// the move's ACT through the helper.
    pub(super) fn set(&mut self, e: u32, m: u32, p: u32, q: u32, k: i64) {
        let (value, overflow) = self.affine(((q != NONE).then_some(q as PointerId), k));
        let slow = self.b.create_block();
        self.branch(overflow, slow);
        self.set_pointer(e, m, p, value, slow);
    }

    /// Pointer `p` set to `value` as the machine sets it (the counter
    /// moved on where the value changes), and at `slow`, where the value
    /// could not be had, move `m` of edge `e` through the helper; both
    /// go on at one block.
    fn set_pointer(&mut self, e: u32, m: u32, p: u32, value: Value, slow: Block) {
        let next = self.b.create_block();
        let at = self.pointer_address(p);
        let old = self.b.ins().load(I64, flags(), at, 0);
        self.b.ins().store(flags(), value, at, 0);
        self.count_change(old, value);
        self.b.ins().jump(next, &[]);
        self.b.switch_to_block(slow);
        self.step(e, m);
        self.b.ins().jump(next, &[]);
        self.b.switch_to_block(next);
    }

    /// `P[q] + k` (`k` without `q`) and whether the sum overflows.
    pub(super) fn affine(&mut self, (q, k): Affine) -> (Value, Value) {
        match q {
            Some(q) => {
                let base = self.pointer(q as u32);
                let kv = self.b.ins().iconst(I64, k);
                self.b.ins().sadd_overflow(base, kv)
            }
            None => (self.b.ins().iconst(I64, k), self.b.ins().iconst(I8, 0)),
        }
    }

    /// Moves the change counter on where `old` and `new` differ, as the
    /// store counts a change.
    pub(super) fn count_change(&mut self, old: Value, new: Value) {
        let changed = self.b.ins().icmp(IntCC::NotEqual, old, new);
        let changed = self.b.ins().uextend(I64, changed);
        let counter = self.b.use_var(self.vars.counter);
        let version = self.b.ins().load(I64, flags(), counter, 0);
        let version = self.b.ins().iadd(version, changed);
        self.b.ins().store(flags(), version, counter, 0);
    }

    /// The address of the cell of data `data` at `at` (an array's or a
    /// matrix's), and whether it is there (no index overflows and each
    /// lies inside its length; a region of another shape has none).
    pub(super) fn cell(&mut self, (data, at): (u32, CellAt)) -> (Value, Value) {
        let region = self.region(data);
        let (index, inside) = match at {
            CellAt::One(i) => {
                let (i, overflow) = self.affine(i);
                let len = self.load(region + offset_of!(RawRegion, len));
                let inside = self.b.ins().icmp(IntCC::UnsignedLessThan, i, len);
                let no_overflow = self.b.ins().bxor_imm_u(overflow, 1);
                (i, self.b.ins().band(inside, no_overflow))
            }
            CellAt::Two(i, j) => {
                let (i, i_over) = self.affine(i);
                let (j, j_over) = self.affine(j);
                let rows = self.load(region + offset_of!(RawRegion, rows));
                let cols = self.load(region + offset_of!(RawRegion, cols));
                let in_rows = self.b.ins().icmp(IntCC::UnsignedLessThan, i, rows);
                let in_cols = self.b.ins().icmp(IntCC::UnsignedLessThan, j, cols);
                let over = self.b.ins().bor(i_over, j_over);
                let no_overflow = self.b.ins().bxor_imm_u(over, 1);
                let inside = self.b.ins().band(in_rows, in_cols);
                let row = self.b.ins().imul(i, cols);
                (
                    self.b.ins().iadd(row, j),
                    self.b.ins().band(inside, no_overflow),
                )
            }
        };
        let base = match at {
            CellAt::One(_) => self.load(region + offset_of!(RawRegion, array)),
            CellAt::Two(..) => self.load(region + offset_of!(RawRegion, matrix)),
        };
        let offset = self.b.ins().ishl_imm_u(index, 3);
        (self.b.ins().iadd(base, offset), inside)
    }

    /// A term of a `WRITE`'s value: where it is there (a number that does
    /// not overflow, a cell inside), and its value or the address to load
    /// it from once it is known to be there.
    pub(super) fn term(&mut self, term: Term) -> (Value, Read) {
        match term {
            Term::Number(number) => {
                let (value, overflow) = self.affine(number);
                (self.b.ins().bxor_imm_u(overflow, 1), Read::Value(value))
            }
            Term::Cell(data, at) => {
                let (address, inside) = self.cell((data, at));
                (inside, Read::At(address))
            }
        }
    }

    /// Move `m` of edge `e`, a `WRITE` or `SWAP` of cells of arrays or
    /// matrices, done in the code as the store's compiled ACT does it (the
    /// counter moved on where a value changes); where an index or the
    /// value overflows or a cell lies outside, through the helper, which
    /// gives the interpreter's result or error.
    pub(super) fn array_store(&mut self, e: u32, m: u32, store: ArrayStore) {
        let (slow, fast, next) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        match store {
            ArrayStore::Write { data, at, value } => {
                let (address, inside) = self.cell((data, at));
                let there = self.b.create_block();
                self.b.ins().brif(inside, there, &[], slow, &[]);
                self.b.switch_to_block(there);
                let value = self.terms(value, slow);
                self.b.ins().jump(fast, &[]);
                self.b.switch_to_block(fast);
                let old = self.b.ins().load(I64, flags(), address, 0);
                self.b.ins().store(flags(), value, address, 0);
                self.count_change(old, value);
            }
            ArrayStore::Swap { a, b } => {
                let (at_a, in_a) = self.cell(a);
                let (at_b, in_b) = self.cell(b);
                let ok = self.b.ins().band(in_a, in_b);
                self.b.ins().brif(ok, fast, &[], slow, &[]);
                self.b.switch_to_block(fast);
                let x = self.b.ins().load(I64, flags(), at_a, 0);
                let y = self.b.ins().load(I64, flags(), at_b, 0);
                self.b.ins().store(flags(), y, at_a, 0);
                self.b.ins().store(flags(), x, at_b, 0);
                self.count_change(x, y);
            }
        }
        self.b.ins().jump(next, &[]);
        self.b.switch_to_block(slow);
        self.step(e, m);
        self.b.ins().jump(next, &[]);
        self.b.switch_to_block(next);
    }

    /// The value of one term or the sum of two, in the current block;
    /// where a term is not there or the sum overflows, a jump to `slow`.
    pub(super) fn terms(&mut self, (first, second): (Term, Option<Term>), slow: Block) -> Value {
        let (first_ok, first) = self.term(first);
        let second = second.map(|term| self.term(term));
        let ok = match second {
            Some((second_ok, _)) => self.b.ins().band(first_ok, second_ok),
            None => first_ok,
        };
        let there = self.b.create_block();
        self.b.ins().brif(ok, there, &[], slow, &[]);
        self.b.switch_to_block(there);
        let value = self.value(first);
        let Some((_, second)) = second else {
            return value;
        };
        let second = self.value(second);
        let (sum, overflow) = self.b.ins().sadd_overflow(value, second);
        self.branch(overflow, slow);
        sum
    }

    /// Move `m` of edge `e`, `SET(p, value)` of a value in terms, done in
    /// the code as the machine sets a pointer (the counter moved on
    /// where the value changes); where a term is not there or the sum
    /// overflows, through the helper.
    pub(super) fn set_terms(&mut self, e: u32, m: u32, p: u32, value: (Term, Option<Term>)) {
        let slow = self.b.create_block();
        let value = self.terms(value, slow);
        self.set_pointer(e, m, p, value, slow);
    }

    /// Move `m` of edge `e` through the helper; leaves where it fails.
    pub(super) fn step(&mut self, e: u32, m: u32) {
        let sig = *self.step_sig.get_or_insert_with(|| {
            let mut sig = Signature::new(self.call_conv);
            sig.params
                .extend([AbiParam::new(I64), AbiParam::new(I32), AbiParam::new(I32)]);
            sig.returns.push(AbiParam::new(I32));
            self.b.import_signature(sig)
        });
        self.spill();
        let helper = self.b.ins().iconst(I64, self.helpers.step as usize as i64);
        let (ev, mv) = (
            self.b.ins().iconst(I32, i64::from(e)),
            self.b.ins().iconst(I32, i64::from(m)),
        );
        let call = self
            .b
            .ins()
            .call_indirect(sig, helper, &[self.state, ev, mv]);
        let failed = self.b.inst_results(call)[0];
        self.reload();
        let entry = self.load32(offset_of!(State, top) + offset_of!(Running, entry));
        self.b.def_var(self.vars.top_entry, entry);
        let version = self.load(offset_of!(State, top) + offset_of!(Running, version));
        self.b.def_var(self.vars.top_version, version);
        let fail = self.exit_block(Exit::Fail(e, m));
        self.branch(failed, fail);
    }

    /// The address of pointer `p`.
    pub(super) fn pointer_address(&mut self, p: u32) -> Value {
        self.pointers = self.pointers.max(p as usize + 1);
        let base = self.b.use_var(self.vars.pointers);
        self.b.ins().iadd_imm_s(base, i64::from(p) * 8)
    }

    /// Pointer `p`'s value.
    pub(super) fn pointer(&mut self, p: u32) -> Value {
        let at = self.pointer_address(p);
        self.b.ins().load(I64, flags(), at, 0)
    }
}
