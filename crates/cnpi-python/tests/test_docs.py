"""The documentation's Python sessions are tests: every ```pycon block of
docs/python.md and of README.md runs with doctest, from the repository
root, in order (one namespace per file), and must print what it shows."""

import doctest
import os
import re

import pytest

from conftest import ROOT

BLOCK = re.compile(r"^```pycon\n(.*?)^```", re.M | re.S)


@pytest.mark.parametrize("name", ["docs/python.md", "README.md"])
def test_the_documented_sessions_print_what_the_docs_say(name, monkeypatch):
    with open(os.path.join(ROOT, name)) as f:
        blocks = BLOCK.findall(f.read())
    assert blocks, f"{name} has no pycon block"
    monkeypatch.chdir(ROOT)
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    globs = {}
    for i, block in enumerate(blocks):
        test = parser.get_doctest(block, globs, f"{name} block {i + 1}", name, 0)
        runner.run(test, clear_globs=False)
        globs = test.globs  # the next block goes on from here
    failed, attempted = runner.summarize(verbose=False)
    assert attempted > 0 and failed == 0, f"{failed} of {attempted} examples of {name} failed (above)"
