"""Bad programs and bad inputs raise exceptions with the command line's
codes; nothing crashes the interpreter, not even a panic."""

import subprocess
import sys

import pytest

import cnpi
from conftest import cnpic, example

BROKEN = "env array()\n\ndef MAIN: MOVE(nowhere, LEFT)\n"


def test_a_program_that_does_not_compile_raises_compile_error():
    with pytest.raises(cnpi.CompileError) as raised:
        cnpi.compile(BROKEN)
    error = raised.value
    assert isinstance(error, cnpi.CnpiError)
    assert error.diagnostics and error.diagnostics[0].code == error.code
    first = error.diagnostics[0]
    assert (first.severity, first.line) == ("error", 3)
    assert first.column is not None and first.column > 1
    assert error.code in str(error)


def test_check_reports_what_cnpic_check_reports(tmp_path):
    path = tmp_path / "broken.cnpi"
    path.write_text(BROKEN)
    found = cnpi.check(str(path))
    stderr = cnpic("check", str(path), check=False).stderr
    assert [d.code for d in found] and all(f"[{d.code}]" in stderr for d in found)
    assert cnpi.check(BROKEN)[0].code == found[0].code
    assert cnpi.check(path)[0].code == found[0].code
    assert cnpi.check(example("quicksort.cnpi")) == []
    # The conversion's warnings, as `cnpic check` gives them (W08xx).
    warned = cnpi.check(example("bubblesort_normal.cnpi"))
    shown = cnpic("check", example("bubblesort_normal.cnpi")).stderr
    assert all(d.severity == "warning" and f"[{d.code}]" in shown for d in warned)


def test_a_missing_file_raises_compile_error():
    with pytest.raises(cnpi.CompileError) as raised:
        cnpi.load("/no/such/file.cnpi")
    assert raised.value.code == "E0901"


@pytest.mark.parametrize(
    "value,code,member",
    [
        ([3, 1.5], "E0603", "element 1"),
        ([1, 2**70], "E0604", "element 1"),
        ([True], "E0603", "element 0"),
        ({"A": [1]}, "E0602", None),
    ],
)
def test_a_bad_input_raises_run_error_with_the_member_named(value, code, member):
    program = cnpi.load(example("quicksort.cnpi"))
    with pytest.raises(cnpi.RunError) as raised:
        program.run(value)
    assert raised.value.code == code
    if member:
        assert member in raised.value.message
    assert raised.value.line is None


def test_a_ragged_matrix_raises_run_error_with_the_member_named():
    program = cnpi.load(example("clrs/floyd_warshall.cnpi"))
    with pytest.raises(cnpi.RunError) as raised:
        program.run({"A": [[0, 1], [1]]})
    assert "A" in raised.value.message
    cli = cnpic("run", example("clrs/floyd_warshall.cnpi"), "--input", '{"A": [[0, 1], [1]]}', check=False)
    assert f"[{raised.value.code}]" in cli.stderr


@pytest.mark.parametrize(
    "value,where",
    [
        ([1, b"2"], "input[1]"),
        ({"k": {1, 2}}, 'input["k"]'),
        ([float("nan")], "input[0]"),
        ({1: 2}, "input"),
        ([object()], "input[0]"),
    ],
)
def test_a_python_value_json_cannot_hold_raises_type_error(value, where):
    program = cnpi.load(example("quicksort.cnpi"))
    with pytest.raises(TypeError, match=where.replace("[", r"\[")):
        program.run(value)


def test_a_failing_run_raises_run_error_at_the_users_line():
    program = cnpi.load(example("ram/fibonacci.cnpi"))
    with pytest.raises(cnpi.RunError) as raised:
        program.run({"k": -5})
    cli = cnpic("run", example("ram/fibonacci.cnpi"), "--input", '{"k": -5}', check=False)
    assert f"[{raised.value.code}]" in cli.stderr


def test_unknown_options_raise_value_error():
    program = cnpi.load(example("quicksort.cnpi"))
    with pytest.raises(ValueError):
        program.run([1], engine="quantum")
    with pytest.raises(ValueError):
        program.run_many([[1]], errors="ignore")


def test_a_panic_inside_the_extension_is_an_exception():
    with pytest.raises(cnpi.InternalError, match="panicked"):
        cnpi._panic_for_tests()
    # The interpreter goes on, and so does cnpi.
    assert cnpi.compile("env array()\n\ndef MAIN: NOP\n").run([1])["A"] == [1]


def test_a_panic_does_not_end_the_process():
    script = (
        "import cnpi\n"
        "try:\n    cnpi._panic_for_tests()\nexcept cnpi.CnpiError as e:\n    print('caught', type(e).__name__)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout) == (0, "caught InternalError\n")
