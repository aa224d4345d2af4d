#!/usr/bin/env python3
"""Time the CLRS programs on the network, --no-cache, --symbolic and CLRS's reference.

For every program of examples/clrs/ at n = 16, 64 and its largest size,
draw an input as docs/clrs/table.py does (CLRS's samplers, floats scaled to
integers), then time, best of --repeat runs each:

- `cnpic run FILE --input @IN --format json` (the network on its exact
  caches), with `--no-cache` (the plain networks at every step) and with
  `--symbolic` (the reference interpreter), each as a whole process;
- the same two on the same combinatory program: FILE converted once by
  `cnpic combinatorize` into a temporary file, whose `--symbolic` run
  takes the same core steps as the network, every decision known; the
  network and `--symbolic` runs taken in turn (interleaved), best of
  --repeat each;
- CLRS's own reference function (`clrs._src.algorithms.<id>`, dm-clrs, the
  function its data generator calls, probes included) on the same input,
  in process;
- the network in the same process (`cnpi.load(FILE).run(input)`, the
  Python package of crates/cnpi-python, loaded once per program): the same
  program on the same input as the reference, no process start on either
  side;
- the same algorithm written as plain CPython (`plain.py` beside this
  script: lists and ints, no numpy, no probes), in process, which must
  give the network's answer and CLRS's reference's on the same input.

The engines must agree on the members docs/clrs.md compares, and the
network's core steps per second are printed beside. The last two columns
need the packages of docs/clrs/requirements.txt and the cnpi package:
with --venv DIR the script makes DIR a virtual environment, installs them
there (building crates/cnpi-python with maturin: set CARGO_TARGET_DIR to
reuse a build) and runs itself in it; without them the columns read "—".
`--no-cache` runs every step through the plain networks, about 30 times
slower: --plain-max N leaves it out above size N (64 unless given).

Every measurement (one engine at one size, its --repeat runs) has a time
budget (--budget, 60 s): no run starts once it is spent, and a run still
going when it runs out is killed: a cnpic process, or the forked child in
which the reference and the in-process run are timed (CLRS's bubble sort
at n = 1024 records the array at every swap: minutes and gigabytes). A
cell with no finished run reads "> 60 s" ("> T s, died" when the child
died first, out of memory, after T seconds). The table is
printed in the form of docs/clrs.md, after the command and `uptime` and
before the geometric means of the two network / `--symbolic` ratios
over the programs at the largest size measured for each, the geometric
mean of plain CPython / in process over the programs whose plain
transcription takes at least 1 ms there, and `uptime` at the end.

    cargo build --release -p cnpic
    python3 docs/clrs/speed.py --venv /tmp/clrs-venv [--only id,id] [--sizes 16,64 | --largest]
"""

import argparse
import inspect
import json
import math
import multiprocessing
import os
import random
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import plain  # noqa: E402  (the plain CPython transcriptions)
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


class Timed:
    """The best time of a measurement, or that its budget ran out."""

    def __init__(self, seconds, over=False, output=None, died=False):
        self.seconds, self.over, self.output, self.died = seconds, over, output, died

    def cell(self):
        if self.died:
            return f"> {self.seconds:.0f} s, died"
        return f"> {self.seconds:.0f} s" if self.over else f"{self.seconds:.3f}"


def processes(command, repeat, budget):
    """`command(timeout)` (a cnpic run: output and seconds) up to `repeat`
    times within `budget` seconds in all, a run killed when the budget runs
    out: the fastest, or over budget when none finished."""
    best, output, spent = None, None, 0.0
    for _ in range(repeat):
        if best is not None and spent >= budget:
            break
        try:
            output, seconds = command(budget - spent if best is not None else budget)
        except subprocess.TimeoutExpired:
            break
        spent += seconds
        best = seconds if best is None else min(best, seconds)
    return Timed(budget, over=True) if best is None else Timed(best, output=output)


