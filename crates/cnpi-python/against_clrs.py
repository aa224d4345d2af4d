#!/usr/bin/env python3
"""Time cnpi against CLRS's reference functions in one Python process (docs/python.md).

    python3 -m venv /tmp/clrs && /tmp/clrs/bin/pip install dm-clrs ./crates/cnpi-python
    /tmp/clrs/bin/python crates/cnpi-python/against_clrs.py

For insertion sort and quicksort at n = 16, 64 and 256 (random integers
below 1000, seed 0): `Program.run` on the network (examples/clrs/) and
CLRS's own function (`clrs._src.algorithms`, probes included, as its
data generator calls it) on the same input, both in this process, no
process start on either side; best of 20 calls each. The sorted arrays
must agree.
"""

import os
import random
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
from clrs._src import algorithms  # noqa: E402

import cnpi  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def best(fn, repeat=20):
    """The fastest of `repeat` calls of `fn`, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    print(f"cnpi {cnpi.__version__}, load {os.getloadavg()[0]:.2f}")
    print()
    print("| algorithm | n | cnpi `run` (ms) | steps | CLRS's function (ms) |")
    print("|---|---|---|---|---|")
    rng = random.Random(0)
    for name in ("insertion_sort", "quicksort"):
        program = cnpi.load(os.path.join(ROOT, "examples", "clrs", f"{name}.cnpi"))
        reference = getattr(algorithms, name)
        for n in (16, 64, 256):
            A = [rng.randrange(1000) for _ in range(n)]
            ours = program.run({"A": A})
            theirs, _probes = reference(np.asarray(A, dtype=float))
            assert ours["A"] == sorted(A) == [int(x) for x in theirs], name
            cnpi_seconds = best(lambda: program.run({"A": A}))
            clrs_seconds = best(lambda: reference(np.asarray(A, dtype=float)))
            print(
                f"| {name} | {n} | {cnpi_seconds * 1e3:.3f} | {ours['steps']:,} "
                f"| {clrs_seconds * 1e3:.3f} |"
            )


if __name__ == "__main__":
    main()
