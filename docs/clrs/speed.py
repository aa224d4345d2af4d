#!/usr/bin/env python3
"""Time the CLRS programs on the network, --no-cache, --symbolic and CLRS's reference.

For every program of examples/clrs/ at n = 16, 64 and its largest size,
draw an input as docs/clrs/table.py does (CLRS's samplers, floats scaled to
integers), then time, best of --repeat runs each:

- `cnpic run FILE --input @IN --format json` (the network on its exact
  caches), with `--no-cache` (the plain networks at every step) and with
  `--symbolic` (the reference interpreter), each as a whole process;
- CLRS's own reference function (`clrs._src.algorithms.<id>`, dm-clrs, the
  function its data generator calls, probes included) on the same input,
  in process.

The three engines must agree on the members docs/clrs.md compares, and the
network's core steps per second are printed beside. The dm-clrs column
needs the packages of docs/clrs/requirements.txt: with --venv DIR the
script makes DIR a virtual environment, installs them there and runs
itself in it; without dm-clrs the column reads "—".

    cargo build --release -p cnpic
    python3 docs/clrs/speed.py --venv /tmp/clrs-venv [--only id,id] [--sizes 16,64]
"""

import argparse
import inspect
import json
import os
import random
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import table  # noqa: E402  (the programs, their largest sizes and the samplers)


def in_venv(venv):
    """Re-runs this script in `venv`, made and filled from requirements.txt."""
    python = os.path.join(venv, "bin", "python")
    if os.path.realpath(sys.prefix) == os.path.realpath(venv):
        return
    if not os.path.exists(python):
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    requirements = os.path.join(HERE, "requirements.txt")
    subprocess.run([python, "-m", "pip", "install", "--quiet", "-r", requirements], check=True)
    argv = [a for a in sys.argv[1:]]
    os.execv(python, [python, os.path.abspath(__file__), *argv])


def reference():
    """CLRS's algorithms module, or None without dm-clrs."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    try:
        from clrs._src import algorithms
    except ImportError:
        return None
    return algorithms


def arguments(function, given):
    """The reference function's arguments from an input of ours, by name."""
    import numpy as np

    kwargs = {}
    for name, parameter in inspect.signature(function).parameters.items():
        if name in given:
            value = given[name]
            kwargs[name] = np.asarray(value, dtype=float) if isinstance(value, list) else value
        elif parameter.default is inspect.Parameter.empty:
            raise KeyError(f"no input member for the reference's parameter `{name}`")
    return kwargs


def best(times):
    return min(times) if times else float("nan")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", help="comma-separated program ids")
    parser.add_argument("--sizes", help="comma-separated sizes (default 16, 64 and the largest)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-plain", action="store_true", help="skip --no-cache")
    parser.add_argument("--venv", help="make and use this virtual environment for dm-clrs")
    parser.add_argument("--cnpic", default=os.path.join(ROOT, "target", "release", "cnpic"))
    args = parser.parse_args()
    if args.venv:
        in_venv(os.path.abspath(args.venv))
    algorithms = reference()
    chosen = args.only.split(",") if args.only else list(table.PROGRAMS)
    print(f"load average at start: {os.getloadavg()[0]:.2f}", file=sys.stderr)
    print("| program | n | core steps | network s | M steps/s | --no-cache s | --symbolic s "
          "| network / symbolic | CLRS reference s | reference / network |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as scratch:
        for pid in chosen:
            _, members, largest = table.PROGRAMS[pid]
            path = f"examples/clrs/{pid}.cnpi"
            rng = random.Random(f"{args.seed}/{pid}")
            input_path = os.path.join(scratch, "input.json")
            if args.sizes:
                sizes = [int(n) for n in args.sizes.split(",")]
            else:
                sizes = sorted({16, 64, largest}) if pid != "segments_intersect" else [4]
            for i, n in enumerate(sizes):
                given = table.sample(pid, n, rng)
                with open(input_path, "w") as f:
                    json.dump(given, f)
                if i == 0:
                    table.run(args.cnpic, path, input_path)  # warm the detector cache
                timed = {}
                flags = [None, "--symbolic"] + ([] if args.no_plain else ["--no-cache"])
                for flag in flags:
                    given_flags = [flag] if flag else []
                    outputs = [table.run(args.cnpic, path, input_path, *given_flags)
                               for _ in range(args.repeat)]
                    timed[flag] = (outputs[0][0], best([s for _, s in outputs]))
                network, net_s = timed[None]
                for flag, (output, _) in timed.items():
                    for member in members:
                        if output.get(member) != network.get(member):
                            sys.exit(f"{pid} at n = {n}: {flag} disagrees on `{member}`")
                ref_s = float("nan")
                if algorithms is not None:
                    function = getattr(algorithms, pid)
                    kwargs = arguments(function, given)
                    times = []
                    for _ in range(args.repeat):
                        start = time.perf_counter()
                        function(**kwargs)
                        times.append(time.perf_counter() - start)
                    ref_s = best(times)
                sym_s = timed["--symbolic"][1]
                plain = "—" if args.no_plain else f"{timed['--no-cache'][1]:.3f}"
                ref = "—" if ref_s != ref_s else f"{ref_s:.3f}"
                ahead = "—" if ref_s != ref_s else f"{ref_s / net_s:.2f}"
                rate = network["steps"] / net_s / 1e6
                print(f"| `{pid}` | {n} | {network['steps']:,} | {net_s:.3f} | {rate:.1f} | "
                      f"{plain} | {sym_s:.3f} | {net_s / sym_s:.2f} | {ref} | {ahead} |", flush=True)
    print(f"load average at end: {os.getloadavg()[0]:.2f}", file=sys.stderr)


if __name__ == "__main__":
    main()