def interleaved(commands, repeat, budget):
    """Each of `commands` (as for `processes`) run in turn, `repeat` rounds,
    each within its own `budget` seconds: their `Timed`, in order."""
    best = [None] * len(commands)
    outputs = [None] * len(commands)
    spent = [0.0] * len(commands)
    for _ in range(repeat):
        for i, command in enumerate(commands):
            if best[i] is not None and spent[i] >= budget:
                continue
            left = budget - spent[i] if best[i] is not None else budget
            try:
                outputs[i], seconds = command(left)
            except subprocess.TimeoutExpired:
                spent[i] = budget
                continue
            spent[i] += seconds
            best[i] = seconds if best[i] is None else min(best[i], seconds)
    return [Timed(budget, over=True) if b is None else Timed(b, output=o)
            for b, o in zip(best, outputs)]


def _child(call, keep, repeat, conn):
    """In a forked child: time `call` `repeat` times, sending each time,
    then `keep` of its last result (what is compared)."""
    result = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = call()
        conn.send(time.perf_counter() - start)
    conn.send(keep(result))


def members_of(members):
    """The `keep` of `forked` that sends the compared members of an answer."""
    return lambda result: (
        {m: result.get(m) for m in members} if isinstance(result, dict) else None)


def forked(call, keep, repeat, budget):
    """`call()` timed up to `repeat` times in a forked child, in process
    there, within `budget` seconds in all: the child is killed when the
    budget runs out; the fastest, or over budget when none finished. The
    output is `keep` of the last result."""
    context = multiprocessing.get_context("fork")
    ours, theirs = context.Pipe(duplex=False)
    child = context.Process(target=_child, args=(call, keep, repeat, theirs))
    start = time.perf_counter()
    child.start()
    theirs.close()
    times, output, died = [], None, False
    try:
        while len(times) < repeat:
            left = budget - (time.perf_counter() - start)
            if not ours.poll(max(left, 0.0)):
                break
            times.append(ours.recv())
        else:
            output = ours.recv() if ours.poll(budget) else None
    except EOFError:
        died = True
    finally:
        child.kill()
        child.join()
    if not times:
        # Killed by its budget, or died first (out of memory): either way
        # it had not finished after the seconds it ran.
        if died:
            return Timed(time.perf_counter() - start, over=True, died=True)
        return Timed(budget, over=True)
    return Timed(min(times), output=output)


# Members CLRS's samplers draw as categories (indices into a probe), which
# its reference functions need as integer arrays: the strings of LCS and
# of the two string matchers.
CATEGORICAL = {"x", "y", "T", "P"}


def arguments(function, given):
    """The reference function's arguments from an input of ours, by name."""
    import numpy as np

    kwargs = {}
    for name, parameter in inspect.signature(function).parameters.items():
        if name in given:
            value = given[name]
            dtype = int if name in CATEGORICAL else float
            kwargs[name] = np.asarray(value, dtype=dtype) if isinstance(value, list) else value
        elif parameter.default is inspect.Parameter.empty:
            raise KeyError(f"no input member for the reference's parameter `{name}`")
    return kwargs


def reference_answer(result):
    """CLRS's reference's answer (the first of what it returns) as lists."""
    answer = result[0] if isinstance(result, tuple) else result
    if hasattr(answer, "tolist"):
        return answer.tolist()
    if isinstance(answer, (tuple, list)):
        return [a.tolist() if hasattr(a, "tolist") else a for a in answer]
    return answer


def agrees_with_reference(pid, given, answer, reference):
    """Whether `answer` (our members) is CLRS's reference's `reference`
    (`reference_answer`): the reference gives quickselect's median as the
    value, Kadane's bounds with the sum, and bridges' non-edges as -1."""
    _, members, _ = table.PROGRAMS[pid]
    if pid == "quickselect":
        return given["A"][answer["median"]] == reference
    if pid == "find_maximum_subarray_kadane":
        return [answer["start"], answer["end"]] == reference[:2]
    if pid == "bridges":
        reference = [[max(x, 0) for x in row] for row in reference]
    return answer[members[0]] == reference


