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

mod conditions;
mod moves;

use std::collections::HashMap;
use std::mem::offset_of;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I32, I64};
use cranelift_codegen::ir::{
    AbiParam, Block, BlockArg, InstBuilder, JumpTableData, MemFlagsData, SigRef, Signature, Value,
};
use cranelift_codegen::isa::CallConv;
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Variable};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{Module, default_libcall_names};

use super::super::super::automaton::{Automaton, End, NONE};
use super::{CodeAct, Exit, Helpers, REGIONS, Running, State};
use crate::detector::{DetectorTerm, DiagramNode, FastDetector, Feature};
use cnpi::program::flat::FastSide;

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
