//! `WRITE` and `SWAP` compiled once, for the engines' hot loops.
//!
//! A [`CompiledAct`] is a ram ACT on cells whose indices (and, for `WRITE`,
//! value) have flat forms ([`Flat`]): applying it evaluates them without
//! the expression tree, finds the ACT by its compiled shape rather than by
//! its name, and writes the ram memory without a dynamic call. It applies
//! only where the ACT as written succeeds: where an index or the value
//! cannot be had from the flat form, or a cell lies outside its data, it
//! changes nothing and says so, and the caller applies the ACT as written
//! for its error (nothing was changed before, so the order of the errors
//! is the one the environment reports).

use super::{RamState, Region, cell_offset};
use crate::env::{Inner, State};
use crate::program::flat::{CellAt, Flat, Term};
use crate::program::{ActArg, Cell, EnvAct, World};

/// A cell: its data and its indices (at most two).
#[derive(Clone, Debug)]
struct Place {
    data: usize,
    at: Box<[Flat]>,
}

impl Place {
    fn new(cell: &Cell) -> Option<Place> {
        let at = (cell.at.iter())
            .map(Flat::new)
            .collect::<Option<Box<[Flat]>>>()?;
        (at.len() <= 2).then_some(Place {
            data: cell.data,
            at,
        })
    }

    /// The data and flat offset of the cell in `world` (whose memory is
    /// `memory`), if its indices have values and it lies inside.
    #[inline]
    fn locate<W: World + ?Sized>(&self, world: &W, memory: &[Region]) -> Option<(usize, usize)> {
        let mut at = [0; 2];
        for (slot, index) in at.iter_mut().zip(&self.at) {
            *slot = index.eval(world).ok()?;
        }
        let offset = cell_offset(memory, self.data, &at[..self.at.len()])?;
        Some((self.data, offset))
    }

    /// The cell as an array's at one index, or a matrix's at two, each a
    /// flat form `P[q] + k`.
    fn cell_at(&self) -> Option<(u32, CellAt)> {
        let at = match &*self.at {
            [i] => CellAt::One(i.affine()?),
            [i, j] => CellAt::Two(i.affine()?, j.affine()?),
            _ => return None,
        };
        Some((u32::try_from(self.data).ok()?, at))
    }
}

/// A `WRITE` or `SWAP` of cells of arrays or matrices, each at indices
/// `P[q] + k` (a `WRITE`'s value such a number, such a cell, or the sum of
/// two of them), for code generated from a program: it does what
/// [`CompiledAct::apply`] does where the indices (and value) do not
/// overflow and the cells lie inside their arrays or matrices, and leaves
/// the rest to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArrayStore {
    /// `WRITE(data[at], value)`, the value one term or the sum of two.
    Write {
        data: u32,
        at: CellAt,
        value: (Term, Option<Term>),
    },
    /// `SWAP(a.0[a.1], b.0[b.1])`.
    Swap { a: (u32, CellAt), b: (u32, CellAt) },
}

/// A ram ACT compiled (see the module documentation).
#[derive(Clone, Debug)]
pub struct CompiledAct(Compiled);

#[derive(Clone, Debug)]
enum Compiled {
    Write(Place, Flat),
    Swap(Place, Place),
}

impl CompiledAct {
    /// The compiled form of `act`, if it is a `WRITE` or `SWAP` of cells
    /// whose positions all have flat forms (applied to any state other
    /// than a ram one, it changes nothing and says so).
    pub fn new(act: &EnvAct) -> Option<CompiledAct> {
        let compiled = match (act.name(), act.args.as_slice()) {
            ("WRITE", [ActArg::Place(cell), ActArg::Position(e)]) => {
                Compiled::Write(Place::new(cell)?, Flat::new(e)?)
            }
            ("SWAP", [ActArg::Place(a), ActArg::Place(b)]) => {
                Compiled::Swap(Place::new(a)?, Place::new(b)?)
            }
            _ => return None,
        };
        Some(CompiledAct(compiled))
    }

