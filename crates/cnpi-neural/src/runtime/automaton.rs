//! The decision-table blocks: the scripts' steps between two reads of a
//! condition bit, flattened into one automaton.
//!
//! An activation's script ([`super::script`]) is fixed once its first bit
//! is known, and so is every step after it up to the next activation whose
//! first bit must be read: the actions, the activations started and
//! returned from, the steps counted. An [`Automaton`] holds these runs as
//! **edges**: an edge is a flat array of [`Move`]s from a script position
//! to its end ([`End`]): the first bit of a new activation to read, whose
//! table's row for each bit is the next edge, known in advance; a return
//! to an activation started before the edges ran; or the next edge, where
//! a long run is cut. An edge also knows the activations started above
//! the stack in the edges before it that have not returned yet (its
//! **context**): their returns are moves too, to the positions they
//! resume at, so a `for` loop's body, which calls its `if` and returns
//! to the loop, runs as two edges, one per condition bit, without a push
//! or a pop of the stack. Those activations are kept apart (only the
//! change counter of each), up to [`CONTEXT`] of them, and put on the
//! stack where the edges stop.
//!
//! A `while` or `if` body whose conditions are all read from their tables
//! is then a few edges run one after another without the scripted loop's
//! dispatch per step: an edge's steps are counted at once, a NOP is no
//! move at all, and what the loop checks at each start (the step budget,
//! the stack's depth, the core's combinators) is checked once for the
//! whole edge, which the machine runs only where every check passes;
//! elsewhere the scripted loop takes the steps one by one and gives the
//! error where it falls. Every move is the step the scripted loop takes
//! at that position, with its one check that depends on the data (a loop
//! that changed nothing) in the same place, so answers, steps and errors
//! are unchanged; an ACT that fails gives back the steps after it. Steps
//! the automaton does not hold (an applier that does not parse, a slot no
//! row runs, the core past its depth) end an edge, and the scripted loop
//! takes them.

use std::collections::HashMap;

use foldhash::fast::FixedState;

use super::row::Op;
use super::script::{Action, First, Scripts};
use crate::detector::{DiagramNode, Feature};
use crate::memory::Builtin;

/// The most steps one edge takes (a longer run is cut into several).
const MAX_STEPS: u32 = 64;

/// The most activations a context holds (past them, they are put on the
/// stack: [`Move::Flush`]).
pub(super) const CONTEXT: usize = 8;

/// The most edges written for contexts that are not empty (a larger
/// program runs the rest on the stack, through the scripted loop).
const MAX_EDGES: usize = 1 << 14;

/// No pointer in a [`Move::Set`]; no activation held ([`Move::Restart`]).
pub(super) const NONE: u32 = u32::MAX;

/// The `requires` of an edge that never runs.
const NEVER: u64 = 1 << 32;

/// A [`Hop`]'s target that is an edge (the edge's number in the low
/// bits), not another hop.
pub(super) const LEAF: u32 = 1 << 31;

/// The relations a diagram's feature can have
/// (`cnpi::program::Relation`).
const STATES: usize = 5;

/// A node of a detector's diagram laid out for one edge's end: its
/// feature's state `s` leads to `to[s]`, the next hop, or where the
/// table's bit is settled below it, the next edge for that bit (with
/// [`LEAF`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct Hop {
    pub(super) feature: Feature,
    pub(super) to: [u32; STATES],
}

/// What one move of an edge does (a step, or a return, which takes none).
#[derive(Clone, Copy, Debug)]
pub(super) enum Move {
    /// Applies the ACT of applier row `.0` (parsed in the plan).
    Act(u32),
    /// `SET(p, P[q] + k)` (`SET(p, k)` where `q` is [`NONE`]), done from
    /// the pointers; where that cannot give the result, the ACT of
    /// applier `row` as the plan holds it.
    Set {
        p: u32,
        q: u32,
        k: i64,
        row: u32,
    },
    Builtin(Builtin),
    /// Starts the activation of entry `next` above the stepping one,
    /// which the context holds at `depth`.
    Call {
        next: u32,
        depth: u32,
    },
    /// Starts the activation of entry `next` in place of the stepping
    /// one, which returned.
    Tail {
        next: u32,
    },
    /// Restarts the stepping activation's frame as entry `next`: a loop
    /// (`same`) must have changed something since the activation started;
    /// above it (held at `depth`) or in its place ([`NONE`]).
    Restart {
        next: u32,
        same: bool,
        depth: u32,
    },
    /// The stepping activation returns to the one the context holds at
    /// `depth` (its return step counted by the move before).
    Pop {
        depth: u32,
    },
    /// Puts the activations of context `.0` on the stack.
    Flush(u32),
}

