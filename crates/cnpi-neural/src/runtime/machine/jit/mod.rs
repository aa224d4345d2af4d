//! The automaton as machine code (x86-64, Cranelift): each edge's checks,
//! moves and laid-out diagram generated from the edges the automaton made
//! from the verified tables, run by the scripted loop where it can.
//!
//! The code ([`codegen`]) is made once per program put on the network,
//! when a run has taken [`LAZY_EDGES`] edges through the interpreter, and
//! made again once, with the edges the interpreter ran most since, when
//! the runs have taken as many again outside it (so
//! a short run pays nothing for it), or at the first edge in
//! [`JitMode::Eager`]; [`JitMode::Off`] never makes it. The mode is a
//! value handed in ([`OnTheNetwork::set_jit`](crate::runtime::OnTheNetwork::set_jit),
//! [`Request::jit`](crate::load::Request::jit)): the library reads no
//! environment, `cnpic` and the Python package read `CNPI_JIT`
//! ([`JitMode::asked`]). It runs from an edge in a [`State`] the loop
//! fills (the budget, the poll, the top activation and those held apart,
//! where the pointers, the change counter and the regions lie) until an
//! edge it does not run: one whose checks fail, one it does not hold, or
//! a return from the run's first activation or to a position that starts
//! no edge (a return to the stack is popped in the code, and a bit read
//! through the encoder is read by a helper as the interpreter reads it).
//! It then returns where it stopped ([`Exit`]) and the loop goes on from
//! there, so every check, step count and error is the interpreter's: a
//! check that fails is made again by the loop, which takes the steps one
//! by one; a move that fails gives back the same steps. Nothing is
//! decided by the code that the tables did not decide when the edges were
//! made: a bit is a diagram's node, a next edge is the table's row for
//! that bit.

#[cfg(target_arch = "x86_64")]
mod codegen;
#[cfg(not(target_arch = "x86_64"))]
#[path = "none.rs"]
mod codegen;

use std::ffi::{OsString, c_void};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use super::super::automaton::{Automaton, CONTEXT, Move, NONE};
use super::super::compiled::Compiled;
use super::super::row::Op;
use super::super::script::Scripts;
use super::{Diagnostic, Machine};
use crate::memory::RowId;
use cnpi::env::{ArrayStore, RawRegion};
use cnpi::exec::limits::POLL_EVERY;
use cnpi::program::flat::Term;
pub(in crate::runtime) use codegen::Code;

/// The most regions the code reads.
const REGIONS: usize = 16;

/// After how many entries into the code a run looks at whether the code
/// pays for them, and the fewest steps it must take an entry on average
/// (entering costs about as many instructions as 15 steps in the code
/// save).
const JUDGED_AFTER: u32 = 1 << 10;
const STEPS_PER_ENTRY: u64 = 16;

/// How many edges the interpreter runs, after the code was judged not
/// worth entering, before it is judged again.
const JUDGED_AGAIN: u32 = 1 << 16;

/// Whether a run that entered the code `entries` times and took `steps`
/// steps there is to go on entering it.
pub(super) fn worth(entries: u32, steps: u64) -> bool {
    entries < JUDGED_AFTER || steps >= u64::from(entries) * STEPS_PER_ENTRY
}

/// The most edges made into code (the function's size, whose making grows
/// faster than it: at 256 edges, of which 48 with their diagrams laid
/// out, making it took 6 to 9 times the instructions).
const EDGES: usize = 48;

/// How many edges the program's runs take through the interpreter before
/// the code is made (about a million steps: making it costs about as
/// many instructions as running 500,000 edges by the interpreter rather
/// than by the code saves).
const LAZY_EDGES: u64 = 1 << 19;

/// When a program's code is made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum JitMode {
    /// Never: the interpreter runs every edge.
    Off,
    /// After [`LAZY_EDGES`] edges of a run.
    #[default]
    Lazy,
    /// At a run's first edge.
    Eager,
}

