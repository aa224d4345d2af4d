"""What the tests share: the repository, the `cnpic` binary whose answers
the package must give (target/release/cnpic, or $CNPIC), and running it."""

import json
import os
import signal
import subprocess

import pytest

# The Ctrl-C tests send SIGINT to this process and expect KeyboardInterrupt.
# A process started in the background by a shell without job control
# (`cmd &` in a script, `nohup`) inherits SIGINT ignored, and Python then
# installs no handler: the signal would be dropped and the test would run
# its endless program for ever. Put Python's own handler back.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
CNPIC = os.environ.get("CNPIC", os.path.join(ROOT, "target", "release", "cnpic"))


def example(path):
    """The absolute path of a file under examples/."""
    return os.path.join(ROOT, "examples", path)


def cnpic(*args, check=True):
    """Runs `cnpic ARGS` from the repository; its completed process."""
    done = subprocess.run(
        [CNPIC, *args], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    if check and done.returncode != 0:
        raise AssertionError(f"cnpic {' '.join(args)} failed:\n{done.stderr}")
    return done


def cli_run(path, value, symbolic=False):
    """What `cnpic run PATH --input JSON --format json` prints, parsed."""
    args = ["run", path, "--input", json.dumps(value), "--format", "json"]
    if symbolic:
        args.append("--symbolic")
    return json.loads(cnpic(*args).stdout)


@pytest.fixture(scope="session", autouse=True)
def the_cli_is_built():
    if not os.access(CNPIC, os.X_OK):
        pytest.fail(f"no cnpic binary at {CNPIC}: run `cargo build --release -p cnpic` first")
