"""`trace`, `combinatorize` and `learn` against the command line."""

import json
import re

import numpy as np
import pytest

import cnpi
from conftest import cli_run, cnpic, example

FIELDS = {"step", "applier", "combinator", "condition", "detector", "slot", "target", "return", "depth"}


def test_a_trace_has_one_record_per_step():
    program = cnpi.load(example("quicksort.cnpi"))
    trace = program.trace([5, 3, 9, 1])
    assert trace.result == program.run([5, 3, 9, 1])
    assert len(trace) == trace.steps == trace.result["steps"]
    assert set(trace[0]) == FIELDS and trace[0]["step"] == 1
    assert trace[-1] == trace[len(trace) - 1]
    with pytest.raises(IndexError):
        trace[len(trace)]
    records = list(trace)
    assert len(records) == len(trace)
    assert records[0]["applier"] == "QUICKSORT" and records[0]["depth"] == 0


def test_a_trace_matches_the_command_lines_trace():
    program = cnpi.load(example("quicksort.cnpi"))
    trace = program.trace([3, 1, 2])
    lines = cnpic("run", example("quicksort.cnpi"), "--input", "[3,1,2]", "--trace").stderr
    # `--trace`: one line per core step, "APPLIER COMBINATOR c=BIT → ... r=FLAG",
    # indented by two spaces per depth.
    steps = [re.fullmatch(r"( *)(\S+) (\S+) c=([01]) → .* r=([01])", line) for line in lines.splitlines()]
    steps = [m for m in steps if m]
    assert len(steps) == len(trace) > 10
    for m, record in zip(steps, trace):
        indent, applier, combinator, c, ret = m.groups()
        assert (record["applier"], record["combinator"]) == (applier, combinator)
        assert (record["condition"], record["return"]) == (c == "1", ret == "1")
        assert record["depth"] == len(indent) // 2


def test_a_trace_as_arrays():
    trace = cnpi.load(example("bubblesort.cnpi")).trace([4, 0, 7, 2])
    arrays = trace.to_arrays()
    assert set(arrays) == FIELDS
    for name, array in arrays.items():
        assert isinstance(array, np.ndarray) and array.shape == (len(trace),), name
    assert arrays["depth"].dtype == np.int64 and arrays["condition"].dtype == bool
    assert arrays["step"].tolist() == list(range(1, len(trace) + 1))
    i = len(trace) // 2
    record = trace[i]
    assert arrays["combinator"][i] == record["combinator"]
    assert bool(arrays["return"][i]) == record["return"]
    assert arrays["detector"][i] == (record["detector"] or "")


def test_a_trace_is_the_page_in_a_notebook():
    trace = cnpi.load(example("quicksort.cnpi")).trace([2, 1])
    page = trace.html()
    assert page.startswith("<!DOCTYPE html>") and "quicksort.cnpi" in page
    shown = trace._repr_html_()
    assert shown.startswith("<iframe srcdoc=") and "&lt;" not in shown[:20]
    assert '"' not in shown[len('<iframe srcdoc="') : shown.index('" style=')]


def test_the_reference_interpreter_is_traced_step_by_step():
    program = cnpi.load(example("quicksort.cnpi"))
    trace = program.trace([5, 3, 9, 1], engine="symbolic")
    assert trace.result == program.run([5, 3, 9, 1], engine="symbolic")
    assert len(trace) == trace.steps == trace.result["steps"]
    network = program.trace([5, 3, 9, 1])
    # A combinatory program: the same core steps as on the network.
    for field in ("applier", "combinator", "condition", "slot", "return", "depth"):
        assert [r[field] for r in trace] == [r[field] for r in network], field
    assert trace[0]["detector"] is None and trace[0]["target"] is None
    arrays = trace.to_arrays()
    assert arrays["depth"].tolist() == network.to_arrays()["depth"].tolist()
    assert "quicksort" in trace._repr_html_() and "<table>" in trace.html()
    with pytest.raises(ValueError, match="engine"):
        program.trace([1], engine="other")


