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
  in process;
- the network in the same process (`cnpi.load(FILE).run(input)`, the
  Python package of crates/cnpi-python, loaded once per program): the same
  program on the same input as the reference, no process start on either
  side.

The engines must agree on the members docs/clrs.md compares, and the
network's core steps per second are printed beside. The last two columns
need the packages of docs/clrs/requirements.txt and the cnpi package:
with --venv DIR the script makes DIR a virtual environment, installs them
there (building crates/cnpi-python with maturin: set CARGO_TARGET_DIR to
reuse a build) and runs itself in it; without them the columns read "—".
`--no-cache` runs every step through the plain networks, about 30 times
slower: --plain-max N leaves it out above size N.

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
    package = os.path.join(ROOT, "crates", "cnpi-python")
    pip = [python, "-m", "pip", "install", "--quiet"]
    subprocess.run([*pip, "-r", requirements, package], check=True)
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


def in_process():
    """The cnpi Python package, or None where it is not installed."""
    try:
        import cnpi
    except ImportError:
        return None
    return cnpi


def timed_best(call, repeat):
    """The fastest of `repeat` calls of `call`, in seconds, and its last result."""
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = call()
        times.append(time.perf_counter() - start)
    return min(times), result


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


def cell(seconds):
    """A time for the table, or "—" when it was not measured."""
    return "—" if seconds is None else f"{seconds:.3f}"


def ratio(a, b):
    return "—" if a is None or b is None else f"{a / b:.2f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", help="comma-separated program ids")
    parser.add_argument("--sizes", help="comma-separated sizes (default 16, 64 and the largest)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-plain", action="store_true", help="skip --no-cache")
    parser.add_argument("--plain-max", type=int, help="skip --no-cache above this size")
    parser.add_argument("--venv", help="make and use this virtual environment for dm-clrs")
    parser.add_argument("--cnpic", default=os.path.join(ROOT, "target", "release", "cnpic"))
    args = parser.parse_args()
    if args.venv:
        in_venv(os.path.abspath(args.venv))
    algorithms = reference()
    cnpi = in_process()
    chosen = args.only.split(",") if args.only else list(table.PROGRAMS)
    print(f"load average at start: {os.getloadavg()[0]:.2f}", file=sys.stderr)
    print("| program | n | core steps | network s | M steps/s | --no-cache s | --symbolic s "
          "| network / symbolic | CLRS reference s | reference / network "
          "| in process s | reference / in process |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as scratch:
        for pid in chosen:
            _, members, largest = table.PROGRAMS[pid]
            path = f"examples/clrs/{pid}.cnpi"
            program = cnpi.load(os.path.join(ROOT, path)) if cnpi else None
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
                plain = not args.no_plain and (args.plain_max is None or n <= args.plain_max)
                timed = {}
                for flag in [None, "--symbolic"] + (["--no-cache"] if plain else []):
                    given_flags = [flag] if flag else []
                    outputs = [table.run(args.cnpic, path, input_path, *given_flags)
                               for _ in range(args.repeat)]
                    timed[flag] = (outputs[0][0], best([s for _, s in outputs]))
                network, net_s = timed[None]
                ref_s = own_s = None
                if algorithms is not None:
                    function = getattr(algorithms, pid)
                    kwargs = arguments(function, given)
                    ref_s, _ = timed_best(lambda: function(**kwargs), args.repeat)
                if program is not None:
                    own_s, output = timed_best(lambda: program.run(given), args.repeat)
                    timed["in process"] = (output, own_s)
                for flag, (output, _) in timed.items():
                    for member in members:
                        if output.get(member) != network.get(member):
                            sys.exit(f"{pid} at n = {n}: {flag} disagrees on `{member}`")
                sym_s = timed["--symbolic"][1]
                plain_s = timed["--no-cache"][1] if plain else None
                rate = network["steps"] / net_s / 1e6
                print(f"| `{pid}` | {n} | {network['steps']:,} | {net_s:.3f} | {rate:.1f} | "
                      f"{cell(plain_s)} | {sym_s:.3f} | {net_s / sym_s:.2f} | {cell(ref_s)} | "
                      f"{ratio(ref_s, net_s)} | {cell(own_s)} | {ratio(ref_s, own_s)} |",
                      flush=True)
    print(f"load average at end: {os.getloadavg()[0]:.2f}", file=sys.stderr)


if __name__ == "__main__":
    main()
