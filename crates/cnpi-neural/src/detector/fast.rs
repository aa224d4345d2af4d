//! A detector's verified table read with no failure, computing only the
//! features its bit needs, each compiled for its shape.
//!
//! When every feature of a detector relates two sides of the shapes
//! [`FastPair`] reads (an integer, a pointer, `n`, `A[i]`, `A[u][v]`) or
//! `_resume` (a frame program's dispatch),
//! no feature can fail, so which of them are computed changes nothing but
//! the time. A [`FastDetector`] lays the table out as a decision diagram
//! over the features in their encoding order: a node computes one
//! feature and moves to the child of its state; a node below which every
//! point of the table has the same bit is that bit. Reading `in_queue[i]
//! == 1 and (u == -1 or key[i] < key[u])` where `in_queue[i]` is 0 then
//! computes one feature, not three, and gives the bit the table holds at
//! the point [`super::Encoder::encode`] would give. Each node holds its
//! two sides by their shapes ([`FastSide`]) and reads them straight from
//! the ram memory's regions and the pointers ([`Cells`]), with no view and
//! no region found through it.
//!
//! A feature one of whose sides is the sum of two such sides
//! (`d[u] + A[u][v] < d[v]`) or an array or a matrix read at pointers
//! plus constants (`A[j - 1]`, `c[i - 1][j]`), a [`Term`], can fail: END
//! in the sum, or an overflow. Where the condition's own evaluation
//! would reach it depends on more than the diagram's path, so every such
//! feature is computed first, whatever the path; where one fails, the
//! detector gives no bit and the caller reads the encoder, which gives
//! the bit or the error the condition has there. Where none fails, every feature has its state
//! and the diagram's bit is the table's at the encoder's point.

use cnpi::env::Cells;
use cnpi::program::flat::{FastSide, FlatOperand, relate_fast};

/// The largest domain laid out as a diagram (larger ones keep the plain
/// encoder).
const MAX_POINTS: usize = 1 << 12;

/// The most features with a side that can fail a compiled detector holds.
const MAX_FAILABLE: usize = 4;

/// A side a compiled detector reads: one of [`FastSide`]'s shapes, or the
/// sum of two (which fails where either is END or the sum overflows).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Term {
    Side(FastSide),
    Sum(FastSide, FastSide),
    /// The array `.0` at `P[.1] + .2` (`A[j - 1]`), which fails where the
    /// index overflows.
    Offset(u32, u32, i64),
    /// The matrix `.0` at `P[p] + k, P[q] + l` for `.1 = [(p, k), (q, l)]`
    /// (`c[i - 1][j]`), which fails where an index overflows.
    Offset2(u32, [(u32, i64); 2]),
}

impl Term {
    /// The term of the flat side `side`, if it has one.
    pub(super) fn of(side: &FlatOperand) -> Option<Term> {
        match side.fast_side() {
            Some(side) => Some(Term::Side(side)),
            None => (side.sum().map(|[a, b]| Term::Sum(a, b)))
                .or_else(|| {
                    side.offset_at()
                        .map(|(data, p, k)| Term::Offset(data, p, k))
                })
                .or_else(|| side.offset_at2().map(|(data, at)| Term::Offset2(data, at))),
        }
    }

    /// The side's number or cell (`None` for END); `Err` where it fails.
    #[inline(always)]
    fn read(self, cells: Cells) -> Result<Option<i64>, ()> {
        match self {
            Term::Side(side) => Ok(cells.read(side)),
            Term::Sum(a, b) => {
                let sum = (cells.read(a).zip(cells.read(b))).and_then(|(a, b)| a.checked_add(b));
                sum.map(Some).ok_or(())
            }
            Term::Offset(data, p, k) => {
                let i = cells.pointer(p).checked_add(k).ok_or(())?;
                Ok(cells.at(data, i))
            }
            Term::Offset2(data, [(p, k), (q, l)]) => {
                let i = cells.pointer(p).checked_add(k).ok_or(())?;
                let j = cells.pointer(q).checked_add(l).ok_or(())?;
                Ok(cells.at2(data, i, j))
            }
        }
    }
}

