//! The automaton's edges written as x86-64 machine code with Cranelift.
//!
//! One function holds every edge the code handles, each a block entered
//! by a jump table on the edge's number: the edge's checks (the step
//! budget, the combinators it starts, the stack's room) against
//! [`State`], its moves (a `SET` from the pointers, a `WRITE` or `SWAP`
//! of array or matrix cells at indices `P[q] + k` with its bounds
//! checked, a `WRITE`'s value such a number, cell or sum of two, a call,
//! a tail call, a restart with its check that the loop changed
//! something, a return to a held activation) as loads and stores, the
//! rest (any other ACT, a store whose check fails, a built-in, putting
//! the held activations on the stack, the poll) through [`Helpers`], and
//! its end: the next edge, a laid-out diagram whose nodes read their
//! features' two sides from the pointers and the regions and branch on
//! the relation to the next node or edge, a compiled detector's diagram
//! likewise after the features that can fail (sums, offset indices) are
//! computed, a bit read through the encoder by a helper (or where such
//! a feature fails), or a return that pops the stack
//! and goes on at the edge that starts where the popped activation
//! resumes (by a table of the script positions). Where an edge cannot
//! run, or a return finds no edge (or the run's first activation
//! returns), the function returns ([`Exit`]) and the scripted loop goes
//! on from there.

use std::collections::{HashMap, HashSet};
use std::mem::offset_of;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I8, I32, I64};
use cranelift_codegen::ir::{
    AbiParam, Block, BlockArg, InstBuilder, JumpTableData, MemFlagsData, SigRef, Signature, Value,
};
use cranelift_codegen::isa::CallConv;
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Variable};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{Module, default_libcall_names};

use super::super::super::automaton::{Automaton, CONTEXT, End, LEAF, Move, NONE};
use super::{CodeAct, Exit, Helpers, REGIONS, Running, State};
use crate::detector::{DetectorTerm, DiagramNode, FastDetector, Feature};
use cnpi::env::{ArrayStore, RawRegion};
use cnpi::program::PointerId;
use cnpi::program::flat::{Affine, CellAt, FastSide, Term};

/// The generated function: from edge `.1` with `.0`.
pub(super) type Entry = unsafe extern "C" fn(*mut State, u32) -> u64;

/// The machine code of an automaton, and what entering it asks.
pub(in crate::runtime) struct Code {
    module: Option<JITModule>,
    pub(super) entry: Entry,
    /// More pointers than any the code reads or sets.
    pub(super) pointers: usize,
    /// The regions the code reads, by their slot in [`State::regions`].
    pub(super) regions: Vec<u32>,
    /// Per edge, its place in the function's jump table (past the edges
    /// made into code, none), and per script position the edge that
    /// starts there in the empty context (else [`NONE`]): read by the
    /// code.
    tables: [Box<[u32]>; 2],
}

impl Code {
    /// Whether the code runs edge `e`.
    pub(in crate::runtime) fn holds(&self, e: u32) -> bool {
        self.tables[0]
            .get(e as usize)
            .is_some_and(|&slot| slot != NONE)
    }

    /// The edges the code runs, in their order in it.
    pub(super) fn chosen(&self) -> Vec<u32> {
        let slots = self.tables[0].iter().enumerate();
        let mut held: Vec<(u32, u32)> = (slots.filter(|&(_, &slot)| slot != NONE))
            .map(|(e, &slot)| (slot, e as u32))
            .collect();
        held.sort_unstable();
        held.into_iter().map(|(_, e)| e).collect()
    }
}

// SAFETY: after `finalize_definitions` the module's memory is only read
// (executed) and freed on drop; nothing in it is shared mutably.
unsafe impl Sync for Code {}
unsafe impl Send for Code {}

impl Drop for Code {
    fn drop(&mut self) {
        if let Some(module) = self.module.take() {
            // SAFETY: the code is no longer called: whoever could call it
            // borrowed `self`.
            unsafe { module.free_memory() };
        }
    }
}

