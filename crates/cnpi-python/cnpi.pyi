"""cnpi: the Combinatory Neural Programmer-Interpreter, in process.

Compile a cnpi program once, run it on the network (or on the exact
reference interpreter) on many inputs, record a run's core steps as a
trace, check and combinatorize programs, and fill a sketch's holes from
examples: what `cnpic run`, `check`, `combinatorize` and `learn` do, with
the same answers. See docs/python.md.
"""

import os
from typing import Any, Dict, Iterable, List, Literal, Mapping, Optional, Union

import numpy

__version__: str

Engine = Literal["neural", "symbolic"]
Input = Any
"""What `cnpic run --input` takes, as Python values: a list of ints for
`array`, a dict for `graph`, `addition` and `ram`; numpy integer arrays and
scalars are taken too. None is the environment's empty input."""

class CnpiError(Exception):
    """Every error cnpi raises (besides TypeError for a Python value it cannot take)."""

class CompileError(CnpiError):
    """A program that does not compile."""

    diagnostics: List[Diagnostic]
    """Every diagnostic, as `check` returns them."""
    code: Optional[str]
    """The first error's code, such as "E0101"."""

class RunError(CnpiError):
    """A run that failed, or an input that does not read."""

    code: str
    message: str
    line: Optional[int]
    """The line of the user's source the error points at, if any."""
    trace: Optional[Trace]
    """From `Program.trace`: the steps up to the error; else None."""

class InternalError(CnpiError):
    """A bug in cnpi: a panic inside the extension, caught before it reached Python."""

class Diagnostic:
    """One diagnostic of `check` or of a CompileError."""

    code: str
    severity: Literal["error", "warning"]
    message: str
    line: Optional[int]
    """1-based line of the primary label in the user's source, or None."""
    column: Optional[int]
    """1-based column (in characters) of the primary label, or None."""
    help: Optional[str]
    rendered: str
    """The diagnostic drawn as `cnpic` prints it (also `str(diagnostic)`)."""

class Program:
    """A compiled program, ready to run on many inputs."""

    @property
    def warnings(self) -> List[Diagnostic]:
        """The warnings compiling drew."""
    @property
    def env(self) -> str:
        """The environment the program runs in ("array", "graph", "ram"...)."""
    def run(
        self,
        input: Input = None,
        *,
        engine: Engine = "neural",
        max_steps: Optional[int] = None,
        max_memory: Optional[int] = None,
    ) -> Dict[str, Any]:
        """Runs the program on `input`; the dict of `cnpic run --format json`.

        Raises RunError when the input does not read or the run fails (E0708
        when its calls and stacks would hold more than `max_memory` bytes,
        2 GiB by default), TypeError for a Python value JSON has no form
        for, KeyboardInterrupt on Ctrl-C (within milliseconds).
        """
    def run_many(
        self,
        inputs: Iterable[Input],
        *,
        engine: Engine = "neural",
        jobs: Optional[int] = None,
        max_steps: Optional[int] = None,
        errors: Literal["raise", "return"] = "raise",
        max_memory: Optional[int] = None,
    ) -> List[Dict[str, Any]]:
        """Runs every input on `jobs` threads (default: every core; at most
        8 per core) outside the GIL; the results in input order. Each run
        has `max_memory` as in `run`; Ctrl-C stops them all.

        With errors="return", a failing input's place holds
        {"error": {"code": ..., "message": ...}}; else the first failing
        input raises its RunError.
        """
    def trace(
        self,
        input: Input = None,
        *,
        engine: Literal["neural", "symbolic"] = "neural",
        max_steps: Optional[int] = None,
        max_memory: Optional[int] = None,
    ) -> Trace:
        """Runs the program, recording every step: on the network every
        core step; on the reference interpreter (`engine="symbolic"`) every
        step it counts (a combinator's core step, or a statement of a normal
        program as written, whose record has no combinator, slot or
        condition). `len(trace)` is the run's steps.

        A run that fails raises its RunError, whose `.trace` holds the
        steps up to the error.
        """

class Trace:
    """A run recorded step by step (of the network, or of the reference interpreter)."""

    def __len__(self) -> int:
        """The steps recorded: the run's steps, up to 2,000,000."""
    def __getitem__(self, i: int) -> Dict[str, Any]:
        """Step `i`: "step", "applier", "combinator", "condition",
        "detector", "slot", "target", "return", "depth"."""
    @property
    def result(self) -> Optional[Dict[str, Any]]:
        """What `run` returns for the same input (None for a failed run)."""
    @property
    def steps(self) -> int:
        """The run's steps."""
    def to_arrays(self) -> Dict[str, numpy.ndarray]:
        """One numpy array per field of the records, each len(trace) long."""
    def html(self) -> str:
        """The trace page of `cnpic run --html`, one self-contained document."""
    def _repr_html_(self) -> str:
        """The trace page in a frame, for Jupyter."""

def compile(
    source: str,
    entry: Optional[str] = None,
    *,
    name: str = "<string>",
    seed: int = 2018,
) -> Program:
    """Compiles the source text `source`; raises CompileError."""

def load(
    path: Union[str, os.PathLike[str]],
    entry: Optional[str] = None,
    *,
    seed: int = 2018,
) -> Program:
    """Loads a `.cnpi` source or a `.cnpim` program memory; raises CompileError."""

def check(
    source_or_path: Union[str, os.PathLike[str]], entry: Optional[str] = None
) -> List[Diagnostic]:
    """Every diagnostic `cnpic check` reports (errors and warnings)."""

def combinatorize(
    source_or_path: Union[str, os.PathLike[str]], entry: Optional[str] = None
) -> str:
    """The program's normal programs converted to appliers; raises CompileError."""

def learn(
    sketch_source_or_path: Union[str, os.PathLike[str]],
    examples: List[Mapping[str, Any]],
    *,
    seed: int = 1,
    search: Optional[Literal["gradient", "enumerate"]] = None,
    trials: int = 100,
    episodes: int = 2000,
    threads: int = 0,
    max_steps: int = 100000,
    check_runs: int = 2000000,
) -> str:
    """Fills a sketch's holes from examples; the completed program's text.

    Raises CompileError (the sketch), RunError E1401 (the examples) or
    RunError E1403 (no fill within the budget).
    """