/// The feature a node computes: the relation of two sides, held by
/// their shapes, the commonest pairs each in a form of their own (read
/// with no dispatch on either side's shape).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Feature {
    /// `P[p]` against `k` (`u != -1`).
    PointerInt { p: u32, k: i64 },
    /// `P[p]` against the scalar `data` (`i < n`).
    PointerScalar { p: u32, data: u32 },
    /// `_resume` against `k` (a frame program's dispatch, `_resume < 3`).
    ResumeInt { k: i64 },
    /// `P[p]` against `P[q]` (a `for` loop's test, `v <= h`).
    PointerPointer { p: u32, q: u32 },
    /// The array `data` at `P[p]` against `k` (`in_queue[v] == 0`).
    AtInt { data: u32, p: u32, k: i64 },
    /// The matrix `data` at `P[p], P[q]` against `k` (`A[u][v] != 0`).
    At2Int { data: u32, p: u32, q: u32, k: i64 },
    /// The array `a` at `P[p]` against the array `b` at `P[q]`
    /// (`d[i] < d[u]`).
    AtAt { a: u32, p: u32, b: u32, q: u32 },
    /// Any other two sides.
    Pair { lhs: FastSide, rhs: FastSide },
    /// The feature of [`FastDetector::failable`]'s slot `.0`, computed
    /// before the diagram is read.
    Failable(usize),
}

impl Feature {
    fn new(lhs: FastSide, rhs: FastSide) -> Feature {
        match (lhs, rhs) {
            (FastSide::Pointer(p, 0), FastSide::Int(k)) => Feature::PointerInt { p, k },
            (FastSide::Pointer(p, 0), FastSide::Scalar(data)) => Feature::PointerScalar { p, data },
            (FastSide::Pointer(p, 0), FastSide::Pointer(q, 0)) => Feature::PointerPointer { p, q },
            (FastSide::Resume, FastSide::Int(k)) => Feature::ResumeInt { k },
            (FastSide::At(data, p), FastSide::Int(k)) => Feature::AtInt { data, p, k },
            (FastSide::At2(data, p, q), FastSide::Int(k)) => Feature::At2Int { data, p, q, k },
            (FastSide::At(a, p), FastSide::At(b, q)) => Feature::AtAt { a, p, b, q },
            _ => Feature::Pair { lhs, rhs },
        }
    }

    /// The state at `cells` of a feature that cannot fail.
    #[inline(always)]
    pub(crate) fn plain_state(&self, cells: Cells) -> usize {
        self.state(cells, &[0; MAX_FAILABLE])
    }

    /// The feature's state at `cells` (those of the failable features in
    /// `failable`): the relation's index.
    #[inline(always)]
    fn state(&self, cells: Cells, failable: &[u8; MAX_FAILABLE]) -> usize {
        // Each arm reads only its own fields.
        let found = match *self {
            Feature::PointerInt { p, k } => relate_fast(Some(cells.pointer(p)), Some(k)),
            Feature::PointerScalar { p, data } => {
                relate_fast(Some(cells.pointer(p)), cells.scalar(data))
            }
            Feature::PointerPointer { p, q } => {
                relate_fast(Some(cells.pointer(p)), Some(cells.pointer(q)))
            }
            Feature::ResumeInt { k } => relate_fast(Some(cells.resume()), Some(k)),
            Feature::AtInt { data, p, k } => relate_fast(cells.at(data, cells.pointer(p)), Some(k)),
            Feature::At2Int { data, p, q, k } => {
                let (i, j) = (cells.pointer(p), cells.pointer(q));
                relate_fast(cells.at2(data, i, j), Some(k))
            }
            Feature::AtAt { a, p, b, q } => {
                let (i, j) = (cells.pointer(p), cells.pointer(q));
                relate_fast(cells.at(a, i), cells.at(b, j))
            }
            Feature::Pair { lhs, rhs } => relate_fast(cells.read(lhs), cells.read(rhs)),
            Feature::Failable(slot) => return usize::from(failable[slot]),
        };
        found as usize
    }
}

/// One node of the diagram: a feature, and per state `s` either the bit
/// every point below has (a leaf: bit `s` of `leaves` set, the bit in bit
/// `s` of `ones`) or the node `children + s`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node {
    pub(crate) feature: Feature,
    pub(crate) children: u32,
    pub(crate) leaves: u8,
    pub(crate) ones: u8,
}

/// See the module documentation.
#[derive(Clone, Debug)]
pub struct FastDetector {
    /// The diagram from its root; none when the table is one bit.
    nodes: Box<[Node]>,
    /// The bit of a table without nodes.
    constant: bool,
    /// The features whose sides can fail, in encoding order.
    failable: Box<[[Term; 2]]>,
    /// Whether a feature reads `_resume` (which the caller then gives in
    /// the cells).
    reads_resume: bool,
}