/// The code of the edges `chosen` of `automaton` calling `helpers`, the
/// ACT of each applier row that `acts` gives done in the code, and the
/// bit of each compiled detector that `detectors` gives (by its number in
/// the scripts) read in it; `None` where Cranelift gives none (an error).
pub(super) fn compile<'d>(
    automaton: &Automaton,
    chosen: &[u32],
    helpers: &Helpers,
    acts: &dyn Fn(u32) -> Option<CodeAct>,
    detectors: &dyn Fn(u32) -> Option<&'d FastDetector>,
) -> Option<Code> {
    let mut flags = settings::builder();
    // Cranelift's optimizer made the code of `dijkstra` at n = 256 take
    // more instructions (13.8 M against 12.7 M) and its making 41 % more;
    // the single-pass register allocator took a third less to make it
    // and made a run take 70 % more.
    flags.set("opt_level", "none").ok()?;
    flags.set("enable_verifier", "false").ok()?;
    let isa = (cranelift_native::builder().ok()?)
        .finish(settings::Flags::new(flags))
        .ok()?;
    let mut module = JITModule::new(JITBuilder::with_isa(isa, default_libcall_names()));
    let mut context = module.make_context();
    let config = module.target_config();
    let pointer = config.pointer_type();
    context.func.signature.params.push(AbiParam::new(pointer));
    context.func.signature.params.push(AbiParam::new(I32));
    context.func.signature.returns.push(AbiParam::new(I64));
    let id = (module.declare_anonymous_function(&context.func.signature)).ok()?;
    let mut slots = vec![NONE; automaton.len()].into_boxed_slice();
    let chosen: Vec<u32> = (chosen.iter().copied())
        .filter(|&e| automaton.edge(e).is_some_and(|edge| edge.steps > 0))
        .collect();
    for (slot, &e) in chosen.iter().enumerate() {
        slots[e as usize] = slot as u32;
    }
    let positions: Box<[u32]> = (0..automaton.positions() as u32)
        .map(|at| automaton.index_at(at).unwrap_or(NONE))
        .collect();
    let mut functions = FunctionBuilderContext::new();
    let mut writer = Writer {
        chosen: &chosen,
        slots: &slots,
        positions: &positions,
        dispatch: Block::from_u32(0),
        b: FunctionBuilder::new(&mut context.func, &mut functions),
        automaton,
        helpers,
        acts,
        detectors,
        edges: HashMap::new(),
        stops: HashMap::new(),
        exits: Vec::new(),
        onto: Vec::new(),
        regions: Vec::new(),
        pointers: 0,
        state: Value::from_u32(0),
        vars: Vars::default(),
        exit: Block::from_u32(0),
        step_sig: None,
        poll_sig: None,
        next_sig: None,
        call_conv: module.isa().default_call_conv(),
    };
    writer.write();
    let (pointers, regions) = (writer.pointers, writer.regions);
    writer.b.seal_all_blocks();
    writer.b.finalize(config);
    if regions.len() > REGIONS {
        return None;
    }
    module.define_function(id, &mut context).ok()?;
    module.clear_context(&mut context);
    module.finalize_definitions().ok()?;
    let address = module.get_finalized_function(id);
    // SAFETY: the function was made with this signature.
    let entry = unsafe { std::mem::transmute::<*const u8, Entry>(address) };
    Some(Code {
        module: Some(module),
        entry,
        pointers,
        regions,
        tables: [slots, positions],
    })
}

/// The variables held in registers between exits (the addresses of the
/// pointers and of the change counter read again after each helper,
/// which may move them).
#[derive(Clone, Copy)]
struct Vars {
    left: Variable,
    top_entry: Variable,
    top_version: Variable,
    pointers: Variable,
    counter: Variable,
}

impl Default for Vars {
    fn default() -> Vars {
        let v = Variable::from_u32(0);
        Vars {
            left: v,
            top_entry: v,
            top_version: v,
            pointers: v,
            counter: v,
        }
    }
}