impl JitMode {
    /// The mode `CNPI_JIT` asks, looked up by `var` (which `cnpic` and the
    /// Python package point at the environment; the library reads none):
    /// `0` or `off`, `eager`; anything else, or nothing, lazy.
    pub fn asked(var: impl Fn(&str) -> Option<OsString>) -> JitMode {
        match var("CNPI_JIT").as_ref().and_then(|v| v.to_str()) {
            Some("0" | "off") => JitMode::Off,
            Some("eager") => JitMode::Eager,
            _ => JitMode::Lazy,
        }
    }
}

/// A program's code, made once when first asked for, and again once
/// where the runs leave it often.
pub(in crate::runtime) struct Jit {
    mode: JitMode,
    /// The most edges made into code ([`EDGES`] but in tests), each time.
    most: usize,
    code: OnceLock<Option<Code>>,
    /// The code made again: the first's edges and those the interpreter
    /// ran most after the first was made.
    again: OnceLock<Option<Code>>,
    /// The edges the interpreter ran in the program's runs that ended.
    edges: AtomicU64,
    /// The edges the interpreter had run (the runs that ended and the
    /// one that made it) when the first code was made.
    made_at: AtomicU64,
}

impl Jit {
    pub(in crate::runtime) fn new(mode: JitMode) -> Jit {
        Jit::of_edges(mode, EDGES)
    }

    /// A program's code of at most `most` edges.
    pub(in crate::runtime) fn of_edges(mode: JitMode, most: usize) -> Jit {
        Jit {
            mode,
            most,
            code: OnceLock::new(),
            again: OnceLock::new(),
            edges: AtomicU64::new(0),
            made_at: AtomicU64::new(0),
        }
    }

    /// Whether a run is to count how often it runs each edge (the code is
    /// to be made from those it runs most).
    pub(super) fn counts(&self) -> bool {
        self.mode == JitMode::Lazy && self.again.get().is_none()
    }

    /// Counts the `edges` a run took through the interpreter.
    pub(super) fn ran(&self, edges: u32) {
        self.edges.fetch_add(u64::from(edges), Ordering::Relaxed);
    }

    /// Whether the code was made (and could be).
    #[cfg(test)]
    pub(in crate::runtime) fn made(&self) -> bool {
        self.code.get().is_some_and(|code| code.is_some())
    }

    /// The code of `automaton`, made now if a run that has taken `edges`
    /// edges through the interpreter, each edge `e` `counts[e]` times,
    /// asks for it in this mode: of the edges [`chosen`] from the counts
    /// (which then start again from nothing); made again
    /// ([`Self::again`]) where the runs have since taken [`LAZY_EDGES`]
    /// more edges through the interpreter.
    #[inline]
    fn code(
        &self,
        automaton: &Automaton,
        plan: &Compiled,
        edges: u32,
        counts: &mut [u32],
    ) -> Option<&Code> {
        if let Some(again) = self.again.get() {
            return again.as_ref().or_else(|| self.code.get()?.as_ref());
        }
        let ran = u64::from(edges) + self.edges.load(Ordering::Relaxed);
        if let Some(code) = self.code.get() {
            let first = code.as_ref()?;
            let due = ran
                >= self
                    .made_at
                    .load(Ordering::Relaxed)
                    .saturating_add(LAZY_EDGES);
            if self.mode != JitMode::Lazy || counts.is_empty() || !due {
                return Some(first);
            }
            return (self.again(automaton, plan, first, counts)).or(Some(first));
        }
        let wanted = match self.mode {
            JitMode::Off => false,
            JitMode::Lazy => ran >= LAZY_EDGES,
            JitMode::Eager => true,
        };
        if !wanted {
            return None;
        }
        let chosen = chosen(automaton, counts, self.most);
        counts.fill(0);
        self.made_at.store(ran, Ordering::Relaxed);
        (self.code)
            .get_or_init(|| compile(automaton, plan, &chosen))
            .as_ref()
    }