impl FastDetector {
    /// The diagram of `table` over `features` (each with its radix, in
    /// encoding order); `None` for a domain over [`MAX_POINTS`] or a table
    /// of another size.
    pub(super) fn new(
        features: Vec<([Term; 2], bool, usize)>,
        table: &[bool],
    ) -> Option<FastDetector> {
        let domain = features.iter().map(|f| f.2).product::<usize>();
        let reads_resume = (features.iter().flat_map(|f| f.0))
            .any(|term| matches!(term, Term::Side(FastSide::Resume)));
        if domain > MAX_POINTS || table.len() != domain {
            return None;
        }
        // Per level, the points below one node of it.
        let below: Vec<usize> = (0..=features.len())
            .map(|level| features[level..].iter().map(|f| f.2).product())
            .collect();
        // The one bit of the points below the node at `level` reached by
        // the point `prefix` of the states above, if they have one.
        let leaf = |level: usize, prefix: usize| -> Option<Option<bool>> {
            let points = table.get(prefix * below[level]..(prefix + 1) * below[level])?;
            Some(match points {
                [first, rest @ ..] if rest.iter().all(|bit| bit == first) => Some(*first),
                _ => None,
            })
        };
        // Per level, the node's feature.
        let mut failable = Vec::new();
        let compiled: Vec<Feature> = (features.iter())
            .map(|(terms, ..)| match *terms {
                [Term::Side(lhs), Term::Side(rhs)] => Feature::new(lhs, rhs),
                _ => {
                    failable.push(*terms);
                    Feature::Failable(failable.len() - 1)
                }
            })
            .collect();
        if failable.len() > MAX_FAILABLE {
            return None;
        }
        let failable = failable.into_boxed_slice();
        if let Some(constant) = leaf(0, 0)? {
            return Some(FastDetector {
                nodes: Box::new([]),
                constant,
                failable,
                reads_resume,
            });
        }
        let mut nodes: Vec<Option<Node>> = vec![None];
        // (node, level, the point of the states chosen above it)
        let mut todo = vec![(0usize, 0usize, 0usize)];
        while let Some((node, level, prefix)) = todo.pop() {
            let (_, numbers, radix) = *features.get(level)?;
            // Two fast sides may both be numbers: a state is a relation's
            // own index (and at most five).
            if !numbers || radix > 8 {
                return None;
            }
            let children = nodes.len();
            nodes.resize(children + radix, None);
            let (mut leaves, mut ones) = (0u8, 0u8);
            for s in 0..radix {
                let point = prefix * radix + s;
                match leaf(level + 1, point)? {
                    Some(bit) => {
                        leaves |= 1 << s;
                        ones |= u8::from(bit) << s;
                    }
                    None => todo.push((children + s, level + 1, point)),
                }
            }
            nodes[node] = Some(Node {
                feature: *compiled.get(level)?,
                children: u32::try_from(children).ok()?,
                leaves,
                ones,
            });
        }
        // A leaf's slot holds no node; it is never read (its parent has the
        // bit), so it holds its parent's root for a filler.
        let filler = nodes[0]?;
        Some(FastDetector {
            nodes: nodes.into_iter().map(|n| n.unwrap_or(filler)).collect(),
            constant: false,
            failable,
            reads_resume,
        })
    }

    /// The diagram of a detector none of whose features can fail, for a
    /// caller that lays it out itself: its nodes from the root (read as
    /// [`Self::bit`] reads them), or the bit of a table without nodes;
    /// `None` for a detector with features that can fail.
    pub(crate) fn diagram(&self) -> Option<Result<&[Node], bool>> {
        match (self.failable.is_empty(), self.nodes.is_empty()) {
            (false, _) => None,
            (true, true) => Some(Err(self.constant)),
            (true, false) => Some(Ok(&self.nodes)),
        }
    }

    /// The detector for a caller that computes it itself: its diagram's
    /// nodes from the root (read as [`Self::bit`] reads them, a
    /// [`Feature::Failable`] node by the state of that feature), the bit of
    /// a table without nodes, and the two sides of each feature that can
    /// fail, which [`Self::bit`] computes first (where one fails, it gives
    /// no bit).
    pub(crate) fn parts(&self) -> (&[Node], bool, &[[Term; 2]]) {
        (&self.nodes, self.constant, &self.failable)
    }

