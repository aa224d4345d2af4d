//! The twelve graph algorithms of CLRS-30 (`examples/clrs/<id>.cnpi`)
//! against oracles that do not come from the programs: small Rust ports of
//! the reference implementations (google-deepmind/clrs,
//! `clrs/_src/algorithms/graphs.py`), written as the reference is written —
//! its explicit-stack depth-first search, its level-synchronous breadth-first
//! search and Bellman-Ford, its `argsort` extract-min taken as the first
//! minimum — and, beside them, properties of the answer (a valid topological
//! order, parents on shortest paths, a spanning tree as light as Kruskal's).
//! Inputs come from seeded samplers shaped like the reference's: Erdős–Rényi
//! graphs, undirected or directed, DAGs by a random permutation of an upper
//! triangle, community graphs for strongly connected components, integer
//! weights ≥ 1 (distinct where the reference's `argsort` would otherwise
//! choose among equal keys, and from a small range elsewhere, so that ties
//! occur and are broken as the reference breaks them). Every input runs on
//! the network, with `--symbolic` and with `--no-cache`.

use rand::seq::SliceRandom;
use rand::{Rng, RngExt};
use serde_json::{Value, json};

use crate::harness::{
    ALL, Engine, FAST, LARGEST_CUBIC, LARGEST_GRAPH, Sweep, program, relaxed_distances, rng,
};

type Matrix = Vec<Vec<i64>>;

// ---------------------------------------------------------------------
// Samplers.

/// How the weights of a sampled graph are drawn.
#[derive(Clone, Copy)]
enum Weights {
    /// Distinct weights, so that no two keys of an extract-min are equal.
    Distinct,
    /// Weights in `1..=k`, so that equal path lengths are common.
    Upto(i64),
}

/// An Erdős–Rényi graph as the reference's `_random_er_graph` draws it:
/// every ordered pair (the diagonal included) is an edge with probability
/// `p`; undirected graphs keep the pairs drawn both ways; DAGs keep the
/// upper triangle and relabel the vertices by a random permutation.
fn er<R: Rng>(rng: &mut R, n: usize, p: f64, directed: bool, acyclic: bool) -> Matrix {
    let mut m: Matrix = (0..n)
        .map(|_| (0..n).map(|_| i64::from(rng.random_bool(p))).collect())
        .collect();
    if !directed {
        m = (0..n)
            .map(|i| (0..n).map(|j| m[i][j] * m[j][i]).collect())
            .collect();
    } else if acyclic {
        let mut perm: Vec<usize> = (0..n).collect();
        perm.shuffle(rng);
        m = (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| i64::from(perm[i] < perm[j]) * m[perm[i]][perm[j]])
                    .collect()
            })
            .collect();
    }
    m
}

/// Puts weights on the edges of `m`, symmetric when `directed` is false.
fn weigh<R: Rng>(rng: &mut R, m: &mut Matrix, directed: bool, weights: Weights) {
    let n = m.len();
    let slots: Vec<(usize, usize)> = (0..n)
        .flat_map(|i| (0..n).map(move |j| (i, j)))
        .filter(|&(i, j)| directed || i <= j)
        .collect();
    let mut distinct: Vec<i64> = (1..=slots.len() as i64).collect();
    distinct.shuffle(rng);
    for (k, &(i, j)) in slots.iter().enumerate() {
        let w = match weights {
            Weights::Distinct => distinct[k],
            Weights::Upto(top) => rng.random_range(1..=top),
        };
        m[i][j] *= w;
        if !directed {
            m[j][i] = m[i][j];
        }
    }
}