/// What writing the function keeps track of.
struct Writer<'a, 'd, 'f> {
    b: FunctionBuilder<'f>,
    automaton: &'a Automaton,
    /// The edges made into code, and each edge's place among them.
    chosen: &'a [u32],
    slots: &'a [u32],
    /// Per script position, its edge ([`Code::tables`]).
    positions: &'a [u32],
    /// The block that goes to the edge its parameter names.
    dispatch: Block,
    helpers: &'a Helpers,
    /// The array store of each applier row's ACT the code does itself.
    acts: &'a dyn Fn(u32) -> Option<CodeAct>,
    /// The compiled detectors whose bits the code reads, by their number
    /// in the scripts.
    detectors: &'a dyn Fn(u32) -> Option<&'d FastDetector>,
    /// The block of each edge written (or to be).
    edges: HashMap<u32, Block>,
    /// The block that leaves at each edge the code does not run.
    stops: HashMap<u32, Block>,
    /// Blocks that leave, each with its exit (written last).
    exits: Vec<(Block, Exit)>,
    /// Blocks that go on at an edge the code does not run, on the edge of
    /// the empty context at its start: the edge and that one (written
    /// after the edges).
    onto: Vec<(Block, u32, u32)>,
    /// The regions read, by slot.
    regions: Vec<u32>,
    /// One past the highest pointer read or set.
    pointers: usize,
    state: Value,
    vars: Vars,
    /// The block that stores the variables and returns its parameter.
    exit: Block,
    step_sig: Option<SigRef>,
    poll_sig: Option<SigRef>,
    next_sig: Option<SigRef>,
    /// The helpers' calling convention (`extern "C"`).
    call_conv: CallConv,
}

/// Plain loads and stores of memory that is aligned and never traps.
fn flags() -> MemFlagsData {
    MemFlagsData::trusted()
}

