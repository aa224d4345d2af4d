"""The CLRS-30 programs of examples/clrs/ as plain CPython, for speed.py.

Each function is the algorithm its `.cnpi` file implements (the same
loops, the same tie-breaking, the same rounds where the program follows
CLRS's reference rather than the book), written as a user would write it
in Python to get the answer: lists and ints, no numpy, no probes. It takes
the program's input (the JSON object `docs/clrs/table.py` draws) and gives
the members of its answer that docs/clrs.md compares.

speed.py times each against `prog.run` of the cnpi package in the same
process, and checks its answer against the network's and against CLRS's
own reference on the same input (`matches_reference`).
"""

import sys

# The depth-first programs recurse once per vertex on a path (up to n).
sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))


def insertion_sort(inp):
    a = list(inp["A"])
    for j in range(1, len(a)):
        key = a[j]
        i = j - 1
        while i >= 0 and a[i] > key:
            a[i + 1] = a[i]
            i -= 1
        a[i + 1] = key
    return {"A": a}


def bubble_sort(inp):
    a = list(inp["A"])
    n = len(a)
    for i in range(n - 1):
        for j in range(n - 1, i, -1):
            if a[j] < a[j - 1]:
                a[j], a[j - 1] = a[j - 1], a[j]
    return {"A": a}


def _max_heapify(a, i, size):
    while True:
        l, r, largest = 2 * i + 1, 2 * i + 2, i
        if l < size and a[l] > a[i]:
            largest = l
        if r < size and a[r] > a[largest]:
            largest = r
        if largest == i:
            return
        a[i], a[largest] = a[largest], a[i]
        i = largest