/// The reference's `_random_community_graph` for strongly connected
/// components: four directed Erdős–Rényi blocks, a few extra edges toggled
/// that never lead from a later block back to an earlier one, and the
/// vertices relabelled at random. Below four vertices (where the reference
/// refuses) a plain directed graph.
fn communities<R: Rng>(rng: &mut R, n: usize) -> Matrix {
    const K: usize = 4;
    if n < K {
        return er(rng, n, 0.5, true, false);
    }
    let mut m = vec![vec![0; n]; n];
    let mut block = vec![0; n];
    let mut lo = 0;
    for b in 0..K {
        let hi = if b == K - 1 { n } else { lo + n / K };
        let inner = er(rng, hi - lo, 0.5, true, false);
        for i in lo..hi {
            block[i] = b;
            m[i][lo..hi].copy_from_slice(&inner[i - lo]);
        }
        lo = hi;
    }
    let toggle = er(rng, n, 0.01, true, false);
    for i in 0..n {
        for j in 0..n {
            if toggle[i][j] != 0 && block[i] <= block[j] {
                m[i][j] = 1 - m[i][j];
            }
        }
    }
    let mut perm: Vec<usize> = (0..n).collect();
    perm.shuffle(rng);
    (0..n)
        .map(|i| (0..n).map(|j| m[perm[i]][perm[j]]).collect())
        .collect()
}

/// The input object of an algorithm with a source: `A` and a random `s`.
fn with_source<R: Rng>(rng: &mut R, a: Matrix) -> Value {
    let s = rng.random_range(0..a.len());
    json!({ "A": a, "s": s })
}

fn matrix(input: &Value) -> Matrix {
    serde_json::from_value(input["A"].clone()).expect("A is a matrix")
}

fn source(input: &Value) -> usize {
    input["s"].as_u64().expect("s is a vertex") as usize
}

// ---------------------------------------------------------------------
// The reference's depth-first search.

/// What the reference does at the events of its depth-first search.
trait Visit {
    /// `u` is on top of the stack (the reference does this every round).
    fn top(&mut self, _u: usize, _root: usize) {}
    /// `u` is discovered at `time`.
    fn discover(&mut self, _u: usize, _time: i64) {}
    /// `u` scans the edge to the non-white `v` before finding a white one.
    fn seen(&mut self, _u: usize, _v: usize) {}
    /// The tree edge `u → v` is taken.
    fn tree(&mut self, _u: usize, _v: usize) {}
    /// `u` is finished at `time`.
    fn finish(&mut self, _u: usize, _time: i64) {}
}

/// The reference's search as `graphs.py` writes it: an explicit stack
/// threaded through `s_prev`, each round rescanning the top vertex's row
/// from 0 for its first white neighbour, from each root of `roots` in turn.
/// Times count discoveries and finishes together, from 1.
fn reference_dfs(
    n: usize,
    edge: impl Fn(usize, usize) -> bool,
    roots: &[usize],
    visit: &mut impl Visit,
) {
    let mut color = vec![0u8; n];
    let mut discovered = vec![false; n];
    let mut s_prev: Vec<usize> = (0..n).collect();
    let mut time = 0;
    for &s in roots {
        if color[s] != 0 {
            continue;
        }
        let (mut s_last, mut u) = (s, s);
        loop {
            visit.top(u, s);
            if color[u] == 0 || !discovered[u] {
                time += 1;
                discovered[u] = true;
                color[u] = 1;
                visit.discover(u, time);
            }
            for v in 0..n {
                if edge(u, v) {
                    if color[v] == 0 {
                        color[v] = 1;
                        s_prev[v] = s_last;
                        s_last = v;
                        visit.tree(u, v);
                        break;
                    }
                    visit.seen(u, v);
                }
            }
            if s_last == u {
                color[u] = 2;
                time += 1;
                visit.finish(u, time);
                if s_prev[u] == u {
                    break;
                }
                // Pop: s_last goes back to the vertex below it.
                std::mem::swap(&mut s_prev[s_last], &mut s_last);
            }
            u = s_last;
        }
    }
}

/// Parents, times, finishing order and the linked list of the reference's
/// topological sort (`topo[u]`: the vertex finished just before `u`, or
/// `u` for the first finished), with the low points of articulation points
/// and bridges.
struct Search {
    pi: Vec<usize>,
    d: Vec<i64>,
    low: Vec<i64>,
    finished: Vec<usize>,
    topo: Vec<usize>,
    children: Vec<usize>,
}

impl Search {
    fn new(n: usize) -> Search {
        Search {
            pi: (0..n).collect(),
            d: vec![0; n],
            low: vec![0; n],
            finished: Vec::new(),
            topo: (0..n).collect(),
            children: vec![0; n],
        }
    }
}