    /// Whether the detector reads `_resume`, which its cells must then
    /// hold ([`Cells::with_resume`]; others read it as 0).
    #[inline(always)]
    pub fn reads_resume(&self) -> bool {
        self.reads_resume
    }

    /// The table's bit at the point of the memory and pointers `cells`;
    /// `None` where a feature that can fail fails (then the encoder says).
    #[inline]
    pub fn bit(&self, cells: Cells) -> Option<bool> {
        if self.failable.is_empty() {
            return Some(self.walk(cells, &[0; MAX_FAILABLE]));
        }
        self.bit_failable(cells)
    }

    /// [`Self::bit`] of a detector with features that can fail: those
    /// first.
    #[inline(never)]
    fn bit_failable(&self, cells: Cells) -> Option<bool> {
        let mut failable = [0; MAX_FAILABLE];
        for (state, [lhs, rhs]) in failable.iter_mut().zip(&self.failable) {
            *state = relate_fast(lhs.read(cells).ok()?, rhs.read(cells).ok()?) as u8;
        }
        Some(self.walk(cells, &failable))
    }

    /// The diagram's bit at `cells`, the failable features' states in
    /// `failable`.
    #[inline(always)]
    fn walk(&self, cells: Cells, failable: &[u8; MAX_FAILABLE]) -> bool {
        let mut at = 0;
        while let Some(node) = self.nodes.get(at) {
            let state = node.feature.state(cells, failable);
            if node.leaves >> state & 1 == 1 {
                return node.ones >> state & 1 == 1;
            }
            at = node.children as usize + state;
        }
        self.constant
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Condition, Encoder};
    use super::*;
    use cnpi::env::{Declarations, read_input};
    use cnpi::program::{Applier, Body};

