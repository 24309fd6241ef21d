"""Python examples: a ``python`` block, then a paragraph beginning "prints", then a block of
what it prints. A page's examples run in order in one namespace (the Sybil document's), as
a reader running them one after the other would."""

import contextlib
import io
import re

from sybil import Region

from docexamples import matching, pages

EXAMPLE = re.compile(r"```python\n(.*?)```[ \t]*\n\s*prints[^\n]*\n+```\n(.*?)```", re.S)


def evaluate(example):
    code, output_line, expected = example.parsed
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "%s line %d" % (example.path, example.line), "exec"),
             example.namespace)
    return matching.report(output_line, expected, out.getvalue().splitlines())


def parse(document):
    """The regions of a page's Python examples."""
    for m in EXAMPLE.finditer(document.text):
        if pages.left_out(document.text, m.start()):
            continue
        output_line = pages.first_line(document.text, m.start(2))
        yield Region(m.start(), m.end(), (m.group(1), output_line, m.group(2).splitlines()),
                     evaluate)