impl Visit for Search {
    fn discover(&mut self, u: usize, time: i64) {
        self.d[u] = time;
        self.low[u] = time;
    }
    fn seen(&mut self, u: usize, v: usize) {
        if v != self.pi[u] {
            self.low[u] = self.low[u].min(self.d[v]);
        }
    }
    fn tree(&mut self, u: usize, v: usize) {
        self.pi[v] = u;
        self.children[u] += 1;
    }
    fn finish(&mut self, u: usize, _time: i64) {
        if let Some(&head) = self.finished.last() {
            self.topo[u] = head;
        }
        self.finished.push(u);
        for v in 0..self.pi.len() {
            if self.pi[v] == u {
                self.low[u] = self.low[u].min(self.low[v]);
            }
        }
    }
}

fn search(a: &Matrix, roots: &[usize]) -> Search {
    let mut result = Search::new(a.len());
    reference_dfs(a.len(), |u, v| a[u][v] != 0, roots, &mut result);
    result
}

fn all(n: usize) -> Vec<usize> {
    (0..n).collect()
}

fn reference_is_cut(a: &Matrix) -> Vec<i64> {
    let n = a.len();
    let r = search(a, &all(n));
    (0..n)
        .map(|u| {
            let root = r.pi[u] == u;
            let cut = if root {
                r.children[u] > 1
            } else {
                (0..n).any(|v| r.pi[v] == u && v != u && r.low[v] >= r.d[u])
            };
            i64::from(cut)
        })
        .collect()
}

fn reference_is_bridge(a: &Matrix) -> Matrix {
    let n = a.len();
    let r = search(a, &all(n));
    let mut bridge = vec![vec![0; n]; n];
    for (v, &u) in r.pi.iter().enumerate() {
        if u != v && r.low[v] > r.d[u] {
            bridge[u][v] = 1;
            bridge[v][u] = 1;
        }
    }
    bridge
}

/// Kosaraju as the reference runs it: a search of `A`, then a search of its
/// transpose from the vertices by decreasing finishing time, labelling
/// every vertex with the root of its second tree.
fn reference_scc(a: &Matrix) -> Vec<usize> {
    struct Label(Vec<usize>);
    impl Visit for Label {
        fn top(&mut self, u: usize, root: usize) {
            self.0[u] = root;
        }
    }
    let n = a.len();
    let first = search(a, &all(n));
    let by_finish: Vec<usize> = first.finished.iter().rev().copied().collect();
    let mut label = Label(all(n));
    reference_dfs(n, |u, v| a[v][u] != 0, &by_finish, &mut label);
    label.0
}

// ---------------------------------------------------------------------
// The other references.

fn reference_bfs(a: &Matrix, s: usize) -> Vec<usize> {
    let n = a.len();
    let mut reach = vec![false; n];
    let mut pi = all(n);
    reach[s] = true;
    loop {
        let prev = reach.clone();
        for i in 0..n {
            for j in 0..n {
                if a[i][j] > 0 && prev[i] {
                    if pi[j] == j && j != s {
                        pi[j] = i;
                    }
                    reach[j] = true;
                }
            }
        }
        if reach == prev {
            return pi;
        }
    }
}