    /// Every point of a small world: the diagram's bit is the table's bit
    /// at the encoder's point.
    #[test]
    fn the_diagram_reads_the_table_at_the_encoders_point() {
        let text = "env ram(i = 0, j = 1, k = 2)\ninput A[n]\n\
                    def X: cond(i < j and (A[i] == 1 or A[j] < A[k]) or k != -1 and j == n?; \
                    NOP, NOP, NOP)\n";
        let compiled = cnpi::compile::compile("t.cnpi", text, None).program;
        let program = compiled.expect("compiles");
        let Body::Applier(Applier::Combinator {
            detector: Some(expr),
            ..
        }) = &program.defs[0].body
        else {
            panic!("a cond applier");
        };
        let encoder = Encoder::new(Condition::Source(expr.clone())).expect("small");
        let features = encoder.fast_features().expect("every side is fast");
        // A table that is not the condition's: the diagram must follow
        // whatever the classifier says.
        let table: Vec<bool> = (0..encoder.domain()).map(|p| p % 7 < 3).collect();
        let fast = FastDetector::new(features, &table).expect("small");
        let layout = Declarations::of(&program);
        let state = read_input(&layout, r#"{"A": [1, 0, 2, 1]}"#).expect("reads");
        let mut computed = 0;
        for i in -1..=4 {
            for j in -1..=4 {
                for k in -1..=4 {
                    let pointers = [i, j, k];
                    let view = state.view(&pointers);
                    let point = encoder.encode(&view, false).expect("no failure");
                    let bit = fast.bit(state.cells(&pointers));
                    assert_eq!(bit, Some(table[point]), "{pointers:?}");
                    computed += 1;
                }
            }
        }
        assert_eq!(computed, 216);
        // The condition's own table is read with fewer nodes than points,
        // and a constant table is no node but its bit.
        let labels: Vec<bool> = (0..encoder.domain()).map(|p| encoder.label(p)).collect();
        let features = || encoder.fast_features().expect("fast");
        let own = FastDetector::new(features(), &labels).expect("small");
        assert!(own.nodes.len() < encoder.domain(), "{}", own.nodes.len());
        let constant = FastDetector::new(features(), &vec![true; encoder.domain()]);
        assert_eq!(
            constant.map(|d| (d.nodes.len(), d.constant)),
            Some((0, true))
        );
    }

    /// The conditions of the combinatory form of every CLRS example
    /// whose features are all compiled (a frame program's `_resume`
    /// included), read from random states and resume points: the
    /// compiled diagram's bit is the table's bit at the encoder's point,
    /// for the condition's own table and for one that is not the
    /// condition's; where a sum fails, no bit (and there the encoder's).
    #[test]
    fn the_shipped_conditions_read_as_the_encoder_reads_them() {
        use rand::{RngExt, SeedableRng};
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/clrs");
        let mut files: Vec<_> = (std::fs::read_dir(dir).expect("the examples").flatten())
            .map(|entry| entry.path())
            .filter(|path| path.extension().is_some_and(|e| e == "cnpi"))
            .collect();
        files.sort();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(32);
        let (mut detectors, mut states, mut fell) = (0, 0, 0);
        let mut shapes = std::collections::BTreeSet::new();
        for file in &files {
            let name = file.display().to_string();
            let source = std::fs::read_to_string(file).expect("readable");
            let program = cnpi::compile::compile(&name, &source, None).program;
            let program = program.expect("compiles");
            let text = (cnpi::combinatorize::combinatorize(&program, &source, &name))
                .expect("combinatorizes")
                .text;
            let program = cnpi::compile::compile(&name, &text, None).program;
            let program = program.expect("its combinatory form compiles");
            let layout = Declarations::of(&program);
            for def in &program.defs {
                let Body::Applier(Applier::Combinator {
                    detector: Some(expr),
                    ..
                }) = &def.body
                else {
                    continue;
                };
                let encoder = Encoder::new(Condition::Source(expr.clone())).expect("small");
                let Some(features) = encoder.fast_features() else {
                    continue;
                };
                let labels: Vec<bool> = (0..encoder.domain()).map(|p| encoder.label(p)).collect();
                let other: Vec<bool> = (0..encoder.domain()).map(|p| p % 3 == 1).collect();
                for table in [labels, other] {
                    let fast = FastDetector::new(features.clone(), &table).expect("small");
                    shapes.extend(fast.nodes.iter().map(|node| {
                        let shape = format!("{:?}", node.feature);
                        shape[..shape.find(' ').unwrap_or(shape.len())].to_string()
                    }));
                    detectors += 1;
                    for _ in 0..50 {
                        let state = random_state(&mut rng, &layout);
                        for _ in 0..20 {
                            let pointers: Vec<i64> = (layout.registers.iter())
                                .map(|_| rng.random_range(-2..7))
                                .collect();
                            // A frame program's dispatch reads `_resume`.
                            let resume = rng.random_range(-1..12);
                            let view = state.view(&pointers).with_resume(resume);
                            let cells = state.cells(&pointers).with_resume(resume);
                            let bit = fast.bit(cells);
                            // Where a sum fails the encoder is read: it
                            // gives the bit, or the condition's error.
                            match (encoder.encode(&view, false), bit) {
                                (Ok(point), Some(bit)) => assert_eq!(bit, table[point]),
                                (Ok(_), None) => fell += 1,
                                (Err(_), bit) => assert_eq!(bit, None, "{name}: {expr:?}"),
                            }
                            states += 1;
                        }
                    }
                }
            }
        }
        assert!(detectors >= 60, "{detectors} detectors");
        assert_eq!(states, detectors * 1000);
        assert!(fell * 10 < states, "{fell} of {states} fell to the encoder");
        let shapes: Vec<_> = shapes.into_iter().collect();
        let expected = [
            "At2Int",
            "AtAt",
            "AtInt",
            "Failable(0)",
            "Pair",
            "PointerInt",
            "PointerPointer",
            "PointerScalar",
            "ResumeInt",
        ];
        assert_eq!(shapes, expected);
    }

    /// A state of the program laid out as `layout`, every input of length
    /// 1 to 5 (all of one length, which the sizes they share then agree
    /// on) with values from -2 to 5.
    fn random_state(rng: &mut rand_chacha::ChaCha8Rng, layout: &Declarations) -> cnpi::env::State {
        use rand::RngExt;
        let length = rng.random_range(1..6);
        let mut value = || rng.random_range(-2..6).to_string();
        let members: Vec<String> = (layout.data.iter())
            .filter(|data| data.kind == cnpi::program::DataKind::Input)
            .map(|data| {
                let row = |value: &mut dyn FnMut() -> String| {
                    let cells: Vec<String> = (0..length).map(|_| value()).collect();
                    format!("[{}]", cells.join(","))
                };
                let json = match data.dims.len() {
                    0 => value(),
                    1 => row(&mut value),
                    _ => {
                        let rows: Vec<String> = (0..length).map(|_| row(&mut value)).collect();
                        format!("[{}]", rows.join(","))
                    }
                };
                format!("\"{}\": {json}", data.name)
            })
            .collect();
        let json = format!("{{{}}}", members.join(", "));
        read_input(layout, &json).expect("a valid input")
    }
}
