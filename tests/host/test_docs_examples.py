"""The manual's Python examples print what the pages say they print: every ```python block
followed by "prints" and the output, run in order on its page (a page's blocks share their
names, as a reader running them one after the other would), and every
`$ .venv/bin/python -c "..."` transcript."""

import contextlib
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
PAGES = sorted((ROOT / "docs").glob("*.md"))
EXAMPLE = re.compile(r"```python\n(.*?)```\s*\n\s*prints[^\n]*\n+```\n(.*?)```", re.S)
COMMAND = re.compile(r'```sh\n\$ \.venv/bin/python -c "\n(.*?)"\n(.*?)```', re.S)


def examples():
    found = []
    for page in PAGES:
        text = page.read_text()
        blocks = EXAMPLE.findall(text)
        if blocks:
            found.append(pytest.param("exec", blocks, id=page.name + " python"))
        for i, (code, output) in enumerate(COMMAND.findall(text)):
            found.append(pytest.param("-c", [(code, output)],
                                      id="%s -c %d" % (page.name, i + 1)))
    return found


def test_the_pages_have_examples():
    assert len(examples()) >= 3


@pytest.mark.parametrize("how,blocks", examples())
def test_every_example_prints_what_the_page_says(how, blocks):
    names: dict = {}
    for code, output in blocks:
        if how == "-c":   # a transcript of `python -c`: a process of its own
            proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                  timeout=60, env={"PYTHONPATH": str(ROOT / "firmware")})
            assert proc.returncode == 0, proc.stderr
            got = proc.stdout
        else:
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                exec(compile(code, "example", "exec"), names)
            got = out.getvalue()
        assert got.splitlines() == output.splitlines(), (code, got)