fn reference_kruskal(a: &Matrix) -> Matrix {
    fn root(pi: &mut [usize], x: usize) -> usize {
        let mut r = x;
        while pi[r] != r {
            r = pi[r];
        }
        let mut y = x;
        while pi[y] != r {
            (pi[y], y) = (r, pi[y]);
        }
        r
    }
    let n = a.len();
    let mut edges: Vec<(i64, usize, usize)> = (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .filter(|&(i, j)| a[i][j] > 0)
        .map(|(i, j)| (a[i][j], i, j))
        .collect();
    edges.sort_unstable();
    let mut pi = all(n);
    let mut in_mst = vec![vec![0; n]; n];
    for (_, u, v) in edges {
        let (ru, rv) = (root(&mut pi, u), root(&mut pi, v));
        if ru != rv {
            in_mst[u][v] = 1;
            in_mst[v][u] = 1;
            pi[ru.min(rv)] = ru.max(rv);
        }
    }
    in_mst
}

/// Prim and Dijkstra share the reference's shape: extract the queued
/// vertex of least key (the first one on equal keys), then offer each
/// unmarked neighbour `v` the key `offer(key[u], A[u][v])`.
fn reference_greedy(a: &Matrix, s: usize, offer: impl Fn(i64, i64) -> i64) -> Vec<usize> {
    let n = a.len();
    let mut key = vec![0; n];
    let mut mark = vec![false; n];
    let mut queued = vec![false; n];
    let mut pi = all(n);
    queued[s] = true;
    for _ in 0..n {
        let Some(u) = (0..n).filter(|&v| queued[v]).min_by_key(|&v| (key[v], v)) else {
            break;
        };
        mark[u] = true;
        queued[u] = false;
        for v in 0..n {
            if a[u][v] != 0 {
                let k = offer(key[u], a[u][v]);
                if !mark[v] && (!queued[v] || k < key[v]) {
                    pi[v] = u;
                    key[v] = k;
                    queued[v] = true;
                }
            }
        }
    }
    pi
}

fn reference_bellman_ford(a: &Matrix, s: usize) -> Vec<usize> {
    let n = a.len();
    let mut d = vec![0; n];
    let mut msk = vec![false; n];
    let mut pi = all(n);
    msk[s] = true;
    loop {
        let (prev_d, prev_msk) = (d.clone(), msk.clone());
        for u in 0..n {
            for v in 0..n {
                if prev_msk[u] && a[u][v] != 0 {
                    if !msk[v] || prev_d[u] + a[u][v] < d[v] {
                        d[v] = prev_d[u] + a[u][v];
                        pi[v] = u;
                    }
                    msk[v] = true;
                }
            }
        }
        if d == prev_d {
            return pi;
        }
    }
}

fn reference_dag_shortest_paths(a: &Matrix, s: usize) -> Vec<usize> {
    let n = a.len();
    let order = search(a, &[s]);
    let mut d = vec![0; n];
    let mut mark = vec![false; n];
    let mut pi = all(n);
    let mut head = *order.finished.last().expect("s is finished");
    assert_eq!(head, s);
    mark[head] = true;
    while order.topo[head] != head {
        let i = head;
        for j in 0..n {
            if a[i][j] != 0 && (!mark[j] || d[i] + a[i][j] < d[j]) {
                d[j] = d[i] + a[i][j];
                pi[j] = i;
                mark[j] = true;
            }
        }
        head = order.topo[head];
    }
    pi
}

fn reference_floyd_warshall(a: &Matrix) -> Matrix {
    let n = a.len();
    let mut d = a.clone();
    let mut msk: Vec<Vec<bool>> = (0..n)
        .map(|i| (0..n).map(|j| a[i][j] != 0 || i == j).collect())
        .collect();
    let mut pi: Matrix = (0..n).map(|i| vec![i as i64; n]).collect();
    for k in 0..n {
        let (prev_d, prev_msk) = (d.clone(), msk.clone());
        for i in 0..n {
            for j in 0..n {
                if prev_msk[i][k] && prev_msk[k][j] {
                    if !msk[i][j] || prev_d[i][k] + prev_d[k][j] < d[i][j] {
                        d[i][j] = prev_d[i][k] + prev_d[k][j];
                        pi[i][j] = pi[k][j];
                    } else {
                        d[i][j] = prev_d[i][j];
                    }
                    msk[i][j] = true;
                }
            }
        }
    }
    pi
}

// ---------------------------------------------------------------------
// Properties the answers must have whatever the reference's choices.

/// Shortest distances from `s` (None: unreachable).
fn distances(a: &Matrix, s: usize) -> Vec<Option<i64>> {
    relaxed_distances(a, s, |w| w != 0)
}

/// `pi` is a tree of shortest paths from `s`: the source and the
/// unreachable vertices are their own parents, and every other vertex's
/// parent edge is tight.
fn assert_shortest_path_tree(a: &Matrix, s: usize, pi: &[usize]) {
    let d = distances(a, s);
    for v in 0..a.len() {
        match d[v] {
            Some(dv) if v != s => {
                let u = pi[v];
                assert!(
                    a[u][v] != 0 && d[u].map(|du| du + a[u][v]) == Some(dv),
                    "vertex {v}"
                );
            }
            _ => assert_eq!(pi[v], v, "vertex {v}"),
        }
    }
}

/// `topo` is the reference's linked list (each vertex points to the next
/// one, the last to itself) and lists every vertex before its successors.
fn assert_topological(a: &Matrix, topo: &[usize]) {
    let n = a.len();
    let mut pointed = vec![false; n];
    for u in 0..n {
        if topo[u] != u {
            pointed[topo[u]] = true;
        }
    }
    let mut u = (0..n).find(|&u| !pointed[u]).expect("a head");
    let mut rank = vec![usize::MAX; n];
    for r in 0..n {
        rank[u] = r;
        u = topo[u];
    }
    for u in 0..n {
        for v in 0..n {
            if a[u][v] != 0 {
                assert!(rank[u] < rank[v], "edge {u} -> {v}");
            }
        }
    }
}

fn tree_weight(a: &Matrix, edges: impl Iterator<Item = (usize, usize)>) -> i64 {
    edges.map(|(u, v)| a[u][v]).sum()
}

// ---------------------------------------------------------------------
// Running the programs.

/// The sizes every algorithm runs at: the smallest graphs, the CLRS
/// training size 16 and its test size 64, and sizes between.
const SIZES: [usize; 13] = [1, 2, 3, 4, 5, 7, 9, 12, 16, 24, 33, 48, 64];

/// `--no-cache` runs only up to this size: without its caches the network
/// takes every step through the core's layers.
const NO_CACHE_UPTO: usize = 33;

/// The engines at size `n` in CI: all three up to [`NO_CACHE_UPTO`].
fn engines(n: usize) -> &'static [Engine] {
    if n <= NO_CACHE_UPTO { &ALL } else { &FAST }
}

