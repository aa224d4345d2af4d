//! The world at each recorded step, kept small: a full snapshot every
//! [`CHUNK`] frames and, for the frames between, only what changed.
//!
//! A frame is the world as the core sees it at one recorded step (before
//! the program bound to the chosen slot runs); one more frame, the end,
//! is the world after the last recorded step. The world is the pointers,
//! the environment's [`Picture`], the `treerec` state stack and the call
//! frames of normal programs run on explicit frames (each frame's resume
//! point and the pointers a state call saved, which its return puts
//! back). A frame
//! whose store did not change (its change counter says so) costs nothing;
//! otherwise its changes are a flat list of operations, read by the page:
//!
//! | op | operands | meaning |
//! |---|---|---|
//! | 0 | `i v` | pointer `i` is `v` |
//! | 1 | `p i cell` | cell `i` of panel `p` is `cell` |
//! | 2 | `p panel` | panel `p` is `panel` (its shape or length changed) |
//! | 3 | `n` | there are `n` panels |
//! | 4 | `n` | the state stack keeps its first `n` entries |
//! | 5 | `sentinel values` | an entry is pushed on the state stack |
//! | 6 | `n` | the call frames keep their first `n` |
//! | 7 | `resume saved` | a call frame is pushed |
//!
//! Each chunk's snapshot and changes are JSON texts, parsed by the page
//! only when a frame of that chunk is shown, so a run of a million steps
//! opens fast.
//!
//! The log is bounded, in memory as in the page: the environment's panels
//! are drawn only while they hold at most [`MAX_CELLS`] cells (a larger
//! world, such as an array of 10^5 elements, would make every step cost
//! its size: its pointers and state stack are still drawn), and the log
//! holds at most [`MAX_BYTES`] of text, after which the recorder stops
//! recording steps. [`WorldLog::left_out`] says what was left out, and the
//! page shows it.

use cnpi::env::{Mark, Panel, Picture, Shape, State};
use cnpi::exec::Store;
use serde_json::{Value, json};

/// Frames per chunk: a snapshot opens each.
pub const CHUNK: usize = 1024;

/// The most cells of the environment's panels a page draws.
pub const MAX_CELLS: usize = 1 << 14;

/// The most bytes of JSON text the log holds (snapshots and changes).
pub const MAX_BYTES: usize = 64 << 20;

/// The world as the page draws it, with the environment's state it was
/// drawn from (a step that did not change the state is not drawn again).
/// Without panels (`state` is `None`), only the pointers and the stack.
struct World {
    pointers: Vec<i64>,
    state: Option<State>,
    panels: Picture,
    stack: Vec<(bool, Vec<i64>)>,
    /// The call frames, bottom first: resume point and saved pointers.
    frames: Vec<(i64, Vec<i64>)>,
}

impl World {
    fn of(store: &Store, panels: bool) -> World {
        World {
            pointers: store.pointers().to_vec(),
            state: panels.then(|| store.state().clone()),
            panels: if panels {
                store.state().picture()
            } else {
                Picture::new()
            },
            stack: (store.states().entries())
                .map(|(sentinel, values)| (sentinel, values.to_vec()))
                .collect(),
            frames: (store.frames().frames())
                .map(|(resume, saved)| (resume, saved.to_vec()))
                .collect(),
        }
    }

    fn to_json(&self) -> Value {
        json!({
            "p": self.pointers.iter().map(|&v| int(v)).collect::<Vec<_>>(),
            "panels": self.panels.iter().map(panel).collect::<Vec<_>>(),
            "s": self.stack.iter().map(|(s, v)| entry(*s, v)).collect::<Vec<_>>(),
            "f": self.frames.iter().map(|(r, v)| json!([int(*r), ints(v)])).collect::<Vec<_>>(),
        })
    }

    /// Becomes the world `store` holds, writing the operations that do so.
    fn update(&mut self, store: &Store, ops: &mut Vec<Value>) {
        for (i, (old, &new)) in self.pointers.iter_mut().zip(store.pointers()).enumerate() {
            if *old != new {
                ops.extend([0.into(), i.into(), int(new)]);
                *old = new;
            }
        }
        if let Some(state) = &mut self.state
            && store.state() != state
        {
            *state = store.state().clone();
            let panels = state.picture();
            self.changes(&panels, ops);
            self.panels = panels;
        }
        let stack: Vec<_> = store.states().entries().collect();
        follow(&mut self.stack, &stack, [4, 5], |s| u8::from(s).into(), ops);
        let frames: Vec<_> = store.frames().frames().collect();
        follow(&mut self.frames, &frames, [6, 7], int, ops);
    }

    /// The operations that turn the panels into `next`.
    fn changes(&self, next: &Picture, ops: &mut Vec<Value>) {
        if self.panels.len() != next.len() {
            ops.extend([3.into(), next.len().into()]);
        }
        for (p, new) in next.iter().enumerate() {
            match self.panels.get(p) {
                Some(old) if old.shape == new.shape && old.cells.len() == new.cells.len() => {
                    for (i, (a, b)) in old.cells.iter().zip(&new.cells).enumerate() {
                        if a != b {
                            ops.extend([1.into(), p.into(), i.into(), cell(b)]);
                        }
                    }
                }
                _ => ops.extend([2.into(), p.into(), panel(new)]),
            }
        }
    }
}