    /// The code made again from the edges of `first` and those [`chosen`]
    /// from `counts` (the runs' since `first` was made) that it does not
    /// hold: a program whose runs go on to other loops (a second pass,
    /// another phase) than those it ran when the first was made.
    #[cold]
    fn again(
        &self,
        automaton: &Automaton,
        plan: &Compiled,
        first: &Code,
        counts: &[u32],
    ) -> Option<&Code> {
        let mut edges = first.chosen();
        let more = chosen(automaton, counts, automaton.len());
        edges.extend(
            more.into_iter()
                .filter(|&e| !first.holds(e))
                .take(self.most),
        );
        (self.again)
            .get_or_init(|| compile(automaton, plan, &edges))
            .as_ref()
    }
}

/// The code of the edges `chosen` of `automaton`, the ACTs of `plan`
/// that it does itself ([`code_act`]) and its compiled detectors done in
/// it.
fn compile(automaton: &Automaton, plan: &Compiled, chosen: &[u32]) -> Option<Code> {
    let acts = |row: u32| code_act(plan, row);
    let scripts = plan.scripts().map(|(scripts, _)| scripts);
    let detectors = |fast: u32| scripts?.fast_at(fast);
    codegen::compile(automaton, chosen, &HELPERS, &acts, &detectors)
}

/// An ACT the code does itself (where its checks pass; else the helper
/// applies it as the interpreter does).
#[derive(Clone, Copy, Debug)]
pub(super) enum CodeAct {
    /// A store of array or matrix cells.
    Store(ArrayStore),
    /// `SET(p, value)`, the value one term or the sum of two.
    Set(u32, (Term, Option<Term>)),
}

/// What the code does itself of the ACT of applier row `row` of `plan`,
/// if anything: a `SET` of a value in terms
/// ([`cnpi::program::flat::Flat::terms`]), which
/// [`Machine::apply`] evaluates before anything else but the affine form
/// (the same value), or a compiled store of cells.
pub(super) fn code_act(plan: &Compiled, row: u32) -> Option<CodeAct> {
    let Op::Act(act) = plan.op(row as RowId) else {
        return None;
    };
    match (&act.set, &act.compiled) {
        (Some((p, value)), _) => Some(CodeAct::Set(u32::try_from(*p).ok()?, value.terms()?)),
        (None, Some(compiled)) => compiled.array_store().map(CodeAct::Store),
        (None, None) => None,
    }
}

/// The at most `most` edges of `automaton` to make into code, where each
/// edge `e` ran `counts[e]` times: by their runs, an edge of the empty
/// context also counting the runs of the edges with activations held
/// that start where it starts or return where it starts to one they hold
/// (which the code runs on the edges of the empty context, those
/// activations put on the stack: [`onto_code`]) but the most of one such
/// edge (which, chosen itself, runs them), so that a program whose runs
/// spread over many contexts (a recursion, each depth its own) still has
/// the positions it runs most in the code, and a loop that runs in one
/// context has its own edges there. Without counts, the edges of the
/// empty context first, then the others, each in their order.
fn chosen(automaton: &Automaton, counts: &[u32], most: usize) -> Vec<u32> {
    let mut chosen: Vec<u32> = (0..automaton.len() as u32).collect();
    let context = |e: u32| automaton.edge(e).map_or(NONE, |edge| edge.context);
    if counts.is_empty() {
        chosen.sort_by_key(|&e| context(e) != 0);
    } else {
        // Per edge, its runs with those counted on it, and the most of one
        // edge counted on it.
        let mut runs = vec![(0u64, 0u64); automaton.len()];
        let mut count_at = |e: Option<u32>, count: u32, own: bool| {
            if let Some((sum, most)) = e.and_then(|e| runs.get_mut(e as usize)) {
                *sum += u64::from(count);
                if !own {
                    *most = (*most).max(u64::from(count));
                }
            }
        };
        for (e, &count) in counts.iter().enumerate() {
            let Some(edge) = automaton.edge(e as u32).filter(|_| count > 0) else {
                continue;
            };
            count_at(Some(e as u32), count, true);
            if edge.context == 0 {
                continue;
            }
            count_at(automaton.index_at(edge.start), count, false);
            let resumes = automaton.context(edge.context);
            for moved in automaton.moves(edge) {
                if let Move::Pop { depth } = moved.what
                    && let Some(&at) = resumes.get(depth as usize)
                {
                    count_at(automaton.index_at(at), count, false);
                }
            }
        }
        let runs: Vec<u64> = runs.into_iter().map(|(sum, most)| sum - most).collect();
        chosen.retain(|&e| runs[e as usize] > 0);
        chosen.sort_by_key(|&e| (std::cmp::Reverse(runs[e as usize]), context(e) != 0));
    }
    chosen.truncate(most);
    chosen
}

