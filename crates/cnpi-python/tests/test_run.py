"""`compile`, `load`, `run` and `run_many` give the answers `cnpic run` gives."""

import os
import subprocess
import sys

import numpy as np
import pytest

import cnpi
from conftest import ROOT, cli_run, cnpic, example

# (file under examples/, inputs): every environment, applier programs and
# normal programs (combinatorized on load).
CASES = [
    ("quicksort.cnpi", [[5, 3, 9, 1], [], [2, 2, 1]]),
    ("bubblesort_normal.cnpi", [[4, 0, 7, 2]]),
    ("addition.cnpi", [{"a": "1207", "b": "95"}]),
    ("toposort.cnpi", [{"graph": [[1, 2], [2], []]}]),
    ("ram/fibonacci.cnpi", [{"k": 10}, {"k": 0}]),
    ("clrs/floyd_warshall.cnpi", [{"A": [[0, 3, 0], [0, 0, 1], [2, 0, 0]]}]),
    # Procedures of language.md §5.2: array parameters and local arrays,
    # several results, a string as an array of characters.
    ("ram/merge_sort.cnpi", [{"A": [5, 2, 4, 7, 1, 3, 2]}, {"A": []}]),
    ("ram/gcd.cnpi", [{"x": 99, "y": 78}]),
    ("ram/expression.cnpi", [{"S": "((2+3)*(4-1))"}]),
]


@pytest.mark.parametrize("path,inputs", CASES, ids=[c[0] for c in CASES])
def test_run_gives_the_answers_of_the_command_line(path, inputs):
    program = cnpi.load(example(path))
    for value in inputs:
        for engine in ("neural", "symbolic"):
            expected = cli_run(example(path), value, symbolic=engine == "symbolic")
            assert program.run(value, engine=engine) == expected, (path, value, engine)


def test_compile_from_a_string_is_load_from_its_file():
    with open(example("quicksort.cnpi")) as f:
        program = cnpi.compile(f.read())
    assert program.run([3, 1, 2]) == cnpi.load(example("quicksort.cnpi")).run([3, 1, 2])
    assert program.run([3, 1, 2])["A"] == [1, 2, 3]
    assert program.env == "array"


def test_run_many_is_run_in_input_order():
    program = cnpi.load(example("quicksort.cnpi"))
    rng = np.random.default_rng(0)
    inputs = [rng.integers(-50, 50, size=rng.integers(0, 12)).tolist() for _ in range(300)]
    expected = [program.run(value) for value in inputs]
    assert program.run_many(inputs) == expected
    assert program.run_many(inputs, jobs=1) == expected
    assert program.run_many(inputs, jobs=3, engine="symbolic") == [
        program.run(value, engine="symbolic") for value in inputs
    ]
    assert program.run_many([]) == []


def test_run_many_raises_or_returns_the_failing_input():
    program = cnpi.load(example("quicksort.cnpi"))
    inputs = [[2, 1], [1.5], [3, 2, 1]]
    with pytest.raises(cnpi.RunError, match="input 1") as raised:
        program.run_many(inputs)
    assert raised.value.code == "E0603"
    results = program.run_many(inputs, errors="return")
    assert results[0] == program.run([2, 1])
    assert results[1]["error"]["code"] == "E0603"
    assert results[2]["A"] == [1, 2, 3]


def test_numpy_integers_are_inputs():
    program = cnpi.load(example("quicksort.cnpi"))
    assert program.run(np.array([3, 1, 2], dtype=np.int32))["A"] == [1, 2, 3]
    assert program.run([np.int64(2), np.uint8(1)])["A"] == [1, 2]
    fib = cnpi.load(example("ram/fibonacci.cnpi"))
    assert fib.run({"k": np.int64(10)})["fib"] == 55


def test_max_steps_stops_a_run():
    program = cnpi.load(example("quicksort.cnpi"))
    with pytest.raises(cnpi.RunError) as raised:
        program.run([5, 4, 3, 2, 1], max_steps=10)
    assert raised.value.code == "E0701"