/// What CI runs: [`SIZES`] with [`engines`].
const SMALL: Sweep = Sweep {
    sizes: &SIZES,
    engines,
};

/// Runs `id` on every input on the engines `sweep` gives for its size,
/// which must agree, and compares `member` of the output with
/// `expected(input)`.
fn check(
    id: &str,
    member: &str,
    sweep: Sweep,
    inputs: impl IntoIterator<Item = Value>,
    expected: impl Fn(&Value) -> Value,
) {
    let program = program(id);
    for input in inputs {
        let want = expected(&input);
        let n = input["A"].as_array().map_or(0, Vec::len);
        let output = program.agreed(&input, (sweep.engines)(n));
        assert_eq!(output[member], want, "{id}, n = {n}, input {input}");
    }
}

fn pis(pi: &[usize]) -> Value {
    json!(pi)
}

fn check_dfs(seed: u64, sweep: Sweep) {
    let mut rng = rng(seed);
    let inputs = sweep
        .sizes
        .iter()
        .map(|&n| json!({ "A": er(&mut rng, n, 0.5, true, false) }));
    check("dfs", "pi", sweep, inputs, |x| {
        let a = matrix(x);
        let pi = search(&a, &all(a.len())).pi;
        for (v, &u) in pi.iter().enumerate() {
            assert!(u == v || a[u][v] != 0, "a parent edge {u} -> {v}");
        }
        pis(&pi)
    });
}

fn check_bfs(seed: u64, sweep: Sweep) {
    let mut rng = rng(seed);
    let inputs = sweep.sizes.iter().map(|&n| {
        let a = er(&mut rng, n, 0.5, false, false);
        with_source(&mut rng, a)
    });
    check("bfs", "pi", sweep, inputs, |x| {
        let (a, s) = (matrix(x), source(x));
        let pi = reference_bfs(&a, s);
        let unit: Matrix = a
            .iter()
            .map(|row| row.iter().map(|&w| i64::from(w != 0)).collect())
            .collect();
        assert_shortest_path_tree(&unit, s, &pi);
        pis(&pi)
    });
}

fn check_topological_sort(seed: u64, sweep: Sweep) {
    let mut rng = rng(seed);
    let inputs = sweep
        .sizes
        .iter()
        .map(|&n| json!({ "A": er(&mut rng, n, 0.5, true, true) }));
    check("topological_sort", "topo", sweep, inputs, |x| {
        let a = matrix(x);
        let topo = search(&a, &all(a.len())).topo;
        assert_topological(&a, &topo);
        pis(&topo)
    });
}

