//! The ends of edges in the machine code: a laid-out diagram whose
//! nodes read their features' two sides (a pointer, a number, a cell, a
//! scalar) and branch on their relation, and a compiled detector's
//! diagram after the features that can fail (sums, offset indices) are
//! computed, leaving to the helper where one fails.

use std::collections::{HashMap, HashSet};
use std::mem::offset_of;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I8, I32, I64};
use cranelift_codegen::ir::{Block, BlockArg, InstBuilder, JumpTableData, Value};

use super::{Parts, Read, Writer, flags, sides};
use crate::detector::{DetectorTerm, DiagramNode, Feature};
use crate::runtime::automaton::LEAF;
use crate::runtime::machine::jit::{REGIONS, State};
use cnpi::env::RawRegion;
use cnpi::program::PointerId;
use cnpi::program::flat::{CellAt, FastSide};

impl Writer<'_, '_, '_> {
    /// The end of edge `e`, the first bit of an activation read from
    /// its compiled detector `(nodes, constant, failable)` (see
    /// [`FastDetector::parts`]): the features that can fail computed
    /// first, then the diagram from its root to the edge `next` of the
    /// bit; where a feature fails, the end read by the helper (through
    /// the encoder, as the interpreter reads it).
    pub(super) fn detect(&mut self, e: u32, parts: Parts, next: [u32; 2]) {
        let (nodes, constant, failable) = parts;
        let helper = self.b.create_block();
        let states: Vec<Value> = (failable.iter())
            .map(|&[lhs, rhs]| {
                let lhs = self.failable_side(lhs, helper);
                let rhs = self.failable_side(rhs, helper);
                self.relation(lhs, rhs)
            })
            .collect();
        match nodes.is_empty() {
            true => {
                let target = self.target(next[usize::from(constant)]);
                self.b.ins().jump(target, &[]);
            }
            false => self.nodes(nodes, &states, next, helper),
        }
        self.b.switch_to_block(helper);
        self.read(e);
    }

    /// A side of a feature that can fail, as [`Self::side`] gives it;
    /// where it fails (an index or a sum that overflows, END in a sum), a
    /// jump to `fail`.
    pub(super) fn failable_side(
        &mut self,
        term: DetectorTerm,
        fail: Block,
    ) -> (Option<Value>, Read) {
        match term {
            DetectorTerm::Side(side) => self.side(side),
            DetectorTerm::Sum(a, b) => {
                let (a_ok, a) = self.side(a);
                let (b_ok, b) = self.side(b);
                for ok in [a_ok, b_ok].into_iter().flatten() {
                    let there = self.b.create_block();
                    self.b.ins().brif(ok, there, &[], fail, &[]);
                    self.b.switch_to_block(there);
                }
                let (a, b) = (self.value(a), self.value(b));
                let (sum, overflow) = self.b.ins().sadd_overflow(a, b);
                self.branch(overflow, fail);
                (None, Read::Value(sum))
            }
            DetectorTerm::Offset(data, p, k) => {
                let at = CellAt::One((Some(p as PointerId), k));
                self.offset_cell(data, at, fail)
            }
            DetectorTerm::Offset2(data, [(p, k), (q, l)]) => {
                let at = CellAt::Two((Some(p as PointerId), k), (Some(q as PointerId), l));
                self.offset_cell(data, at, fail)
            }
        }
    }

    /// The cell of data `data` at `at`, END outside (as [`Self::side`]
    /// gives a cell); where an index overflows, a jump to `fail`.
    pub(super) fn offset_cell(
        &mut self,
        data: u32,
        at: CellAt,
        fail: Block,
    ) -> (Option<Value>, Read) {
        let indices = match at {
            CellAt::One(i) => [Some(i), None],
            CellAt::Two(i, j) => [Some(i), Some(j)],
        };
        for index in indices.into_iter().flatten() {
            let (_, overflow) = self.affine(index);
            self.branch(overflow, fail);
        }
        let (address, inside) = self.cell((data, at));
        (Some(inside), Read::At(address))
    }

    /// The state of the relation of two sides (as [`Self::side`] gives
    /// them), the index of [`cnpi::program::Relation`]: less, equal,
    /// greater, both END, one END.
    pub(super) fn relation(
        &mut self,
        (a_ok, a): (Option<Value>, Read),
        (b_ok, b): (Option<Value>, Read),
    ) -> Value {
        let join = self.b.create_block();
        let state = self.b.append_block_param(join, I32);
        let (both, not_both) = (self.b.create_block(), self.b.create_block());
        let a_ok = a_ok.unwrap_or_else(|| self.b.ins().iconst(I8, 1));
        let b_ok = b_ok.unwrap_or_else(|| self.b.ins().iconst(I8, 1));
        let both_ok = self.b.ins().band(a_ok, b_ok);
        self.b.ins().brif(both_ok, both, &[], not_both, &[]);
        self.b.switch_to_block(both);
        let (a, b) = (self.value(a), self.value(b));
        let less = self.b.ins().icmp(IntCC::SignedLessThan, a, b);
        let equal = self.b.ins().icmp(IntCC::Equal, a, b);
        let [lt, eq, gt] = [0, 1, 2].map(|s| self.b.ins().iconst(I32, s));
        let order = self.b.ins().select(equal, eq, gt);
        let order = self.b.ins().select(less, lt, order);
        self.b.ins().jump(join, &[BlockArg::Value(order)]);
        self.b.switch_to_block(not_both);
        let one = self.b.ins().bor(a_ok, b_ok);
        let [same, different] = [3, 4].map(|s| self.b.ins().iconst(I32, s));
        let end = self.b.ins().select(one, different, same);
        self.b.ins().jump(join, &[BlockArg::Value(end)]);
        self.b.switch_to_block(join);
        state
    }

    /// A compiled detector's diagram `nodes` from the current block on:
    /// each node's feature (one that can fail by its state in `states`)
    /// and its branch to the next node or to the edge `next` of its bit;
    /// a state no node has goes to `other`.
    pub(super) fn nodes(
        &mut self,
        nodes: &[DiagramNode],
        states: &[Value],
        next: [u32; 2],
        other: Block,
    ) {
        let mut blocks = HashMap::new();
        let first = self.b.create_block();
        self.b.ins().jump(first, &[]);
        blocks.insert(0usize, first);
        let mut todo = vec![0usize];
        while let Some(at) = todo.pop() {
            let node = nodes[at];
            let to: [Block; 5] = std::array::from_fn(|s| {
                let child = node.children as usize + s;
                match node.leaves >> s & 1 {
                    1 => self.target(next[usize::from(node.ones >> s & 1 == 1)]),
                    _ if child < nodes.len() => *blocks.entry(child).or_insert_with(|| {
                        todo.push(child);
                        self.b.create_block()
                    }),
                    _ => other,
                }
            });
            self.b.switch_to_block(blocks[&at]);
            match (node.feature, sides(node.feature)) {
                (_, Some((lhs, rhs))) => self.relate(lhs, rhs, to),
                (Feature::Failable(slot), None) if slot < states.len() => {
                    let calls = to.map(|block| self.b.func.dfg.block_call(block, &[]));
                    let default = self.b.func.dfg.block_call(other, &[]);
                    let table = (self.b).create_jump_table(JumpTableData::new(default, &calls));
                    self.b.ins().br_table(states[slot], table);
                }
                _ => {
                    self.b.ins().jump(other, &[]);
                }
            }
        }
    }

    /// Whether every hop of the diagram from `root` is one the code
    /// reads (none reads a failable feature).
    pub(super) fn walks(&self, root: u32) -> bool {
        let mut todo = vec![root];
        let mut seen = HashSet::new();
        while let Some(at) = todo.pop() {
            if !seen.insert(at) {
                continue;
            }
            let Some(hop) = self.automaton.hop(at) else {
                return false;
            };
            if sides(hop.feature).is_none() {
                return false;
            }
            todo.extend(hop.to.iter().filter(|&&to| to & LEAF == 0));
        }
        true
    }

    /// The diagram from hop `root`, in the current block: each hop's
    /// feature and its branch to the next hop or edge.
    pub(super) fn hop(&mut self, root: u32) {
        let mut blocks = HashMap::new();
        let mut todo = vec![root];
        let first = self.b.create_block();
        self.b.ins().jump(first, &[]);
        blocks.insert(root, first);
        while let Some(at) = todo.pop() {
            let Some(&hop) = self.automaton.hop(at) else {
                continue;
            };
            let to = hop.to.map(|to| match to & LEAF {
                0 => *blocks.entry(to).or_insert_with(|| {
                    todo.push(to);
                    self.b.create_block()
                }),
                _ => self.target(to & !LEAF),
            });
            self.b.switch_to_block(blocks[&at]);
            if let Some((lhs, rhs)) = sides(hop.feature) {
                self.relate(lhs, rhs, to);
            }
        }
    }

    /// Branches on how `lhs` relates to `rhs` to `to` of the relation.
    pub(super) fn relate(&mut self, lhs: FastSide, rhs: FastSide, to: [Block; 5]) {
        let (a_ok, a) = self.side(lhs);
        let (b_ok, b) = self.side(rhs);
        let (both, a_only) = (self.b.create_block(), self.b.create_block());
        let (no_a, order) = (self.b.create_block(), self.b.create_block());
        match a_ok {
            Some(ok) => self.b.ins().brif(ok, a_only, &[], no_a, &[]),
            None => self.b.ins().jump(a_only, &[]),
        };
        self.b.switch_to_block(no_a);
        match b_ok {
            Some(ok) => self.b.ins().brif(ok, to[4], &[], to[3], &[]),
            None => self.b.ins().jump(to[4], &[]),
        };
        self.b.switch_to_block(a_only);
        let a = self.value(a);
        match b_ok {
            Some(ok) => self.b.ins().brif(ok, both, &[], to[4], &[]),
            None => self.b.ins().jump(both, &[]),
        };
        self.b.switch_to_block(both);
        let b = self.value(b);
        self.b.ins().jump(order, &[]);
        self.b.switch_to_block(order);
        self.order(a, b, [to[0], to[1], to[2]]);
    }

    /// Branches on the order of `a` and `b` to `to` of less, equal,
    /// greater.
    pub(super) fn order(&mut self, a: Value, b: Value, [lt, eq, gt]: [Block; 3]) {
        let ins = |w: &mut Self, cc: IntCC| w.b.ins().icmp(cc, a, b);
        if lt == eq && eq == gt {
            self.b.ins().jump(lt, &[]);
        } else if eq == gt {
            let c = ins(self, IntCC::SignedLessThan);
            self.b.ins().brif(c, lt, &[], eq, &[]);
        } else if lt == eq {
            let c = ins(self, IntCC::SignedLessThanOrEqual);
            self.b.ins().brif(c, lt, &[], gt, &[]);
        } else if lt == gt {
            let c = ins(self, IntCC::Equal);
            self.b.ins().brif(c, eq, &[], lt, &[]);
        } else {
            let c = ins(self, IntCC::SignedLessThan);
            let rest = self.b.create_block();
            self.b.ins().brif(c, lt, &[], rest, &[]);
            self.b.switch_to_block(rest);
            let c = ins(self, IntCC::Equal);
            self.b.ins().brif(c, eq, &[], gt, &[]);
        }
    }

    /// A side: where it may be END, whether it is not (computed here),
    /// and its value or the address to load it from once it is known to
    /// be there.
    pub(super) fn side(&mut self, side: FastSide) -> (Option<Value>, Read) {
        match side {
            FastSide::Int(k) => (None, Read::Value(self.b.ins().iconst(I64, k))),
            FastSide::Pointer(p, k) => {
                let value = self.pointer(p);
                (None, Read::Value(self.b.ins().iadd_imm_s(value, k)))
            }
            FastSide::Resume => (None, Read::Value(self.load(offset_of!(State, resume)))),
            FastSide::Scalar(data) => {
                let region = self.region(data);
                let has = self.load(region + offset_of!(RawRegion, has_scalar));
                let value = self.load(region + offset_of!(RawRegion, scalar));
                (Some(has), Read::Value(value))
            }
            FastSide::At(data, p) => {
                let i = self.pointer(p);
                let region = self.region(data);
                let len = self.load(region + offset_of!(RawRegion, len));
                let inside = self.b.ins().icmp(IntCC::UnsignedLessThan, i, len);
                let base = self.load(region + offset_of!(RawRegion, array));
                let offset = self.b.ins().ishl_imm_u(i, 3);
                (Some(inside), Read::At(self.b.ins().iadd(base, offset)))
            }
            FastSide::At2(data, p, q) => {
                let (i, j) = (self.pointer(p), self.pointer(q));
                let region = self.region(data);
                let rows = self.load(region + offset_of!(RawRegion, rows));
                let cols = self.load(region + offset_of!(RawRegion, cols));
                let in_rows = self.b.ins().icmp(IntCC::UnsignedLessThan, i, rows);
                let in_cols = self.b.ins().icmp(IntCC::UnsignedLessThan, j, cols);
                let inside = self.b.ins().band(in_rows, in_cols);
                let base = self.load(region + offset_of!(RawRegion, matrix));
                let row = self.b.ins().imul(i, cols);
                let index = self.b.ins().iadd(row, j);
                let offset = self.b.ins().ishl_imm_u(index, 3);
                (Some(inside), Read::At(self.b.ins().iadd(base, offset)))
            }
        }
    }

    /// The value of `read`, loaded if it is an address.
    pub(super) fn value(&mut self, read: Read) -> Value {
        match read {
            Read::Value(value) => value,
            Read::At(at) => self.b.ins().load(I64, flags(), at, 0),
        }
    }

    /// The offset in [`State`] of region `data`'s [`RawRegion`] (given a
    /// slot; past [`REGIONS`] slots, no code is made).
    pub(super) fn region(&mut self, data: u32) -> usize {
        let slot = match self.regions.iter().position(|&d| d == data) {
            Some(slot) => slot,
            None => {
                self.regions.push(data);
                self.regions.len() - 1
            }
        };
        let slot = slot.min(REGIONS - 1);
        offset_of!(State, regions) + slot * std::mem::size_of::<RawRegion>()
    }
}