/// Where the code goes on at edge `e`, which it does not hold (`None`
/// where it holds it, or cannot go on): the edge of the empty context
/// that starts where `e` starts, if the code holds it, with the
/// activations `held` in `e`'s context put on `stack`, as the
/// interpreter puts them where an edge's checks fail.
pub(super) fn onto_code(
    code: &Code,
    automaton: &Automaton,
    e: u32,
    stack: &mut Stack,
    held: &[Running; CONTEXT],
) -> Option<u32> {
    let edge = automaton.edge(e)?;
    if edge.context == 0 || code.holds(e) {
        return None;
    }
    let empty = automaton.index_at(edge.start).filter(|&s| code.holds(s))?;
    stack.flush(held, automaton.context(edge.context));
    Some(empty)
}

/// Where the code stopped, and why (the edge `.0`; the move `.1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Exit {
    /// Edge `.0` has not started (its checks failed, or the code does not
    /// hold it): the loop runs it.
    Stop(u32),
    /// Edge `.0`'s moves are done: the loop reads its end.
    End(u32),
    /// Move `.1` of edge `.0` failed in a helper (`.1` the number of
    /// moves: the poll), its error in [`Glue::error`].
    Fail(u32, u32),
    /// Move `.1` of edge `.0`, a loop's restart, changed nothing.
    Loops(u32, u32),
}

impl Exit {
    /// The exit as the code returns it: the kind in bits 48 to 55, the
    /// move in bits 32 to 47, the edge below.
    pub(super) fn code(self) -> u64 {
        let (kind, edge, m) = match self {
            Exit::Stop(e) => (0, e, 0),
            Exit::End(e) => (1, e, 0),
            Exit::Fail(e, m) => (2, e, m),
            Exit::Loops(e, m) => (3, e, m),
        };
        kind << 48 | u64::from(m & 0xffff) << 32 | u64::from(edge)
    }

    fn of(code: u64) -> Exit {
        let (edge, m) = (code as u32, (code >> 32) as u32 & 0xffff);
        match code >> 48 {
            0 => Exit::Stop(edge),
            1 => Exit::End(edge),
            2 => Exit::Fail(edge, m),
            _ => Exit::Loops(edge, m),
        }
    }
}

/// Where the edges go after one (the scripted loop's reading of an end,
/// which the code asks of the bits it does not read).
pub(super) enum Flow {
    /// To edge `.0`.
    Edge(u32),
    /// Back to the scripted loop: true where the run's first activation
    /// returned.
    Out(bool),
}

/// The scripts' stack: the activation on top, apart from those below it.
pub(super) struct Stack {
    pub(super) top: Running,
    pub(super) below: Vec<Running>,
}

impl Stack {
    /// The stack as the code left it in `state`: its top, the activations
    /// below that it popped gone and those it pushed there.
    fn sync(&mut self, state: &State) {
        self.top = state.top;
        self.sync_below(state);
    }

