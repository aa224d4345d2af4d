#!/usr/bin/env python3
"""Measure the Python package's overhead and throughput (docs/python.md).

    pip install ./crates/cnpi-python
    python3 crates/cnpi-python/speed.py [--inputs 100000] [--jobs N]

Prints, for examples/quicksort.cnpi: the time of one `run` on a
one-element input (the per-call cost: converting the input, reading it
into the environment, running a handful of core steps, the result back
to a dict), the same for a program of one NOP, and the time of a loop of
`run` and of `run_many` over the same small inputs (random arrays of 0 to
8 elements, seed 0), both engines, with the process's CPU time beside
the wall time (threads that find no idle core show it). Medians of
repeated timings.
"""

import argparse
import os
import random
import statistics
import time

import cnpi

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def per_call(fn, repeat=7, number=2000):
    """The median over `repeat` rounds of the mean time of one call, in seconds."""
    rounds = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        rounds.append((time.perf_counter() - start) / number)
    return statistics.median(rounds)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=100_000)
    parser.add_argument("--jobs", type=int, default=None)
    args = parser.parse_args()

    quicksort = cnpi.load(os.path.join(ROOT, "examples", "quicksort.cnpi"))
    nop = cnpi.compile("env array()\n\ndef MAIN: NOP\n")
    print(f"cnpi {cnpi.__version__}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")
    print()
    print("| call | engine | µs per call | steps |")
    print("|---|---|---|---|")
    for name, program, value in [("NOP program, `[1]`", nop, [1]), ("quicksort, `[1]`", quicksort, [1])]:
        for engine in ("neural", "symbolic"):
            seconds = per_call(lambda: program.run(value, engine=engine))
            steps = program.run(value, engine=engine)["steps"]
            print(f"| {name} | {engine} | {seconds * 1e6:.1f} | {steps} |")

    rng = random.Random(0)
    inputs = [[rng.randrange(-100, 100) for _ in range(rng.randrange(0, 9))] for _ in range(args.inputs)]
    print()
    print(f"| {args.inputs:,} inputs of 0 to 8 elements | engine | seconds | CPU seconds | inputs per second |")
    print("|---|---|---|---|---|")
    for engine in ("neural", "symbolic"):
        looped, loop, loop_cpu = timed(lambda: [quicksort.run(value, engine=engine) for value in inputs])
        many, threads, threads_cpu = timed(lambda: quicksort.run_many(inputs, engine=engine, jobs=args.jobs))
        assert many == looped
        jobs = args.jobs or os.cpu_count()
        print(f"| loop of `run` | {engine} | {loop:.2f} | {loop_cpu:.2f} | {args.inputs / loop:,.0f} |")
        print(
            f"| `run_many` ({jobs} threads) | {engine} | {threads:.2f} | {threads_cpu:.2f} "
            f"| {args.inputs / threads:,.0f} |"
        )
    print()
    print(f"load {os.getloadavg()[0]:.2f} at the end")


def timed(fn):
    """What `fn()` returns, its wall time and the process's CPU time (all threads), in seconds."""
    cpu = sum(os.times()[:2])
    start = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - start, sum(os.times()[:2]) - cpu


if __name__ == "__main__":
    main()