/// Undirected graphs for articulation points and bridges: at each size,
/// one as the CLRS sampler draws it (p = 0.2) and two at the density where
/// cut vertices, bridges and cycles through them are all common (about two
/// edges per vertex), so that `low[v] == d[u]` occurs.
fn low_point_graphs(seed: u64, sizes: &[usize]) -> Vec<Value> {
    let mut rng = rng(seed);
    let mut graphs = Vec::new();
    for &n in sizes {
        let sparse = (2.0 / n as f64).sqrt().clamp(0.2, 1.0);
        for p in [0.2, sparse, sparse] {
            graphs.push(json!({ "A": er(&mut rng, n, p, false, false) }));
        }
    }
    graphs
}

fn check_articulation_points(seed: u64, sweep: Sweep) {
    let inputs = low_point_graphs(seed, sweep.sizes);
    check("articulation_points", "is_cut", sweep, inputs, |x| {
        let a = matrix(x);
        let cut = reference_is_cut(&a);
        let whole = components(&a, |_, _| true);
        for (u, &c) in cut.iter().enumerate() {
            let without = components(&a, |x, y| x != u && y != u) - 1;
            assert_eq!(c == 1, without > whole, "vertex {u}");
        }
        json!(cut)
    });
}

fn check_bridges(seed: u64, sweep: Sweep) {
    let inputs = low_point_graphs(seed, sweep.sizes);
    check("bridges", "is_bridge", sweep, inputs, |x| {
        let a = matrix(x);
        let bridge = reference_is_bridge(&a);
        let whole = components(&a, |_, _| true);
        // Removing each edge in turn costs O(E n^2): above 256 vertices
        // the reference's answer alone is the oracle.
        let n = if a.len() <= 256 { a.len() } else { 0 };
        for u in 0..n {
            for v in 0..n {
                if a[u][v] != 0 && u != v {
                    let without = components(&a, |x, y| (x, y) != (u, v) && (x, y) != (v, u));
                    assert_eq!(bridge[u][v] == 1, without > whole, "edge {u} - {v}");
                }
            }
        }
        json!(bridge)
    });
}

fn check_strongly_connected_components(seed: u64, sweep: Sweep) {
    let mut rng = rng(seed);
    let inputs = sweep
        .sizes
        .iter()
        .map(|&n| json!({ "A": communities(&mut rng, n) }));
    check(
        "strongly_connected_components",
        "scc_id",
        sweep,
        inputs,
        |x| {
            let a = matrix(x);
            let id = reference_scc(&a);
            let reach = closure(&a);
            for u in 0..a.len() {
                for v in 0..a.len() {
                    assert_eq!(id[u] == id[v], reach[u][v] && reach[v][u], "{u} and {v}");
                }
            }
            pis(&id)
        },
    );
}

fn check_mst_kruskal(seed: u64, sweep: Sweep) {
    let mut rng = rng(seed);
    let inputs = sweep.sizes.iter().map(|&n| {
        let mut a = er(&mut rng, n, 0.2, false, false);
        weigh(&mut rng, &mut a, false, Weights::Distinct);
        json!({ "A": a })
    });
    check("mst_kruskal", "in_mst", sweep, inputs, |x| {
        let a = matrix(x);
        let in_mst = reference_kruskal(&a);
        let n = a.len();
        let edges = (0..n).flat_map(|u| (u + 1..n).map(move |v| (u, v)));
        let chosen: Vec<(usize, usize)> = edges.filter(|&(u, v)| in_mst[u][v] == 1).collect();
        let forest = components(&a, |_, _| true);
        assert_eq!(chosen.len() + forest, n, "a spanning forest");
        json!(in_mst)
    });
}