    /// The activations below the top as the code left them in `state`.
    fn sync_below(&mut self, state: &State) {
        let depth = state.depth as usize;
        if depth <= self.below.len() {
            self.below.truncate(depth);
        } else if depth <= self.below.capacity() {
            // SAFETY: the code pushes only within the capacity `refresh`
            // gave it, writing every activation up to `depth`.
            unsafe { self.below.set_len(depth) };
        }
    }

    /// Puts the activations `held` of a context that resume at `resumes`
    /// below the top.
    pub(super) fn flush(&mut self, held: &[Running; CONTEXT], resumes: &[u32]) {
        let held = held.iter().zip(resumes);
        (self.below).extend(held.map(|(running, &at)| Running { at, ..*running }));
    }
}

/// An activation on the scripts' stack (laid out for the generated code,
/// which reads and writes it).
#[derive(Clone, Copy)]
#[repr(C)]
pub(super) struct Running {
    pub(super) entry: u32,
    /// Its next step in the scripts.
    pub(super) at: u32,
    /// The change counter when it started.
    pub(super) version: u64,
}

/// What the code reads and writes: laid out for it (`repr(C)`).
#[repr(C)]
pub(super) struct State {
    /// The step budget left.
    pub(super) left: u64,
    /// The budget at which the next poll falls.
    pub(super) poll_at: u64,
    /// The combinators the core was found to have (as bits).
    pub(super) required: u64,
    /// How many activations the stack can still take (less than none
    /// where it is past its depth limit).
    pub(super) room: i64,
    /// The activations on the stack below the top, how many, and how
    /// many it has room for: the code pops them, and pushes them within
    /// that room (the loop's stack is cut or grown to `depth` where it
    /// takes over again, [`Stack::sync`]).
    pub(super) below: *mut Running,
    pub(super) depth: u64,
    pub(super) capacity: u64,
    pub(super) pointers: *mut i64,
    /// The store's change counter.
    pub(super) version: *mut u64,
    /// The regions the code reads, by [`Code::regions`].
    pub(super) regions: [RawRegion; REGIONS],
    /// `_resume`.
    pub(super) resume: i64,
    /// The activation on top.
    pub(super) top: Running,
    /// The activations held apart from the stack.
    pub(super) held: [Running; CONTEXT],
    /// The [`Glue`] of the call.
    glue: *mut c_void,
}

impl State {
    /// A state holding `top` (and copies of it).
    pub(super) fn new(top: Running) -> State {
        State {
            left: 0,
            poll_at: 0,
            required: 0,
            room: 0,
            below: std::ptr::null_mut(),
            depth: 0,
            capacity: 0,
            pointers: std::ptr::null_mut(),
            version: std::ptr::null_mut(),
            regions: [RawRegion::NONE; REGIONS],
            resume: 0,
            top,
            held: [top; CONTEXT],
            glue: std::ptr::null_mut(),
        }
    }
}

/// The functions the code calls.
pub(super) struct Helpers {
    /// Move `.2` of edge `.1` as the interpreter takes it: 1 where it
    /// fails.
    step: unsafe extern "C" fn(*mut State, u32, u32) -> u32,
    /// The poll: 1 where the run is to stop.
    poll: unsafe extern "C" fn(*mut State) -> u32,
    /// The edge after edge `.1`, whose end reads a bit (through the
    /// encoder, or a diagram the code does not lay out) as the interpreter
    /// reads it: [`NONE`] where that fails.
    next: unsafe extern "C" fn(*mut State, u32) -> u32,
}

static HELPERS: Helpers = Helpers { step, poll, next };

/// What the helpers work with during a call of the code.
struct Glue<'a, 'm, 'o, 'r> {
    machine: &'a mut Machine<'m, 'o, 'r>,
    scripts: &'m Scripts,
    automaton: &'m Automaton,
    stack: &'a mut Stack,
    code: &'m Code,
    error: Option<Diagnostic>,
}

