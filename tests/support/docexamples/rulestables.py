"""The worked examples of RULES.md: ``table`` blocks, in the language that
``rules_document.py`` reads (its docstring). Each is replayed by ``rules_document.run``,
which recomputes every indented answer line; the example is right when that gives its
lines back. On CPython it runs in the test's process; on MicroPython the page's examples
run in one ``micropython`` process, the first time one of them is evaluated."""

import json
import re
import tempfile

import rules_document
from micropython_unix import run_micropython
from sybil import Region

from docexamples import pages

REPLAY = """
import json, sys, rules_document
f = open(sys.argv[1])
examples = json.loads(f.read())
f.close()
out = []
for lines in examples:
    try:
        out.append(rules_document.run(lines))
    except Exception as e:
        out.append(["replay failed: %s %s" % (type(e).__name__, e)])
print(json.dumps(out))
"""


RULE_ID = re.compile(r"^\s*- ([A-Z]{1,3}\d+[a-z]?)\.", re.M)


def worked_examples(path):
    """[(rule id, line of its first line, lines)] of every ``table`` block of a page, the rule
    id being the last one named before it (a bullet like ``- M2.``), None before any."""
    from sybil import Document

    document = Document(path.read_text(), str(path))
    found = []
    for region in Parser("cpython")(document):
        ids = RULE_ID.findall(document.text, 0, region.start)
        first, lines = region.parsed
        found.append((ids[-1] if ids else None, first, lines))
    return found


def difference(first, lines, got):
    """None when the replay gives the example's lines, else the first line that differs."""
    if got == lines:
        return None
    for i in range(max(len(got), len(lines))):
        want = lines[i] if i < len(lines) else "(nothing)"
        have = got[i] if i < len(got) else "(nothing)"
        if want != have:
            return "line %d: the page says %r, the rules give %r" % (first + i, want, have)
    return None


class Parser:
    """The ``table`` blocks of a page, replayed on one runtime."""

    def __init__(self, runtime):
        self.runtime = runtime
        self.replayed = {}   # per document: the replays of its examples, by position

    def replay_on_micropython(self, document):
        regions = [r for _, r in document.regions if r.evaluator == self.evaluate]
        with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
            f.write(json.dumps([r.parsed[1] for r in regions]))
            f.flush()
            proc = run_micropython(REPLAY, args=[f.name], timeout=300)
        return {r.start: got for r, got in zip(regions, json.loads(proc.stdout), strict=True)}

    def evaluate(self, example):
        first, lines = example.parsed
        if self.runtime == "cpython":
            got = rules_document.run(lines)
        else:
            if example.document.path not in self.replayed:
                self.replayed[example.document.path] = self.replay_on_micropython(
                    example.document)
            got = self.replayed[example.document.path][example.region.start]
        return difference(first, lines, got)

    def __call__(self, document):
        for lexed in pages.fenced_blocks(document):
            if lexed.lexemes["info"].strip() != "table":
                continue
            first = pages.first_line(document.text, lexed.start) + 1
            lines = lexed.lexemes["source"].split("\n")
            if lines and lines[-1] == "":
                lines.pop()
            yield Region(lexed.start, lexed.end, (first, lines), self.evaluate)
