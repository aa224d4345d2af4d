//! The world at each recorded step, kept small: a full snapshot every
//! [`CHUNK`] frames and, for the frames between, only what changed.
//!
//! A frame is the world as the core sees it at one recorded step (before
//! the program bound to the chosen slot runs); one more frame, the end,
//! is the world after the last recorded step. The world is the pointers,
//! the environment's [`Picture`] and the `treerec` state stack. A frame
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
//!
//! Each chunk's changes are one JSON text, parsed by the page only when a
//! frame of that chunk is shown, so a run of a million steps opens fast.

use cnpi::env::{Mark, Panel, Picture, Shape, State};
use cnpi::exec::Store;
use serde_json::{Value, json};

/// Frames per chunk: a snapshot opens each.
pub const CHUNK: usize = 1024;

/// The world as the page draws it, with the environment's state it was
/// drawn from (a step that did not change the state is not drawn again).
struct World {
    pointers: Vec<i64>,
    state: State,
    panels: Picture,
    stack: Vec<(bool, Vec<i64>)>,
}

impl World {
    fn of(store: &Store) -> World {
        World {
            pointers: store.pointers().to_vec(),
            state: store.state().clone(),
            panels: store.state().picture(),
            stack: (store.states().entries())
                .map(|(sentinel, values)| (sentinel, values.to_vec()))
                .collect(),
        }
    }

    fn to_json(&self) -> Value {
        json!({
            "p": self.pointers.iter().map(|&v| int(v)).collect::<Vec<_>>(),
            "panels": self.panels.iter().map(panel).collect::<Vec<_>>(),
            "s": self.stack.iter().map(|(s, v)| entry(*s, v)).collect::<Vec<_>>(),
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
        if store.state() != &self.state {
            let panels = store.state().picture();
            self.changes(&panels, ops);
            self.panels = panels;
            self.state = store.state().clone();
        }
        let kept = (self.stack.iter().zip(store.states().entries()))
            .take_while(|((a, x), (b, y))| a == b && x.as_slice() == *y)
            .count();
        if kept < self.stack.len() {
            ops.extend([4.into(), kept.into()]);
            self.stack.truncate(kept);
        }
        for (sentinel, values) in store.states().entries().skip(kept) {
            ops.extend([5.into(), u8::from(sentinel).into(), ints(values)]);
            self.stack.push((sentinel, values.to_vec()));
        }
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

/// One chunk: the snapshot of its first frame and the changes of the
/// others as JSON text, `[frame, op...]` per changed frame (frames counted
/// in the chunk), comma-separated.
struct Chunk {
    snapshot: Value,
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
}

impl WorldLog {
    /// Records the next frame.
    pub fn step(&mut self, store: &Store) {
        let frame = self.frames;
        self.frames += 1;
        let version = store.version();
        if frame.is_multiple_of(CHUNK) {
            let world = World::of(store);
            self.chunks.push(Chunk {
                snapshot: world.to_json(),
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
            if !chunk.changes.is_empty() {
                chunk.changes.push(',');
            }
            chunk.changes.push_str(&Value::Array(ops).to_string());
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

    /// The frames recorded, the end frame included.
    pub fn frames(&self) -> usize {
        self.frames
    }

    /// Every chunk as `[snapshot, changes as JSON text]`.
    pub fn to_json(&self) -> Value {
        (self.chunks.iter())
            .map(|chunk| json!([chunk.snapshot, format!("[{}]", chunk.changes)]))
            .collect()
    }
}
