//! Probe states: where the candidates of a hole are compared with each
//! other (observational equivalence). Each example's input gives
//! [`PER_EXAMPLE`] states: the first as a run starts (registers at their
//! initial values), the others with every register and every element of
//! every `var` drawn at random (seeded) between -2 and the example's
//! largest length plus 2; inputs keep the example's values. Two candidates
//! that agree on every probe state are one, and the earlier (smaller) one
//! stands for both.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use cnpi::env::{self, View};
use cnpi::exec::{Options, Store};
use cnpi::program::{
    Act, ActApp, ActArg, ActDecl, Cell, Color, DataKind, Direction, ParamType, PosExpr, PosKind,
    Program,
};
use cnpi::span::Span;

use crate::sketch::Example;

/// Probe states per example (the first is the start of a run).
pub const PER_EXAMPLE: usize = 8;
/// The most probe states in all: a condition's values fit one `u64`.
pub const MAX_PROBES: usize = 64;
/// The most elements of one `var` drawn at random.
const MAX_ELEMENTS: i64 = 256;

/// The probe states of a sketch.
pub struct Probes {
    stores: Vec<Store<'static>>,
}

impl Probes {
    pub fn new(program: &Program, examples: &[Example], seed: u64) -> Probes {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let per = PER_EXAMPLE.min(MAX_PROBES / examples.len().max(1)).max(1);
        let mut stores = Vec::new();
        for example in examples.iter().take(MAX_PROBES) {
            let high = example.input.len().max(1) + 2;
            for k in 0..per {
                let options = Options {
                    max_steps: u64::MAX,
                    trace: None,
                    limits: Default::default(),
                };
                let Ok(mut store) = Store::new(
                    program.env,
                    &program.pointers,
                    example.input.clone(),
                    options,
                ) else {
                    continue;
                };
                if k > 0 {
                    scramble_world(program, &mut store, &mut rng, high);
                    for p in store.pointers_mut() {
                        *p = rng.random_range(-2..=high);
                    }
                    scramble_vars(program, &mut store, &mut rng, high);
                }
                stores.push(store);
            }
        }
        Probes { stores }
    }

    pub fn len(&self) -> usize {
        self.stores.len()
    }

    pub fn is_empty(&self) -> bool {
        self.stores.is_empty()
    }

    /// The probe states, as expressions read them.
    pub fn views(&self) -> impl Iterator<Item = View<'_>> {
        self.stores.iter().map(|s| s.view())
    }
}

/// In an environment without declared memory, applies `2 * high` of its
/// ACTs that change the world (not `NOP`, `MOVE`, `SET`), each with random
/// arguments, its pointer arguments first set at random between 0 and
/// `high` (a colour, a sum, the order of the array: a condition that
/// reads them is not taken for one that does not).
fn scramble_world(program: &Program, store: &mut Store, rng: &mut ChaCha8Rng, high: i64) {
    if !super::observed_applies(program) || program.pointers.is_empty() {
        return;
    }
    let acts: Vec<&'static ActDecl> = (env::environment(program.env).acts.iter())
        .filter(|decl| !["NOP", "MOVE", "SET"].contains(&decl.name))
        .collect();
    if acts.is_empty() {
        return;
    }
    for _ in 0..2 * high {
        let decl = acts[rng.random_range(0..acts.len())];
        let mut args = Vec::new();
        for param in decl.params {
            args.push(match param {
                ParamType::Pointer => {
                    let p = rng.random_range(0..program.pointers.len());
                    store.pointers_mut()[p] = rng.random_range(0..=high);
                    ActArg::Pointer(p)
                }
                ParamType::Position => ActArg::Position(PosExpr {
                    kind: PosKind::Int(rng.random_range(0..=high)),
                    span: Span::default(),
                }),
                ParamType::Direction => {
                    ActArg::Direction([Direction::Left, Direction::Right][rng.random_range(0..2)])
                }
                ParamType::Color => {
                    ActArg::Color([Color::White, Color::Grey, Color::Black][rng.random_range(0..3)])
                }
                ParamType::Ok => ActArg::Ok,
                ParamType::Place => return,
            });
        }
        if let Some(act) = Act::build(decl, args) {
            let app = ActApp {
                act,
                span: Span::default(),
            };
            // An ACT the world refuses (off its end) changes nothing.
            let _ = store.apply(&app, &program.pointers);
        }
    }
}

/// Writes random values into every element of every `var` of `program`.
fn scramble_vars(program: &Program, store: &mut Store, rng: &mut ChaCha8Rng, high: i64) {
    for (id, data) in program.data.iter().enumerate() {
        if !matches!(data.kind, DataKind::Var { .. }) {
            continue;
        }
        let view = store.view();
        let dims: Option<Vec<i64>> = data.dims.iter().map(|d| d.eval(&view).ok()).collect();
        let Some(dims) = dims else { continue };
        let cells: Vec<Vec<i64>> = match dims.as_slice() {
            [] => vec![Vec::new()],
            [n] => (0..(*n).clamp(0, MAX_ELEMENTS)).map(|i| vec![i]).collect(),
            [rows, columns] => {
                let columns = (*columns).clamp(0, MAX_ELEMENTS);
                let rows = (*rows).clamp(0, MAX_ELEMENTS / columns.max(1));
                (0..rows)
                    .flat_map(|r| (0..columns).map(move |c| vec![r, c]))
                    .collect()
            }
            _ => Vec::new(),
        };
        for at in cells {
            let int = |k: i64| PosExpr {
                kind: PosKind::Int(k),
                span: Span::default(),
            };
            let cell = Cell {
                data: id,
                name: data.name.clone(),
                at: at.into_iter().map(int).collect(),
                span: Span::default(),
            };
            let value = int(rng.random_range(-2..=2 * high));
            let args = vec![ActArg::Place(cell), ActArg::Position(value)];
            if let Some(act) = env::build_act(program.env, "WRITE", args) {
                let app = ActApp {
                    act,
                    span: Span::default(),
                };
                // A write outside (a size that reads as END) is skipped.
                let _ = store.apply(&app, &program.pointers);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cnpi::compile::compile;
    use cnpi::env::Declarations;
    use cnpi::program::World;

    fn pointer_values(world: &dyn World, count: usize) -> Vec<i64> {
        (0..count).map(|p| world.pointer(p)).collect()
    }

    #[test]
    fn the_first_probe_is_the_start_and_the_others_vary_registers_and_vars() {
        let text = "env ram(i = 0, j = 1)\ninput A[n]\nvar t = 5\n\ndef F():\n  i = ?\n";
        let program = compile("p.cnpi", text, None).program.expect("compiles");
        let layout = Declarations::of(&program);
        let input = serde_json::json!({"A": [4, 5, 6]});
        let input = env::read_value(&layout, input).expect("reads");
        let example = Example {
            input,
            output: serde_json::Map::new(),
            json: serde_json::Value::Null,
        };
        let probes = Probes::new(&program, &[example], 7);
        assert_eq!(probes.len(), PER_EXAMPLE);
        let views: Vec<View> = probes.views().collect();
        assert_eq!(pointer_values(&views[0], 2), vec![0, 1]);
        let varied = views
            .iter()
            .skip(1)
            .any(|v| pointer_values(v, 2) != vec![0, 1]);
        assert!(varied, "the registers vary");
        let id = (program.data.iter())
            .position(|d| d.name == "t")
            .expect("t is declared");
        let t = |v: &View| v.cell(id, &[]);
        assert_eq!(t(&views[0]), Some(5), "the var starts at its value");
        assert!(
            views.iter().skip(1).any(|v| t(v) != Some(5)),
            "the var varies"
        );
    }
}
