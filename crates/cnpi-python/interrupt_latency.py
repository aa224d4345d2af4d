#!/usr/bin/env python3
"""Measure how soon `cnpi.learn` stops after Ctrl-C (issue 47), per search.

    pip install ./crates/cnpi-python
    python3 crates/cnpi-python/interrupt_latency.py [--count 20] [--seed 1]

For each search (the angelic search of holes in normal programs, on a
sketch no filling fits and on examples/learn/insertion_sort.cnpi, whose
search ends with the network check and the ambiguity check; enumeration
and the applier policy gradient on an applier sketch no filling fits;
both kinds of hole in one file), `--count` times: start `cnpi.learn`, and
from another process send this one SIGINT (as a terminal's Ctrl-C does)
after a random delay; the latency is the time from the `kill` (the other
process's monotonic clock, which is this one's) to the KeyboardInterrupt
caught here. Prints each search's median, 90th percentile and largest
latency in milliseconds, and how many calls ended before the signal
(left out).
"""

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time

import cnpi

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Three holes of `ram` and examples no filling fits: the search runs until
# its budget (ten million runs) is spent.
IMPOSSIBLE_RAM = "env ram(i = 0)\ninput A[n]\nvar t = 0\n\ndef F():\n  while ?:\n    t = ?\n    i = ?\n"
IMPOSSIBLE_RAM_EXAMPLES = [
    {"input": {"A": [1, 2]}, "output": {"t": 77}},
    {"input": {"A": [3]}, "output": {"t": -1000}},
]
# Outputs no filling gives, for a sketch of `ram` and one of `array`.
IMPOSSIBLE_RAM_SORT = [
    {"input": {"A": [2, 1]}, "output": {"A": [7, 7]}},
    {"input": {"A": [3, 1, 2]}, "output": {"A": [9, 9, 9]}},
]
IMPOSSIBLE_ARRAY_SORT = [
    {"input": [2, 1], "output": {"A": [7, 7]}},
    {"input": [3, 1, 2], "output": {"A": [9, 9, 9]}},
]


def learn_file(name):
    """The sketch examples/learn/NAME.cnpi and its examples."""
    with open(os.path.join(ROOT, "examples", "learn", name + ".json")) as f:
        examples = json.load(f)
    return os.path.join(ROOT, "examples", "learn", name + ".cnpi"), examples


def cases():
    """Each search measured: a name, the call, and the delays drawn from."""
    two = os.path.join(ROOT, "examples", "learn", "insertion_two.cnpi")
    insertion, insertion_examples = learn_file("insertion_sort")
    mixed, _ = learn_file("bubble_mixed")
    big = dict(trials=10_000, episodes=1_000)
    return [
        ("angelic (no fit)", lambda: cnpi.learn(IMPOSSIBLE_RAM, IMPOSSIBLE_RAM_EXAMPLES, **big), (0.05, 1.5)),
        ("angelic (insertion_sort)", lambda: cnpi.learn(insertion, insertion_examples), None),
        ("enumerate (applier)", lambda: cnpi.learn(two, IMPOSSIBLE_RAM_SORT, search="enumerate", **big), (0.05, 1.5)),
        ("gradient (applier)", lambda: cnpi.learn(two, IMPOSSIBLE_RAM_SORT, search="gradient", **big), (0.05, 1.5)),
        ("both kinds (no fit)", lambda: cnpi.learn(mixed, IMPOSSIBLE_ARRAY_SORT, **big), (0.05, 1.5)),
    ]


def interrupted_after(call, delay):
    """The seconds from a SIGINT sent `delay` s into `call` to its
    KeyboardInterrupt, or None when the call ended first."""
    sender = subprocess.Popen(
        [sys.executable, "-c",
         "import os, signal, sys, time\n"
         "time.sleep(float(sys.argv[2]))\n"
         "sent = time.monotonic()\n"
         "os.kill(int(sys.argv[1]), signal.SIGINT)\n"
         "print(sent)\n",
         str(os.getpid()), str(delay)],
        stdout=subprocess.PIPE, text=True,
    )
    try:
        call()
        caught = None
    except KeyboardInterrupt:
        caught = time.monotonic()
    if caught is None:
        # The call ended first: the signal, if it still comes, is not measured.
        sender.kill()
        try:
            sender.wait()
            time.sleep(0.05)
        except KeyboardInterrupt:
            pass
        return None
    return caught - float(sender.communicate()[0])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    for name, call, delays in cases():
        if delays is None:
            began = time.monotonic()
            call()
            whole = time.monotonic() - began
            delays = (0.05, whole * 0.95)
        latencies, ended = [], 0
        while len(latencies) < args.count:
            latency = interrupted_after(call, rng.uniform(*delays))
            if latency is None:
                ended += 1
                if ended > 3 * args.count:
                    break
                continue
            latencies.append(latency * 1000)
        if not latencies:
            print(f"{name}: every call ended before the signal")
            continue
        latencies.sort()
        p90 = latencies[min(len(latencies) - 1, int(0.9 * len(latencies)))]
        print(
            f"{name}: {len(latencies)} interrupts, median {statistics.median(latencies):.1f} ms, "
            f"90% {p90:.1f} ms, max {latencies[-1]:.1f} ms ({ended} calls ended first)",
            flush=True,
        )


if __name__ == "__main__":
    main()