def test_a_normal_program_is_traced_statement_by_statement():
    program = cnpi.load(example("ram/gcd.cnpi"))
    value = {"x": 84, "y": 36}
    trace = program.trace(value, engine="symbolic")
    expected = cli_run(example("ram/gcd.cnpi"), value, symbolic=True)
    assert trace.result == expected
    assert len(trace) == trace.steps == expected["steps"] > 3
    assert {r["combinator"] for r in trace} == {None}
    assert {r["applier"] for r in trace} == {"MAIN", "EXTENDED_EUCLID"}
    with pytest.raises(cnpi.RunError) as failed:
        program.trace(value, engine="symbolic", max_steps=3)
    assert len(failed.value.trace) == 3


def test_combinatorize_is_cnpic_combinatorize():
    path = example("bubblesort_normal.cnpi")
    assert cnpi.combinatorize(path) == cnpic("combinatorize", path).stdout
    with open(path) as f:
        text = f.read()
    converted = cnpi.combinatorize(text)
    # The header names the file; the rest is the same.
    assert converted.splitlines()[2:] == cnpic("combinatorize", path).stdout.splitlines()[2:]
    with pytest.raises(cnpi.CompileError):
        cnpi.combinatorize("env array()\n\ndef MAIN: MOVE(nowhere, LEFT)\n")


def without_header(program):
    return [line for line in program.splitlines() if not line.startswith("# Made by")]


def learns_as_cnpic_learn(name):
    """Fills examples/NAME.cnpi from NAME.json in process, as `cnpic learn`
    prints it, and checks the completed program on every example; returns
    the learned text and the examples."""
    sketch, examples = example(f"{name}.cnpi"), example(f"{name}.json")
    with open(examples) as f:
        cases = json.load(f)
    learned = cnpi.learn(sketch, cases)
    printed = cnpic("learn", sketch, "--examples", examples).stdout
    assert without_header(learned) == without_header(printed)
    completed = cnpi.compile(learned)
    for case in cases:
        result = completed.run(case["input"])
        assert all(result[k] == v for k, v in case["output"].items())
    return learned, cases


def test_learn_fills_the_holes_as_cnpic_learn():
    learns_as_cnpic_learn("learn/reverse")


def test_learn_fills_holes_in_normal_programs_as_cnpic_learn():
    learned, cases = learns_as_cnpic_learn("learn/insertion_condition")
    assert "while ?" not in learned
    sketch = example("learn/insertion_condition.cnpi")
    # Nothing fits: E1403 naming the best candidate, as `cnpic learn`.
    impossible = [{"input": cases[0]["input"], "output": {"A": [7] * len(cases[0]["input"]["A"])}}]
    with pytest.raises(cnpi.RunError) as raised:
        cnpi.learn(sketch, impossible, trials=1, episodes=50)
    assert raised.value.code == "E1403"
    # The check after the answer has a budget of its own: cut short, learn
    # answers and says the check is incomplete.
    with pytest.warns(UserWarning, match="check's budget ran out after 1 more runs"):
        assert cnpi.learn(sketch, cases, check_runs=1) == learned
    # Holes of both kinds in one file are filled together, as `cnpic learn`
    # fills them.
    learns_as_cnpic_learn("learn/bubble_mixed")


def test_learn_raises_when_nothing_fits():
    sketch = example("learn/reverse.cnpi")
    impossible = [{"input": [1, 2, 3], "output": {"A": [9, 9, 9]}}]
    with pytest.raises(cnpi.RunError) as raised:
        cnpi.learn(sketch, impossible, trials=1, episodes=20)
    assert raised.value.code == "E1403"
    with pytest.raises(cnpi.RunError) as raised:
        cnpi.learn(sketch, [])
    assert raised.value.code == "E1401"
    with pytest.raises(ValueError):
        cnpi.learn(sketch, impossible, search="guess")