fn check_mst_prim(seed: u64, sweep: Sweep) {
    let mut rng = rng(seed);
    let inputs = sweep.sizes.iter().map(|&n| {
        let mut a = er(&mut rng, n, 0.5, false, false);
        weigh(&mut rng, &mut a, false, Weights::Distinct);
        with_source(&mut rng, a)
    });
    check("mst_prim", "pi", sweep, inputs, |x| {
        let (a, s) = (matrix(x), source(x));
        let pi = reference_greedy(&a, s, |_, w| w);
        // The tree spans s's component and weighs what Kruskal's forest
        // weighs there.
        let kruskal = reference_kruskal(&a);
        let reach = closure(&a);
        let n = a.len();
        let inside = |v: usize| v == s || reach[s][v];
        let prim = (0..n).filter(|&v| v != s && inside(v)).map(|v| (pi[v], v));
        let tree = (0..n).flat_map(|u| (u + 1..n).map(move |v| (u, v)));
        let tree = tree.filter(|&(u, v)| kruskal[u][v] == 1 && inside(u));
        assert_eq!(tree_weight(&a, prim), tree_weight(&a, tree));
        pis(&pi)
    });
}

fn check_bellman_ford(seed: u64, sweep: Sweep) {
    let mut rng = rng(seed);
    let inputs = sweep.sizes.iter().map(|&n| {
        let mut a = er(&mut rng, n, 0.5, false, false);
        weigh(&mut rng, &mut a, false, Weights::Upto(4));
        with_source(&mut rng, a)
    });
    check("bellman_ford", "pi", sweep, inputs, |x| {
        let (a, s) = (matrix(x), source(x));
        let pi = reference_bellman_ford(&a, s);
        assert_shortest_path_tree(&a, s, &pi);
        pis(&pi)
    });
}

fn check_dijkstra(seed: u64, sweep: Sweep) {
    let mut rng = rng(seed);
    let inputs = sweep.sizes.iter().map(|&n| {
        let mut a = er(&mut rng, n, 0.5, false, false);
        weigh(&mut rng, &mut a, false, Weights::Distinct);
        with_source(&mut rng, a)
    });
    check("dijkstra", "pi", sweep, inputs, |x| {
        let (a, s) = (matrix(x), source(x));
        let pi = reference_greedy(&a, s, |du, w| du + w);
        assert_shortest_path_tree(&a, s, &pi);
        pis(&pi)
    });
}

fn check_dag_shortest_paths(seed: u64, sweep: Sweep) {
    let mut rng = rng(seed);
    let inputs = sweep.sizes.iter().map(|&n| {
        let mut a = er(&mut rng, n, 0.5, true, true);
        weigh(&mut rng, &mut a, true, Weights::Upto(4));
        with_source(&mut rng, a)
    });
    check("dag_shortest_paths", "pi", sweep, inputs, |x| {
        let (a, s) = (matrix(x), source(x));
        let pi = reference_dag_shortest_paths(&a, s);
        assert_shortest_path_tree(&a, s, &pi);
        pis(&pi)
    });
}

fn check_floyd_warshall(seed: u64, sweep: Sweep) {
    let mut rng = rng(seed);
    let inputs = sweep.sizes.iter().map(|&n| {
        let mut a = er(&mut rng, n, 0.5, false, false);
        weigh(&mut rng, &mut a, false, Weights::Upto(4));
        json!({ "A": a })
    });
    check("floyd_warshall", "Pi", sweep, inputs, |x| {
        let a = matrix(x);
        let pi = reference_floyd_warshall(&a);
        // Pi[i][j] is j's parent on a shortest path from i, or i where no
        // path leads.
        for (i, from_i) in pi.iter().enumerate() {
            let d = distances(&a, i);
            for j in (0..a.len()).filter(|&j| j != i) {
                let p = from_i[j] as usize;
                match d[j] {
                    Some(dj) => assert!(a[p][j] != 0 && d[p].map(|dp| dp + a[p][j]) == Some(dj)),
                    None => assert_eq!(p, i),
                }
            }
        }
        json!(pi)
    });
}

#[test]
fn dfs() {
    check_dfs(1901, SMALL);
}

#[test]
fn bfs() {
    check_bfs(1902, SMALL);
}

#[test]
fn topological_sort() {
    check_topological_sort(1903, SMALL);
}

#[test]
fn articulation_points() {
    check_articulation_points(1904, SMALL);
}