    /// The ACT as a store of cells at affine indices, if it is one.
    pub fn array_store(&self) -> Option<ArrayStore> {
        Some(match &self.0 {
            Compiled::Write(place, value) => {
                let (data, at) = place.cell_at()?;
                let value = value.terms()?;
                ArrayStore::Write { data, at, value }
            }
            Compiled::Swap(a, b) => ArrayStore::Swap {
                a: a.cell_at()?,
                b: b.cell_at()?,
            },
        })
    }

    /// Applies the ACT to `state` (a ram state) with the pointers
    /// `pointers`, as the environment applies it: whether it changed
    /// anything; `None`, changing nothing, where the ACT as written must be
    /// applied instead.
    #[inline]
    pub fn apply(&self, state: &mut State, pointers: &[i64]) -> Option<bool> {
        let view = state.view(pointers);
        let memory = view.ram()?.regions();
        match &self.0 {
            Compiled::Write(place, value) => {
                let (data, offset) = place.locate(&view, memory)?;
                let value = value.eval(&view).ok()?;
                let ram = ram_mut(state)?;
                Some(std::mem::replace(ram.memory[data].slot(offset), value) != value)
            }
            Compiled::Swap(a, b) => {
                let (da, oa) = a.locate(&view, memory)?;
                let (db, ob) = b.locate(&view, memory)?;
                let ram = ram_mut(state)?;
                let (x, y) = (ram.memory[da].get(oa), ram.memory[db].get(ob));
                *ram.memory[da].slot(oa) = y;
                *ram.memory[db].slot(ob) = x;
                Some(x != y)
            }
        }
    }
}

/// The ram state inside `state`, if it is one.
#[inline]
fn ram_mut(state: &mut State) -> Option<&mut RamState> {
    match &mut state.inner {
        Inner::Ram(ram) => Some(ram),
        Inner::Other(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::{Declarations, read_input};
    use crate::program::{Act, Applier, Body, Callee};

    #[test]
    fn a_compiled_act_does_what_the_act_does_or_nothing() {
        let text = "env ram(i = 0, j = 0)\ninput A[n]\ninput M[n][n]\n\
                    def MAIN: seq(; WRITE(A[i], M[i][j] + 1), SWAP(A[i], M[j][i]), \
                    WRITE(M[i][j], 10 / j))\n";
        let compiled = crate::compile::compile("p.cnpi", text, None).program;
        let program = compiled.expect("the program compiles");
        let Body::Applier(Applier::Combinator { args, .. }) = &program.defs[0].body else {
            panic!("a seq applier");
        };
        let layout = Declarations::of(&program);
        let json = r#"{"A": [4, 4, 9], "M": [[1, 2, 3], [3, 4, 5], [9, 8, 7]]}"#;
        let input = read_input(&layout, json).expect("reads");
        let mut applied = 0;
        for callee in args {
            let Callee::Act(app) = callee else {
                panic!("an ACT");
            };
            let Act::Env(act) = &app.act else {
                panic!("an ACT of the environment");
            };
            let fast = CompiledAct::new(act).expect("compiles");
            for i in -1..=3 {
                for j in -1..=3 {
                    let pointers = [i, j];
                    let mut slow = input.clone();
                    let mut fast_state = input.clone();
                    let reference = slow.apply(app, &mut pointers.clone(), &program.pointers);
                    match fast.apply(&mut fast_state, &pointers) {
                        Some(changed) => {
                            applied += 1;
                            assert_eq!(reference.ok(), Some(changed), "i = {i}, j = {j}");
                            assert!(fast_state == slow, "i = {i}, j = {j}");
                        }
                        None => assert!(fast_state == input, "i = {i}, j = {j}"),
                    }
                }
            }
        }
        // Inside: 3 x 3 for each WRITE and SWAP, less the zero divisors.
        assert_eq!(applied, 9 + 9 + 6);
    }
}
