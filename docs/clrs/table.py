#!/usr/bin/env python3
"""Measure the CLRS programs of examples/clrs/ and print the table of docs/clrs.md.

For every program (and size), draw an input as the CLRS samplers do, with
their floats scaled to integers, run `cnpic run FILE --input @IN --format
json` on the network and with `--symbolic`, check that the two agree on
the members the contract names, and time each run's wall clock (the
whole command: compiling, building the memory from a warm detector cache,
running). A first untimed run per program warms the cache.

    cargo build --release -p cnpic
    python3 docs/clrs/table.py [--seed 0] [--only id,id] [--cnpic target/release/cnpic]

Prints a Markdown table on stdout, one row per program and size: lines,
core steps on the network, seconds on the network and with --symbolic,
and their ratio. Pure Python, no packages.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCALE = 1000  # a CLRS float in [0, 1) becomes an integer in [0, SCALE)

# id: (family, output members compared, largest size)
PROGRAMS = {
    "insertion_sort": ("sorting", ["A"], 1024),
    "bubble_sort": ("sorting", ["A"], 1024),
    "heapsort": ("sorting", ["A"], 1024),
    "quicksort": ("sorting", ["A"], 1024),
    "minimum": ("searching", ["min"], 1024),
    "binary_search": ("searching", ["index"], 1024),
    "quickselect": ("searching", ["median"], 1024),
    "find_maximum_subarray_kadane": ("divide and conquer", ["start", "end"], 1024),
    "activity_selector": ("greedy", ["selected"], 1024),
    "task_scheduling": ("greedy", ["selected"], 1024),
    "matrix_chain_order": ("dynamic programming", ["s"], 64),
    "lcs_length": ("dynamic programming", ["b"], 1024),
    "optimal_bst": ("dynamic programming", ["root"], 64),
    "dfs": ("graphs", ["pi"], 1024),
    "bfs": ("graphs", ["pi"], 1024),
    "topological_sort": ("graphs", ["topo"], 1024),
    "articulation_points": ("graphs", ["is_cut"], 1024),
    "bridges": ("graphs", ["is_bridge"], 1024),
    "strongly_connected_components": ("graphs", ["scc_id"], 1024),
    "mst_kruskal": ("graphs", ["in_mst"], 1024),
    "mst_prim": ("graphs", ["pi"], 1024),
    "bellman_ford": ("graphs", ["pi"], 64),
    "dijkstra": ("graphs", ["pi"], 1024),
    "dag_shortest_paths": ("graphs", ["pi"], 1024),
    "floyd_warshall": ("graphs", ["Pi"], 64),
    "naive_string_matcher": ("strings", ["match"], 1024),
    "kmp_matcher": ("strings", ["match"], 1024),
    "segments_intersect": ("geometry", ["intersect"], 4),
    "graham_scan": ("geometry", ["in_hull"], 1024),
    "jarvis_march": ("geometry", ["in_hull"], 1024),
}


# Triplet-GMPNN (Ibarz et al. 2022) out of distribution, n = 64, in %: the
# family averages, and the three single algorithms issue 19 quotes.
PUBLISHED_FAMILY = {"sorting": "60.4", "searching": "58.6", "strings": "49.1", "graphs": "81.4"}
PUBLISHED = {"heapsort": "31.0", "quickselect": "0.5", "kmp_matcher": "19.5"}


def published(pid, family):
    if pid in PUBLISHED:
        return PUBLISHED[pid]
    if family in PUBLISHED_FAMILY:
        return PUBLISHED_FAMILY[family] + " (family)"
    return "—"


def floats(rng, n):
    return [rng.randrange(SCALE) for _ in range(n)]


def er_graph(rng, n, p, directed=False, acyclic=False, weighted=False):
    """The CLRS sampler's Erdos-Renyi graph as a weight matrix; weights are
    distinct integers >= 1 (1 for an unweighted graph)."""
    mat = [[1 if rng.random() < p else 0 for _ in range(n)] for _ in range(n)]
    if not directed:
        mat = [[mat[i][j] * mat[j][i] for j in range(n)] for i in range(n)]
    elif acyclic:
        perm = list(range(n))
        rng.shuffle(perm)
        tri = [[mat[i][j] if i < j else 0 for j in range(n)] for i in range(n)]
        mat = [[tri[perm[i]][perm[j]] for j in range(n)] for i in range(n)]
    if weighted:
        weights = iter(rng.sample(range(1, 10 * n * n + 2), n * n))
        w = [[next(weights) for _ in range(n)] for _ in range(n)]
        for i in range(n):
            for j in range(n):
                if mat[i][j]:
                    mat[i][j] = w[min(i, j)][max(i, j)] if not directed else w[i][j]
    return mat


def community_graph(rng, n, k=4, p=0.5, eps=0.01):
    """k dense directed communities and a few edges between them."""
    mat = [[0] * n for _ in range(n)]
    size = max(1, n // k)
    for i in range(n):
        for j in range(n):
            same = min(i // size, k - 1) == min(j // size, k - 1)
            if rng.random() < (p if same else eps):
                mat[i][j] = 1
    perm = list(range(n))
    rng.shuffle(perm)
    return [[mat[perm[i]][perm[j]] for j in range(n)] for i in range(n)]


def disc_points(rng, n, radius=10**6):
    xs, ys = [], []
    while len(xs) < n:
        x, y = rng.randint(-radius, radius), rng.randint(-radius, radius)
        if x * x + y * y <= radius * radius and (x, y) not in zip(xs, ys):
            xs.append(x)
            ys.append(y)
    return xs, ys


def sample(pid, n, rng):
    """An input for program `pid` at size n, as the CLRS sampler draws it."""
    if pid in ("insertion_sort", "bubble_sort", "heapsort", "quicksort", "minimum"):
        return {"A": floats(rng, n)}
    if pid == "quickselect":
        return {"A": rng.sample(range(SCALE * n), n)}
    if pid == "binary_search":
        return {"A": sorted(floats(rng, n)), "x": rng.randrange(SCALE)}
    if pid == "find_maximum_subarray_kadane":
        return {"A": [rng.randrange(-SCALE, SCALE) for _ in range(n)]}
    if pid == "activity_selector":
        f = rng.sample(range(1, SCALE * n), n)
        return {"s": [rng.randrange(v) for v in f], "f": f}
    if pid == "task_scheduling":
        return {"d": [rng.randint(1, n) for _ in range(n)], "w": rng.sample(range(SCALE * n), n)}
    if pid == "matrix_chain_order":
        return {"p": [rng.randint(1, SCALE) for _ in range(n)]}
    if pid == "lcs_length":
        return {"x": [rng.randrange(4) for _ in range(n - n // 2)],
                "y": [rng.randrange(4) for _ in range(max(1, n // 2))]}
    if pid == "optimal_bst":
        return {"p": floats(rng, n), "q": floats(rng, n + 1)}
    if pid in ("naive_string_matcher", "kmp_matcher"):
        m = 1 if n < 5 else n // 5
        t = [rng.randrange(4) for _ in range(n - m)]
        p = [rng.randrange(4) for _ in range(m)]
        at = rng.randrange(max(1, len(t) - m))
        t[at:at + m] = p
        return {"T": t, "P": p}
    if pid == "segments_intersect":
        return {"xs": floats(rng, 4), "ys": floats(rng, 4)}
    if pid in ("graham_scan", "jarvis_march"):
        xs, ys = disc_points(rng, n)
        return {"xs": xs, "ys": ys}
    source = rng.randrange(n)
    if pid == "dfs":
        return {"A": er_graph(rng, n, 0.5, directed=True)}
    if pid == "bfs":
        return {"A": er_graph(rng, n, 0.5), "s": source}
    if pid == "topological_sort":
        return {"A": er_graph(rng, n, 0.5, directed=True, acyclic=True)}
    if pid in ("articulation_points", "bridges"):
        return {"A": er_graph(rng, n, 0.2)}
    if pid == "strongly_connected_components":
        return {"A": community_graph(rng, n)}
    if pid == "mst_kruskal":
        return {"A": er_graph(rng, n, 0.2, weighted=True)}
    if pid in ("mst_prim", "bellman_ford", "dijkstra"):
        return {"A": er_graph(rng, n, 0.5, weighted=True), "s": source}
    if pid == "dag_shortest_paths":
        return {"A": er_graph(rng, n, 0.5, directed=True, acyclic=True, weighted=True), "s": source}
    if pid == "floyd_warshall":
        return {"A": er_graph(rng, n, 0.5, weighted=True)}
    raise ValueError(pid)


def run(cnpic, path, input_path, *flags, timeout=None):
    """The JSON output of `cnpic run` with `flags` and its wall time; past
    `timeout` seconds the run is killed (subprocess.TimeoutExpired)."""
    command = [cnpic, "run", path, "--input", "@" + input_path, "--format", "json", *flags]
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{done.stderr}")
    return json.loads(done.stdout), seconds


def lines(path):
    with open(os.path.join(ROOT, path)) as f:
        return sum(1 for line in f if line.strip() and not line.strip().startswith("#"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", help="comma-separated program ids")
    parser.add_argument("--cnpic", default=os.path.join(ROOT, "target", "release", "cnpic"))
    args = parser.parse_args()
    chosen = args.only.split(",") if args.only else list(PROGRAMS)
    print("| program | lines | n | core steps | network s | --symbolic s | ratio "
          "| Triplet-GMPNN, n = 64 |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory() as scratch:
        for pid in chosen:
            family, members, largest = PROGRAMS[pid]
            path = f"examples/clrs/{pid}.cnpi"
            if not os.path.exists(os.path.join(ROOT, path)):
                print(f"| `{pid}` | — | — | not written | | | | |")
                continue
            rng = random.Random(f"{args.seed}/{pid}")
            input_path = os.path.join(scratch, "input.json")
            sizes = sorted({16, 64, largest}) if pid != "segments_intersect" else [4]
            if family == "graphs" and largest == 1024:
                sizes.insert(2, 256)  # the graphs' matrix grows as n^2
            for i, n in enumerate(sizes):
                with open(input_path, "w") as f:
                    json.dump(sample(pid, n, rng), f)
                if i == 0:
                    run(args.cnpic, path, input_path)  # warm the detector cache
                network, net_s = run(args.cnpic, path, input_path)
                symbolic, sym_s = run(args.cnpic, path, input_path, "--symbolic")
                for member in members:
                    if network.get(member) != symbolic.get(member):
                        sys.exit(f"{pid} at n = {n}: the engines disagree on `{member}`")
                score = published(pid, family) if n == 64 else ""
                print(f"| `{pid}` | {lines(path)} | {n} | {network['steps']:,} | "
                      f"{net_s:.3f} | {sym_s:.3f} | {net_s / sym_s:.1f} | {score} |", flush=True)


if __name__ == "__main__":
    main()