/// Makes `kept`, a stack of entries (a head and values), equal to `now`,
/// writing the operations `keep` (the first `n` entries stay) and `push`
/// (an entry is pushed, its head drawn by `head`).
fn follow<H: Copy + PartialEq>(
    kept: &mut Vec<(H, Vec<i64>)>,
    now: &[(H, &[i64])],
    [keep, push]: [u8; 2],
    head: fn(H) -> Value,
    ops: &mut Vec<Value>,
) {
    let same = (kept.iter().zip(now))
        .take_while(|((a, x), (b, y))| a == b && x.as_slice() == *y)
        .count();
    if same < kept.len() {
        ops.extend([keep.into(), same.into()]);
        kept.truncate(same);
    }
    for &(h, values) in &now[same..] {
        ops.extend([push.into(), head(h), ints(values)]);
        kept.push((h, values.to_vec()));
    }
}

/// An integer as the page reads it: a number when a JavaScript number
/// holds it exactly, else its decimal text.
fn int(v: i64) -> Value {
    const EXACT: i64 = 1 << 53;
    if (-EXACT..=EXACT).contains(&v) {
        v.into()
    } else {
        v.to_string().into()
    }
}

fn ints(values: &[i64]) -> Value {
    Value::Array(values.iter().map(|&v| int(v)).collect())
}

fn entry(sentinel: bool, values: &[i64]) -> Value {
    json!([u8::from(sentinel), ints(values)])
}

fn cell(cell: &Mark) -> Value {
    match cell {
        Mark::Int(v) => int(*v),
        Mark::Sym(name) => (*name).into(),
    }
}

fn panel(panel: &Panel) -> Value {
    let mut object = json!({
        "t": panel.title,
        "c": panel.cells.iter().map(cell).collect::<Vec<_>>(),
    });
    let shape = match &panel.shape {
        Shape::Row { pointers } => json!({"k": "row", "p": pointers}),
        Shape::Grid {
            rows,
            columns,
            pointers,
        } => json!({"k": "grid", "rows": rows, "cols": columns, "p": pointers}),
        Shape::Named { names } => json!({"k": "named", "names": names}),
        Shape::Graph { edges } => json!({"k": "graph", "edges": edges}),
    };
    if let (Value::Object(object), Value::Object(shape)) = (&mut object, shape) {
        object.extend(shape);
    }
    object
}

/// One chunk: the snapshot of its first frame as JSON text and the
/// changes of the others as JSON text, `[frame, op...]` per changed frame
/// (frames counted in the chunk), comma-separated.
struct Chunk {
    snapshot: String,
    changes: String,
}

/// The world of every frame recorded so far.
#[derive(Default)]
pub struct WorldLog {
    chunks: Vec<Chunk>,
    frames: usize,
    /// The world of the last frame, and its store's change counter.
    last: Option<(World, u64)>,
    ended: bool,
    /// Whether the panels are drawn; decided at the first frame.
    panels: Option<bool>,
    /// Bytes of text held.
    bytes: usize,
    /// What the page leaves out, in sentences.
    left_out: Vec<String>,
}

impl WorldLog {
    /// Records the next frame.
    pub fn step(&mut self, store: &Store) {
        let frame = self.frames;
        self.frames += 1;
        let version = store.version();
        let panels = *self.panels.get_or_insert_with(|| {
            let cells: usize = (store.state().picture().iter())
                .map(|panel| panel.cells.len())
                .sum();
            let drawn = cells <= MAX_CELLS;
            if !drawn {
                self.left_out.push(format!(
                    "The environment has {cells} cells, more than the {MAX_CELLS} a page draws: only the pointers and the state stack are shown."
                ));
            }
            drawn
        });
        if frame.is_multiple_of(CHUNK) {
            let world = World::of(store, panels);
            let snapshot = world.to_json().to_string();
            self.bytes += snapshot.len();
            self.chunks.push(Chunk {
                snapshot,
                changes: String::new(),
            });
            self.last = Some((world, version));
            return;
        }
        let Some((last, seen)) = self.last.as_mut() else {
            return;
        };
        if *seen == version {
            return;
        }
        let mut ops = vec![(frame % CHUNK).into()];
        last.update(store, &mut ops);
        if ops.len() > 1
            && let Some(chunk) = self.chunks.last_mut()
        {
            let text = Value::Array(ops).to_string();
            self.bytes += text.len() + 1;
            if !chunk.changes.is_empty() {
                chunk.changes.push(',');
            }
            chunk.changes.push_str(&text);
        }
        *seen = version;
    }

    /// Records the end frame: the world after the last recorded step.
    pub fn end(&mut self, store: &Store) {
        self.step(store);
        self.ended = true;
    }

    pub fn ended(&self) -> bool {
        self.ended
    }

    /// Whether the log holds [`MAX_BYTES`] or more: no more steps are
    /// recorded then.
    pub fn full(&self) -> bool {
        self.bytes >= MAX_BYTES
    }

    /// The bytes of text the log holds.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// What the page leaves out of the world, in sentences.
    pub fn left_out(&self) -> &[String] {
        &self.left_out
    }

    /// The frames recorded, the end frame included.
    pub fn frames(&self) -> usize {
        self.frames
    }

    /// Every chunk as `[snapshot, changes as JSON text]`.
    pub fn to_json(&self) -> Value {
        (self.chunks.iter())
            .map(|chunk| json!([&chunk.snapshot, format!("[{}]", chunk.changes)]))
            .collect()
    }
}