impl Writer<'_, '_, '_> {
    /// The whole function: the jump table over every edge, each edge, and
    /// the exit.
    fn write(&mut self) {
        let start = self.b.create_block();
        self.b.append_block_params_for_function_params(start);
        self.b.switch_to_block(start);
        self.state = self.b.block_params(start)[0];
        let first = self.b.block_params(start)[1];
        self.declare_vars();
        self.exit = self.b.create_block();
        self.b.append_block_param(self.exit, I64);
        for &e in self.chosen {
            let block = self.b.create_block();
            self.edges.insert(e, block);
        }
        self.dispatch = self.b.create_block();
        let edge = self.b.append_block_param(self.dispatch, I32);
        self.b.ins().jump(self.dispatch, &[BlockArg::Value(first)]);
        self.b.switch_to_block(self.dispatch);
        // The edge's slot, read from the table; past it, or past the
        // edges, leave.
        let unknown = self.b.create_block();
        let slot = self.entry(self.slots, edge, unknown);
        let calls: Vec<_> = (self.chosen.iter())
            .map(|e| self.b.func.dfg.block_call(self.edges[e], &[]))
            .collect();
        let default = self.b.func.dfg.block_call(unknown, &[]);
        let table = self
            .b
            .create_jump_table(JumpTableData::new(default, &calls));
        self.b.ins().br_table(slot, table);
        self.b.switch_to_block(unknown);
        let edge = self.b.ins().uextend(I64, edge);
        self.b.ins().jump(self.exit, &[BlockArg::Value(edge)]);
        let runs = self.chosen.to_vec();
        for e in runs {
            self.edge(e);
        }
        for (block, e, empty) in std::mem::take(&mut self.onto) {
            self.b.switch_to_block(block);
            self.onto(e, empty);
        }
        for (block, exit) in std::mem::take(&mut self.exits) {
            self.b.switch_to_block(block);
            self.leave(exit);
        }
        self.write_exit();
    }

    fn declare_vars(&mut self) {
        let b = &mut self.b;
        self.vars = Vars {
            left: b.declare_var(I64),
            top_entry: b.declare_var(I32),
            top_version: b.declare_var(I64),
            pointers: b.declare_var(I64),
            counter: b.declare_var(I64),
        };
        self.reload();
        let left = self.load(offset_of!(State, left));
        self.b.def_var(self.vars.left, left);
        let entry = self.load32(offset_of!(State, top) + offset_of!(Running, entry));
        self.b.def_var(self.vars.top_entry, entry);
        let version = self.load(offset_of!(State, top) + offset_of!(Running, version));
        self.b.def_var(self.vars.top_version, version);
    }

    /// The addresses of the pointers and of the change counter, read from
    /// the state (where a helper may have moved them).
    fn reload(&mut self) {
        let pointers = self.load(offset_of!(State, pointers));
        self.b.def_var(self.vars.pointers, pointers);
        let counter = self.load(offset_of!(State, version));
        self.b.def_var(self.vars.counter, counter);
    }

    /// Stores the budget and the top activation in the state.
    fn spill(&mut self) {
        let left = self.b.use_var(self.vars.left);
        self.store(left, offset_of!(State, left));
        let entry = self.b.use_var(self.vars.top_entry);
        self.store(entry, offset_of!(State, top) + offset_of!(Running, entry));
        let version = self.b.use_var(self.vars.top_version);
        self.store(
            version,
            offset_of!(State, top) + offset_of!(Running, version),
        );
    }

    fn write_exit(&mut self) {
        self.b.switch_to_block(self.exit);
        let code = self.b.block_params(self.exit)[0];
        self.spill();
        self.b.ins().return_(&[code]);
    }

    fn load(&mut self, offset: usize) -> Value {
        (self.b.ins()).load(I64, flags(), self.state, offset as i32)
    }

    fn load32(&mut self, offset: usize) -> Value {
        (self.b.ins()).load(I32, flags(), self.state, offset as i32)
    }

    /// Entry `index` (an `I32`) of `table`, read from its memory, which
    /// outlives the code; past its end, a jump to `outside`.
    fn entry(&mut self, table: &[u32], index: Value, outside: Block) -> Value {
        let count = table.len() as i64;
        let inside = (self.b.ins()).icmp_imm_u(IntCC::UnsignedLessThan, index, count);
        let within = self.b.create_block();
        self.b.ins().brif(inside, within, &[], outside, &[]);
        self.b.switch_to_block(within);
        let base = self.b.ins().iconst(I64, table.as_ptr() as i64);
        let index = self.b.ins().uextend(I64, index);
        let offset = self.b.ins().ishl_imm_u(index, 2);
        let address = self.b.ins().iadd(base, offset);
        self.b.ins().load(I32, flags(), address, 0)
    }

    fn store(&mut self, value: Value, offset: usize) {
        (self.b.ins()).store(flags(), value, self.state, offset as i32);
    }

    /// Jumps to the exit with `exit`.
    fn leave(&mut self, exit: Exit) {
        let code = self.b.ins().iconst(I64, exit.code() as i64);
        self.b.ins().jump(self.exit, &[BlockArg::Value(code)]);
    }

    /// A block that leaves with `exit`.
    fn exit_block(&mut self, exit: Exit) -> Block {
        let block = self.b.create_block();
        self.exits.push((block, exit));
        block
    }

    /// The block that runs edge `e`, goes on on the edge of the empty
    /// context that starts where it starts ([`Self::onto`]), or leaves to
    /// run it elsewhere.
    fn target(&mut self, e: u32) -> Block {
        if let Some(&block) = self.edges.get(&e) {
            return block;
        }
        if let Some(&block) = self.stops.get(&e) {
            return block;
        }
        let edge = self.automaton.edge(e);
        let empty = (edge.filter(|edge| edge.context != 0))
            .and_then(|edge| self.automaton.index_at(edge.start))
            .filter(|s| self.edges.contains_key(s));
        let block = match empty {
            Some(empty) => {
                let block = self.b.create_block();
                self.onto.push((block, e, empty));
                block
            }
            None => self.exit_block(Exit::Stop(e)),
        };
        self.stops.insert(e, block);
        block
    }

    /// Edge `e`, which the code does not run, run as edge `empty` of the
    /// empty context at its start: the activations `e`'s context holds
    /// pushed on the stack below the top (as the interpreter puts them
    /// there where an edge's checks fail), or where the stack has no room
    /// for them, leaving at `e`.
    fn onto(&mut self, e: u32, empty: u32) {
        let context = self.automaton.edge(e).map_or(0, |edge| edge.context);
        let resumes = self.automaton.context(context).to_vec();
        let count = resumes.len() as i64;
        let depth = self.load(offset_of!(State, depth));
        let capacity = self.load(offset_of!(State, capacity));
        let after = self.b.ins().iadd_imm_s(depth, count);
        let full = (self.b.ins()).icmp(IntCC::UnsignedGreaterThan, after, capacity);
        let stop = self.exit_block(Exit::Stop(e));
        self.branch(full, stop);
        let below = self.load(offset_of!(State, below));
        let offset = self.b.ins().imul_imm_u(depth, size_of::<Running>() as i64);
        let base = self.b.ins().iadd(below, offset);
        for (i, &at) in resumes.iter().enumerate() {
            let slot = (i * size_of::<Running>()) as i32;
            let from = held(i as u32);
            let entry = self.load32(from + offset_of!(Running, entry));
            let version = self.load(from + offset_of!(Running, version));
            let at = self.b.ins().iconst(I32, i64::from(at));
            let ins = |field: usize| slot + field as i32;
            (self.b.ins()).store(flags(), entry, base, ins(offset_of!(Running, entry)));
            (self.b.ins()).store(flags(), at, base, ins(offset_of!(Running, at)));
            (self.b.ins()).store(flags(), version, base, ins(offset_of!(Running, version)));
        }
        self.store(after, offset_of!(State, depth));
        let room = self.load(offset_of!(State, room));
        let room = self.b.ins().iadd_imm_s(room, -count);
        self.store(room, offset_of!(State, room));
        let block = self.edges[&empty];
        self.b.ins().jump(block, &[]);
    }

    /// Edge `e`'s block: its checks, moves, poll and end.
    fn edge(&mut self, e: u32) {
        let Some(&edge) = self.automaton.edge(e) else {
            return;
        };
        let block = self.edges[&e];
        self.b.switch_to_block(block);
        let stop = self.exit_block(Exit::Stop(e));
        let left = self.b.use_var(self.vars.left);
        let steps = i64::from(edge.steps);
        let short = self
            .b
            .ins()
            .icmp_imm_u(IntCC::UnsignedLessThan, left, steps);
        self.branch(short, stop);
        if edge.requires != 0 {
            let required = self.load(offset_of!(State, required));
            let mask = edge.requires as i64;
            let has = self.b.ins().band_imm_u(required, mask);
            let lacks = self.b.ins().icmp_imm_u(IntCC::NotEqual, has, mask);
            self.branch(lacks, stop);
        }
        let room = self.load(offset_of!(State, room));
        let room_needed = i64::from(edge.room);
        let full = (self.b.ins()).icmp_imm_s(IntCC::SignedLessThanOrEqual, room, room_needed);
        self.branch(full, stop);
        let left = self.b.ins().iadd_imm_s(left, -steps);
        self.b.def_var(self.vars.left, left);
        for (m, moved) in self.automaton.moves(&edge).iter().enumerate() {
            self.take(e, m as u32, moved.what);
        }
        self.poll(e, self.automaton.moves(&edge).len() as u32);
        let detector = match edge.end {
            End::Bit { fast, .. } => (self.detectors)(fast).map(FastDetector::parts),
            _ => None,
        };
        match (edge.end, detector) {
            (End::Bit { next, .. }, Some(detector)) => self.detect(e, detector, next),
            (End::Next(next), _) => {
                let target = self.target(next);
                self.b.ins().jump(target, &[]);
            }
            (End::Walk { root, .. }, _) if self.walks(root) => self.hop(root),
            (End::Walk { .. } | End::Bit { .. }, _) => self.read(e),
            (End::Return, _) => self.pop(e),
        }
    }

    /// The end of edge `e`, the first bit of an activation read from
    /// its compiled detector `(nodes, constant, failable)` (see
    /// [`FastDetector::parts`]): the features that can fail computed
    /// first, then the diagram from its root to the edge `next` of the
    /// bit; where a feature fails, the end read by the helper (through
    /// the encoder, as the interpreter reads it).
    fn detect(&mut self, e: u32, parts: Parts, next: [u32; 2]) {
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
    fn failable_side(&mut self, term: DetectorTerm, fail: Block) -> (Option<Value>, Read) {
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
    fn offset_cell(&mut self, data: u32, at: CellAt, fail: Block) -> (Option<Value>, Read) {
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
    fn relation(
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
    fn nodes(&mut self, nodes: &[DiagramNode], states: &[Value], next: [u32; 2], other: Block) {
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

    /// The end of edge `e` read by the helper: on at the edge it names,
    /// leaving where it failed.
    fn read(&mut self, e: u32) {
        let sig = *self.next_sig.get_or_insert_with(|| {
            let mut sig = Signature::new(self.call_conv);
            sig.params.extend([AbiParam::new(I64), AbiParam::new(I32)]);
            sig.returns.push(AbiParam::new(I32));
            self.b.import_signature(sig)
        });
        let helper = self.b.ins().iconst(I64, self.helpers.next as usize as i64);
        let ev = self.b.ins().iconst(I32, i64::from(e));
        let call = (self.b.ins()).call_indirect(sig, helper, &[self.state, ev]);
        let next = self.b.inst_results(call)[0];
        self.reload();
        let moves = self
            .automaton
            .edge(e)
            .map_or(0, |edge| self.automaton.moves(edge).len() as u32);
        let fail = self.exit_block(Exit::Fail(e, moves));
        let failed = self.b.ins().icmp_imm_u(IntCC::Equal, next, i64::from(NONE));
        self.branch(failed, fail);
        self.b.ins().jump(self.dispatch, &[BlockArg::Value(next)]);
    }

    /// The return that ends edge `e`: the activation below the top popped
    /// and on at the edge where it resumes; where the stack is empty or no
    /// edge starts there, the loop reads the end.
    fn pop(&mut self, e: u32) {
        let out = self.exit_block(Exit::End(e));
        let depth = self.load(offset_of!(State, depth));
        let empty = self.b.ins().icmp_imm_u(IntCC::Equal, depth, 0);
        self.branch(empty, out);
        let depth = self.b.ins().iadd_imm_s(depth, -1);
        let below = self.load(offset_of!(State, below));
        let offset = self.b.ins().imul_imm_u(depth, size_of::<Running>() as i64);
        let running = self.b.ins().iadd(below, offset);
        let at = (self.b.ins()).load(I32, flags(), running, offset_of!(Running, at) as i32);
        let next = self.entry(self.positions, at, out);
        let none = self.b.ins().icmp_imm_u(IntCC::Equal, next, i64::from(NONE));
        self.branch(none, out);
        self.store(depth, offset_of!(State, depth));
        let room = self.load(offset_of!(State, room));
        let room = self.b.ins().iadd_imm_s(room, 1);
        self.store(room, offset_of!(State, room));
        let entry = (self.b.ins()).load(I32, flags(), running, offset_of!(Running, entry) as i32);
        let version =
            (self.b.ins()).load(I64, flags(), running, offset_of!(Running, version) as i32);
        self.b.def_var(self.vars.top_entry, entry);
        self.b.def_var(self.vars.top_version, version);
        self.store(at, offset_of!(State, top) + offset_of!(Running, at));
        self.b.ins().jump(self.dispatch, &[BlockArg::Value(next)]);
    }

    /// Goes on in a new block where `condition` is false, to `to` where
    /// it is true.
    fn branch(&mut self, condition: Value, to: Block) {
        let next = self.b.create_block();
        self.b.ins().brif(condition, to, &[], next, &[]);
        self.b.switch_to_block(next);
    }

    /// The poll every [`cnpi::exec::limits::POLL_EVERY`] steps, at the
    /// end of edge `e` of `moves` moves.
    fn poll(&mut self, e: u32, moves: u32) {
        let left = self.b.use_var(self.vars.left);
        let at = self.load(offset_of!(State, poll_at));
        let due = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, left, at);
        let (call, next) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(due, call, &[], next, &[]);
        self.b.switch_to_block(call);
        let sig = *self.poll_sig.get_or_insert_with(|| {
            let mut sig = Signature::new(self.call_conv);
            sig.params.push(AbiParam::new(I64));
            sig.returns.push(AbiParam::new(I32));
            self.b.import_signature(sig)
        });
        self.spill();
        let helper = self.b.ins().iconst(I64, self.helpers.poll as usize as i64);
        let call_inst = self.b.ins().call_indirect(sig, helper, &[self.state]);
        let failed = self.b.inst_results(call_inst)[0];
        self.reload();
        let fail = self.exit_block(Exit::Fail(e, moves));
        self.b.ins().brif(failed, fail, &[], next, &[]);
        self.b.switch_to_block(next);
    }

    /// Move `m` of edge `e`.
    fn take(&mut self, e: u32, m: u32, what: Move) {
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
    fn version(&mut self) -> Value {
        let at = self.b.use_var(self.vars.counter);
        self.b.ins().load(I64, flags(), at, 0)
    }

    /// Holds the top activation at `depth` of the context.
    fn hold(&mut self, depth: u32) {
        if (depth as usize) < CONTEXT {
            let at = held(depth);
            let entry = self.b.use_var(self.vars.top_entry);
            self.store(entry, at + offset_of!(Running, entry));
            let version = self.b.use_var(self.vars.top_version);
            self.store(version, at + offset_of!(Running, version));
        }
    }

    /// The top activation begun as entry `next`.
    fn begin(&mut self, next: u32) {
        let entry = self.b.ins().iconst(I32, i64::from(next));
        self.b.def_var(self.vars.top_entry, entry);
        let version = self.version();
        self.b.def_var(self.vars.top_version, version);
    }

    /// `SET(p, P[q] + k)` from the pointers, or where the sum overflows
    /// the move's ACT through the helper.
    fn set(&mut self, e: u32, m: u32, p: u32, q: u32, k: i64) {
        let (value, overflow) = self.affine(((q != NONE).then_some(q as PointerId), k));
        let (slow, fast, next) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        self.b.ins().brif(overflow, slow, &[], fast, &[]);
        self.b.switch_to_block(fast);
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
    fn affine(&mut self, (q, k): Affine) -> (Value, Value) {
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
    fn count_change(&mut self, old: Value, new: Value) {
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
    fn cell(&mut self, (data, at): (u32, CellAt)) -> (Value, Value) {
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
    fn term(&mut self, term: Term) -> (Value, Read) {
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
    fn array_store(&mut self, e: u32, m: u32, store: ArrayStore) {
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
    fn terms(&mut self, (first, second): (Term, Option<Term>), slow: Block) -> Value {
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
    fn set_terms(&mut self, e: u32, m: u32, p: u32, value: (Term, Option<Term>)) {
        let (slow, next) = (self.b.create_block(), self.b.create_block());
        let value = self.terms(value, slow);
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

    /// Move `m` of edge `e` through the helper; leaves where it fails.
    fn step(&mut self, e: u32, m: u32) {
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
    fn pointer_address(&mut self, p: u32) -> Value {
        self.pointers = self.pointers.max(p as usize + 1);
        let base = self.b.use_var(self.vars.pointers);
        self.b.ins().iadd_imm_s(base, i64::from(p) * 8)
    }

    /// Pointer `p`'s value.
    fn pointer(&mut self, p: u32) -> Value {
        let at = self.pointer_address(p);
        self.b.ins().load(I64, flags(), at, 0)
    }

    /// Whether every hop of the diagram from `root` is one the code
    /// reads (none reads a failable feature).
    fn walks(&self, root: u32) -> bool {
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
    fn hop(&mut self, root: u32) {
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
    fn relate(&mut self, lhs: FastSide, rhs: FastSide, to: [Block; 5]) {
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
    fn order(&mut self, a: Value, b: Value, [lt, eq, gt]: [Block; 3]) {
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
    fn side(&mut self, side: FastSide) -> (Option<Value>, Read) {
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
    fn value(&mut self, read: Read) -> Value {
        match read {
            Read::Value(value) => value,
            Read::At(at) => self.b.ins().load(I64, flags(), at, 0),
        }
    }

    /// The offset in [`State`] of region `data`'s [`RawRegion`] (given a
    /// slot; past [`REGIONS`] slots, no code is made).
    fn region(&mut self, data: u32) -> usize {
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

/// A compiled detector as [`FastDetector::parts`] gives it.
type Parts<'d> = (&'d [DiagramNode], bool, &'d [[DetectorTerm; 2]]);

/// A side's value, or where to load it from.
#[derive(Clone, Copy)]
enum Read {
    Value(Value),
    At(Value),
}

/// The offset in [`State`] of held activation `depth`.
fn held(depth: u32) -> usize {
    offset_of!(State, held) + depth as usize * std::mem::size_of::<Running>()
}

/// The two sides a feature relates, if it is not failable.
fn sides(feature: Feature) -> Option<(FastSide, FastSide)> {
    Some(match feature {
        Feature::PointerInt { p, k } => (FastSide::Pointer(p, 0), FastSide::Int(k)),
        Feature::PointerScalar { p, data } => (FastSide::Pointer(p, 0), FastSide::Scalar(data)),
        Feature::ResumeInt { k } => (FastSide::Resume, FastSide::Int(k)),
        Feature::PointerPointer { p, q } => (FastSide::Pointer(p, 0), FastSide::Pointer(q, 0)),
        Feature::AtInt { data, p, k } => (FastSide::At(data, p), FastSide::Int(k)),
        Feature::At2Int { data, p, q, k } => (FastSide::At2(data, p, q), FastSide::Int(k)),
        Feature::AtAt { a, p, b, q } => (FastSide::At(a, p), FastSide::At(b, q)),
        Feature::Pair { lhs, rhs } => (lhs, rhs),
        Feature::Failable(_) => return None,
    })
}