impl Glue<'_, '_, '_, '_> {
    /// Fills `state` with where the store's pointers, change counter and
    /// regions are now, `_resume`, the combinators and the stack below
    /// the top: false where the code cannot run on them (fewer pointers
    /// than it reads).
    fn refresh(&mut self, state: &mut State) -> bool {
        let machine = &mut *self.machine;
        for (raw, &data) in state.regions.iter_mut().zip(&self.code.regions) {
            *raw = machine.store.raw_region(data);
        }
        state.resume = machine.store.frames().resume();
        state.required = u64::from(machine.required);
        let (max_depth, depth) = (machine.store.limits().max_depth, self.stack.below.len());
        state.room = i64::try_from(max_depth).unwrap_or(i64::MAX) - depth as i64;
        let below = &mut self.stack.below;
        (state.below, state.depth) = (below.as_mut_ptr(), depth as u64);
        state.capacity = below.capacity() as u64;
        let (pointers, version) = machine.store.pointers_and_version();
        state.pointers = pointers.as_mut_ptr();
        state.version = version;
        pointers.len() >= self.code.pointers
    }
}

/// [`Helpers::step`].
unsafe extern "C" fn step(state: *mut State, edge: u32, m: u32) -> u32 {
    // SAFETY: the code passes the state it was called with, whose glue
    // is the caller's, alive for the call and used by nothing else.
    let state = unsafe { &mut *state };
    let glue = unsafe { &mut *(state.glue as *mut Glue) };
    let Some(what) = (glue.automaton.edge(edge))
        .and_then(|e| glue.automaton.moves(e).get(m as usize))
        .map(|moved| moved.what)
    else {
        glue.error = Some(cnpi::env::internal("the code took a move no edge has"));
        return 1;
    };
    glue.stack.sync(state);
    let (scripts, automaton) = (glue.scripts, glue.automaton);
    let ran = (glue.machine).take(scripts, automaton, what, glue.stack, &mut state.held);
    state.top = glue.stack.top;
    glue.refresh(state);
    match ran {
        Ok(()) => 0,
        Err(error) => {
            glue.error = Some(error);
            1
        }
    }
}

/// [`Helpers::poll`].
unsafe extern "C" fn poll(state: *mut State) -> u32 {
    // SAFETY: as in `step`.
    let state = unsafe { &mut *state };
    let glue = unsafe { &mut *(state.glue as *mut Glue) };
    match glue.machine.store.poll() {
        Ok(()) => {
            state.poll_at = state.left.saturating_sub(POLL_EVERY);
            0
        }
        Err(error) => {
            glue.error = Some(error);
            1
        }
    }
}

/// [`Helpers::next`].
unsafe extern "C" fn next(state: *mut State, edge: u32) -> u32 {
    // SAFETY: as in `step`.
    let state = unsafe { &mut *state };
    let glue = unsafe { &mut *(state.glue as *mut Glue) };
    let (scripts, automaton) = (glue.scripts, glue.automaton);
    // Not a return: the stack is not read.
    match glue.machine.end(scripts, automaton, edge, glue.stack) {
        Ok(Flow::Edge(next)) => {
            // The top is the code's (in its registers), the stack below
            // it the state's.
            glue.stack.sync_below(state);
            match onto_code(glue.code, automaton, next, glue.stack, &state.held) {
                Some(empty) => {
                    glue.refresh(state);
                    empty
                }
                None => next,
            }
        }
        Ok(Flow::Out(_)) => {
            glue.error = Some(cnpi::env::internal("the code read a return as a bit"));
            NONE
        }
        Err(error) => {
            glue.error = Some(error);
            NONE
        }
    }
}