def cell(timed):
    """A time for the table, or "—" when it was not measured."""
    return "—" if timed is None else timed.cell()


def ratio(a, b):
    """a / b, as a bound where one side ran out of its budget."""
    if a is None or b is None or (a.over and b.over):
        return "—"
    bound = "> " if a.over else "< " if b.over else ""
    return f"{bound}{a.seconds / b.seconds:.2f}"


def uptime():
    done = subprocess.run(["uptime"], capture_output=True, text=True)
    return done.stdout.strip() if done.returncode == 0 else f"load {os.getloadavg()}"


def geomean(ratios):
    """The geometric mean of the finite ratios (a "—" or bound is left
    out), and how many there were."""
    values = [float(r) for r in ratios if r[:1].isdigit()]
    if not values:
        return "—", 0
    return f"{math.exp(sum(map(math.log, values)) / len(values)):.2f}", len(values)


def measure(args, program, algorithms, pid, n, given, input_path, combinatory):
    """One row: every engine on one input, within the budget; `program` is
    the cnpi package's compiled program, or None; `combinatory` is the
    program's `cnpic combinatorize` output. Returns the row and its two
    network / `--symbolic` ratios (as written, combinatory)."""
    _, members, _ = table.PROGRAMS[pid]
    path = f"examples/clrs/{pid}.cnpi"
    no_cache = not args.no_plain and n <= args.plain_max
    timed = {}
    for flag in [None, "--symbolic"] + (["--no-cache"] if no_cache else []):
        given_flags = [flag] if flag else []
        command = lambda budget: table.run(  # noqa: E731
            args.cnpic, path, input_path, *given_flags, timeout=budget)
        timed[flag] = processes(command, args.repeat, args.budget)
    pair = [lambda budget, flags=flags: table.run(
        args.cnpic, combinatory, input_path, *flags, timeout=budget)
        for flags in ([], ["--symbolic"])]
    timed["combinatory"], timed["combinatory --symbolic"] = interleaved(
        pair, args.repeat, args.budget)
    ref = own = None
    if algorithms is not None:
        function = getattr(algorithms, pid)
        kwargs = arguments(function, given)
        ref = forked(lambda: function(**kwargs), reference_answer, args.repeat, args.budget)
    if program is not None:
        own = forked(lambda: program.run(given), members_of(members), args.repeat, args.budget)
        timed["in process"] = own
    transcription = getattr(plain, pid)
    python = forked(lambda: transcription(given), members_of(members), args.repeat, args.budget)
    timed["plain CPython"] = python
    if ref is not None and ref.output is not None and python.output is not None:
        if not agrees_with_reference(pid, given, python.output, ref.output):
            sys.exit(f"{pid} at n = {n}: plain CPython and CLRS's reference disagree")
    finished = [(flag, t.output) for flag, t in timed.items() if t.output is not None]
    for flag, output in finished[1:]:
        for member in members:
            if output.get(member) != finished[0][1].get(member):
                sys.exit(f"{pid} at n = {n}: {flag} and {finished[0][0] or 'the network'} "
                         f"disagree on `{member}`")
    network, sym = timed[None], timed["--symbolic"]
    comb, comb_sym = timed["combinatory"], timed["combinatory --symbolic"]
    steps = rate = "—"
    if network.output is not None:
        steps = f"{network.output['steps']:,}"
        rate = f"{network.output['steps'] / network.seconds / 1e6:.1f}"
    written, same = ratio(network, sym), ratio(comb, comb_sym)
    row = (f"| `{pid}` | {n} | {steps} | {network.cell()} | {rate} | "
           f"{cell(timed.get('--no-cache'))} | {sym.cell()} | {written} | "
           f"{comb.cell()} | {comb_sym.cell()} | {same} | "
           f"{cell(ref)} | {ratio(ref, network)} | {cell(own)} | {ratio(ref, own)} | "
           f"{python.cell()} | {ratio(python, own)} |")
    # Plain CPython / in process counts where the plain program takes >= 1 ms.
    versus = ratio(python, own) if not python.over and python.seconds >= 1e-3 else "—"
    return row, written, same, versus


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", help="comma-separated program ids")
    parser.add_argument("--sizes", help="comma-separated sizes (default 16, 64 and the largest)")
    parser.add_argument("--largest", action="store_true",
                        help="each program at its largest size only")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--budget", type=float, default=60.0,
                        help="seconds for one measurement's runs (default 60)")
    parser.add_argument("--no-plain", action="store_true", help="skip --no-cache")
    parser.add_argument("--plain-max", type=int, default=64,
                        help="skip --no-cache above this size (default 64)")
    parser.add_argument("--venv", help="make and use this virtual environment for dm-clrs")
    parser.add_argument("--cnpic", default=os.path.join(ROOT, "target", "release", "cnpic"))
    args = parser.parse_args()
    command = " ".join(["python3", "docs/clrs/speed.py", *sys.argv[1:]])
    if args.venv:
        in_venv(os.path.abspath(args.venv))
    algorithms = reference()
    cnpi = in_process()
    chosen = args.only.split(",") if args.only else list(table.PROGRAMS)
    print(f"`{command}`\n\nat start: `{uptime()}`\n", flush=True)
    print("| program | n | core steps | network s | M steps/s | --no-cache s | --symbolic s "
          "| network / symbolic | combinatory: network s | combinatory: --symbolic s "
          "| combinatory: network / symbolic | CLRS reference s | reference / network "
          "| in process s | reference / in process | plain CPython s | plain CPython / in process |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
          flush=True)
    started = time.perf_counter()
    largest_rows = []  # the three ratios at the largest size of each program
    with tempfile.TemporaryDirectory() as scratch:
        for pid in chosen:
            _, _, largest = table.PROGRAMS[pid]
            path = f"examples/clrs/{pid}.cnpi"
            program = cnpi.load(os.path.join(ROOT, path)) if cnpi else None
            rng = random.Random(f"{args.seed}/{pid}")
            input_path = os.path.join(scratch, "input.json")
            combinatory = os.path.join(scratch, f"{pid}.cnpi")
            subprocess.run([args.cnpic, "combinatorize", path, "-o", combinatory],
                           cwd=ROOT, check=True, capture_output=True)
            if args.sizes:
                sizes = [int(n) for n in args.sizes.split(",")]
            elif args.largest:
                sizes = [largest if pid != "segments_intersect" else 4]
            else:
                sizes = sorted({16, 64, largest}) if pid != "segments_intersect" else [4]
            for i, n in enumerate(sizes):
                given = table.sample(pid, n, rng)
                with open(input_path, "w") as f:
                    json.dump(given, f)
                if i == 0:
                    table.run(args.cnpic, path, input_path)  # warm the detector cache
                    table.run(args.cnpic, combinatory, input_path)
                row, written, same, versus = measure(
                    args, program, algorithms, pid, n, given, input_path, combinatory)
                print(row, flush=True)
            largest_rows.append((written, same, versus))
    minutes = (time.perf_counter() - started) / 60
    for name, column in [("the program as written", 0), ("the same combinatory program", 1)]:
        mean, count = geomean([r[column] for r in largest_rows])
        print(f"\nnetwork / `--symbolic` on {name}, geometric mean over {count} programs "
              f"at their largest size measured: {mean}")
    mean, count = geomean([r[2] for r in largest_rows])
    print(f"\nplain CPython / in process, geometric mean over the {count} programs whose "
          f"plain transcription takes >= 1 ms at their largest size measured: {mean}")
    print(f"\nat end: `{uptime()}` ({minutes:.1f} minutes)")


if __name__ == "__main__":
    main()
