"""The manual's examples are tests (conftest.py at the top collects them with Sybil and the
parsers of tests/support/docexamples/): every block of every page that shows output is one
of them or says why it is left out, and each kind of example fails when it stops giving
what its page says."""

from pathlib import Path

import pytest
from docexamples import matching, pages, protocol, pyprints, rulestables, shell
from docexamples.sybils import CPYTHON, MICROPYTHON
from sybil import Document

# blocks that show no output: commands to type (```sh, without a $ prompt), a file (```json)
NO_OUTPUT = ("sh", "json")


def page_id(path):
    return str(Path(path).relative_to(pages.ROOT))


def unaccounted(document):
    """The blocks of a page that are no example and not left out on purpose."""
    covered = [(r.start, r.end) for _, r in document.regions]
    found = []
    for lexed in pages.fenced_blocks(document):
        if any(start <= lexed.start and lexed.end <= end for start, end in covered):
            continue
        if pages.left_out(document.text, lexed.start):
            continue
        source = lexed.lexemes["source"]
        if lexed.lexemes["info"].strip() in NO_OUTPUT and "\n$ " not in "\n" + source:
            continue
        found.append("%s line %d: %s" % (page_id(document.path),
                                         pages.first_line(document.text, lexed.start),
                                         source.split("\n")[0]))
    return found


@pytest.mark.parametrize("page", pages.PAGES, ids=page_id)
def test_every_block_is_an_example_or_left_out_on_purpose(page):
    assert unaccounted(CPYTHON.parse(page)) == []


def test_every_kind_of_example_is_in_the_pages():
    kinds = {}
    for page in pages.PAGES:
        for _, region in CPYTHON.parse(page).regions:
            evaluator = region.evaluator
            kinds[evaluator.__module__ + "." + evaluator.__qualname__] = 1
    assert len(kinds) == 5, kinds
    replayed = [r for page in pages.PAGES for _, r in MICROPYTHON.parse(page).regions]
    assert len(replayed) >= 80


def examples_of(text, parser, namespace=None):
    document = Document(text, "page.md")
    for region in parser(document):
        document.add(region)
    document.namespace.update(namespace or {})
    return list(document.examples())


def failures(text, parser, namespace=None):
    return [e.region.evaluator(e) for e in examples_of(text, parser, namespace)]


def test_a_python_example_that_prints_otherwise_fails():
    page = "```python\nx = 6\nprint(x * 7)\n```\n\nprints\n\n```\n%s\n```\n"
    assert failures(page % "42", pyprints.parse) == [None]
    assert "'41'" in failures(page % "41", pyprints.parse)[0]


def test_a_shell_session_that_prints_otherwise_fails(tmp_path):
    page = "```\n$ echo one; echo two >&2\none\ntwo\n$ cd /tmp/demo && echo \"a\nb\" > f && ls\n%s\n```\n"
    assert failures(page % "f", shell.parse, {"scratch": tmp_path}) == [None]
    failure = failures(page % "g", shell.parse, {"scratch": tmp_path})[0]
    assert "line 7: the page says 'g', the example gave 'f'" in failure, failure


def test_a_shell_session_that_writes_into_the_checkout_fails(tmp_path):
    name = "docexample-stray-%s" % tmp_path.name
    page = "```\n$ touch %s\n```\n" % name
    try:
        assert "left %s in the checkout" % name in failures(page, shell.parse,
                                                             {"scratch": tmp_path})[0]
    finally:
        (pages.ROOT / name).unlink(missing_ok=True)


def test_a_left_out_block_is_not_run():
    page = "<!-- not run: the answer varies -->\n```\n$ date\nMonday\n```\n"
    assert examples_of(page, shell.parse) == []
    assert pages.left_out(page, page.index("```")) == "the answer varies"


def test_the_ellipsis_stands_for_what_varies():
    assert matching.lines_match(["a ... b", "...", "z"], ["a 1 2 b", "x", "y", "z"])
    assert matching.lines_match(["...", "z"], ["z"])
    assert not matching.lines_match(["a ... b", "z"], ["a 1 2 c", "z"])
    assert not matching.lines_match(["a", "z"], ["a", "y", "z"])


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
def test_a_protocol_session_that_answers_otherwise_fails(runtime):
    page = "<!-- checked: --seats 4 -->\n```text\n%s> ping\nok pong\n```\n"
    start = "* info no saved state: clean start\n"
    assert failures(page % start, protocol.Parser(runtime)) == [None]
    assert "line 4: the page says 'ok pong'" in failures(page % "", protocol.Parser(runtime))[0]


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
def test_a_rules_example_that_the_rules_answer_otherwise_fails(runtime):
    page = ("- S1. text\n\n```table\ndead, 3 seats, 10/20\nsit 1 2 3\ndeal 1\n"
            "  hand 1: button 1, SB 2, BB 3; dealt 2 3 1; posts 2: 10, 3: 20\nseat 3\n"
            "  seat 3: active, owes %s\n```\n")
    assert failures(page % "nothing", rulestables.Parser(runtime)) == [None]
    failure = failures(page % "20", rulestables.Parser(runtime))[0]
    assert "line 9: the page says '  seat 3: active, owes 20'" in failure, failure