#[test]
fn bridges() {
    check_bridges(1905, SMALL);
}

#[test]
fn strongly_connected_components() {
    check_strongly_connected_components(1906, SMALL);
}

#[test]
fn mst_kruskal() {
    check_mst_kruskal(1907, SMALL);
}

#[test]
fn mst_prim() {
    check_mst_prim(1908, SMALL);
}

#[test]
fn bellman_ford() {
    check_bellman_ford(1909, SMALL);
}

#[test]
fn dijkstra() {
    check_dijkstra(1910, SMALL);
}

#[test]
fn dag_shortest_paths() {
    check_dag_shortest_paths(1911, SMALL);
}

#[test]
fn floyd_warshall() {
    check_floyd_warshall(1912, SMALL);
}

#[test]
#[ignore = "minutes; run with: -- --ignored largest"]
fn largest_dfs() {
    check_dfs(2901, LARGEST_GRAPH);
}

#[test]
#[ignore = "minutes; run with: -- --ignored largest"]
fn largest_bfs() {
    check_bfs(2902, LARGEST_GRAPH);
}

#[test]
#[ignore = "minutes; run with: -- --ignored largest"]
fn largest_topological_sort() {
    check_topological_sort(2903, LARGEST_GRAPH);
}

#[test]
#[ignore = "minutes; run with: -- --ignored largest"]
fn largest_articulation_points() {
    check_articulation_points(2904, LARGEST_GRAPH);
}

#[test]
#[ignore = "minutes; run with: -- --ignored largest"]
fn largest_bridges() {
    check_bridges(2905, LARGEST_GRAPH);
}

#[test]
#[ignore = "minutes; run with: -- --ignored largest"]
fn largest_strongly_connected_components() {
    check_strongly_connected_components(2906, LARGEST_GRAPH);
}

#[test]
#[ignore = "minutes; run with: -- --ignored largest"]
fn largest_mst_kruskal() {
    check_mst_kruskal(2907, LARGEST_GRAPH);
}

#[test]
#[ignore = "minutes; run with: -- --ignored largest"]
fn largest_mst_prim() {
    check_mst_prim(2908, LARGEST_GRAPH);
}

#[test]
#[ignore = "minutes; run with: -- --ignored largest"]
fn largest_bellman_ford() {
    check_bellman_ford(2909, LARGEST_CUBIC);
}

#[test]
#[ignore = "minutes; run with: -- --ignored largest"]
fn largest_dijkstra() {
    check_dijkstra(2910, LARGEST_GRAPH);
}

#[test]
#[ignore = "minutes; run with: -- --ignored largest"]
fn largest_dag_shortest_paths() {
    check_dag_shortest_paths(2911, LARGEST_GRAPH);
}

#[test]
#[ignore = "minutes; run with: -- --ignored largest"]
fn largest_floyd_warshall() {
    check_floyd_warshall(2912, LARGEST_CUBIC);
}

/// The number of connected components of the undirected graph `a` keeps
/// when only the edges `keep(u, v)` remain.
fn components(a: &Matrix, keep: impl Fn(usize, usize) -> bool) -> usize {
    let n = a.len();
    let mut seen = vec![false; n];
    let mut count = 0;
    for root in 0..n {
        if seen[root] {
            continue;
        }
        count += 1;
        seen[root] = true;
        let mut stack = vec![root];
        while let Some(u) = stack.pop() {
            for v in 0..n {
                if a[u][v] != 0 && keep(u, v) && !seen[v] {
                    seen[v] = true;
                    stack.push(v);
                }
            }
        }
    }
    count
}

/// `reach[u][v]`: a path of one edge or more leads from `u` to `v`, or `u == v`.
fn closure(a: &Matrix) -> Vec<Vec<bool>> {
    let n = a.len();
    let mut reach: Vec<Vec<bool>> = (0..n)
        .map(|i| (0..n).map(|j| i == j || a[i][j] != 0).collect())
        .collect();
    for k in 0..n {
        for i in 0..n {
            if reach[i][k] {
                let through_k = reach[k].clone();
                for (r, t) in reach[i].iter_mut().zip(through_k) {
                    *r |= t;
                }
            }
        }
    }
    reach
}
