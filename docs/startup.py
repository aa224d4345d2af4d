"""Start-up CPU of `cnpic` binaries on the tiny run, measured as
docs/neural.md quotes it.

Each binary (and `/bin/true`, the floor of any process here) runs
`run examples/clrs/insertion_sort.cnpi --input '{"A":[1]}' --format json`
from the repository root, started with `posix_spawn`, its output to
/dev/null; the CPU a run took is its user + system time from `wait4`.
The binaries take turns (interleaved), so that a change of load touches
them all alike; the median of each is printed.

    python3 docs/startup.py target/release/cnpic OTHER_BINARY --runs 300
"""

import argparse
import os
import statistics

ARGS = ["run", "examples/clrs/insertion_sort.cnpi", "--input", '{"A":[1]}', "--format", "json"]


def cpu_ms(binary, args):
    """The CPU time, in ms, of one run of `binary` with `args`."""
    quiet = [(os.POSIX_SPAWN_OPEN, fd, os.devnull, os.O_WRONLY, 0) for fd in (1, 2)]
    pid = os.posix_spawn(binary, [binary, *args], os.environ, file_actions=quiet)
    _, status, usage = os.wait4(pid, 0)
    if status != 0:
        raise SystemExit(f"{binary} exited with status {status}")
    return (usage.ru_utime + usage.ru_stime) * 1000


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binaries", nargs="+", help="cnpic binaries to compare")
    parser.add_argument("--runs", type=int, default=300, help="runs of each (default 300)")
    options = parser.parse_args()
    taking = {binary: ARGS for binary in options.binaries}
    taking["/bin/true"] = []
    times = {binary: [] for binary in taking}
    for _ in range(options.runs):
        for binary, args in taking.items():
            times[binary].append(cpu_ms(binary, args))
    load = os.getloadavg()[0]
    for binary, took in times.items():
        print(f"{binary}: median {statistics.median(took):.3f} ms of CPU over {len(took)} runs")
    print(f"load average at the end: {load:.1f}")


if __name__ == "__main__":
    main()