/// A move and the steps its edge has taken when it is done.
#[derive(Clone, Copy, Debug)]
pub(super) struct Moved {
    pub(super) done: u32,
    pub(super) what: Move,
}

/// Where an edge ends.
#[derive(Clone, Copy, Debug)]
pub(super) enum End {
    /// The activation of entry `entry`, just started, reads its first bit
    /// (from fast detector `fast` of the scripts, if it has one, else
    /// [`NONE`]): the next edge is `next[bit]`.
    Bit {
        entry: u32,
        fast: u32,
        next: [u32; 2],
    },
    /// As [`End::Bit`], from a diagram none of whose features can fail,
    /// laid out for the edge from [`Automaton::hop`] `root` on
    /// (`_resume` read where `resume`).
    Walk { root: u32, resume: bool },
    /// The stepping activation returned to one on the stack.
    Return,
    /// The next edge.
    Next(u32),
}

/// One edge: `len` moves from `from` in [`Automaton::moves`] taking
/// `steps` steps, then its end.
#[derive(Clone, Copy, Debug)]
pub(super) struct Edge {
    from: u32,
    len: u32,
    pub(super) steps: u32,
    /// The script position it starts at.
    pub(super) start: u32,
    /// The activations held apart from the stack when it starts.
    pub(super) context: u32,
    /// The combinators (by their table row, as bits) it starts; [`NEVER`]
    /// for one past those bits (or an edge the automaton does not hold),
    /// which the machine never has.
    pub(super) requires: u64,
    /// The most activations it holds above the stack when it starts one
    /// (what the depth check of that start counts past the stack).
    pub(super) room: u32,
    pub(super) end: End,
}

/// Every edge of a program's scripts (see the module documentation).
pub(super) struct Automaton {
    moves: Vec<Moved>,
    edges: Vec<Edge>,
    /// The diagrams laid out for the edges' ends ([`End::Walk`]).
    hops: Vec<Hop>,
    /// Per context, the positions its activations resume at, from the
    /// bottom.
    contexts: Vec<Box<[u32]>>,
    /// Per script position, its edge in the empty context.
    by_position: Vec<u32>,
}

impl Automaton {
    /// The edges of `scripts`, whose ACT rows do `ops`, from every
    /// position a run reaches after a bit is read.
    pub(super) fn new(scripts: &Scripts, ops: &[Op]) -> Automaton {
        let mut builder = Builder {
            scripts,
            ops,
            automaton: Automaton {
                moves: Vec::new(),
                edges: Vec::new(),
                hops: Vec::new(),
                contexts: vec![Box::new([])],
                by_position: vec![NONE; scripts.positions()],
            },
            keys: HashMap::default(),
            contexts: HashMap::from_iter([(Vec::new(), 0)]),
            todo: Vec::new(),
        };
        for entry in 0..scripts.entries() {
            for at in starts(scripts, entry) {
                builder.key(at, &[]);
            }
        }
        while let Some(edge) = builder.todo.pop() {
            builder.fill(edge);
        }
        builder.automaton
    }

    /// The edge at script position `at` in the empty context, if there is
    /// one, by its number.
    #[inline(always)]
    pub(super) fn index_at(&self, at: u32) -> Option<u32> {
        let edge = *self.by_position.get(at as usize)?;
        (self.edges.get(edge as usize)).map(|_| edge)
    }

    /// How many edges there are.
    pub(super) fn len(&self) -> usize {
        self.edges.len()
    }

    /// How many script positions there are (an edge may start at each).
    pub(super) fn positions(&self) -> usize {
        self.by_position.len()
    }

    /// Edge `edge`.
    #[inline(always)]
    pub(super) fn edge(&self, edge: u32) -> Option<&Edge> {
        self.edges.get(edge as usize)
    }

    /// Hop `hop` of a diagram laid out.
    #[inline(always)]
    pub(super) fn hop(&self, hop: u32) -> Option<&Hop> {
        self.hops.get(hop as usize)
    }

    /// The moves of `edge`.
    #[inline(always)]
    pub(super) fn moves(&self, edge: &Edge) -> &[Moved] {
        let from = edge.from as usize;
        (self.moves)
            .get(from..from + edge.len as usize)
            .unwrap_or_default()
    }

    /// How many edges end reading a laid-out diagram that reads
    /// `_resume`.
    #[cfg(test)]
    pub(super) fn walks_reading_resume(&self) -> usize {
        (self.edges.iter())
            .filter(|edge| matches!(edge.end, End::Walk { resume: true, .. }))
            .count()
    }