impl<'m> Machine<'m, '_, '_> {
    /// The code of `automaton`, if this run is to use it (made now if it
    /// is due): where it was judged not worth entering, again once the
    /// interpreter has run [`JUDGED_AGAIN`] edges since (the run may have
    /// moved on to edges the code holds), judged afresh.
    #[inline]
    pub(super) fn code(&mut self, automaton: &'m Automaton) -> Option<&'m Code> {
        if !worth(self.code_entries, self.code_steps) {
            if self.edges_run.wrapping_sub(self.code_off) < JUDGED_AGAIN {
                return None;
            }
            (self.code_entries, self.code_steps) = (0, 0);
        }
        (self.jit).code(automaton, self.plan, self.edges_run, &mut self.counts)
    }

    /// Whether the code is still worth entering ([`worth`]); where not,
    /// noted when.
    pub(super) fn still_worth(&mut self) -> bool {
        let worth = worth(self.code_entries, self.code_steps);
        if !worth {
            self.code_off = self.edges_run;
        }
        worth
    }

    /// Runs `code` from edge `edge`, `state` holding the activations held
    /// apart and `stack`'s top: where it stopped; the error of a move
    /// that failed, with the steps after it given back.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn jitted(
        &mut self,
        code: &'m Code,
        scripts: &'m Scripts,
        automaton: &'m Automaton,
        edge: u32,
        stack: &mut Stack,
        state: &mut State,
        left: &mut u64,
        poll_at: &mut u64,
    ) -> Result<Exit, Diagnostic> {
        (state.left, state.poll_at, state.top) = (*left, *poll_at, stack.top);
        let mut glue = Glue {
            machine: &mut *self,
            scripts,
            automaton,
            stack: &mut *stack,
            code,
            error: None,
        };
        if !glue.refresh(state) {
            return Ok(Exit::Stop(edge));
        }
        state.glue = (&mut glue as *mut Glue).cast();
        // SAFETY: the code reads and writes `state` and what it points to
        // (the store's pointers, counter and regions as `refresh` found
        // them from the store borrowed mutably, again after each helper;
        // it writes an array's cells only inside its length), and the
        // helpers reach the
        // machine only through `glue`, which lives through the call.
        let exit = Exit::of(unsafe { (code.entry)(state, edge) });
        state.glue = std::ptr::null_mut();
        glue.stack.sync(state);
        let error = glue.error.take();
        (self.code_entries, self.code_steps) = (
            self.code_entries.saturating_add(1),
            (self.code_steps).saturating_add(left.saturating_sub(state.left)),
        );
        (*left, *poll_at) = (state.left, state.poll_at);
        let (Exit::Fail(e, m) | Exit::Loops(e, m)) = exit else {
            return Ok(exit);
        };
        let edge = automaton.edge(e);
        let moves = edge.map_or(&[][..], |edge| automaton.moves(edge));
        let steps = edge.map_or(0, |edge| edge.steps);
        let done = moves.get(m as usize).map_or(steps, |moved| moved.done);
        // The steps after the one that failed are not taken.
        *left += u64::from(steps - done);
        Err(match (exit, error) {
            (Exit::Fail(..), Some(error)) => error,
            (Exit::Fail(..), None) => cnpi::env::internal("a helper failed without an error"),
            _ => {
                let e = scripts.entry(stack.top.entry);
                self.loops(e.combinator, e.owner)
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::JitMode;

    /// `CNPI_JIT` as looked up by `var`: only the values it names change
    /// the mode, and only that variable is asked for.
    #[test]
    fn the_mode_asked() {
        let asked = |value: Option<&str>| {
            JitMode::asked(|name| value.filter(|_| name == "CNPI_JIT").map(Into::into))
        };
        assert_eq!(asked(None), JitMode::Lazy);
        assert_eq!(asked(Some("0")), JitMode::Off);
        assert_eq!(asked(Some("off")), JitMode::Off);
        assert_eq!(asked(Some("eager")), JitMode::Eager);
        assert_eq!(asked(Some("yes")), JitMode::Lazy);
    }
}