def test_learn_takes_its_examples_as_python_values():
    """The examples are read as values (no JSON text between): a tuple is
    an array, and what `cnpic learn` refuses in a file, learn refuses here
    with the same code, naming the example."""
    sketch = example("learn/reverse.cnpi")
    with open(example("learn/reverse.json")) as f:
        cases = json.load(f)
    assert without_header(cnpi.learn(sketch, tuple(cases))) == without_header(cnpi.learn(sketch, cases))
    for bad, says in [
        ({"input": [1], "output": {"A": [1]}}, "not an array"),
        ([{"input": [1]}], "example 0 has no \"output\""),
        ([{"input": [1], "output": {"A": [1]}, "extra": 1}], "unknown field \"extra\""),
        ([{"input": [1.5], "output": {"A": [1]}}], "example 0's input"),
    ]:
        with pytest.raises(cnpi.RunError) as raised:
            cnpi.learn(sketch, bad)
        assert raised.value.code == "E1401"
        assert says in str(raised.value)
    with pytest.raises(TypeError) as raised:
        cnpi.learn(sketch, [{"input": {1, 2}, "output": {"A": [1]}}])
    assert str(raised.value).startswith('examples[0]["input"] is a set')


def test_the_version_is_the_workspaces():
    cargo = open(example("../Cargo.toml")).read()
    assert re.search(rf'^version = "{re.escape(cnpi.__version__)}"', cargo, re.M)


def test_every_public_name_has_a_docstring_and_a_stub():
    with open(example("../crates/cnpi-python/cnpi.pyi")) as f:
        stubs = f.read()
    assert cnpi.__doc__
    public = [n for n in dir(cnpi) if not n.startswith("_")]
    assert {"compile", "load", "check", "combinatorize", "learn", "Program", "Trace"} <= set(public)
    for name in public:
        value = getattr(cnpi, name)
        if callable(value):
            assert value.__doc__, name
            assert re.search(rf"^(def|class) {name}\b", stubs, re.M), name
    for cls in (cnpi.Program, cnpi.Trace):
        for name in [n for n in dir(cls) if not n.startswith("__")]:
            assert getattr(cls, name).__doc__, f"{cls.__name__}.{name}"
            assert re.search(rf"def {name}\b", stubs), f"{cls.__name__}.{name}"


def test_a_failing_run_carries_its_trace():
    program = cnpi.load(example("quicksort.cnpi"))
    with pytest.raises(cnpi.RunError) as raised:
        program.trace([5, 4, 3, 2, 1], max_steps=10)
    trace = raised.value.trace
    assert raised.value.code == "E0701"
    assert trace.result is None and len(trace) == trace.steps >= 10
    assert trace[0] == program.trace([5, 4, 3, 2, 1])[0]
    assert trace.html().startswith("<!DOCTYPE html>")  # its data is compressed
    with pytest.raises(cnpi.RunError) as raised:
        program.run([5, 4, 3, 2, 1], max_steps=10)
    assert raised.value.trace is None


@pytest.mark.parametrize("search", ["angelic", "enumerate", "gradient"])
def test_ctrl_c_stops_learn_at_once(search):
    """Issue 47: a search that would run for minutes (examples no filling
    fits, a budget of ten million runs) stops on Ctrl-C and raises
    KeyboardInterrupt, as `Program.run` does: the angelic search of holes
    in normal programs (three of them), and enumeration and the gradient on
    an applier sketch (two holes)."""
    import os
    import signal
    import threading
    import time

    if search == "angelic":
        sketch = "env ram(i = 0)\ninput A[n]\nvar t = 0\n\ndef F():\n  while ?:\n    t = ?\n    i = ?\n"
        impossible = [
            {"input": {"A": [1, 2]}, "output": {"t": 77}},
            {"input": {"A": [3]}, "output": {"t": -1000}},
        ]
        options = {}
    else:
        sketch = example("learn/insertion_two.cnpi")
        impossible = [
            {"input": {"A": [2, 1]}, "output": {"A": [7, 7]}},
            {"input": {"A": [3, 1, 2]}, "output": {"A": [9, 9, 9]}},
        ]
        options = {"search": search}
    sent = []

    def interrupt():
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Timer(0.5, interrupt)
    timer.start()
    began = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            cnpi.learn(sketch, impossible, trials=10_000, episodes=1_000, **options)
        took = time.monotonic() - sent[0]
    finally:
        timer.cancel()
    assert sent and sent[0] - began > 0.4, "the search ended before Ctrl-C"
    # Measured 1 to 67 ms on every search (interrupt_latency.py, load 6 on
    # two cores); the bound leaves room for a loaded machine.
    assert took < 0.25, f"learn stopped {took * 1000:.0f} ms after Ctrl-C"