    /// How many contexts the edges hold (the empty one included).
    #[cfg(test)]
    pub(super) fn contexts(&self) -> usize {
        self.contexts.len()
    }

    /// Where the activations of `context` resume, from the bottom.
    pub(super) fn context(&self, context: u32) -> &[u32] {
        (self.contexts.get(context as usize)).map_or(&[], |c| c)
    }
}

/// The positions an activation of `entry` starts its script at, for
/// bit 0 and bit 1.
pub(super) fn starts(scripts: &Scripts, entry: u32) -> [u32; 2] {
    match scripts.entry(entry).first {
        First::Known(at) => [at, at],
        First::Fast(_, starts) | First::Detect(starts) => starts,
    }
}

/// What [`Automaton::new`] works with.
struct Builder<'a> {
    scripts: &'a Scripts,
    ops: &'a [Op],
    automaton: Automaton,
    /// The edge of each (position, context) made so far (hashed with
    /// foldhash: std's SipHash took a quarter of a `dfs` run at n = 256).
    keys: HashMap<(u32, u32), u32, FixedState>,
    /// Each context's number.
    contexts: HashMap<Vec<u32>, u32, FixedState>,
    /// Edges still to be written.
    todo: Vec<u32>,
}

impl Builder<'_> {
    /// The edge from position `at` with `context` held (made, to be
    /// written, if new).
    fn key(&mut self, at: u32, context: &[u32]) -> u32 {
        let context = self.key_context(context);
        if let Some(&edge) = self.keys.get(&(at, context)) {
            return edge;
        }
        let edge = self.automaton.edges.len() as u32;
        self.automaton.edges.push(Edge {
            from: 0,
            len: 0,
            steps: 0,
            start: at,
            context,
            requires: NEVER,
            room: 0,
            end: End::Return,
        });
        self.keys.insert((at, context), edge);
        if context == 0 {
            if let Some(slot) = self.automaton.by_position.get_mut(at as usize) {
                *slot = edge;
            }
            self.todo.push(edge);
        } else if self.automaton.edges.len() <= MAX_EDGES {
            self.todo.push(edge);
        }
        edge
    }

    /// The number of `context` (given one if new).
    fn key_context(&mut self, context: &[u32]) -> u32 {
        if let Some(&c) = self.contexts.get(context) {
            return c;
        }
        let c = self.automaton.contexts.len() as u32;
        self.automaton.contexts.push(context.into());
        self.contexts.insert(context.to_vec(), c);
        c
    }

    /// Writes edge `edge` (left never to run if its first step is one the
    /// automaton does not hold).
    fn fill(&mut self, edge: u32) {
        let Edge { start, context, .. } = self.automaton.edges[edge as usize];
        let from = self.automaton.moves.len();
        let mut walk = Walk {
            held: self.automaton.context(context).to_vec(),
            flushed: 0,
            steps: 0,
            requires: 0,
            room: 0,
        };
        let mut at = start;
        let end = loop {
            if walk.steps == MAX_STEPS {
                break End::Next(self.key(at, &walk.held));
            }
            let step = self.scripts.step(at);
            let what = match step.action {
                Action::Act(row) => Some(act(self.ops, row)),
                Action::Builtin(builtin) => Some(Move::Builtin(builtin)),
                Action::Nop => None,
                Action::Start(next) if step.ret => Some(Move::Tail { next }),
                Action::Start(next) => Some(Move::Call { next, depth: NONE }),
                Action::Restart { entry: next, same } => Some(Move::Restart {
                    next,
                    same,
                    depth: NONE,
                }),
                Action::Applier(_) | Action::NoDecision | Action::Invalid { .. } => {
                    break End::Next(self.key(at, &walk.held));
                }
            };
            walk.steps += 1;
            if let Some(what) = what
                && let Some(entry) = self.take(&mut walk, what, at + 1, step.ret)
            {
                if let First::Known(first) = self.scripts.entry(entry).first {
                    at = first;
                    continue;
                }
                let [zero, one] = starts(self.scripts, entry);
                let next = [self.key(zero, &walk.held), self.key(one, &walk.held)];
                let fast = match self.scripts.entry(entry).first {
                    First::Fast(fast, _) => fast,
                    _ => NONE,
                };
                break self.bit_end(entry, fast, next);
            }
            if !step.ret {
                at += 1;
                continue;
            }
            match walk.held.pop() {
                Some(resume) => {
                    let depth = walk.held.len() as u32;
                    self.push(&walk, Move::Pop { depth });
                    at = resume;
                }
                None => break End::Return,
            }
        };
        if walk.steps == 0 {
            return;
        }
        let len = self.automaton.moves.len() - from;
        self.automaton.edges[edge as usize] = Edge {
            from: from as u32,
            len: len as u32,
            steps: walk.steps,
            start,
            context,
            requires: walk.requires,
            room: walk.room,
            end,
        };
    }

    /// Writes move `what` of a step (whose next position is `resume`; the
    /// core's return flag `ret`): the entry it starts, if it starts one,
    /// its start counted in the depth and the combinators the edge needs;
    /// a start above the stepping activation holds that one in the
    /// context (first put on the stack with the rest if the context is
    /// full).
    fn take(&mut self, walk: &mut Walk, what: Move, resume: u32, ret: bool) -> Option<u32> {
        let next = match what {
            Move::Call { next, .. } | Move::Restart { next, .. } | Move::Tail { next } => next,
            _ => {
                self.push(walk, what);
                return None;
            }
        };
        let mut what = what;
        if !ret {
            if walk.held.len() == CONTEXT {
                let context = self.key_context(&walk.held);
                self.push(walk, Move::Flush(context));
                walk.flushed += CONTEXT as u32;
                walk.held.clear();
            }
            let depth = walk.held.len() as u32;
            what = match what {
                Move::Restart { next, same, .. } => Move::Restart { next, same, depth },
                _ => Move::Call { next, depth },
            };
            walk.held.push(resume);
            // Where the held activation is put on the stack and returned
            // to from there.
            self.key(resume, &[]);
        }
        self.push(walk, what);
        walk.room = (walk.room).max(walk.flushed + walk.held.len() as u32);
        // A combinator past the machine's 32 bits: the edge never runs
        // (its starts are then the scripted loop's).
        let combinator = self.scripts.entry(next).combinator.min(32);
        walk.requires |= 1 << combinator;
        Some(next)
    }

    /// The end of an edge where the activation of `entry` reads its first
    /// bit (from fast detector `fast`, if it has one), the next edge
    /// `next[bit]`: its diagram laid out where none of its features can
    /// fail (no read at all for a table of one bit), else [`End::Bit`].
    fn bit_end(&mut self, entry: u32, fast: u32, next: [u32; 2]) -> End {
        let Some(detector) = self.scripts.fast_at(fast) else {
            return End::Bit { entry, fast, next };
        };
        match detector.diagram() {
            None => End::Bit { entry, fast, next },
            Some(Err(constant)) => End::Next(next[usize::from(constant)]),
            Some(Ok(nodes)) => {
                let hops = &mut self.automaton.hops;
                let root = hops.len() as u32;
                hops.extend(lay_out(nodes, root, next.map(|edge| edge | LEAF)));
                let resume = detector.reads_resume();
                End::Walk { root, resume }
            }
        }
    }

    /// Appends `what` to the moves, done after `walk`'s steps.
    fn push(&mut self, walk: &Walk, what: Move) {
        self.automaton.moves.push(Moved {
            done: walk.steps,
            what,
        });
    }
}