def heapsort(inp):
    a = list(inp["A"])
    n = len(a)
    for k in range(n // 2 - 1, -1, -1):
        _max_heapify(a, k, n)
    for k in range(n - 1, 0, -1):
        a[0], a[k] = a[k], a[0]
        _max_heapify(a, 0, k)
    return {"A": a}


def _partition(a, p, r):
    x = a[r]
    i = p - 1
    for j in range(p, r):
        if a[j] <= x:
            i += 1
            a[i], a[j] = a[j], a[i]
    a[i + 1], a[r] = a[r], a[i + 1]
    return i + 1


def _quicksort(a, p, r):
    if p < r:
        q = _partition(a, p, r)
        _quicksort(a, p, q - 1)
        _quicksort(a, q + 1, r)


def quicksort(inp):
    a = list(inp["A"])
    _quicksort(a, 0, len(a) - 1)
    return {"A": a}


def minimum(inp):
    a = inp["A"]
    best = 0
    for i in range(1, len(a)):
        if a[best] > a[i]:
            best = i
    return {"min": best}


def binary_search(inp):
    a, x = inp["A"], inp["x"]
    low, high = 0, len(a) - 1
    while low < high:
        mid = (low + high) // 2
        if x <= a[mid]:
            high = mid
        else:
            low = mid + 1
    return {"index": high}


def quickselect(inp):
    a = list(inp["A"])
    n = len(a)
    pos = list(range(n))
    p, r, i = 0, n - 1, n // 2
    while p != r:
        x, q = a[r], p
        for j in range(p, r):
            if a[j] <= x:
                a[q], a[j] = a[j], a[q]
                pos[q], pos[j] = pos[j], pos[q]
                q += 1
        a[q], a[r] = a[r], a[q]
        pos[q], pos[r] = pos[r], pos[q]
        k = q - p
        if i == k:
            p = q
            break
        if i < k:
            r = q - 1
        else:
            p, i = q + 1, i - k - 1
    return {"median": pos[p]}


def find_maximum_subarray_kadane(inp):
    a = inp["A"]
    total = best = a[0]
    i = start = end = 0
    for j in range(1, len(a)):
        if total + a[j] >= a[j]:
            total += a[j]
        else:
            i, total = j, a[j]
        if total > best:
            start, end, best = i, j, total
    return {"start": start, "end": end}


def _heap_order(keys):
    """The indices sorted by key with the programs' heapsort (max-heap,
    ties in heapsort's order, as the reference's unstable sort is not
    asked for)."""
    n = len(keys)
    order = list(range(n))

    def sift_down(i, size):
        while True:
            l, r, largest = 2 * i + 1, 2 * i + 2, i
            if l < size and keys[order[l]] > keys[order[largest]]:
                largest = l
            if r < size and keys[order[r]] > keys[order[largest]]:
                largest = r
            if largest == i:
                return
            order[i], order[largest] = order[largest], order[i]
            i = largest

    for j in range(n // 2 - 1, -1, -1):
        sift_down(j, n)
    for j in range(n - 1, 0, -1):
        order[0], order[j] = order[j], order[0]
        sift_down(0, j)
    return order


def activity_selector(inp):
    s, f = inp["s"], inp["f"]
    n = len(s)
    order = _heap_order(f)
    selected = [0] * n
    k = order[0]
    selected[k] = 1
    for m in range(1, n):
        if s[order[m]] >= f[k]:
            k = order[m]
            selected[k] = 1
    return {"selected": selected}


def task_scheduling(inp):
    d, w = inp["d"], inp["w"]
    n = len(d)
    order = _heap_order(w)
    selected = [0] * n
    selected[order[n - 1]] = 1
    t = 1
    for m in range(n - 2, -1, -1):
        if t < d[order[m]]:
            selected[order[m]] = 1
            t += 1
    return {"selected": selected}


def matrix_chain_order(inp):
    p = inp["p"]
    m = len(p)
    cost = [[0] * m for _ in range(m)]
    known = [[0] * m for _ in range(m)]
    s = [[0] * (m - 1) for _ in range(m - 1)]
    row_first, col_last = [-1] * m, [-1] * m
    row_next, col_next = [0] * m, [0] * m
    for i in range(1, m):
        known[i][i] = 1
    changed = True
    while changed:
        old = [row[:] for row in cost]
        was_known = [row[:] for row in known]
        for i in range(1, m):
            row_next[i], col_next[i] = m, -1
        changed = False
        for i in range(1, m):
            for j in range(i + 1, m):
                if not (row_first[i] < j or col_last[j] > i):
                    continue
                first = not was_known[i][j]
                for k in range(i, j):
                    if was_known[i][k] and was_known[k + 1][j]:
                        known[i][j] = 1
                        q = old[i][k] + old[k + 1][j] + p[i - 1] * p[k] * p[j]
                        if first or q < cost[i][j]:
                            cost[i][j] = q
                            s[i - 1][j - 1] = k
                            first = False
                            if j < row_next[i]:
                                row_next[i] = j
                            col_next[j] = i
                if cost[i][j] != old[i][j]:
                    changed = True
        row_first, col_last = row_next[:], col_next[:]
    return {"s": s}


def lcs_length(inp):
    x, y = inp["x"], inp["y"]
    n, m = len(x), len(y)
    c = [[0] * m for _ in range(n)]
    b = [[0] * m for _ in range(n)]
    if m > 0:
        for i in range(n):
            if x[i] == y[0]:
                c[i][0], b[i][0] = 1, 0
            else:
                b[i][0] = 1
                if i > 0:
                    c[i][0] = c[i - 1][0]
    if n > 0:
        for j in range(m):
            if x[0] == y[j]:
                c[0][j], b[0][j] = 1, 0
            else:
                b[0][j] = 1
                if j > 0 and c[0][j - 1] == 1:
                    c[0][j], b[0][j] = 1, 2
    for i in range(1, n):
        ci, cu, bi, xi = c[i], c[i - 1], b[i], x[i]
        for j in range(1, m):
            if xi == y[j]:
                ci[j], bi[j] = cu[j - 1] + 1, 0
            elif cu[j] >= ci[j - 1]:
                ci[j], bi[j] = cu[j], 1
            else:
                ci[j], bi[j] = ci[j - 1], 2
    return {"b": b}


def optimal_bst(inp):
    p, q = inp["p"], inp["q"]
    n, m = len(p), len(q)
    e = [[0] * m for _ in range(m)]
    w = [[0] * m for _ in range(m)]
    root = [[0] * m for _ in range(m)]
    for i in range(m):
        e[i][i] = w[i][i] = q[i]
    for length in range(1, n + 1):
        for i in range(n - length + 1):
            j = i + length
            best = 1000000000
            w[i][j] = w[i][j - 1] + p[j - 1] + q[j]
            for r in range(i, j):
                t = e[i][r] + e[r + 1][j] + w[i][j]
                if t < best:
                    best = t
                    root[i][j] = r
            e[i][j] = best
    return {"root": root}


def naive_string_matcher(inp):
    t, p = inp["T"], inp["P"]
    n, m = len(t), len(p)
    for s in range(n - m + 1):
        j = 0
        while j < m and t[s + j] == p[j]:
            j += 1
        if j == m:
            return {"match": s}
    return {"match": n}


def kmp_matcher(inp):
    t, p = inp["T"], inp["P"]
    n, m = len(t), len(p)
    pi = [0] * m
    k = 0
    for q in range(1, m):
        while k > 0 and p[k] != p[q]:
            k = pi[k - 1]
        if p[k] == p[q]:
            k += 1
        pi[q] = k
    matched = 0
    for i in range(n):
        while matched > 0 and p[matched] != t[i]:
            matched = pi[matched - 1]
        if p[matched] == t[i]:
            matched += 1
        if matched == m:
            return {"match": i - m + 1}
    return {"match": n}


def segments_intersect(inp):
    xs, ys = inp["xs"], inp["ys"]

    def direction(i, j, k):
        d = (xs[k] - xs[i]) * (ys[j] - ys[i]) - (xs[j] - xs[i]) * (ys[k] - ys[i])
        turn = (d > 0) - (d < 0)
        on = (xs[k] - xs[i]) * (xs[k] - xs[j]) <= 0 and (ys[k] - ys[i]) * (ys[k] - ys[j]) <= 0
        return turn, on

    tests = [direction(2, 3, 0), direction(2, 3, 1), direction(0, 1, 2), direction(0, 1, 3)]
    turn = [t for t, _ in tests]
    intersect = turn[0] * turn[1] == -1 and turn[2] * turn[3] == -1
    intersect = intersect or any(t == 0 and on for t, on in tests)
    return {"intersect": int(intersect)}


def _lowest(xs, ys):
    best = 0
    for i in range(len(xs)):
        if ys[i] < ys[best] or ys[i] == ys[best] and xs[i] < xs[best]:
            best = i
    return best


def graham_scan(inp):
    xs, ys = inp["xs"], inp["ys"]
    n = len(xs)
    best = _lowest(xs, ys)
    bx, by = xs[best], ys[best]
    order = [best] + [i for i in range(n) if i != best]

    def before(a, c):  # c's angle from the lowest point is below a's
        return (xs[a] - bx) * (ys[c] - by) > (ys[a] - by) * (xs[c] - bx)

    def max_heapify(h, size):
        while True:
            l, r, largest = 2 * h, 2 * h + 1, h
            if l <= size and before(order[largest], order[l]):
                largest = l
            if r <= size and before(order[largest], order[r]):
                largest = r
            if largest == h:
                return
            order[h], order[largest] = order[largest], order[h]
            h = largest

    size = n - 1
    for i in range(size // 2, 0, -1):
        max_heapify(i, size)
    for i in range(n - 1, 1, -1):
        order[1], order[i] = order[i], order[1]
        max_heapify(1, i - 1)
    in_hull = [0] * n
    below = [0] * n
    in_hull[best] = 1
    top = best
    for i in range(1, n):
        c = order[i]
        if i >= 3:
            while top != best:
                b = below[top]
                if (xs[top] - xs[b]) * (ys[c] - ys[b]) > (ys[top] - ys[b]) * (xs[c] - xs[b]):
                    break
                in_hull[top] = 0
                top = b
        in_hull[c] = 1
        below[c] = top
        top = c
    return {"in_hull": in_hull}


def jarvis_march(inp):
    xs, ys = inp["xs"], inp["ys"]
    n = len(xs)
    best = _lowest(xs, ys)
    in_hull = [0] * n
    in_hull[best] = 1
    last, endpoint = best, 0
    while True:
        lx, ly = xs[last], ys[last]
        for i in range(n):
            if endpoint == last or i != last and i != endpoint and (
                (xs[endpoint] - lx) * (ys[i] - ly) <= (ys[endpoint] - ly) * (xs[i] - lx)
            ):
                endpoint = i
        if in_hull[endpoint]:
            break
        in_hull[endpoint] = 1
        last, endpoint = endpoint, 0
    return {"in_hull": in_hull}


def dfs(inp):
    a = inp["A"]
    n = len(a)
    color, pi, d, f = [0] * n, [0] * n, [0] * n, [0] * n
    time = 0

    def visit(u):
        nonlocal time
        time += 1
        d[u] = time
        color[u] = 1
        row = a[u]
        for v in range(n):
            if row[v] != 0 and color[v] == 0:
                pi[v] = u
                visit(v)
        color[u] = 2
        time += 1
        f[u] = time

    for s in range(n):
        if color[s] == 0:
            pi[s] = s
            visit(s)
    return {"pi": pi}


def bfs(inp):
    a, s = inp["A"], inp["s"]
    n = len(a)
    dist, pi = [-1] * n, list(range(n))
    dist[s] = 0
    r, grew = 0, True
    while grew:
        grew = False
        for u in range(n):
            if dist[u] == r:
                row = a[u]
                for v in range(n):
                    if row[v] != 0 and dist[v] == -1:
                        dist[v] = r + 1
                        pi[v] = u
                        grew = True
        r += 1
    return {"pi": pi}


def topological_sort(inp):
    a = inp["A"]
    n = len(a)
    color, topo = [0] * n, list(range(n))
    head = -1

    def visit(u):
        nonlocal head
        color[u] = 1
        row = a[u]
        for v in range(n):
            if row[v] != 0 and color[v] == 0:
                visit(v)
        color[u] = 2
        if head != -1:
            topo[u] = head
        head = u

    for s in range(n):
        if color[s] == 0:
            visit(s)
    return {"topo": topo}


def _low_search(a, on_tree_edge):
    """The depth-first search of articulation points and bridges: discovery
    times and low points; `on_tree_edge(u, v, d, low)` after each child."""
    n = len(a)
    color, pi, d, low = [0] * n, [0] * n, [0] * n, [0] * n
    time = 0

    def visit(u):
        nonlocal time
        time += 1
        d[u] = low[u] = time
        color[u] = 1
        row = a[u]
        for v in range(n):
            if row[v] != 0:
                if color[v] == 0:
                    pi[v] = u
                    visit(v)
                    if low[v] < low[u]:
                        low[u] = low[v]
                    on_tree_edge(u, v, pi, d, low)
                elif v != pi[u] and d[v] < low[u]:
                    low[u] = d[v]
        color[u] = 2

    roots = []
    for s in range(n):
        if color[s] == 0:
            pi[s] = s
            roots.append(s)
            visit(s)
    return pi, roots


def articulation_points(inp):
    a = inp["A"]
    n = len(a)
    is_cut, children = [0] * n, [0] * n

    def tree_edge(u, v, pi, d, low):
        children[u] += 1
        if pi[u] != u and low[v] >= d[u]:
            is_cut[u] = 1

    _, roots = _low_search(a, tree_edge)
    for s in roots:
        if children[s] >= 2:
            is_cut[s] = 1
    return {"is_cut": is_cut}


def bridges(inp):
    a = inp["A"]
    n = len(a)
    is_bridge = [[0] * n for _ in range(n)]

    def tree_edge(u, v, pi, d, low):
        if low[v] > d[u]:
            is_bridge[u][v] = is_bridge[v][u] = 1

    _low_search(a, tree_edge)
    return {"is_bridge": is_bridge}


def strongly_connected_components(inp):
    a = inp["A"]
    n = len(a)
    color, order, scc_id = [0] * n, [], [-1] * n

    def visit(u):
        color[u] = 1
        row = a[u]
        for v in range(n):
            if row[v] != 0 and color[v] == 0:
                visit(v)
        color[u] = 2
        order.append(u)

    def visit_t(u, root):
        scc_id[u] = root
        for v in range(n):
            if a[v][u] != 0 and scc_id[v] == -1:
                visit_t(v, root)

    for s in range(n):
        if color[s] == 0:
            visit(s)
    for root in reversed(order):
        if scc_id[root] == -1:
            visit_t(root, root)
    return {"scc_id": scc_id}


def mst_kruskal(inp):
    a = inp["A"]
    n = len(a)
    w, eu, ev = [], [], []
    for i in range(n):
        for j in range(i + 1, n):
            if a[i][j] != 0:
                w.append(a[i][j])
                eu.append(i)
                ev.append(j)
    m = len(w)

    def min_heapify(p):
        c = 2 * p + 1
        if c + 1 < m and w[c + 1] < w[c]:
            c += 1
        while c < m and w[c] < w[p]:
            w[c], w[p] = w[p], w[c]
            eu[c], eu[p] = eu[p], eu[c]
            ev[c], ev[p] = ev[p], ev[c]
            p, c = c, 2 * c + 1
            if c + 1 < m and w[c + 1] < w[c]:
                c += 1

    parent, rank = list(range(n)), [0] * n

    def find_set(x):
        if parent[x] != x:
            parent[x] = find_set(parent[x])
        return parent[x]

    for i in range(m // 2 - 1, -1, -1):
        min_heapify(i)
    in_mst = [[0] * n for _ in range(n)]
    trees = n
    while m > 0 and trees > 1:
        u, v = eu[0], ev[0]
        x, y = find_set(u), find_set(v)
        if x != y:
            in_mst[u][v] = in_mst[v][u] = 1
            if rank[x] > rank[y]:
                parent[y] = x
            else:
                parent[x] = y
                if rank[x] == rank[y]:
                    rank[y] += 1
            trees -= 1
        m -= 1
        w[0], w[m] = w[m], w[0]
        eu[0], eu[m] = eu[m], eu[0]
        ev[0], ev[m] = ev[m], ev[0]
        min_heapify(0)
    return {"in_mst": in_mst}


def mst_prim(inp):
    a, s = inp["A"], inp["s"]
    n = len(a)
    key, in_queue, in_tree, pi = [0] * n, [False] * n, [False] * n, list(range(n))
    in_queue[s] = True
    u = s
    while u != -1:
        in_queue[u] = False
        in_tree[u] = True
        row = a[u]
        for v in range(n):
            w = row[v]
            if w != 0 and not in_tree[v] and (not in_queue[v] or w < key[v]):
                pi[v], key[v], in_queue[v] = u, w, True
        u = -1
        for i in range(n):
            if in_queue[i] and (u == -1 or key[i] < key[u]):
                u = i
    return {"pi": pi}


def bellman_ford(inp):
    a, s = inp["A"], inp["s"]
    n = len(a)
    d, reached, improved, pi = [0] * n, [False] * n, [False] * n, list(range(n))
    reached[s] = improved[s] = True
    changed = True
    while changed:
        changed = False
        d_before, relaxes = d[:], improved[:]
        improved = [False] * n
        for u in range(n):
            if relaxes[u]:
                row, du = a[u], d_before[u]
                for v in range(n):
                    if row[v] != 0 and (not reached[v] or du + row[v] < d[v]):
                        d[v], pi[v] = du + row[v], u
                        reached[v] = improved[v] = changed = True
    return {"pi": pi}


def dijkstra(inp):
    a, s = inp["A"], inp["s"]
    n = len(a)
    d, in_queue, done, pi = [0] * n, [False] * n, [False] * n, list(range(n))
    in_queue[s] = True
    u = s
    while u != -1:
        in_queue[u] = False
        done[u] = True
        row, du = a[u], d[u]
        for v in range(n):
            w = row[v]
            if w != 0 and not done[v] and (not in_queue[v] or du + w < d[v]):
                d[v], pi[v], in_queue[v] = du + w, u, True
        u = -1
        for i in range(n):
            if in_queue[i] and (u == -1 or d[i] < d[u]):
                u = i
    return {"pi": pi}


def dag_shortest_paths(inp):
    a, s = inp["A"], inp["s"]
    n = len(a)
    color, nxt = [0] * n, [-1] * n
    head = -1

    def visit(u):
        nonlocal head
        color[u] = 1
        row = a[u]
        for v in range(n):
            if row[v] != 0 and color[v] == 0:
                visit(v)
        color[u] = 2
        nxt[u] = head
        head = u

    visit(s)
    d, reached, pi = [0] * n, [False] * n, list(range(n))
    reached[s] = True
    u = head
    while u != -1:
        row, du = a[u], d[u]
        for v in range(n):
            if row[v] != 0 and (not reached[v] or du + row[v] < d[v]):
                d[v], pi[v], reached[v] = du + row[v], u, True
        u = nxt[u]
    return {"pi": pi}


def floyd_warshall(inp):
    a = inp["A"]
    n = len(a)
    dist = [row[:] for row in a]
    pi = [[i] * n for i in range(n)]
    path = [[a[i][j] != 0 or i == j for j in range(n)] for i in range(n)]
    for k in range(n):
        dk, pk, pik = dist[k], path[k], pi[k]
        for i in range(n):
            if path[i][k]:
                di, pthi, pii, dik = dist[i], path[i], pi[i], dist[i][k]
                for j in range(n):
                    if pk[j] and (not pthi[j] or dik + dk[j] < di[j]):
                        di[j] = dik + dk[j]
                        pii[j] = pik[j]
                        pthi[j] = True
    return {"Pi": pi}