def test_a_program_memory_loads(tmp_path):
    program = cnpi.load(example("quicksort.cnpi"))
    memory = str(tmp_path / "quicksort.cnpim")
    cnpic("build", example("quicksort.cnpi"), "-o", memory)
    loaded = cnpi.load(memory)
    for engine in ("neural", "symbolic"):
        assert loaded.run([4, 1, 3], engine=engine) == program.run([4, 1, 3], engine=engine)


def test_the_package_imports_far_from_the_repository(tmp_path):
    script = (
        "import cnpi, sys\n"
        f"print(cnpi.__version__, cnpi.load({example('quicksort.cnpi')!r}).run([2, 1])['A'])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [cnpi.__version__, "[1,", "2]"]
    assert cnpi.__file__ and ROOT not in cnpi.__file__


def test_run_many_lets_other_python_threads_run():
    import threading
    import time

    program = cnpi.load(example("quicksort.cnpi"))
    inputs = [list(range(400, 0, -1))] * 40
    done = threading.Event()
    ticks = []

    def tick():
        while not done.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    ticker = threading.Thread(target=tick)
    ticker.start()
    time.sleep(0.05)
    try:
        start = time.perf_counter()
        results = program.run_many(inputs, jobs=1)
        end = time.perf_counter()
    finally:
        done.set()
        ticker.join()
    assert results[0]["A"] == list(range(1, 401))
    assert end - start > 0.1, "the runs are too short to tell"
    # With the GIL held for the whole call, the other thread could not tick
    # in between (Python hands the GIL over every 5 ms only between its own
    # bytecodes).
    inside = [t for t in ticks if start + 0.02 < t < end - 0.02]
    assert len(inside) > 10, (len(inside), end - start)


# Issue 47: a runaway run stops on Ctrl-C, deep recursion stops at the
# memory limit with a coded error, and `jobs` far past the cores is capped.
RUNAWAY = "env ram(i = 0)\ninput k\n\ndef LOOP():\n  while i < k:\n    i = i + 1\n"
DEEP = (
    "env ram()\ninput k\nvar total = 0\n\ndef MAIN():\n  total = F(k)\n\n"
    "def F(m):\n  if m == 0:\n    return 0\n  return F(m - 1) + 1\n"
)


@pytest.mark.parametrize("call", ["run", "run_many", "trace"])
@pytest.mark.parametrize("engine", ["neural", "symbolic"])
def test_ctrl_c_stops_a_runaway_run_within_100_ms(call, engine):
    import signal
    import threading
    import time

    program = cnpi.compile(RUNAWAY)
    endless = {"k": 10**15}
    steps = 10**16
    calls = {
        "run": lambda: program.run(endless, engine=engine, max_steps=steps),
        "run_many": lambda: program.run_many([endless] * 3, engine=engine, jobs=2, max_steps=steps),
        "trace": lambda: program.trace(endless, engine=engine, max_steps=steps),
    }
    sent = []

    def interrupt():
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Timer(0.3, interrupt)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            calls[call]()
        took = time.monotonic() - sent[0]
    finally:
        timer.cancel()
    assert took < 0.1, f"{call} on {engine} stopped {took * 1000:.0f} ms after Ctrl-C"
    # The program runs again afterwards.
    assert program.run({"k": 3}, engine=engine)["i"] == 3


@pytest.mark.parametrize("engine", ["neural", "symbolic"])
def test_deep_recursion_past_max_memory_is_a_run_error(engine):
    program = cnpi.compile(DEEP)
    with pytest.raises(cnpi.RunError) as raised:
        program.run({"k": 10**6}, engine=engine, max_memory=1 << 20)
    assert raised.value.code == "E0708"
    many = program.run_many([{"k": 10**6}, {"k": 5}], engine=engine, max_memory=1 << 20, errors="return")
    assert many[0]["error"]["code"] == "E0708"
    assert many[1]["total"] == 5


@pytest.mark.parametrize("engine", ["neural", "symbolic"])
def test_a_trace_past_max_memory_is_a_run_error(engine):
    program = cnpi.compile(RUNAWAY)
    with pytest.raises(cnpi.RunError) as raised:
        program.trace({"k": 10**6}, engine=engine, max_memory=1 << 20)
    assert raised.value.code == "E0708"
    assert "its trace" in str(raised.value)
    # The steps recorded up to the limit, to look at.
    assert 0 < len(raised.value.trace) < 10**6
    # Within the limit the trace is whole.
    steps = program.run({"k": 100}, engine=engine)["steps"]
    assert len(program.trace({"k": 100}, engine=engine, max_memory=1 << 20)) == steps


def test_jobs_far_past_the_cores_are_capped():
    program = cnpi.load(example("quicksort.cnpi"))
    inputs = [[n, 1] for n in range(50)]
    assert program.run_many(inputs, jobs=1000) == [program.run(value) for value in inputs]


class Keyed(dict):
    """A dict the package reads through its JSON text (only an exact dict
    of ints and lists is read into memory straight)."""


RAM_SOURCE = """env ram(i = 0)
input A[n][m]
input B[n]
input x
var C[m] = 0
def MAIN: seq(; SET(i, x), WRITE(C[0], A[0][0]), NOP)
"""

# Valid inputs of RAM_SOURCE, then what the straight path must leave to
# the text (a bool, a float, an int past 64 bits, a ragged or empty
# matrix, a string as an array, a member twice over its size, a missing
# or extra member, a subclass of int).
RAM_INPUTS = [
    {"A": [[1, -2, 3], [4, 5, 2**63 - 1]], "B": [7, -(2**63)], "x": 0},
    {"A": [[9]], "B": [0], "x": -5, "unused": [[1.5], "s"]},
    # Every int Python keeps cached (-5 to 256, read by its address) and
    # those just past them.
    {"A": [list(range(-7, 130)), list(range(130, 267))], "B": [-6, 257], "x": 256},
    {"A": [[True]], "B": [1], "x": 1},
    {"A": [[1]], "B": [1], "x": 1.0},
    {"A": [[1]], "B": [1], "x": 2**64},
    {"A": [[1, 2], [3]], "B": [1, 2], "x": 1},
    {"A": [], "B": [], "x": 1},
    {"A": [[], []], "B": [1, 2], "x": 1},
    {"A": [[1]], "B": "ab", "x": 1},
    {"A": [[1], [2]], "B": [1], "x": 1},
    {"A": [[1]], "B": [1]},
    {"A": [[1]], "B": [1], "x": np.int64(3)},
    {"A": ((1,),), "B": [1], "x": 1},
]


def outcome(program, value):
    """What `program.run(value)` gives: its result, or its error's code and
    message."""
    try:
        return program.run(value)
    except cnpi.RunError as error:
        return (error.code, str(error))


@pytest.mark.parametrize("value", RAM_INPUTS, ids=range(len(RAM_INPUTS)))
def test_a_ram_input_read_straight_is_read_as_its_text(value):
    program = cnpi.compile(RAM_SOURCE)
    straight = outcome(program, value)
    assert straight == outcome(program, Keyed(value))
    assert straight == outcome(program, value)  # and again: nothing kept
    if isinstance(straight, dict):
        assert straight == cli_run_text(value)


def cli_run_text(value):
    """`cnpic run` of RAM_SOURCE on `value` (numpy integers as ints)."""
    import json
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".cnpi", delete=False) as f:
        f.write(RAM_SOURCE)
    try:
        return cli_run(f.name, json.loads(json.dumps(value, default=int)))
    finally:
        os.unlink(f.name)


def test_a_result_is_made_with_the_collector_as_it_was():
    import gc

    program = cnpi.compile(RAM_SOURCE)
    value = {"A": [[1] * 300] * 800, "B": [0] * 800, "x": 2}
    assert gc.isenabled()
    result = program.run(value)
    assert gc.isenabled()
    assert result["A"] == value["A"] and result["A"] is not value["A"]
    gc.disable()
    try:
        assert program.run(value) == result
        assert not gc.isenabled()
    finally:
        gc.enable()