/// What writing one edge keeps track of.
struct Walk {
    /// Where the activations held apart from the stack resume, from the
    /// bottom.
    held: Vec<u32>,
    /// How many the edge has put on the stack.
    flushed: u32,
    steps: u32,
    requires: u64,
    room: u32,
}

/// The move of the ACT of applier `row`: a `SET` from the pointers where
/// the plan holds its affine form.
fn act(ops: &[Op], row: u32) -> Move {
    match ops.get(row as usize) {
        Some(Op::Act(act)) => match act.affine {
            Some((p, q, k)) => Move::Set {
                p: p as u32,
                q: q.map_or(NONE, |q| q as u32),
                k,
                row,
            },
            None => Move::Act(row),
        },
        _ => Move::Act(row),
    }
}

/// The hops of the diagram `nodes` laid out from hop `base`, the table's
/// bit `b` leading to `to[b]`: a node's state leads to its child, or
/// where that state's bit is settled, to `to` of the bit; a child past the
/// diagram to the bit the walk of [`crate::detector::FastDetector`] gives
/// there, false.
fn lay_out(nodes: &[DiagramNode], base: u32, to: [u32; 2]) -> impl Iterator<Item = Hop> + '_ {
    nodes.iter().map(move |node| Hop {
        feature: node.feature,
        to: std::array::from_fn(|s| {
            let child = node.children as usize + s;
            match (node.leaves >> s & 1 == 1, child < nodes.len()) {
                (true, _) => to[usize::from(node.ones >> s & 1 == 1)],
                (false, true) => base + child as u32,
                (false, false) => to[0],
            }
        }),
    })
}
